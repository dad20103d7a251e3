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

use super::Statements;
use crate::batch::Batch;
use crate::error::StoreResult;
use crate::history::record::{self, Entry};
use diagtui_model::history::{VersionKind, VersionNotes};

/// Uploads of more objects than this count as bulky: after them the writer gives memory back.
const BULKY_OBJECTS: usize = 1000;

/// A version of the batch's time by the account.
fn entry<'a>(
    batch: &'a Batch<'_>,
    account: &'a str,
    kind: VersionKind,
    notes: VersionNotes,
) -> Entry<'a> {
    Entry {
        at: &batch.now,
        account,
        kind,
        notes,
    }
}

/// The document's version now (its history's head, as the batch advanced it; 0 before its
/// history began).
async fn document_version(
    s: &impl Statements,
    batch: &Batch<'_>,
    doc_id: &str,
) -> StoreResult<u64> {
    Ok(record::head_now(s, batch, doc_id)
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
