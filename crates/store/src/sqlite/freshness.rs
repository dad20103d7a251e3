//! Noticing commits by other processes on the same database (the CLI or the TUI in local mode
//! while `serve` runs, `account create`), so that what the store keeps in memory is never
//! older than the database.
//!
//! Every diagtui write transaction bumps the counter in the `generation` table; this process
//! knows the value its own last commit wrote. A read first compares the WAL index header (the
//! first 48 bytes of the `-shm` file, which SQLite rewrites on every commit, see
//! <https://sqlite.org/walformat.html>) with the header seen at the last check: unchanged means
//! nothing was committed since, and costs one small `pread`. Changed, the counter is read: if it
//! is this process's own value, only this process committed; otherwise another did and the
//! observer drops what it keeps. The writer does the same check inside each write transaction,
//! where it is exact.

use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use rusqlite::Connection;

use crate::error::StoreResult;
use crate::generation::Generations;

/// Bytes of the WAL index header compared.
const HEADER: usize = 48;

/// The check for other processes' commits.
pub struct Freshness {
    shm: Option<File>,
    /// The WAL index header at the last check.
    header: Mutex<Option<[u8; HEADER]>>,
    /// The counter as this process knows it.
    pub generations: Generations,
    conn: Mutex<Connection>,
}

/// Reads the counter.
pub fn read_generation(conn: &Connection) -> StoreResult<i64> {
    Ok(conn
        .prepare_cached("SELECT n FROM generation WHERE id = 1")?
        .query_row([], |row| row.get(0))?)
}

/// Bumps the counter inside a write transaction; returns its new value.
pub fn bump_generation(conn: &Connection) -> StoreResult<i64> {
    Ok(conn
        .prepare_cached("UPDATE generation SET n = n + 1 WHERE id = 1 RETURNING n")?
        .query_row([], |row| row.get(0))?)
}

impl Freshness {
    /// Starts watching the database at `db_path`, read through `conn`.
    pub fn new(db_path: &Path, conn: Connection) -> StoreResult<Freshness> {
        let mut shm_path = db_path.as_os_str().to_owned();
        shm_path.push("-shm");
        let shm = File::open(shm_path).ok();
        let generation = read_generation(&conn)?;
        let freshness = Freshness {
            shm,
            header: Mutex::new(None),
            generations: Generations::new(generation),
            conn: Mutex::new(conn),
        };
        *freshness.last_header() = freshness.header();
        Ok(freshness)
    }

    fn last_header(&self) -> std::sync::MutexGuard<'_, Option<[u8; HEADER]>> {
        self.header.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The WAL index header now, if it can be read.
    fn header(&self) -> Option<[u8; HEADER]> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            let mut header = [0u8; HEADER];
            self.shm.as_ref()?.read_exact_at(&mut header, 0).ok()?;
            Some(header)
        }
        #[cfg(not(unix))]
        None
    }

    /// Checks for other processes' commits since the last check; calls `changed_elsewhere`
    /// (while no other check can pass) when there were any.
    pub fn check(&self, changed_elsewhere: impl FnOnce()) -> StoreResult<()> {
        let header = self.header();
        if header.is_some() && *self.last_header() == header {
            return Ok(());
        }
        let generation = {
            let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
            read_generation(&conn)?
        };
        self.generations.observe(generation, changed_elsewhere);
        *self.last_header() = header;
        Ok(())
    }
}
