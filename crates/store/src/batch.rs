//! What the write requests committed together in one transaction share, on either engine: the
//! batch's time, and what earlier requests of the batch found or changed (the histories they
//! advanced among it).

use std::collections::HashSet;

use super::change::{Committed, DocChange, DocEvent};
use super::history::Histories;
use super::observer::CommitObserver;

/// What the requests of a batch share.
pub struct Batch<'a> {
    /// The time of the batch: the `lastChange` of every document it changes.
    pub now: String,
    /// Whether another process committed since this one last wrote: plans made from cached
    /// documents are then stale.
    pub elsewhere: bool,
    /// The documents that requests earlier in the batch changed.
    touched: HashSet<String>,
    /// `(account, document)` pairs found visible by requests earlier in the batch.
    visible: HashSet<(String, String)>,
    /// Who keeps the cached documents that plans are made from.
    observer: Option<&'a dyn CommitObserver>,
    /// The versions its requests recorded and where the histories they advanced stand,
    /// written at its commit.
    pub histories: Histories,
}

impl<'a> Batch<'a> {
    /// A batch at `now`; `elsewhere` when another process committed since this one last did.
    pub fn new(now: String, elsewhere: bool, observer: Option<&'a dyn CommitObserver>) -> Self {
        Batch {
            now,
            elsewhere,
            touched: HashSet::new(),
            visible: HashSet::new(),
            observer,
            histories: Histories::default(),
        }
    }

    /// Whether a plan made from version `version` of a cached document still holds.
    pub fn plan_holds(&self, doc_id: &str, version: u64) -> bool {
        !self.elsewhere
            && !self.touched.contains(doc_id)
            && self
                .observer
                .and_then(|observer| observer.doc_version(doc_id))
                == Some(version)
    }

    /// Whether an earlier request of the batch found the document visible to the account.
    pub fn known_visible(&self, account_id: &str, doc_id: &str) -> bool {
        self.visible
            .contains(&(account_id.to_owned(), doc_id.to_owned()))
    }

    /// Remembers that the document is visible to the account.
    pub fn found_visible(&mut self, account_id: &str, doc_id: &str) {
        self.visible
            .insert((account_id.to_owned(), doc_id.to_owned()));
    }

    /// Takes in what a request changed: later requests see its documents as changed, and
    /// deleted documents as no longer visible.
    pub fn record(&mut self, report: &Committed) {
        for change in &report.docs {
            if change.event == Some(DocEvent::Deleted) {
                self.visible.retain(|(_, doc)| *doc != change.doc_id);
            }
            self.touched.insert(change.doc_id.clone());
        }
    }

    /// A change to a document's objects, at the batch's time.
    pub fn objects_changed(&self, doc_id: &str) -> DocChange {
        DocChange::objects(doc_id, self.now.clone())
    }
}

/// The documents whose `lastChange` the batch's committed requests set, each once.
pub fn docs_to_touch<'r>(reports: &[&'r Committed]) -> Vec<&'r str> {
    let mut done = HashSet::new();
    reports
        .iter()
        .flat_map(|report| &report.docs)
        .filter(|change| change.last_change.is_some() && done.insert(change.doc_id.as_str()))
        .map(|change| change.doc_id.as_str())
        .collect()
}

/// The documents the batch's committed requests deleted.
pub fn docs_deleted<'r>(reports: &[&'r Committed]) -> HashSet<&'r str> {
    reports
        .iter()
        .flat_map(|report| &report.docs)
        .filter(|change| change.event == Some(DocEvent::Deleted))
        .map(|change| change.doc_id.as_str())
        .collect()
}

/// A report of changes to one document.
pub fn report(change: DocChange) -> Committed {
    Committed::of_docs(vec![change])
}
