//! The embedded SQLite store behind the local server. It knows nothing of HTTP: each operation
//! takes the acting account and returns model types or a [`StoreError`].
//!
//! Concurrency: SQLite lets one writer at a time commit, and in WAL mode readers never block
//! it nor each other. So the store keeps **one writer connection** behind a mutex (writes are
//! serialised in-process instead of racing for the file lock and retrying on `SQLITE_BUSY`)
//! and a **small pool of reader connections** that serve reads in parallel with the writer.
//! Every write runs in one `BEGIN IMMEDIATE` transaction, so a request's changes commit whole
//! or not at all. Other processes (`diagtui account create` while a server runs) wait on the
//! file lock through a busy timeout. All methods block: async callers run them on
//! `tokio::task::spawn_blocking`.
//!
//! Durability: WAL with `synchronous = NORMAL`. A commit is in the WAL file (the OS page cache)
//! before the call returns, so it survives the process being killed (`kill -9`); only a power
//! loss or kernel crash could drop the last commits.

mod accounts;
mod docs;
mod error;
mod folders;
mod init;
mod objects;
mod schema;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

pub use accounts::{Account, DEFAULT_EMAIL};
pub use error::StoreError;
pub use init::Sample;

/// The database file's name inside a data dir.
pub const DB_FILE: &str = "diagtui.db";
/// How many idle reader connections the pool keeps.
const MAX_IDLE_READERS: usize = 8;
/// How long a connection waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// The store: one writer connection and a pool of readers on one database file.
pub struct Store {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
}

impl Store {
    /// Opens (creating and migrating if needed) the database in `data_dir`.
    pub fn open(data_dir: &Path) -> StoreResult<Store> {
        std::fs::create_dir_all(data_dir).map_err(|e| {
            StoreError::Internal(format!("cannot create {}: {e}", data_dir.display()))
        })?;
        let path = data_dir.join(DB_FILE);
        let mut writer = connect(&path)?;
        schema::migrate(&mut writer)?;
        Ok(Store {
            path,
            writer: Mutex::new(writer),
            readers: Mutex::new(Vec::new()),
        })
    }

    /// Runs `f` on a reader connection (a consistent snapshot for its duration).
    pub(super) fn read<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let idle = self.readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
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
        let mut idle = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < MAX_IDLE_READERS {
            idle.push(conn);
        }
        result
    }

    /// Runs `f` in one write transaction, committed only when `f` succeeds.
    pub(super) fn write<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }
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
