//! What a batch keeps of the histories its requests advance, until its commit writes it: the
//! versions they recorded and where each history stands, undone for a request that fails.

use std::collections::{HashMap, HashSet};

use super::{Head, Recorded};

/// The versions a batch's requests recorded and where the histories they advanced stand.
#[derive(Default)]
pub(crate) struct Histories {
    /// The versions its requests recorded, written at its commit.
    versions: Vec<Recorded>,
    /// Where the histories its requests advanced stand, written at its commit.
    heads: HashMap<String, Head>,
    /// Each head as it was before a request changed it (absent: not in `heads`), oldest first:
    /// what a failed request puts back.
    head_log: Vec<(String, Option<Head>)>,
}

/// Where a request's own changes to the batch's histories begin (see
/// [`Histories::forget_from`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    /// How many versions were kept.
    versions: usize,
    /// How long the heads' log was.
    heads: usize,
}

impl Histories {
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
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            versions: self.versions.len(),
            heads: self.head_log.len(),
        }
    }

    /// Forgets what a request that failed did to the histories since `mark`: its versions, and
    /// its heads' advances.
    pub(crate) fn forget_from(&mut self, mark: Mark) {
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
    pub(crate) fn take(&mut self, deleted: &HashSet<&str>) -> (Vec<Recorded>, Vec<(String, Head)>) {
        let mut versions = std::mem::take(&mut self.versions);
        versions.retain(|recorded| !deleted.contains(recorded.doc.as_str()));
        let heads = std::mem::take(&mut self.heads)
            .into_iter()
            .filter(|(doc_id, _)| !deleted.contains(doc_id.as_str()))
            .collect();
        (versions, heads)
    }
}
