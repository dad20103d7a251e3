//! What the write requests committed together in one transaction share, on either engine: the
//! batch's time, and what earlier requests of the batch found or changed.

use std::collections::{HashMap, HashSet};

use super::change::{Committed, DocChange, DocEvent};
use super::history::{Head, Recorded};
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
    /// The versions its requests recorded, written at its commit.
    versions: Vec<Recorded>,
    /// Where the histories its requests advanced stand, written at its commit.
    heads: HashMap<String, Head>,
    /// Each head as it was before a request changed it (absent: not in `heads`), oldest first:
    /// what a failed request puts back.
    head_log: Vec<(String, Option<Head>)>,
}

/// Where a request's own changes to the batch's histories begin (see [`Batch::forget_from`]).
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    /// How many versions were kept.
    versions: usize,
    /// How long the heads' log was.
    heads: usize,
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
            versions: Vec::new(),
            heads: HashMap::new(),
            head_log: Vec::new(),
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

    /// Keeps a version a request recorded until the commit; returns its number. A snapshot
    /// taken at it starts the document's count of changes since one again.
    pub(crate) fn keep_version(&mut self, recorded: Recorded) -> u64 {
        let version = recorded.row.version;
        if let Some(snapshot_len) = recorded.snapshot_len {
            let head = Head {
                head: version,
                pending: 0,
                snapshot_len,
                num: recorded.num,
            };
            self.set_head(&recorded.doc, head);
        }
        self.versions.push(recorded);
        version
    }

    /// Where the document's history stands, if a request of the batch advanced it.
    pub(crate) fn head(&self, doc_id: &str) -> Option<Head> {
        self.heads.get(doc_id).copied()
    }

    /// Sets where the document's history stands, until the commit writes it.
    pub(crate) fn set_head(&mut self, doc_id: &str, head: Head) {
        let before = self.heads.insert(doc_id.to_owned(), head);
        self.head_log.push((doc_id.to_owned(), before));
    }

    /// Where the next request's changes to the histories begin.
    pub fn mark(&self) -> Mark {
        Mark {
            versions: self.versions.len(),
            heads: self.head_log.len(),
        }
    }

    /// Forgets what a request that failed did to the histories since `mark`: its versions, and
    /// its heads' advances.
    pub fn forget_from(&mut self, mark: Mark) {
        self.versions.truncate(mark.versions);
        while self.head_log.len() > mark.heads {
            let Some((doc_id, before)) = self.head_log.pop() else {
                break;
            };
            match before {
                Some(head) => self.heads.insert(doc_id, head),
                None => self.heads.remove(&doc_id),
            };
        }
    }

    /// The versions and heads to write at the commit: those of documents still there (a
    /// document deleted later in the batch took its history with it).
    pub(crate) fn take_histories(
        &mut self,
        deleted: &HashSet<&str>,
    ) -> (Vec<Recorded>, Vec<(String, Head)>) {
        let mut versions = std::mem::take(&mut self.versions);
        versions.retain(|recorded| !deleted.contains(recorded.doc.as_str()));
        let heads = std::mem::take(&mut self.heads)
            .into_iter()
            .filter(|(doc_id, _)| !deleted.contains(doc_id.as_str()))
            .collect();
        (versions, heads)
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
