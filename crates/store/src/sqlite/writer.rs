//! The writer: one thread owning the one connection that writes, running the shared write
//! path (see [`writer`](crate::writer)) on the write requests queued meanwhile. SQLite's
//! statements never wait, so the path runs to its end on this thread at its first poll.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use rusqlite::{Connection, TransactionBehavior};
use tokio::sync::mpsc;

use super::checkpointer;
use super::docs::touch;
use super::freshness::{Freshness, bump_generation};
use super::statements::Writing;
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::{StoreError, StoreResult};
use crate::history::record;
use crate::observer::CommitObserver;
use crate::writer::{Closing, Done, Job, QUEUE, Transaction, Turns, answer, gather, run_batch};

/// What surrounds a writer: how it notices other processes' commits and whom it tells of its
/// own. A one-off write outside a running store has neither.
pub struct Around {
    /// The check for other processes' commits.
    pub freshness: Option<Arc<Freshness>>,
    /// Who learns of each commit.
    pub observer: Option<Arc<dyn CommitObserver>>,
    /// Told after each commit that the WAL grew, and asked whether to finish a checkpoint
    /// (see [`checkpointer`]); without it, commits checkpoint themselves.
    pub checkpoints: Option<checkpointer::Nudge>,
}

impl Around {
    /// Tells the observer, if any, that another process changed the database.
    fn changed_elsewhere(&self) {
        if let Some(observer) = &self.observer {
            observer.changed_elsewhere();
        }
    }
}

/// On SQLite, what is kept was read by this process alone, so a commit's turn is at once; the
/// commit counter tells another process's commits apart (see [`Freshness`]).
impl Turns for Around {
    fn observer(&self) -> Option<&dyn CommitObserver> {
        self.observer.as_deref()
    }

    async fn missed_before(&self, generation: i64) -> bool {
        self.freshness.as_ref().is_some_and(|freshness| {
            freshness
                .generations
                .begin_write(generation, || self.changed_elsewhere())
        })
    }

    fn ended(&self, committed: bool) {
        if let Some(freshness) = &self.freshness {
            freshness
                .generations
                .end_write(committed, || self.changed_elsewhere());
        }
    }

    fn in_turn(&self, _generation: i64, report: impl FnOnce()) {
        report();
    }
}

/// Runs the writer on its own thread until every sender is gone.
pub fn spawn(mut conn: Connection, around: Around) -> StoreResult<mpsc::Sender<Job>> {
    let (sender, mut queue) = mpsc::channel::<Job>(QUEUE);
    std::thread::Builder::new()
        .name("diagtui-writer".into())
        .spawn(move || {
            while let Some(first) = queue.blocking_recv() {
                // Woken by the first request, let the threads that are handing in more (on
                // the same core, they would wait for this one) queue them: one commit for all.
                if queue.is_empty() {
                    std::thread::yield_now();
                }
                let mut jobs = gather(first, &mut queue);
                let bulky = jobs.iter().any(Job::is_bulky);
                let done = run(&mut conn, &mut jobs, &around);
                answer(&mut jobs, done.results);
                if let Some(checkpoints) = &around.checkpoints {
                    if checkpoints.finish_wanted() {
                        checkpoints.finish(&conn);
                    }
                    checkpoints.nudge();
                    if checkpoints.paced() {
                        std::thread::sleep(checkpointer::PACE);
                    }
                }
                drop((jobs, done.replaced));
                if bulky {
                    give_memory_back(&conn);
                }
            }
        })
        .map_err(|e| StoreError::Internal(format!("cannot start the writer: {e}")))?;
    Ok(sender)
}

/// Runs write requests in one transaction on this thread.
pub fn run(conn: &mut Connection, jobs: &mut [Job], around: &Around) -> Done {
    match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => block_on(run_batch(Tx(tx), jobs, around)),
        Err(e) => Done::failed(jobs.len(), &e.into()),
    }
}

/// The writer's transaction.
struct Tx<'c>(rusqlite::Transaction<'c>);

impl Tx<'_> {
    /// Runs a statement without parameters, prepared once rather than parsed per request.
    fn run(&self, sql: &str) -> StoreResult<()> {
        self.0.prepare_cached(sql)?.execute([])?;
        Ok(())
    }
}

impl Transaction for Tx<'_> {
    async fn begin(&mut self, _first: &Job) -> StoreResult<i64> {
        let generation = bump_generation(&self.0)?;
        self.run("SAVEPOINT request")?;
        Ok(generation)
    }

    async fn apply(&self, job: &mut Job, batch: &mut Batch<'_>) -> StoreResult<Committed> {
        let now = batch.now.clone();
        let writing = Writing {
            conn: &self.0,
            now: &now,
        };
        job.apply(&writing, batch).await
    }

    async fn end_request(&mut self, keep: bool, next: bool) -> StoreResult<()> {
        if !keep {
            self.run("ROLLBACK TO request")?;
        }
        self.run("RELEASE request")?;
        if next {
            self.run("SAVEPOINT request")?;
        }
        Ok(())
    }

    /// No other instance reads reports from a data dir: they are not written down.
    async fn commit(self, closing: Closing<'_>) -> StoreResult<()> {
        let writing = Writing {
            conn: &self.0,
            now: closing.now,
        };
        record::write(&writing, closing.versions, closing.heads).await?;
        for doc_id in closing.touched {
            touch(&self.0, doc_id, closing.now)?;
        }
        Ok(self.0.commit()?)
    }
}

/// Runs a future on this thread to its end, sleeping whenever it waits.
pub(super) fn block_on<T>(future: impl Future<Output = T>) -> T {
    /// Wakes the thread that sleeps.
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(value) => return value,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Gives the memory a bulky write took back to the operating system: the writer's page cache,
/// and the pages the allocator keeps free.
#[allow(unsafe_code, reason = "FFI: malloc_trim")]
fn give_memory_back(conn: &Connection) {
    let _ = conn.execute_batch("PRAGMA shrink_memory");
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free heap pages to the kernel; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}
