//! Recording versions, inside the writer's transaction (see [`writer`](crate::writer)): the
//! write path opens a document's history before it changes the document (starting it when it
//! has none) and advances it in the batch; after the write it records the version with the
//! objects' states after it, which the batch writes at its commit with the heads.

use std::sync::Arc;

use futures_util::future::try_join_all;
use tokio::try_join;

use super::{
    Change, Head, Histories, HistoryWrites, KEY_SPAN, MAX_HISTORIES, Objects, Recorded,
    SNAPSHOT_EVERY, VersionRow,
};
use crate::error::{StoreError, StoreResult};
use crate::object::StoredObject;
use diagtui_model::history::{VersionKind, VersionNotes};

/// A version about to be recorded.
pub(crate) struct Entry<'a> {
    /// The batch's time.
    pub at: &'a str,
    /// The account writing.
    pub account: &'a str,
    /// What kind of write.
    pub kind: VersionKind,
    /// What it says beyond its kind (stored as JSON text).
    pub notes: VersionNotes,
}

impl Entry<'_> {
    /// The row of this entry as version `version`.
    fn row(&self, version: u64, changed: usize) -> StoreResult<VersionRow> {
        let detail = if self.notes == VersionNotes::default() {
            None
        } else {
            Some(serde_json::to_string(&self.notes)?)
        };
        Ok(VersionRow {
            version,
            at: self.at.to_owned(),
            account: Some(self.account.to_owned()),
            kind: self.kind.as_str().to_owned(),
            changed: changed as u64,
            detail,
        })
    }
}

/// Opens the document's history for a write that changes `changed` objects, before the write:
/// advances it to the write's version, starting it first (a `started` version holding the
/// content as it is) when it has none; returns where it then stands. The head advances in the
/// batch's `histories` (see [`Histories::set_head`]), which its commit writes; `now` is the
/// batch's time.
pub(crate) async fn open(
    s: &impl HistoryWrites,
    histories: &mut Histories,
    now: &str,
    doc: &str,
    changed: usize,
) -> StoreResult<Head> {
    let head = match head_now(s, histories, doc).await? {
        Some(head) => head,
        None => {
            let row = VersionRow {
                version: 1,
                at: now.to_owned(),
                account: None,
                kind: VersionKind::Started.as_str().to_owned(),
                changed: 0,
                detail: None,
            };
            begin(s, doc, row).await?
        }
    };
    let next = Head {
        head: head.head + 1,
        pending: head.pending + changed as u64,
        ..head
    };
    if next.head >= KEY_SPAN {
        return Err(StoreError::Internal(format!(
            "the history of document {doc} is full: {} versions",
            head.head
        )));
    }
    histories.set_head(doc, next);
    Ok(next)
}

/// Where the document's history stands now: as the batch advanced it, else as stored.
pub(crate) async fn head_now(
    s: &impl HistoryWrites,
    histories: &Histories,
    doc: &str,
) -> StoreResult<Option<Head>> {
    match histories.head(doc) {
        Some(head) => Ok(Some(head)),
        None => s.head(doc).await,
    }
}

/// Starts a new document's history (created or cloned): version 1 holds its content now.
pub(crate) async fn start(s: &impl HistoryWrites, doc: &str, entry: Entry<'_>) -> StoreResult<()> {
    let len = s.current(doc, None).await?.len();
    begin(s, doc, entry.row(1, len)?).await.map(drop)
}

/// Version 1 of a history, with a snapshot of the content now.
async fn begin(s: &impl HistoryWrites, doc: &str, row: VersionRow) -> StoreResult<Head> {
    let num = free_num(s).await?;
    let snapshot_len = s.take_snapshot(doc, 1).await?;
    s.insert_version(num, &row, true, None).await?;
    let head = Head {
        head: 1,
        pending: 0,
        snapshot_len,
        num,
    };
    s.put_head(doc, &head).await?;
    Ok(head)
}

/// The number a new history takes: one above the highest, else the lowest no history has.
async fn free_num(s: &impl HistoryWrites) -> StoreResult<u64> {
    let mut num = s.next_num().await?;
    if num > MAX_HISTORIES {
        num = s.lowest_free_num().await?;
    }
    match num <= MAX_HISTORIES {
        true => Ok(num),
        false => Err(StoreError::Internal(format!(
            "no history number is free: {MAX_HISTORIES} documents have a history"
        ))),
    }
}

/// Records the version `head` was opened at (see [`open`]), after the write: takes a snapshot
/// of the content when the changes since the last one reach the document's size, and answers
/// the version's row and changes, which the batch writes at its commit.
pub(crate) async fn record(
    s: &impl HistoryWrites,
    doc: &str,
    head: Head,
    entry: Entry<'_>,
    changes: Vec<Change>,
) -> StoreResult<Recorded> {
    let version = head.head;
    let snapshot_len = match head.pending >= head.snapshot_len.max(SNAPSHOT_EVERY) {
        true => Some(s.take_snapshot(doc, version).await?),
        false => None,
    };
    Ok(Recorded {
        doc: doc.to_owned(),
        num: head.num,
        row: entry.row(version, changes.len())?,
        snapshot_len,
        changes,
    })
}

/// Writes what a batch's committed requests recorded, just before its commit: the versions'
/// rows and changes, and where each history then stands. Each request's savepoint thus carries
/// none of the history's rows, and the batch writes them in one go (pipelined on PostgreSQL).
/// Nothing in the batch reads those rows before (the heads it reads from itself). A version
/// that changed one object keeps it in its own row: one row for most writes.
pub(crate) async fn write(
    s: &impl HistoryWrites,
    versions: &[Recorded],
    heads: &[(String, Head)],
) -> StoreResult<()> {
    let versions = try_join_all(versions.iter().map(|recorded| async move {
        let Recorded {
            doc,
            num,
            row,
            snapshot_len,
            changes,
        } = recorded;
        let snapshot = snapshot_len.is_some();
        match changes.as_slice() {
            [only] => s.insert_version(*num, row, snapshot, Some(only)).await,
            several => try_join!(
                s.insert_changes(doc, row.version, several),
                s.insert_version(*num, row, snapshot, None),
            )
            .map(drop),
        }
    }));
    let heads = try_join_all(heads.iter().map(|(doc, head)| s.put_head(doc, head)));
    try_join!(versions, heads).map(drop)
}

/// Whether two states of an object are the same.
fn same(a: &StoredObject, b: &StoredObject) -> bool {
    a.kind() == b.kind() && a.data() == b.data()
}

/// How many of the planned objects' states differ from their states before (the length of
/// [`updated`], counted before the objects take the write's version).
pub(crate) fn updated_count(
    before: &[Arc<StoredObject>],
    after: &[(String, Arc<StoredObject>)],
) -> usize {
    after
        .iter()
        .zip(before)
        .filter(|((_, new), old)| !same(old, new))
        .count()
}

/// The changes of planned objects given their states before, in the plan's order: those whose
/// state differs.
pub(crate) fn updated(
    before: &[Arc<StoredObject>],
    after: &[(String, Arc<StoredObject>)],
) -> Vec<Change> {
    after
        .iter()
        .zip(before)
        .filter(|((_, new), old)| !same(old, new))
        .map(|((id, new), _)| Change {
            obj_id: id.clone(),
            after: Some(Arc::clone(new)),
        })
        .collect()
}

/// The changes of a whole content replaced: the objects that differ, in id order.
pub(crate) fn replaced(mut before: Objects, after: Objects) -> Vec<Change> {
    let mut changes = Vec::new();
    for (id, new) in after {
        match before.remove(&id) {
            Some(old) if same(&old, &new) => {}
            _ => changes.push(Change {
                obj_id: id,
                after: Some(new),
            }),
        }
    }
    changes.extend(before.into_keys().map(|id| Change {
        obj_id: id,
        after: None,
    }));
    changes.sort_by(|a, b| a.obj_id.cmp(&b.obj_id));
    changes
}
