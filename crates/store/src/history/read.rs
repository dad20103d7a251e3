//! Answering the history routes from an engine's [`HistoryReads`]: pages of versions, one
//! version with its changed objects, and the content at a version (its nearest snapshot at or
//! before it, with the changes after the snapshot applied in order). A version's objects as
//! they were before it are the content one version back: the history stores each change's
//! state after only, half the bytes per write.

use std::sync::Arc;

use super::{Change, HistoryReads, Objects, VersionRow};

/// The most changed objects whose states before a version are looked up one by one.
const LOOKED_UP: usize = 64;
use crate::object::StoredObject;
use crate::{StoreError, StoreResult};
use diagtui_model::DiagramObject;
use diagtui_model::history::{
    HistoryPage, ObjectChange, Version, VersionDetails, VersionKind, VersionNotes,
};

/// What is asked of a document's history.
#[derive(Debug, Clone)]
pub enum HistoryQuery {
    /// A page of versions, newest first.
    Page {
        /// Only versions older than this; the newest when `None`.
        before: Option<u64>,
        /// At most this many.
        limit: usize,
        /// Only the versions that changed this object.
        object: Option<String>,
    },
    /// One version with its changed objects.
    Version(u64),
    /// The content as it was at a version.
    Content(u64),
}

/// What the history answers.
#[derive(Debug)]
pub enum HistoryAnswer {
    /// A page of versions.
    Page(HistoryPage),
    /// One version.
    Version(VersionDetails),
    /// The content at the version asked, and the newest version.
    Content(Objects, u64),
}

/// Answers a query about a document's history, read through `r`.
pub(crate) async fn answer(
    r: &impl HistoryReads,
    doc: &str,
    query: HistoryQuery,
) -> StoreResult<HistoryAnswer> {
    let head = r.head(doc).await?.map_or(0, |head| head.head);
    let oldest = if head == 0 { 0 } else { r.oldest(doc).await? };
    Ok(match query {
        HistoryQuery::Page {
            before,
            limit,
            object,
        } => {
            let before = before.unwrap_or(head + 1);
            let rows = r.versions(doc, before, limit, object.as_deref()).await?;
            let versions = rows
                .into_iter()
                .map(version)
                .collect::<StoreResult<Vec<_>>>()?;
            let next_before = match versions.last() {
                Some(last) if versions.len() == limit && last.version > oldest => {
                    Some(last.version)
                }
                _ => None,
            };
            HistoryAnswer::Page(HistoryPage {
                versions,
                head,
                oldest,
                next_before,
            })
        }
        HistoryQuery::Version(at) => {
            kept(at, head, oldest)?;
            let row = r.versions(doc, at + 1, 1, None).await?.pop();
            let row = row.ok_or(StoreError::VersionNotFound(at))?;
            let changes = r.changes(doc, at).await?;
            let mut before = states_before(r, doc, at, oldest, &changes).await?;
            let objects = changes
                .into_iter()
                .map(|change| {
                    let show = |side: Option<Arc<StoredObject>>| {
                        side.as_deref().map(diagram_object).transpose()
                    };
                    Ok(ObjectChange {
                        before: show(before.remove(&change.obj_id))?,
                        after: show(change.after)?,
                        obj_id: change.obj_id,
                    })
                })
                .collect::<StoreResult<Vec<_>>>()?;
            HistoryAnswer::Version(VersionDetails {
                version: version(row)?,
                objects,
            })
        }
        HistoryQuery::Content(at) => {
            kept(at, head, oldest)?;
            HistoryAnswer::Content(content(r, doc, at).await?, head)
        }
    })
}

/// The objects a version changed, as they were before it: looked up one by one when few (the
/// newest earlier version that changed each, else the oldest kept snapshot), else read from
/// the content one version back. The oldest kept version's are kept one version back (see
/// [`compact`](super::compact); none before version 1).
pub(crate) async fn states_before(
    r: &impl HistoryReads,
    doc: &str,
    at: u64,
    oldest: u64,
    changes: &[Change],
) -> StoreResult<Objects> {
    if at <= oldest {
        return r.snapshot(doc, at - 1).await;
    }
    if changes.len() > LOOKED_UP {
        let mut content = content(r, doc, at - 1).await?;
        return Ok(changes
            .iter()
            .filter_map(|change| Some((change.obj_id.clone(), content.remove(&change.obj_id)?)))
            .collect());
    }
    let mut before = Objects::new();
    for change in changes {
        let state = match r.last_change(doc, &change.obj_id, at).await? {
            Some(state) => state,
            None => r.snapshot_object(doc, oldest, &change.obj_id).await?,
        };
        if let Some(state) = state {
            before.insert(change.obj_id.clone(), state);
        }
    }
    Ok(before)
}

/// The content at a kept version: its nearest snapshot, with the changes after it applied.
pub(crate) async fn content(r: &impl HistoryReads, doc: &str, at: u64) -> StoreResult<Objects> {
    let snapshot = r.last_snapshot(doc, at).await?.ok_or_else(|| {
        StoreError::Internal(format!("document {doc} has no snapshot before {at}"))
    })?;
    let mut objects = r.snapshot(doc, snapshot).await?;
    for change in r.changes_between(doc, snapshot, at).await? {
        match change.after {
            Some(object) => objects.insert(change.obj_id, object),
            None => objects.remove(&change.obj_id),
        };
    }
    Ok(objects)
}

/// Fails unless the history keeps version `at`.
fn kept(at: u64, head: u64, oldest: u64) -> StoreResult<()> {
    if at == 0 || at > head {
        Err(StoreError::VersionNotFound(at))
    } else if at < oldest {
        Err(StoreError::VersionPruned(at, oldest))
    } else {
        Ok(())
    }
}

/// A stored version as the API shows it.
fn version(row: VersionRow) -> StoreResult<Version> {
    let kind = VersionKind::parse(&row.kind)
        .ok_or_else(|| StoreError::Internal(format!("unknown version kind {}", row.kind)))?;
    let notes = match &row.detail {
        Some(text) => serde_json::from_str(text)?,
        None => VersionNotes::default(),
    };
    Ok(Version {
        version: row.version,
        at: row.at,
        account: row.account,
        kind,
        changed: row.changed,
        notes,
    })
}

/// A stored object as the API shows it.
pub(crate) fn diagram_object(object: &StoredObject) -> StoreResult<DiagramObject> {
    Ok(DiagramObject {
        kind: object.kind().to_owned(),
        data: serde_json::from_str(object.data())?,
    })
}
