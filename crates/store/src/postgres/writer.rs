//! The writer: one task that commits the write requests queued meanwhile together in one
//! transaction (group commit), as the SQLite engine's writer does. Each request runs under its
//! own savepoint, so one that fails leaves the others in; each is answered only after the
//! commit, and its report reaches the observer (write-through, live events) first, in commit
//! order among every instance's commits (see [`sequence`](super::sequence)), and the other
//! instances at the commit (see [`notify`](super::notify)).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use deadpool_postgres::Pool;
use tokio::sync::mpsc;

use super::apply::apply;
use super::docs::touch;
use super::freshness::bump_generation;
use super::notify;
use super::sequence::Sequence;
use crate::batch::{Batch, docs_to_touch};
use crate::change::Committed;
use crate::engine::CommitObserver;
use crate::write::{Job, Outcome, WriteOp};
use crate::{StoreError, StoreResult};
use diagtui_model::ids::now_timestamp;

/// The most write requests committed in one transaction.
const MAX_BATCH: usize = 128;
/// How many write requests may wait for the writer before senders wait too.
const QUEUE: usize = 1024;

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

/// Runs the writer as a task until every sender is gone. Each batch runs on a task of its
/// own, one after the other: a batch that panics fails its requests (their answers are
/// dropped) and the writer goes on with the next.
pub fn spawn(pool: Pool, around: Around) -> mpsc::Sender<Job> {
    let (sender, mut queue) = mpsc::channel::<Job>(QUEUE);
    let around = Arc::new(around);
    tokio::spawn(async move {
        while let Some(first) = queue.recv().await {
            let mut jobs = vec![first];
            while jobs.len() < MAX_BATCH {
                match queue.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            let (pool, around) = (pool.clone(), Arc::clone(&around));
            let batch = tokio::spawn(async move {
                let (mut ops, replies): (Vec<WriteOp>, Vec<_>) =
                    jobs.into_iter().map(|job| (job.op, job.reply)).unzip();
                let answers = run_batch(&pool, &mut ops, &around).await;
                for (reply, answer) in replies.into_iter().zip(answers) {
                    let _ = reply.send(answer);
                }
            });
            if let Err(e) = batch.await {
                tracing::error!("a write batch failed: {e}");
            }
        }
    });
    sender
}

/// Runs write requests in one transaction; answers each, in order.
pub async fn run_batch(
    pool: &Pool,
    ops: &mut [WriteOp],
    around: &Around,
) -> Vec<StoreResult<Outcome>> {
    let mut client = match pool.get().await {
        Ok(client) => client,
        Err(e) => return failed(ops.len(), &StoreError::from(e)),
    };
    let tx = match client.transaction().await {
        Ok(tx) => tx,
        Err(e) => return failed(ops.len(), &StoreError::from(e)),
    };
    // The counter's bump and the first request's savepoint travel together (pipelined).
    let started = tokio::try_join!(bump_generation(&tx), async {
        tx.batch_execute("SAVEPOINT request")
            .await
            .map_err(StoreError::from)
    });
    let generation = match started {
        Ok((generation, ())) => generation,
        Err(e) => return failed(ops.len(), &e),
    };
    // Plans made from cached documents hold only once every commit before this one is
    // applied to them; when one is not (its report lost or late), everything kept is dropped.
    let mut elsewhere = false;
    if let (Some(sequence), Some(observer)) = (&around.sequence, &around.observer)
        && !sequence.caught_up(generation - 1).await
    {
        sequence.skip_to(generation - 1, || observer.changed_elsewhere());
        elsewhere = true;
    }
    let mut batch = Batch::new(now_timestamp(), elsewhere, around.observer.as_deref());
    let mut results = Vec::with_capacity(ops.len());
    // Each request runs under a savepoint, released (or rolled back to) together with the
    // next one's start in one round trip.
    let count = ops.len();
    for (at, op) in ops.iter_mut().enumerate() {
        let result = apply(&tx, op, &mut batch).await;
        let end = if result.is_ok() {
            "RELEASE request"
        } else {
            "ROLLBACK TO request; RELEASE request"
        };
        let next = if at + 1 < count {
            "; SAVEPOINT request"
        } else {
            ""
        };
        if let Err(e) = tx.batch_execute(&format!("{end}{next}")).await {
            return failed(count, &e.into());
        }
        if let Ok((_, report)) = &result {
            batch.record(report);
        }
        results.push(result);
    }
    let reports: Vec<&Committed> = results
        .iter()
        .filter_map(|result| result.as_ref().ok().map(|(_, report)| report))
        .collect();
    let committed = async {
        let signed = notify::Signed {
            instance: &around.instance,
            generation,
            serial: &around.serial,
        };
        let touched = docs_to_touch(&reports);
        // Independent statements of one transaction: pipelined, one round trip.
        tokio::try_join!(
            touch(&tx, &touched, &batch.now),
            notify::send(&tx, &signed, &reports)
        )?;
        tx.commit().await.map_err(StoreError::from)
    }
    .await;
    if let Err(e) = committed {
        return failed(ops.len(), &e);
    }
    let (outcomes, reports): (Vec<_>, Vec<_>) = results
        .into_iter()
        .map(|result| match result {
            Ok((outcome, report)) => (Ok(outcome), Some(report)),
            Err(e) => (Err(e), None),
        })
        .unzip();
    if let (Some(sequence), Some(observer)) = (&around.sequence, &around.observer) {
        let mut replaced = Vec::new();
        sequence.apply(generation, || {
            for report in reports.into_iter().flatten() {
                replaced.extend(observer.committed(Arc::new(report)));
            }
        });
        // Freed outside the sequence's turn, which other commits and checks wait for.
        drop(replaced);
    }
    outcomes
}

/// The same failure for every request of a batch: unavailable when the database is, else
/// internal.
fn failed(count: usize, error: &StoreError) -> Vec<StoreResult<Outcome>> {
    (0..count)
        .map(|_| {
            Err(match error {
                StoreError::Unavailable(e) => StoreError::Unavailable(e.clone()),
                other => StoreError::Internal(format!("the write failed: {other}")),
            })
        })
        .collect()
}
