//! Checkpoints: copying committed pages from the WAL into the database file (and syncing it),
//! which takes milliseconds that no request should wait for, and starting the log over so that
//! the WAL stays bounded under continuous writes.
//!
//! The copying happens on a thread of its own: the writer nudges the checkpointer after each
//! commit, and it runs a passive checkpoint, which never blocks the writer or readers, at most
//! once per [`INTERVAL`], so that a page written by many small commits is copied once rather
//! than once per commit.
//!
//! Under continuous writes a passive checkpoint never catches up with the writer (commits land
//! while it copies), so the log is never started over and grows without bound (20,000
//! single-object updates left a 478 MB WAL). SQLite starts the log over by itself at the
//! first write transaction that begins with every frame copied and no reader on an older
//! snapshot, and `journal_size_limit` then cuts the file back to [`WAL_LIMIT`]. So once the
//! log passes [`RESTART_FROM`], the checkpointer catches up (passes back to back until one
//! finds few new frames), syncs the database and the log, and asks the writer to
//! [`Nudge::finish`] between two of its batches: a passive checkpoint on the writer's own
//! connection, while no write is in progress, copies the frames committed since the last
//! pass, and the writer's next transaction starts the log over. Writes wait only for that
//! remainder to be copied and synced; no lock is waited for (a `RESTART` checkpoint takes the
//! write lock and waits for the writer and readers, then copies and syncs what is left while
//! writes wait).
//!
//! What the writer's pass copies is what came in during the last background pass, and a pass
//! lasts as long as its `fsync` of what it copied: at full rate up to 2 MiB on a slow disk,
//! tens of milliseconds that writes would wait. So while the checkpointer catches up, the
//! writer is slowed rather than stopped: it rests [`PACE`] after each batch, which lets fewer
//! frames in during each pass than the pass before copied, until a pass finds
//! [`FEW_FRAMES`]; the writer's own pass then copies and syncs only those.
//!
//! SQLite syncs the database only in a pass that copies the log's last frame. The background
//! passes never reach it under continuous writes, so what they copy stays unsynced in the
//! OS's cache (megabytes at full rate), and the writer's pass, the first to reach the end,
//! synced all of it: its `fsync` of the database took 6.4 ms at the median and 10 ms at p99
//! in the soak (`strace`). So before asking the writer, the checkpointer syncs the database
//! and the log itself; the writer's `fsync` then writes only the pages it copied (1.1 ms at
//! the median, 1.7 ms at p99).

use std::fs::OpenOptions;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};

/// The least time between two background checkpoints. The log grows for this long before the
/// checkpointer looks at it again: at full rate (some 15,000 single-object updates a second,
/// 40 MiB of frames in 250 ms) it is what bounds the WAL's size, more than [`RESTART_FROM`].
const INTERVAL: Duration = Duration::from_millis(100);
/// The log's size (its frames) past which it is started over.
pub const RESTART_FROM: u64 = 12 << 20;
/// The size the WAL file is cut back to when the log starts over (`journal_size_limit`): the
/// cut is a truncation in the commit that starts the log over (measured 9–19 ms on a busy
/// disk), so only a file that grew past what the soak's log reaches is cut.
pub const WAL_LIMIT: i64 = 64 << 20;
/// The most passes run back to back once the log is over [`RESTART_FROM`].
const CATCH_UP_PASSES: usize = 8;
/// New frames found by a pass below which the catching up ends (256 KiB of 4 KiB pages).
const FEW_FRAMES: u64 = 64;
/// How long the writer rests after each batch while the checkpointer catches up.
pub const PACE: Duration = Duration::from_millis(2);
/// Bytes of a WAL frame's header (before its page).
const FRAME_HEADER: u64 = 24;

/// The checkpointer asks nothing of the writer.
const AT_FULL_RATE: u8 = 0;
/// The checkpointer is catching up: the writer rests [`PACE`] after each batch.
const PACED: u8 = 1;
/// The writer should [`Nudge::finish`] the checkpoint (and rests until it does). The asks only
/// grow while the checkpointer catches up; only the writer's finish clears them.
const FINISH: u8 = 2;

/// How the writer and the checkpointer reach each other.
pub struct Nudge {
    /// Wakes the checkpointer.
    wake: SyncSender<()>,
    /// What the checkpointer asks of the writer: [`AT_FULL_RATE`], [`PACED`] or [`FINISH`].
    ask: Arc<AtomicU8>,
}

impl Nudge {
    /// Asks for a checkpoint soon; nudges while one is pending count once.
    pub fn nudge(&self) {
        if let Err(TrySendError::Disconnected(())) = self.wake.try_send(()) {
            tracing::warn!("the checkpointer has stopped");
        }
    }

    /// Whether the checkpointer asked the writer to [`Nudge::finish`] (yes until it has).
    pub fn finish_wanted(&self) -> bool {
        self.ask.load(Ordering::Relaxed) == FINISH
    }

    /// Whether the writer should rest [`PACE`] after its batch (the checkpointer is catching
    /// up, or waits for the writer to finish).
    pub fn paced(&self) -> bool {
        self.ask.load(Ordering::Relaxed) != AT_FULL_RATE
    }

    /// The writer's part once asked, between two batches: copies the frames the background
    /// pass left, so that the next write transaction starts the log over, and writes at full
    /// rate again.
    pub fn finish(&self, conn: &Connection) {
        checkpoint(conn, "writer");
        self.ask.store(AT_FULL_RATE, Ordering::Relaxed);
    }
}

/// Runs the checkpointer on its own connection until the nudge is dropped.
pub fn spawn(conn: Connection) -> StoreResult<Nudge> {
    let page: u32 = conn.query_row("PRAGMA page_size", [], |row| row.get(0))?;
    let (wake, woken) = sync_channel(1);
    let ask = Arc::new(AtomicU8::new(AT_FULL_RATE));
    let asking = Arc::clone(&ask);
    std::thread::Builder::new()
        .name("diagtui-checkpoint".into())
        .spawn(move || run(&conn, &woken, &asking, u64::from(page) + FRAME_HEADER))
        .map_err(|e| StoreError::Internal(format!("cannot start the checkpointer: {e}")))?;
    Ok(Nudge { wake, ask })
}

/// Checkpoints once per nudge, at most once per interval; once the log passes
/// [`RESTART_FROM`], catches up and asks the writer to finish.
fn run(conn: &Connection, woken: &Receiver<()>, ask: &AtomicU8, frame_bytes: u64) {
    let db = conn.path().filter(|db| !db.is_empty()).map(str::to_owned);
    let wal = db.as_deref().map(|db| format!("{db}-wal"));
    while woken.recv().is_ok() {
        if let Some(pass) = checkpoint(conn, "checkpointer")
            && pass.log * frame_bytes > RESTART_FROM
        {
            // Paced, unless a finish asked before is still pending (then it stays asked).
            ask.fetch_max(PACED, Ordering::Relaxed);
            catch_up(conn, pass.log);
            // The writer's checkpoint syncs the log before it copies and the database once it
            // has copied the log's last frame: what is synced now it does not wait for.
            // Opened for writing: Windows flushes only a file handle that may write.
            for file in [&db, &wal].into_iter().flatten() {
                let opened = OpenOptions::new().write(true).open(file);
                if let Err(e) = opened.and_then(|f| f.sync_data()) {
                    tracing::warn!("cannot sync {file}: {e}");
                }
            }
            ask.store(FINISH, Ordering::Relaxed);
        }
        std::thread::sleep(INTERVAL);
    }
}

/// Runs passes back to back, each copying what came in during the one before, until one finds
/// few new frames (at most [`CATCH_UP_PASSES`]): what the writer then copies is what came in
/// during a short pass. `log` is the log's length after the first pass.
fn catch_up(conn: &Connection, mut log: u64) {
    for _ in 0..CATCH_UP_PASSES {
        let Some(pass) = checkpoint(conn, "checkpointer") else {
            return;
        };
        let came_in = pass.log.saturating_sub(log);
        log = pass.log;
        if came_in <= FEW_FRAMES {
            return;
        }
    }
}

/// Runs a checkpoint of `mode` (`PASSIVE`, `TRUNCATE`, ...) on `conn`; its row: whether it
/// was kept from finishing (busy: another checkpoint running, or a reader or writer it waited
/// for in vain), the log's frames, and how many of them are in the database (-1 and -1 when
/// busy before it began).
pub fn checkpoint_row(conn: &Connection, mode: &str) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |row| {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?))
    })
}

/// What a checkpoint found: the log's frames and how many of them are in the database now.
struct Pass {
    log: u64,
    copied: u64,
}

/// Runs a passive checkpoint on `conn`, run by `on` (the checkpointer or the writer). Each is
/// logged at debug level with its duration (`RUST_LOG=diagtui_store=debug`), which the soak
/// bench reads to tell the updates answered during the writer's.
fn checkpoint(conn: &Connection, on: &'static str) -> Option<Pass> {
    let began = Instant::now();
    let pass = checkpoint_row(conn, "PASSIVE");
    let micros = u64::try_from(began.elapsed().as_micros()).unwrap_or(u64::MAX);
    match pass {
        Ok((0, log, copied)) => {
            let pass = Pass {
                log: u64::try_from(log).unwrap_or(0),
                copied: u64::try_from(copied).unwrap_or(0),
            };
            tracing::debug!(
                mode = "PASSIVE",
                on,
                micros,
                log = pass.log,
                left = pass.log.saturating_sub(pass.copied),
                "checkpoint"
            );
            Some(pass)
        }
        // Another connection's checkpoint is running.
        Ok(_) => None,
        Err(e) => {
            tracing::warn!("a checkpoint on the {on} failed: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection to `path` in WAL mode, without automatic checkpoints (as the store's).
    fn wal_connection(path: &std::path::Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        conn
    }

    #[test]
    fn the_writer_is_paced_while_the_checkpointer_catches_up_and_no_longer_once_it_finishes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("paced.db");
        let writer = wal_connection(&path);
        writer
            .execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
            .unwrap();
        let nudge = spawn(wal_connection(&path)).unwrap();
        // The writer's loop: a commit of 64 KiB, then what `writer::spawn` does after a batch,
        // until the log has started over twice.
        let (mut paced, mut finished) = (0, 0);
        for n in 0..20_000 {
            writer
                .execute(
                    "INSERT OR REPLACE INTO t (id, body) VALUES (?1, zeroblob(65536))",
                    [n % 64],
                )
                .unwrap();
            if nudge.finish_wanted() {
                assert!(nudge.paced(), "the writer is paced until it finishes");
                nudge.finish(&writer);
                assert!(!nudge.paced(), "finishing ends the pacing");
                finished += 1;
                if finished == 2 {
                    break;
                }
            }
            nudge.nudge();
            if nudge.paced() {
                paced += 1;
                std::thread::sleep(PACE);
            }
        }
        assert_eq!(
            finished, 2,
            "the checkpointer asked twice for the log to start over"
        );
        assert!(
            paced > 0,
            "the writer rested while the checkpointer caught up"
        );
    }
}
