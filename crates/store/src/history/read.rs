//! Answering the history routes from an engine's [`HistoryReads`]: pages of versions, one
//! version with its changed objects, and the content at a version (its nearest snapshot at or
//! before it, with the changes after the snapshot applied in order). A version's objects as
//! they were before it are the content one version back: the history stores each change's
//! state after only, half the bytes per write.

use std::sync::Arc;

use super::{Change, HistoryReads, Objects, VersionRow};

/// The most changed objects whose states before a version are looked up one by one.
const LOOKED_UP: usize = 64;
use crate::error::{StoreError, StoreResult};
use crate::object::StoredObject;
use diagtui_model::DiagramObject;
use diagtui_model::history::{
    HistoryPage, ObjectChange, Version, VersionDetails, VersionKind, VersionNotes,
};

/// A page of a document's versions, newest first.
#[derive(Debug, Clone)]
pub struct PageQuery {
    /// Only versions older than this; the newest when `None`.
    pub before: Option<u64>,
    /// At most this many.
    pub limit: usize,
    /// Only the versions that changed this object.
    pub object: Option<String>,
}

/// Where a document's history stands: its newest version and its oldest kept one (0 and 0
/// before it began).
async fn bounds(r: &impl HistoryReads, doc: &str) -> StoreResult<(u64, u64)> {
    let head = r.head(doc).await?.map_or(0, |head| head.head);
    let oldest = if head == 0 { 0 } else { r.oldest(doc).await? };
    Ok((head, oldest))
}

/// A page of the document's versions, read through `r`.
pub(crate) async fn page(
    r: &impl HistoryReads,
    doc: &str,
    query: PageQuery,
) -> StoreResult<HistoryPage> {
    let (head, oldest) = bounds(r, doc).await?;
    let PageQuery {
        before,
        limit,
        object,
    } = query;
    let before = before.unwrap_or(head + 1);
    let rows = r.versions(doc, before, limit, object.as_deref()).await?;
    let versions = rows
        .into_iter()
        .map(version)
        .collect::<StoreResult<Vec<_>>>()?;
    let next_before = match versions.last() {
        Some(last) if versions.len() == limit && last.version > oldest => Some(last.version),
        _ => None,
    };
    Ok(HistoryPage {
        versions,
        head,
        oldest,
        next_before,
    })
}

/// One version of the document with its changed objects, read through `r`.
pub(crate) async fn details(
    r: &impl HistoryReads,
    doc: &str,
    at: u64,
) -> StoreResult<VersionDetails> {
    let (head, oldest) = bounds(r, doc).await?;
    kept(at, head, oldest)?;
    let row = r.versions(doc, at + 1, 1, None).await?.pop();
    let row = row.ok_or(StoreError::VersionNotFound(at))?;
    let changes = r.changes(doc, at).await?;
    let mut before = states_before(r, doc, at, oldest, &changes).await?;
    let objects = changes
        .into_iter()
        .map(|change| {
            let show =
                |side: Option<Arc<StoredObject>>| side.as_deref().map(diagram_object).transpose();
            Ok(ObjectChange {
                before: show(before.remove(&change.obj_id))?,
                after: show(change.after)?,
                obj_id: change.obj_id,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(VersionDetails {
        version: version(row)?,
        objects,
    })
}

/// The document's content as it was at a version, and its newest version, read through `r`.
pub(crate) async fn content_at(
    r: &impl HistoryReads,
    doc: &str,
    at: u64,
) -> StoreResult<(Objects, u64)> {
    let (head, oldest) = bounds(r, doc).await?;
    kept(at, head, oldest)?;
    Ok((content(r, doc, at).await?, head))
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
