//! The engine a server runs on, chosen at start: SQLite in a data dir (the default) or
//! PostgreSQL. An enum rather than a trait object or a generic server: handlers keep one
//! concrete store type, each engine call is a branch plus a static call (no boxing), and a read
//! served from memory touches the engine only for its freshness check.

use std::path::{Path, PathBuf};

use super::cache::LoadedDoc;
use super::embeds::StoredEmbed;
use super::engine::{Engine, PoolStatus, SchemaVersion};
use super::error::{StoreError, StoreResult};
use super::history::{Objects, PageQuery};
use super::keys::{Account, KeyHash};
#[cfg(feature = "postgres")]
use super::postgres::{self, PgEngine, PgOptions};
use super::sqlite::{self, SqliteEngine};
use super::writer::Job;
use super::writer::Queue;
use diagtui_model::history::{HistoryPage, VersionDetails};
use diagtui_model::{DocDetails, DocSummary, FolderList};

/// The default number of pooled connections to a PostgreSQL database.
pub const DEFAULT_POOL: u32 = 16;

/// Where a store's database is.
#[derive(Debug, Clone)]
pub enum Location {
    /// SQLite in this data dir.
    DataDir(PathBuf),
    /// A PostgreSQL database.
    #[cfg(feature = "postgres")]
    Postgres(PgOptions),
}

/// Either engine.
pub enum AnyEngine {
    /// SQLite in a data dir.
    Sqlite(SqliteEngine),
    /// PostgreSQL.
    #[cfg(feature = "postgres")]
    Postgres(PgEngine),
}

/// Calls the same method on whichever engine runs.
macro_rules! on_engine {
    ($self:ident, $engine:ident => $call:expr) => {
        match $self {
            AnyEngine::Sqlite($engine) => $call.await,
            #[cfg(feature = "postgres")]
            AnyEngine::Postgres($engine) => $call.await,
        }
    };
}

impl Engine for AnyEngine {
    async fn check_fresh(&self) -> StoreResult<()> {
        on_engine!(self, engine => engine.check_fresh())
    }

    async fn account_by_key(&self, hash: KeyHash) -> StoreResult<Option<Account>> {
        on_engine!(self, engine => engine.account_by_key(hash))
    }

    async fn load_doc(&self, doc_id: String) -> StoreResult<Option<LoadedDoc>> {
        on_engine!(self, engine => engine.load_doc(doc_id))
    }

    async fn doc_details(&self, account_id: String, doc_id: String) -> StoreResult<DocDetails> {
        on_engine!(self, engine => engine.doc_details(account_id, doc_id))
    }

    async fn list_docs(&self, account_id: String) -> StoreResult<Vec<DocSummary>> {
        on_engine!(self, engine => engine.list_docs(account_id))
    }

    async fn list_folders(&self, account_id: String) -> StoreResult<FolderList> {
        on_engine!(self, engine => engine.list_folders(account_id))
    }

    async fn history_page(&self, doc_id: String, query: PageQuery) -> StoreResult<HistoryPage> {
        on_engine!(self, engine => engine.history_page(doc_id, query))
    }

    async fn history_version(&self, doc_id: String, version: u64) -> StoreResult<VersionDetails> {
        on_engine!(self, engine => engine.history_version(doc_id, version))
    }

    async fn history_content(&self, doc_id: String, version: u64) -> StoreResult<(Objects, u64)> {
        on_engine!(self, engine => engine.history_content(doc_id, version))
    }

    async fn embeds(&self, account_id: String, doc_id: String) -> StoreResult<Vec<StoredEmbed>> {
        on_engine!(self, engine => engine.embeds(account_id, doc_id))
    }

    async fn static_embed(&self, id: String) -> StoreResult<Option<(StoredEmbed, String)>> {
        on_engine!(self, engine => engine.static_embed(id))
    }

    async fn live_owner(&self, doc_id: String, key: String) -> StoreResult<Option<String>> {
        on_engine!(self, engine => engine.live_owner(doc_id, key))
    }

    async fn write(&self, job: Job) -> StoreResult<()> {
        on_engine!(self, engine => engine.write(job))
    }

    async fn schema_version(&self) -> StoreResult<SchemaVersion> {
        on_engine!(self, engine => engine.schema_version())
    }
}

impl AnyEngine {
    /// At a graceful stop: the SQLite log copied into the database file and emptied (see
    /// [`sqlite::SqliteEngine::fold_log`]); nothing to do on PostgreSQL.
    pub async fn fold_log(&self) -> StoreResult<()> {
        match self {
            AnyEngine::Sqlite(engine) => engine.fold_log().await,
            #[cfg(feature = "postgres")]
            AnyEngine::Postgres(_) => Ok(()),
        }
    }

    /// The PostgreSQL pool's connections in use and requests waiting for one; `None` on
    /// SQLite.
    pub fn pool_status(&self) -> Option<PoolStatus> {
        match self {
            AnyEngine::Sqlite(_) => None,
            #[cfg(feature = "postgres")]
            AnyEngine::Postgres(engine) => Some(engine.pool_status()),
        }
    }
}

/// Runs one write request outside a running store; stores running on the same database
/// notice it as another process's commit.
pub(crate) async fn write_once<W: Queue>(location: &Location, op: W) -> StoreResult<W::Answer> {
    match location {
        Location::DataDir(dir) => {
            let dir = dir.clone();
            blocking(move || sqlite::write_once(&dir, op)).await
        }
        #[cfg(feature = "postgres")]
        Location::Postgres(pg) => postgres::write_once(pg, op).await,
    }
}

/// The account a key belongs to, read outside a running store.
pub async fn account_by_key_once(location: &Location, key: &str) -> StoreResult<Option<Account>> {
    match location {
        Location::DataDir(dir) => {
            let (dir, key) = (dir.clone(), key.to_owned());
            blocking(move || sqlite::account_by_key_once(&dir, &key)).await
        }
        #[cfg(feature = "postgres")]
        Location::Postgres(pg) => postgres::account_by_key_once(pg, key).await,
    }
}

/// Runs SQLite's blocking work on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> StoreResult<T> + Send + 'static,
) -> StoreResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Internal(format!("a task failed: {e}")))?
}

impl Location {
    /// The data dir, when the database is SQLite's.
    pub fn data_dir(&self) -> Option<&Path> {
        match self {
            Location::DataDir(dir) => Some(dir),
            #[cfg(feature = "postgres")]
            Location::Postgres(_) => None,
        }
    }
}

impl std::fmt::Display for Location {
    /// The data dir, or the database URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::DataDir(dir) => write!(f, "{}", dir.display()),
            #[cfg(feature = "postgres")]
            Location::Postgres(pg) => f.write_str(&without_password(&pg.url)),
        }
    }
}

#[cfg(feature = "postgres")]
/// A `postgres://user:password@host/db` URL with the password left out.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "the database".to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => {
            let user = rest[..at].split(':').next().unwrap_or_default();
            format!("{scheme}://{user}@{}", &rest[at + 1..])
        }
        None => url.to_owned(),
    }
}

#[cfg(all(test, feature = "postgres"))]
mod tests {
    use super::*;

    #[test]
    fn a_database_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://team:s3cret@db.example.com:5432/diagrams?sslmode=require"),
            "postgres://team@db.example.com:5432/diagrams?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://localhost/diagrams"),
            "postgres://localhost/diagrams"
        );
    }
}
