//! The interface between the store and a database engine. The store ([`Store`](super::Store))
//! keeps documents and keys in memory and checks requests; an engine reads what is not in
//! memory and commits writes. Handlers see only the store, never which engine runs.
//!
//! An engine tells a [`CommitObserver`](super::observer::CommitObserver) (the store) of every commit, in commit order, before it
//! answers the request, of every other instance's commit it learns of, and of every change it
//! notices that another process or instance made unreported, so that nothing kept in memory is
//! older than the database.

use std::future::Future;

use super::cache::LoadedDoc;
use super::embeds::StoredEmbed;
use super::error::{StoreError, StoreResult};
use super::history::{Objects, PageQuery};
use super::keys::{Account, KeyHash};
use super::writer::Job;
use diagtui_model::history::{HistoryPage, VersionDetails};
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

    /// A page of a document's versions (see [`history`](super::history)), read in one
    /// consistent view, as every history read is. The caller has checked that the account may
    /// see the document.
    fn history_page(
        &self,
        doc_id: String,
        query: PageQuery,
    ) -> impl Future<Output = StoreResult<HistoryPage>> + Send;

    /// One version of a document with the objects it changed.
    fn history_version(
        &self,
        doc_id: String,
        version: u64,
    ) -> impl Future<Output = StoreResult<VersionDetails>> + Send;

    /// A document's content as it was at a version, and its newest version.
    fn history_content(
        &self,
        doc_id: String,
        version: u64,
    ) -> impl Future<Output = StoreResult<(Objects, u64)>> + Send;

    /// A document's embeds, the live one first, for an account that may see it (see
    /// [`embeds`](super::embeds)), read in one consistent view, as every embed read is.
    fn embeds(
        &self,
        account_id: String,
        doc_id: String,
    ) -> impl Future<Output = StoreResult<Vec<StoredEmbed>>> + Send;

    /// A static embed with its content (JSON text), if there is one with that id.
    fn static_embed(
        &self,
        id: String,
    ) -> impl Future<Output = StoreResult<Option<(StoredEmbed, String)>>> + Send;

    /// The owner of the document, if it has a live embed with that key.
    fn live_owner(
        &self,
        doc_id: String,
        key: String,
    ) -> impl Future<Output = StoreResult<Option<String>>> + Send;

    /// Queues a write request for the engine's writer, which answers it through the request
    /// once committed (and reported).
    fn write(&self, job: Job) -> impl Future<Output = StoreResult<()>> + Send;

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

/// A connection pool's state now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStatus {
    /// Connections handed out.
    pub in_use: usize,
    /// Requests waiting for a connection.
    pub waiting: usize,
}
