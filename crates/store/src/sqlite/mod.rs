//! The SQLite engine: one database file in the data dir.
//!
//! Concurrency: SQLite lets one writer at a time commit, and in WAL mode readers never block
//! it nor each other. So the engine keeps **one writer connection** on its own thread, which
//! commits the write requests queued meanwhile in one `BEGIN IMMEDIATE` transaction (group
//! commit, see [`writer`]), and a **small pool of reader connections** that serve what the
//! store does not hold in memory. Other processes (`diagtui account create`, the CLI in local
//! mode while a server runs) wait on the file lock through a busy timeout; their commits are
//! noticed through the `generation` counter (see [`freshness`]).
//!
//! Durability: WAL with `synchronous = NORMAL`. A commit is in the WAL file (the OS page cache)
//! before the request is answered, so it survives the process being killed (`kill -9`); only a
//! power loss or kernel crash could drop the last commits.

mod accounts;
mod checkpointer;
mod docs;
mod embeds;
mod folders;
mod freshness;
mod history;
mod objects;
mod schema;
mod statements;
mod writer;
#[cfg(test)]
mod writer_tests;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use tokio::sync::mpsc;

use self::freshness::Freshness;
use self::writer::{Around, block_on};
use super::cache::LoadedDoc;
use super::embeds::StoredEmbed;
use super::embeds::read as embed_reads;
use super::engine::{Engine, SchemaVersion};
use super::error::{StoreError, StoreResult};
use super::history::read as history_reads;
use super::history::{Objects, PageQuery};
use super::keys::{Account, KeyHash};
use super::observer::CommitObserver;
use super::writer::{self as write_path, Job};
use super::writer::{Queue, queue, request};
use diagtui_model::history::{HistoryPage, VersionDetails};
use diagtui_model::private_files;
use diagtui_model::{DocDetails, DocSummary, FolderList};

/// The database file's name inside a data dir.
pub const DB_FILE: &str = "diagtui.db";
/// How many idle reader connections the pool keeps.
const MAX_IDLE_READERS: usize = 8;
/// How long a connection waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// The writer's page cache, in KiB: enough for the pages a selector update over some ten
/// thousand objects touches; given back after bulky writes.
const WRITER_CACHE_KIB: i64 = 16 * 1024;

/// The SQLite engine.
pub struct SqliteEngine {
    readers: Arc<Readers>,
    writer: mpsc::Sender<Job>,
    freshness: Arc<Freshness>,
    observer: Arc<dyn CommitObserver>,
}

/// The pool of reader connections.
struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl Readers {
    /// Runs `f` on a reader connection, in one read transaction (a consistent snapshot).
    fn read<T>(&self, f: impl FnOnce(&Connection) -> StoreResult<T>) -> StoreResult<T> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut conn = match idle {
            Some(conn) => conn,
            None => connect(&self.path)?,
        };
        let result = (|| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
            let out = f(&tx)?;
            tx.finish()?;
            Ok(out)
        })();
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < MAX_IDLE_READERS {
            idle.push(conn);
        }
        result
    }
}

impl SqliteEngine {
    /// Opens (creating and migrating if needed) the database in `data_dir` and starts its
    /// writer, which reports every commit to `observer`.
    pub fn open(data_dir: &Path, observer: Arc<dyn CommitObserver>) -> StoreResult<SqliteEngine> {
        let (path, writer_conn) = open_migrated(data_dir)?;
        writer_conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)?;
        writer_conn.set_prepared_statement_cache_capacity(64);
        // Checkpoints (copying the WAL into the database, with an fsync) happen on their own
        // thread, never in a commit that a request waits for.
        writer_conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        // The log is cut back to this size when it starts over (see `checkpointer`).
        writer_conn.pragma_update(None, "journal_size_limit", checkpointer::WAL_LIMIT)?;
        // Each request's savepoint journals the pages it changes: in memory, not a temp file.
        writer_conn.pragma_update(None, "temp_store", "MEMORY")?;
        let checkpoints = checkpointer::spawn(connect(&path)?)?;
        let freshness = Arc::new(Freshness::new(&path, connect(&path)?)?);
        let around = Around {
            freshness: Some(Arc::clone(&freshness)),
            observer: Some(Arc::clone(&observer)),
            checkpoints: Some(checkpoints),
        };
        let writer = writer::spawn(writer_conn, around)?;
        Ok(SqliteEngine {
            readers: Arc::new(Readers {
                path,
                idle: Mutex::new(Vec::new()),
            }),
            writer,
            freshness,
            observer,
        })
    }

    /// Copies the whole write-ahead log into the database file and empties the log (a
    /// `TRUNCATE` checkpoint on a connection of its own, which waits for the writer and the
    /// checkpointer to be idle): at a graceful stop, so that the database file alone holds
    /// every write. The threads' connections are not closed before the process ends, so
    /// SQLite's own checkpoint at the last close never ran, and a stop at full rate left a
    /// 30 MB log beside the database.
    pub async fn fold_log(&self) -> StoreResult<()> {
        let path = self.readers.path.clone();
        let (busy, log, copied) = tokio::task::spawn_blocking(move || {
            checkpointer::checkpoint_row(&connect(&path)?, "TRUNCATE").map_err(StoreError::from)
        })
        .await
        .map_err(|e| StoreError::Internal(format!("the log's last checkpoint failed: {e}")))??;
        if busy != 0 {
            return Err(StoreError::Internal(format!(
                "the log could not be emptied: a reader or writer stayed busy ({copied} of {log} \
                 frames copied)"
            )));
        }
        Ok(())
    }

    /// Runs a read on the blocking pool.
    async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || readers.read(f))
            .await
            .map_err(|e| StoreError::Internal(format!("a read failed: {e}")))?
    }
}

impl Engine for SqliteEngine {
    async fn check_fresh(&self) -> StoreResult<()> {
        self.freshness.check(|| self.observer.changed_elsewhere())
    }

    async fn account_by_key(&self, hash: KeyHash) -> StoreResult<Option<Account>> {
        self.read(move |conn| accounts::account_by_key_hash(conn, &hash))
            .await
    }

    async fn load_doc(&self, doc_id: String) -> StoreResult<Option<LoadedDoc>> {
        self.read(move |conn| {
            let Some((owner_id, collaborators)) = docs::access(conn, &doc_id)? else {
                return Ok(None);
            };
            Ok(Some(LoadedDoc {
                owner_id,
                collaborators,
                objects: objects::load_objects(conn, &doc_id)?,
                doc_version: docs::doc_version(conn, &doc_id)?,
            }))
        })
        .await
    }

    async fn doc_details(&self, account_id: String, doc_id: String) -> StoreResult<DocDetails> {
        self.read(move |conn| docs::doc_details(conn, &account_id, &doc_id))
            .await
    }

    async fn list_docs(&self, account_id: String) -> StoreResult<Vec<DocSummary>> {
        self.read(move |conn| docs::list_docs(conn, &account_id))
            .await
    }

    async fn list_folders(&self, account_id: String) -> StoreResult<FolderList> {
        self.read(move |conn| folders::list_folders(conn, &account_id))
            .await
    }

    async fn history_page(&self, doc_id: String, query: PageQuery) -> StoreResult<HistoryPage> {
        self.read(move |conn| block_on(history_reads::page(&reading(conn), &doc_id, query)))
            .await
    }

    async fn history_version(&self, doc_id: String, version: u64) -> StoreResult<VersionDetails> {
        self.read(move |conn| block_on(history_reads::details(&reading(conn), &doc_id, version)))
            .await
    }

    async fn history_content(&self, doc_id: String, version: u64) -> StoreResult<(Objects, u64)> {
        self.read(move |conn| block_on(history_reads::content_at(&reading(conn), &doc_id, version)))
            .await
    }

    async fn embeds(&self, account_id: String, doc_id: String) -> StoreResult<Vec<StoredEmbed>> {
        self.read(move |conn| block_on(embed_reads::list(&reading(conn), &account_id, &doc_id)))
            .await
    }

    async fn static_embed(&self, id: String) -> StoreResult<Option<(StoredEmbed, String)>> {
        self.read(move |conn| block_on(embed_reads::static_embed(&reading(conn), &id)))
            .await
    }

    async fn live_owner(&self, doc_id: String, key: String) -> StoreResult<Option<String>> {
        self.read(move |conn| block_on(embed_reads::live_owner(&reading(conn), &doc_id, &key)))
            .await
    }

    async fn write(&self, job: Job) -> StoreResult<()> {
        queue(&self.writer, job).await
    }

    async fn schema_version(&self) -> StoreResult<SchemaVersion> {
        let found = self
            .read(|conn| Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?))
            .await?;
        Ok(SchemaVersion {
            found,
            known: schema::VERSION as i64,
        })
    }
}

/// The statements of a read on a reader connection.
fn reading(conn: &Connection) -> statements::Writing<'_> {
    statements::Writing { conn, now: "" }
}

/// Runs one write request on a connection of its own, outside a running store (setting up a
/// data dir, `account create`). A store running on the same database notices it as another
/// process's commit.
pub fn write_once<W: Queue>(data_dir: &Path, op: W) -> StoreResult<W::Answer> {
    let (_, mut conn) = open_migrated(data_dir)?;
    let around = Around {
        freshness: None,
        observer: None,
        checkpoints: None,
    };
    let (job, answer) = request(op);
    let mut jobs = [job];
    let done = writer::run(&mut conn, &mut jobs, &around);
    write_path::answer(&mut jobs, done.results);
    answer.now()
}

/// The account a key belongs to, read on a connection of its own, outside a running store.
pub fn account_by_key_once(data_dir: &Path, key: &str) -> StoreResult<Option<Account>> {
    let (_, conn) = open_migrated(data_dir)?;
    accounts::account_by_key_hash(&conn, &super::keys::hash_key(key))
}

/// Creates the data dir if needed (readable by the user only), opens its database (the files
/// readable by the user only) and brings its schema up to date.
pub(super) fn open_migrated(data_dir: &Path) -> StoreResult<(PathBuf, Connection)> {
    let cannot = |what: &str, path: &Path, e: std::io::Error| {
        StoreError::Internal(format!("cannot {what} {}: {e}", path.display()))
    };
    private_files::create_dir(data_dir).map_err(|e| cannot("create", data_dir, e))?;
    let path = data_dir.join(DB_FILE);
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let file = PathBuf::from(file);
        if suffix.is_empty() {
            // SQLite creates the WAL and shared-memory files with the database file's mode.
            private_files::open_options()
                .write(true)
                .create(true)
                .truncate(false)
                .open(&file)
                .map_err(|e| cannot("create", &file, e))?;
        }
        if file.exists() {
            private_files::restrict(&file).map_err(|e| cannot("set the mode of", &file, e))?;
        }
    }
    let mut conn = connect(&path)?;
    schema::migrate(&mut conn)?;
    Ok((path, conn))
}

/// Opens one connection with the settings every connection shares.
fn connect(path: &Path) -> StoreResult<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}
