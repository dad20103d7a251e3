//! Checkpoints on their own thread: copying committed pages from the WAL into the database
//! file (and syncing it) takes milliseconds that no request should wait for. The writer nudges
//! the checkpointer after each commit; a passive checkpoint never blocks the writer or readers.
//! At most one checkpoint runs per interval, so that a page written by many small commits is
//! copied and synced once rather than once per commit.
//!
//! Under continuous writes a passive checkpoint never catches up with the writer, so the log
//! is never started over and grows without bound (20,000 single-object updates left a 478 MB
//! WAL). So once the WAL passes [`RESTART_FROM`], the checkpointer follows its passive
//! checkpoint (which copied nearly everything) with a restarting one: it waits for the writer
//! to finish its transaction, copies the few frames left and makes the next commit start the
//! log over, which then truncates the file to [`WAL_LIMIT`] (`journal_size_limit`). It waits
//! at most [`RESTART_WAIT`] for the writer and readers, blocking new writes meanwhile, and
//! tries again at the next interval when they are busy.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};

/// The least time between two checkpoints.
const INTERVAL: Duration = Duration::from_millis(250);
/// The WAL size past which the log is started over.
pub const RESTART_FROM: u64 = 16 << 20;
/// The size the WAL file is cut back to when the log starts over (`journal_size_limit`).
pub const WAL_LIMIT: i64 = 16 << 20;
/// How long a restarting checkpoint waits for the writer and readers (writers wait meanwhile).
const RESTART_WAIT: Duration = Duration::from_millis(20);

/// Wakes the checkpointer.
pub struct Nudge(SyncSender<()>);

impl Nudge {
    /// Asks for a checkpoint soon; nudges while one is pending count once.
    pub fn nudge(&self) {
        if let Err(TrySendError::Disconnected(())) = self.0.try_send(()) {
            tracing::warn!("the checkpointer has stopped");
        }
    }
}

/// Runs the checkpointer on its own connection until the nudge is dropped.
pub fn spawn(conn: Connection) -> StoreResult<Nudge> {
    conn.busy_timeout(RESTART_WAIT)?;
    conn.pragma_update(None, "journal_size_limit", WAL_LIMIT)?;
    let (nudge, nudged) = sync_channel(1);
    std::thread::Builder::new()
        .name("diagtui-checkpoint".into())
        .spawn(move || run(&conn, &nudged))
        .map_err(|e| StoreError::Internal(format!("cannot start the checkpointer: {e}")))?;
    Ok(Nudge(nudge))
}

/// Checkpoints once per nudge, at most once per interval; restarts the log once it passes
/// [`RESTART_FROM`].
fn run(conn: &Connection, nudged: &Receiver<()>) {
    let wal = conn.path().map(wal_path);
    while nudged.recv().is_ok() {
        checkpoint(conn, "PASSIVE");
        if wal
            .as_deref()
            .is_some_and(|wal| wal_bytes(wal) > RESTART_FROM)
        {
            checkpoint(conn, "RESTART");
        }
        std::thread::sleep(INTERVAL);
    }
}

/// Runs a checkpoint of this mode; a busy database (the restart's wait ran out) is no failure.
/// Each is logged at debug level with its duration (`RUST_LOG=diagtui_store=debug`), which
/// the soak bench reads to tell the updates answered during checkpoints.
fn checkpoint(conn: &Connection, mode: &str) {
    let sql = format!("PRAGMA wal_checkpoint({mode})");
    let began = Instant::now();
    let busy = match conn.query_row(&sql, [], |row| row.get::<_, i64>(0)) {
        Ok(busy) => busy != 0,
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => true,
        Err(e) => {
            tracing::warn!("a {mode} checkpoint failed: {e}");
            return;
        }
    };
    let micros = u64::try_from(began.elapsed().as_micros()).unwrap_or(u64::MAX);
    tracing::debug!(mode, micros, busy, "checkpoint");
}

/// The WAL file of a database file.
fn wal_path(db: &str) -> PathBuf {
    PathBuf::from(format!("{db}-wal"))
}

/// The WAL file's size now (0 when it is missing).
fn wal_bytes(wal: &Path) -> u64 {
    std::fs::metadata(wal).map_or(0, |m| m.len())
}
