//! [`Store`]: what the server's handlers call. It checks each request against the
//! [`rules`](crate::rules) on the request's own task, answers reads from the documents and keys
//! it keeps in memory, plans object updates from a cached document ahead of the writer, and
//! hands each commit's report to whoever listens ([`Store::commits`]). Its operations are in
//! a file per area: `reads`, `docs`, `folders`, `objects`, `add` (create-diagram), `history`,
//! `embeds`, and `setup` (what runs outside a running store: setting a database up, accounts).

mod add;
mod docs;
mod embeds;
mod folders;
mod history;
mod objects;
mod reads;
mod setup;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::broadcast;

use crate::any::{self, AnyEngine, Location};
use crate::cache::{CachedDoc, DocCache, Lookup};
use crate::change::Committed;
use crate::engine::PoolStatus;
use crate::engine::{Engine, NotReady};
use crate::error::{StoreError, StoreResult};
use crate::keys::{Account, KeyCache, hash_key};
use crate::metrics::StoreMetrics;
use crate::object::StoredObject;
use crate::observer::CommitObserver;
#[cfg(feature = "postgres")]
use crate::postgres::PgEngine;
use crate::sqlite::SqliteEngine;
use crate::writer::{Queue, request};

pub use self::reads::{ContentRead, Read};
pub use self::setup::{Sample, account_by_key, create_account, initialise, rotate_key};

/// The default memory budget of the document cache: 256 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;
/// How many commit reports wait for a slow listener before it misses some.
const COMMIT_BACKLOG: usize = 1024;

/// The store's settings.
#[derive(Debug, Clone, Copy)]
pub struct StoreOptions {
    /// The most bytes the document cache holds.
    pub cache_bytes: usize,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            cache_bytes: DEFAULT_CACHE_BYTES,
        }
    }
}

/// The store: an engine, with documents and keys kept in memory.
pub struct Store<E: Engine = SqliteEngine> {
    engine: E,
    kept: Arc<Kept>,
}

/// What the store keeps in memory; the engine's [`CommitObserver`].
struct Kept {
    docs: DocCache,
    keys: KeyCache,
    commits: broadcast::Sender<Arc<Committed>>,
    /// How many reports were sent; held while one is sent, so that a listener can learn how
    /// many came before it subscribed.
    reported: std::sync::Mutex<u64>,
    /// What the store counts.
    metrics: StoreMetrics,
    /// Whether the last write batch found the disk full (cleared by the next one that
    /// commits without).
    disk_full: AtomicBool,
}

impl Kept {
    /// Sends a report to the listeners, counting it.
    fn report(&self, report: Arc<Committed>) {
        let mut reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        *reported += 1;
        let _ = self.commits.send(report);
    }

    /// How many reports were sent so far.
    fn reported(&self) -> std::sync::MutexGuard<'_, u64> {
        self.reported.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl CommitObserver for Kept {
    fn metrics(&self) -> &StoreMetrics {
        &self.metrics
    }

    fn wrote(&self, disk_full: bool) {
        self.disk_full.store(disk_full, Ordering::Relaxed);
    }

    fn doc_version(&self, doc_id: &str) -> Option<u64> {
        self.docs.version(doc_id)
    }

    fn committed(&self, report: Arc<Committed>) -> Vec<Arc<StoredObject>> {
        let mut replaced = Vec::new();
        for change in &report.docs {
            self.docs.apply(change, &mut replaced);
        }
        for account_id in &report.keys_changed {
            self.keys.forget_account(account_id);
        }
        self.report(report);
        replaced
    }

    fn changed_elsewhere(&self) {
        self.metrics.resyncs.inc();
        self.docs.clear();
        self.keys.clear();
        self.report(Arc::new(Committed::elsewhere()));
    }
}

impl Store<SqliteEngine> {
    /// Opens the SQLite database in `data_dir` (creating and migrating it if needed).
    pub fn open(data_dir: &Path, options: StoreOptions) -> StoreResult<Store> {
        let kept = Store::<SqliteEngine>::kept(options);
        let engine = SqliteEngine::open(data_dir, Arc::clone(&kept) as Arc<dyn CommitObserver>)?;
        Ok(Store { engine, kept })
    }
}

impl Store<AnyEngine> {
    /// Opens the store at a location: the data dir's SQLite database (created if needed), or
    /// the PostgreSQL database (migrated if needed).
    pub async fn open_at(location: &Location, options: StoreOptions) -> StoreResult<Self> {
        let kept = Store::<AnyEngine>::kept(options);
        let observer = Arc::clone(&kept) as Arc<dyn CommitObserver>;
        let engine = match location {
            Location::DataDir(dir) => {
                let dir = dir.clone();
                AnyEngine::Sqlite(any::blocking(move || SqliteEngine::open(&dir, observer)).await?)
            }
            #[cfg(feature = "postgres")]
            Location::Postgres(pg) => AnyEngine::Postgres(PgEngine::open(pg, observer).await?),
        };
        Ok(Store { engine, kept })
    }

    /// The PostgreSQL pool's state now; `None` on SQLite.
    pub fn pool_status(&self) -> Option<PoolStatus> {
        self.engine.pool_status()
    }

    /// At a graceful stop, once no request is served any more: SQLite's log copied into the
    /// database file and emptied, so that the file alone holds every write.
    pub async fn fold_log(&self) -> StoreResult<()> {
        self.engine.fold_log().await
    }
}

impl<E: Engine> Store<E> {
    /// What a new store keeps in memory, empty.
    fn kept(options: StoreOptions) -> Arc<Kept> {
        let metrics = StoreMetrics::default();
        Arc::new(Kept {
            docs: DocCache::new(options.cache_bytes, metrics.cache.clone()),
            keys: KeyCache::default(),
            commits: broadcast::channel(COMMIT_BACKLOG).0,
            reported: std::sync::Mutex::new(0),
            metrics,
            disk_full: AtomicBool::new(false),
        })
    }

    /// The reports of commits from now on, in commit order, and of changes made elsewhere
    /// ([`Committed::elsewhere`]); a listener that falls more than a backlog behind misses
    /// reports. On PostgreSQL it carries the other instances' commits too, in commit order
    /// (their changed objects read from the database as they arrive); when reports were missed
    /// (this instance's listening connection was down), a [`Committed::elsewhere`] says so.
    pub fn commits(&self) -> broadcast::Receiver<Arc<Committed>> {
        self.kept.commits.subscribe()
    }

    /// Like [`Store::commits`], with how many reports were sent before it.
    pub fn commits_counted(&self) -> (u64, broadcast::Receiver<Arc<Committed>>) {
        let reported = self.kept.reported();
        (*reported, self.kept.commits.subscribe())
    }

    /// How many commit reports were sent so far (a listener of [`Store::commits_counted`] has
    /// seen every commit before now once it has handled this many).
    pub fn reported(&self) -> u64 {
        *self.kept.reported()
    }

    /// Notices commits by other processes or instances since the last check (reported to
    /// [`Store::commits`] as [`Committed::elsewhere`]). Every request checks; a listener with
    /// no requests coming calls this now and then. Cheap when nothing changed.
    pub async fn check_fresh(&self) -> StoreResult<()> {
        self.engine.check_fresh().await
    }

    /// The account a key belongs to, if any. Every request starts here, so this is also where
    /// other processes' commits are noticed. A key not known in memory is looked up in the
    /// database, so keys added by another process are accepted at once.
    pub async fn authenticate(&self, key: &str) -> StoreResult<Option<Account>> {
        self.check_fresh().await?;
        let hash = hash_key(key);
        if let Some(account) = self.kept.keys.get(&hash) {
            return Ok(Some(account));
        }
        let epoch = self.kept.keys.epoch();
        let found = self.engine.account_by_key(hash).await?;
        if let Some(account) = &found {
            self.kept.keys.remember(hash, account.clone(), epoch);
        }
        Ok(found)
    }

    /// A document the account may see, from memory or loaded into it: by this request, or
    /// by the one already loading it (one load per document at a time, see [`cache`](crate::cache)).
    async fn doc(&self, account: &Account, doc_id: &str) -> StoreResult<Arc<CachedDoc>> {
        match self.loaded(doc_id).await? {
            Some(doc) if doc.read().visible_to(&account.id) => Ok(doc),
            _ => Err(StoreError::DocNotFound(doc_id.to_owned())),
        }
    }

    /// A document from memory or loaded into it, whoever may see it; `None` when there is no
    /// such document.
    async fn loaded(&self, doc_id: &str) -> StoreResult<Option<Arc<CachedDoc>>> {
        Ok(loop {
            match self.kept.docs.lookup(doc_id) {
                Lookup::Ready(doc) => break Some(doc),
                Lookup::Load(load) => {
                    break load.finish(self.engine.load_doc(doc_id.to_owned()).await)?;
                }
                Lookup::Wait(wait) => {
                    // The loading request went away unfinished: look again.
                    if let Some(answer) = wait.answer().await {
                        break answer?;
                    }
                }
            }
        })
    }

    /// The documents the account owns or has been shared, ordered by title (case-insensitive),
    /// then id.
    /// Runs a write request through the engine's writer; its answer once committed.
    async fn write<W: Queue>(&self, op: W) -> StoreResult<W::Answer> {
        let (job, answer) = request(op);
        self.engine.write(job).await?;
        answer.wait().await
    }

    /// About how many bytes the document cache holds.
    pub fn cached_bytes(&self) -> usize {
        self.kept.docs.used()
    }

    /// What the store counts (shared: register it once, it counts on).
    pub fn metrics(&self) -> &StoreMetrics {
        &self.kept.metrics
    }

    /// Whether the store can serve: the database answers a read, its schema is this build's,
    /// and the last write did not find the disk full.
    pub async fn ready(&self) -> Result<(), NotReady> {
        if self.kept.disk_full.load(Ordering::Relaxed) {
            return Err(NotReady::DiskFull);
        }
        match self.engine.schema_version().await {
            Ok(version) if version.found == version.known => Ok(()),
            Ok(version) => Err(NotReady::Schema(version)),
            Err(e) => Err(NotReady::Database(e)),
        }
    }
}

#[cfg(test)]
mod history_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wal_tests;
