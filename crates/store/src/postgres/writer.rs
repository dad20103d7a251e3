//! The writer: one task running the shared write path (see [`writer`](crate::writer)) on the
//! write requests queued meanwhile, as the SQLite engine's writer does. Its statements are
//! pipelined: the counter's bump travels with the first request's savepoint (one query, so that
//! the savepoint begins after it), each request's
//! release with the next one's savepoint, the `lastChange` updates with the reports to the
//! other instances (see [`notify`](super::notify)). Its commits take their turn in commit order
//! among every instance's (see [`sequence`](super::sequence)).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use deadpool_postgres::Pool;
use tokio::sync::mpsc;
use tokio_postgres::SimpleQueryMessage;

use super::docs::touch;
use super::freshness::BUMP;
use super::notify;
use super::sequence::Sequence;
use super::statements::Writing;
use crate::batch::Batch;
use crate::engine::CommitObserver;
use crate::history::record;
use crate::write::{Job, WriteOp};
use crate::writer::{Applied, Closing, Done, QUEUE, Queued, Transaction, Turns, apply, run_batch};
use crate::{StoreError, StoreResult};

/// What surrounds a writer: where its commits take their turn among every instance's, whom it
/// tells of its own, and the name it signs its reports with. A one-off write has no sequence
/// or observer.
pub struct Around {
    /// The commits applied to what this instance keeps.
    pub sequence: Option<Arc<Sequence>>,
    /// Who learns of each commit.
    pub observer: Option<Arc<dyn CommitObserver>>,
    /// This instance's name in the reports it sends.
    pub instance: String,
    /// Counts the notifications sent (see [`notify::send`]).
    pub serial: AtomicU64,
}

/// On PostgreSQL, every instance's commits are applied to what each keeps in commit order.
impl Turns for Around {
    fn observer(&self) -> Option<&dyn CommitObserver> {
        self.observer.as_deref()
    }

    /// Plans made from cached documents hold only once every commit before this one is
    /// applied to them; when one is not (its report lost or late), everything kept is dropped.
    async fn missed_before(&self, generation: i64) -> bool {
        let (Some(sequence), Some(observer)) = (&self.sequence, &self.observer) else {
            return false;
        };
        if sequence.caught_up(generation - 1).await {
            return false;
        }
        sequence.skip_to(generation - 1, || observer.changed_elsewhere());
        true
    }

    /// A transaction that did not commit took no value of the counter: nothing to wait for.
    fn ended(&self, _committed: bool) {}

    fn in_turn(&self, generation: i64, report: impl FnOnce()) {
        match &self.sequence {
            Some(sequence) => sequence.apply(generation, report),
            None => report(),
        }
    }
}

/// Runs the writer as a task until every sender is gone. Each batch runs on a task of its
/// own, one after the other: should a batch panic outside its requests, its requests fail
/// (their answers are dropped) and the writer goes on with the next.
pub fn spawn(pool: Pool, around: Around) -> mpsc::Sender<Job> {
    let (sender, mut queue) = mpsc::channel::<Job>(QUEUE);
    let around = Arc::new(around);
    tokio::spawn(async move {
        while let Some(first) = queue.recv().await {
            let mut queued = Queued::gather(first, &mut queue);
            let (pool, around) = (pool.clone(), Arc::clone(&around));
            let batch = tokio::spawn(async move {
                let done = run(&pool, &mut queued.ops, &around).await;
                let ops = queued.answer(done.answers);
                drop((ops, done.replaced));
            });
            if let Err(e) = batch.await {
                tracing::error!("a write batch failed: {e}");
            }
        }
    });
    sender
}

/// Runs write requests in one transaction on a pooled connection.
pub async fn run(pool: &Pool, ops: &mut [WriteOp], around: &Around) -> Done {
    let mut client = match pool.get().await {
        Ok(client) => client,
        Err(e) => return Done::failed(ops.len(), &e.into()),
    };
    match client.transaction().await {
        Ok(tx) => run_batch(Tx { tx, around }, ops, around).await,
        Err(e) => Done::failed(ops.len(), &e.into()),
    }
}

/// The writer's transaction.
struct Tx<'c> {
    tx: deadpool_postgres::Transaction<'c>,
    around: &'c Around,
}

impl Transaction for Tx<'_> {
    /// The counter's bump and the first request's savepoint, in one round trip: one simple
    /// query of two statements, so that the savepoint always begins after the bump. (Sent as
    /// two pipelined statements, a bump not yet prepared on its connection ran after the
    /// savepoint, and a first request that failed took the bump back with it: the next batch
    /// took the same value, and its commit was never applied to what the instance keeps.)
    async fn begin(&mut self) -> StoreResult<i64> {
        let sql = format!("{BUMP}; SAVEPOINT request");
        let messages = self.tx.simple_query(&sql).await?;
        let bumped = messages.iter().find_map(|message| match message {
            SimpleQueryMessage::Row(row) => row.get(0),
            _ => None,
        });
        bumped
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| StoreError::Internal("the generation counter is missing".into()))
    }

    async fn apply(&self, op: &mut WriteOp, batch: &mut Batch<'_>) -> StoreResult<Applied> {
        let now = batch.now.clone();
        let writing = Writing {
            client: &self.tx,
            now: &now,
        };
        apply(&writing, op, batch).await
    }

    /// One round trip: the request's end with the next one's start.
    async fn end_request(&mut self, keep: bool, next: bool) -> StoreResult<()> {
        let sql = match (keep, next) {
            (true, false) => "RELEASE request",
            (true, true) => "RELEASE request; SAVEPOINT request",
            (false, false) => "ROLLBACK TO request; RELEASE request",
            (false, true) => "ROLLBACK TO request; RELEASE request; SAVEPOINT request",
        };
        Ok(self.tx.batch_execute(sql).await?)
    }

    /// The versions, the `lastChange` updates and the reports: independent statements,
    /// pipelined.
    async fn commit(self, closing: Closing<'_>) -> StoreResult<()> {
        let signed = notify::Signed {
            instance: &self.around.instance,
            generation: closing.generation,
            serial: &self.around.serial,
        };
        let writing = Writing {
            client: &self.tx,
            now: closing.now,
        };
        tokio::try_join!(
            record::write(&writing, closing.versions, closing.heads),
            touch(&self.tx, &closing.touched, closing.now),
            notify::send(&self.tx, &signed, closing.reports)
        )?;
        Ok(self.tx.commit().await?)
    }
}
