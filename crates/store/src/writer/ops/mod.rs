//! The write requests, one file per area, each request a type with its answer and its
//! handler (see [`Write`](super::request::Write)): run inside the writer's transaction through
//! the engine's [`Statements`], the same requests, rules and reports on every engine.

pub(crate) mod accounts;
pub(crate) mod content;
pub(crate) mod docs;
pub(crate) mod embeds;
pub(crate) mod folders;
pub(crate) mod history;
pub(crate) mod objects;

use super::request::Applied;
use crate::batch::{Batch, report};
use crate::change::DocChange;
use crate::error::StoreResult;
use crate::history::record::{self, Entry};
use crate::history::{Change, Head};
use crate::writer::statements::Statements;
use diagtui_model::history::{VersionKind, VersionNotes};

/// Uploads of more objects than this count as bulky: after them the writer gives memory back.
const BULKY_OBJECTS: usize = 1000;

/// A request's version of a document, as it is recorded: by whom, of what kind, its notes.
struct Made<'a> {
    /// The account acting.
    account: &'a str,
    /// The kind of change.
    kind: VersionKind,
    /// What the version notes besides.
    notes: VersionNotes,
}

impl<'a> Made<'a> {
    /// A version of this kind by the account, with nothing more to note.
    fn plain(account: &'a str, kind: VersionKind) -> Made<'a> {
        Made {
            account,
            kind,
            notes: VersionNotes::default(),
        }
    }

    /// The version as the history records it, made at `at`.
    fn at<'b>(self, at: &'b str) -> Entry<'b>
    where
        'a: 'b,
    {
        Entry {
            at,
            account: self.account,
            kind: self.kind,
            notes: self.notes,
        }
    }
}

/// Records a request's version of a document (its history opened at `head`), at the batch's
/// time, and keeps it for the batch's commit; returns the version.
async fn record_version(
    s: &impl Statements,
    batch: &mut Batch<'_>,
    doc_id: &str,
    head: Head,
    made: Made<'_>,
    changes: Vec<Change>,
) -> StoreResult<u64> {
    let recorded = record::record(s, doc_id, head, made.at(&batch.now), changes).await?;
    Ok(batch.histories.keep_version(recorded))
}

/// The document's version now (its history's head, as the batch advanced it; 0 before its
/// history began).
async fn document_version(
    s: &impl Statements,
    batch: &Batch<'_>,
    doc_id: &str,
) -> StoreResult<u64> {
    Ok(record::head_now(s, &batch.histories, doc_id)
        .await?
        .map_or(0, |head| head.head))
}

/// Checks that the account may see the document, once per batch.
async fn check_visible(
    batch: &mut Batch<'_>,
    s: &impl Statements,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<()> {
    if !batch.known_visible(account_id, doc_id) {
        s.visible_doc(account_id, doc_id).await?;
        batch.found_visible(account_id, doc_id);
    }
    Ok(())
}

/// Records the version of a change to a document that changed none of its objects (its title,
/// its folder); answers the version, with the change at it.
async fn no_object_changed(
    s: &impl Statements,
    batch: &mut Batch<'_>,
    made: Made<'_>,
    change: DocChange,
) -> Applied<u64> {
    let doc_id = change.doc_id.clone();
    let head = record::open(s, &mut batch.histories, &batch.now, &doc_id, 0).await?;
    let version = record_version(s, batch, &doc_id, head, made, Vec::new()).await?;
    Ok((version, report(change.at(version))))
}
