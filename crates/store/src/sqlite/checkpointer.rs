//! Checkpoints on their own thread: copying committed pages from the WAL into the database
//! file (and syncing it) takes milliseconds that no request should wait for. The writer nudges
//! the checkpointer after each commit; a passive checkpoint never blocks the writer or readers.
//! At most one checkpoint runs per interval, so that a page written by many small commits is
//! copied and synced once rather than once per commit.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::Duration;

use rusqlite::Connection;

use crate::{StoreError, StoreResult};

/// The least time between two checkpoints.
const INTERVAL: Duration = Duration::from_millis(250);

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
    let (nudge, nudged) = sync_channel(1);
    std::thread::Builder::new()
        .name("diagtui-checkpoint".into())
        .spawn(move || run(&conn, &nudged))
        .map_err(|e| StoreError::Internal(format!("cannot start the checkpointer: {e}")))?;
    Ok(Nudge(nudge))
}

/// Checkpoints once per nudge, at most once per interval.
fn run(conn: &Connection, nudged: &Receiver<()>) {
    while nudged.recv().is_ok() {
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!("a checkpoint failed: {e}");
        }
        std::thread::sleep(INTERVAL);
    }
}
