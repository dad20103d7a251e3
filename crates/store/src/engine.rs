//! The interface between the store and a database engine. The store ([`Store`](super::Store))
//! keeps documents and keys in memory and checks requests; an engine reads what is not in
//! memory and commits writes. Handlers see only the store, never which engine runs.
//!
//! An engine tells a [`CommitObserver`] (the store) of every commit, in commit order, before it
//! answers the request, of every other instance's commit it learns of, and of every change it
//! notices that another process or instance made unreported, so that nothing kept in memory is
//! older than the database.

use std::future::Future;
use std::sync::Arc;

use super::cache::LoadedDoc;
use super::change::Committed;
use super::embeds::{EmbedAnswer, EmbedQuery};
use super::history::{HistoryAnswer, HistoryQuery};
use super::keys::{Account, KeyHash};
use super::object::StoredObject;
use super::write::{Outcome, WriteOp};
use super::{StoreError, StoreMetrics, StoreResult};
use diagtui_model::{DocDetails, DocSummary, FolderList};

/// A database engine behind the store.
pub trait Engine: Send + Sync + 'static {
    /// Notices commits by other processes or instances since the last call, telling the
    /// observer when there were any. Called on every request, so it must be cheap when there
    /// were none.
    fn check_fresh(&self) -> impl Future<Output = StoreResult<()>> + Send;

    /// The account whose key has this hash, if any.
    fn account_by_key(
        &self,
        hash: KeyHash,
    ) -> impl Future<Output = StoreResult<Option<Account>>> + Send;

    /// A whole document (who may see it, its objects); `None` when there is no such document.
    fn load_doc(
        &self,
        doc_id: String,
    ) -> impl Future<Output = StoreResult<Option<LoadedDoc>>> + Send;

    /// A document's details, if the account may see it.
    fn doc_details(
        &self,
        account_id: String,
        doc_id: String,
    ) -> impl Future<Output = StoreResult<DocDetails>> + Send;

    /// The account's own and shared documents, by title.
    fn list_docs(
        &self,
        account_id: String,
    ) -> impl Future<Output = StoreResult<Vec<DocSummary>>> + Send;

    /// The account's folders with the documents it owns in each.
    fn list_folders(
        &self,
        account_id: String,
    ) -> impl Future<Output = StoreResult<FolderList>> + Send;

    /// Answers a query about a document's history (see [`history`](super::history)), read in
    /// one consistent view. The caller has checked that the account may see the document.
    fn history(
        &self,
        doc_id: String,
        query: HistoryQuery,
    ) -> impl Future<Output = StoreResult<HistoryAnswer>> + Send;

    /// Answers a read about embeds (see [`embeds`](super::embeds)), in one consistent view.
    fn embeds(&self, query: EmbedQuery) -> impl Future<Output = StoreResult<EmbedAnswer>> + Send;

    /// Commits a write request and answers it once committed (and reported).
    fn write(&self, op: WriteOp) -> impl Future<Output = StoreResult<Outcome>> + Send;

    /// The database's schema version and this build's, read from the database (a readiness
    /// check: it fails when the database does not answer).
    fn schema_version(&self) -> impl Future<Output = StoreResult<SchemaVersion>> + Send;
}

/// A database's schema version beside the one this build writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaVersion {
    /// The database's.
    pub found: i64,
    /// This build's.
    pub known: i64,
}

/// Why a store cannot serve now.
#[derive(Debug, thiserror::Error)]
pub enum NotReady {
    /// The database did not answer a read.
    #[error("the database does not answer: {0}")]
    Database(StoreError),
    /// The database's schema is not this build's.
    #[error("the database has schema version {}, this build's is {}", .0.found, .0.known)]
    Schema(SchemaVersion),
    /// The last write found the disk full.
    #[error("the disk is full")]
    DiskFull,
}

/// Who learns of an engine's commits: the store, which writes them through to its cache and
/// passes them on.
pub trait CommitObserver: Send + Sync + 'static {
    /// What the store counts, for the engines to count into.
    fn metrics(&self) -> &StoreMetrics;

    /// A write batch ended: whether it, or a request of it, found the disk full.
    fn wrote(&self, disk_full: bool);

    /// The version of a document as cached now, if it is; a plan made from another version
    /// does not hold.
    fn doc_version(&self, doc_id: &str) -> Option<u64>;

    /// A write request committed: this process's, before the request is answered, or (on
    /// PostgreSQL) another instance's, from its report; called in commit order. Returns the
    /// objects the write replaced, for the engine to drop once the request is answered:
    /// freeing them is no reason to keep a client waiting.
    fn committed(&self, report: Arc<Committed>) -> Vec<Arc<StoredObject>>;

    /// Another process or instance changed the database in ways not reported: forget
    /// everything kept.
    fn changed_elsewhere(&self);
}
