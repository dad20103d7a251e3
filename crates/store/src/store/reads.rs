//! The store's reads of documents: the lists, a document's details, its content (whole, by
//! selector, with versions) and one object, answered from the documents kept in memory.

use std::sync::Arc;

use bytes::Bytes;

use super::Store;
use crate::cache::{CachedDoc, DocState};
use crate::engine::Engine;
use crate::error::{StoreError, StoreResult};
use crate::keys::Account;
use crate::object::{StoredObject, content_json};
use diagtui_model::versions::VersionCondition;
use diagtui_model::{DocDetails, DocSummary, Selector};

/// Documents bigger than this are answered, planned and matched on the blocking pool, so that
/// one large request does not hold up the small ones sharing its thread.
const OFFLOAD_BYTES: usize = 1 << 20;

impl<E: Engine> Store<E> {
    /// The documents the account owns or has been shared, ordered by title (case-insensitive),
    pub async fn list_docs(&self, account: &Account) -> StoreResult<Vec<DocSummary>> {
        self.engine.list_docs(account.id.clone()).await
    }

    /// A document's details.
    pub async fn doc_details(&self, account: &Account, doc_id: &str) -> StoreResult<DocDetails> {
        self.engine
            .doc_details(account.id.clone(), doc_id.to_owned())
            .await
    }

    /// One object.
    pub async fn object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
    ) -> StoreResult<Arc<StoredObject>> {
        let doc = self.doc(account, doc_id).await?;
        let object = doc.read().objects.get(obj_id).cloned();
        object.ok_or_else(|| StoreError::ObjNotFound(obj_id.to_owned()))
    }

    /// The whole content as a JSON map, objects in id order.
    pub async fn content_json(&self, account: &Account, doc_id: &str) -> StoreResult<Bytes> {
        state_json(self.doc(account, doc_id).await?).await
    }

    /// The whole content as [`Store::content_json`] answers it, for no account: only for what
    /// has checked its own right to it (a live embed's key).
    pub(super) async fn public_content_json(&self, doc_id: &str) -> StoreResult<Bytes> {
        let doc = self.loaded(doc_id).await?;
        state_json(doc.ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))?).await
    }

    /// The content (or the objects a selector matches) as `how` asks, with the document's
    /// version.
    pub async fn read_content(
        &self,
        account: &Account,
        doc_id: &str,
        how: ContentRead,
    ) -> StoreResult<Read> {
        read_state(self.doc(account, doc_id).await?, how).await
    }
}

/// Runs `f` on a cached document's state: on this task when it is small, on the blocking pool
/// when it is big.
pub(super) async fn with_state<T, F>(doc: Arc<CachedDoc>, f: F) -> StoreResult<T>
where
    T: Send + 'static,
    F: FnOnce(&DocState) -> StoreResult<T> + Send + 'static,
{
    if doc.read().bytes() <= OFFLOAD_BYTES {
        return f(&doc.read());
    }
    tokio::task::spawn_blocking(move || f(&doc.read()))
        .await
        .map_err(|e| StoreError::Internal(format!("a task failed: {e}")))?
}

/// A cached document's whole content as a JSON map, objects in id order.
async fn state_json(doc: Arc<CachedDoc>) -> StoreResult<Bytes> {
    match read_state(doc, ContentRead::default()).await? {
        Read::Body { json, .. } => Ok(json),
        Read::NotModified { .. } => unreachable!("a read with no condition has a body"),
    }
}

/// A cached document's whole content read as `how` asks, with its version, in one look at
/// its state (the body and the version always agree).
async fn read_state(doc: Arc<CachedDoc>, how: ContentRead) -> StoreResult<Read> {
    if let Some(unless) = &how.unless {
        let version = doc.read().doc_version;
        if unless.matches(Some(version)) {
            return Ok(Read::NotModified { version });
        }
    }
    with_state(doc, move |state| {
        let json = content_json(
            state
                .objects
                .iter()
                .filter(|(_, o)| how.only.as_ref().is_none_or(|s| s.matches(o.meta())))
                .map(|(id, o)| (id.as_str(), &**o)),
            how.versions,
        );
        Ok(Read::Body {
            json,
            version: state.doc_version,
        })
    })
    .await
}

/// How a content read answers.
#[derive(Debug, Default)]
pub struct ContentRead {
    /// Each object with its version (`?versions=true`).
    pub versions: bool,
    /// No body when the document is at one of these versions (`If-None-Match`).
    pub unless: Option<VersionCondition>,
    /// Only the objects whose `meta` matches (a selector read).
    pub only: Option<Selector>,
}

/// A content read's answer.
#[derive(Debug)]
pub enum Read {
    /// The document is at a version the reader has (`If-None-Match` matched).
    NotModified {
        /// The document's version.
        version: u64,
    },
    /// The content as a JSON map in id order, and the document's version it was read at.
    Body {
        /// The map.
        json: Bytes,
        /// The document's version.
        version: u64,
    },
}
