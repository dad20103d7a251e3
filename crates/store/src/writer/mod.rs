//! The write path, written once for both engines. A writer commits the write requests queued
//! meanwhile together in one transaction (group commit), which bumps the `generation` counter.
//! Each request runs under a savepoint of its own, so one that fails, or panics, leaves the
//! others in; each is answered only after the commit, and its report reaches the observer
//! (write-through, live events) first, in commit order. An engine supplies its transaction,
//! its statements and its turns ([`statements`], [`transaction`]) and runs [`run_batch`] its own way: SQLite on
//! a thread of its own, PostgreSQL as a task.
//!
//! Each kind of write request is a type with its answer's type and its handler, in the file of
//! its area under [`ops`] (see [`request::Write`]), which lists its area's requests
//! (`area_ops!`); [`jobs`] holds any of them as the queue's [`Job`]. A new write is its type,
//! handler and name in its area's file, the statements it needs (a [`Statements`] method, and
//! each engine's: `sqlite/statements.rs` with the SQL in `sqlite/<area>.rs`, the same under
//! `postgres/`) and the `Store` method that sends it (`store/<area>.rs`).

pub(crate) mod jobs;
pub(crate) mod ops;
pub(crate) mod request;
mod statements;
mod transaction;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Instant;

use futures_util::FutureExt;
use tokio::sync::mpsc;

use crate::batch::{Batch, docs_deleted, docs_to_touch};
use crate::change::Committed;
use crate::error::{StoreError, StoreResult};
use diagtui_model::ids::now_timestamp;

pub use self::jobs::Job;
pub(crate) use self::jobs::{Queue, queue, request};
pub(crate) use self::statements::{Created, Moved, Replaced, Statements, Turns};
pub(crate) use self::transaction::{Closing, Transaction};

/// The most write requests committed in one transaction.
const MAX_BATCH: usize = 128;
/// How many write requests may wait for a writer before senders wait too.
pub(crate) const QUEUE: usize = 1024;

/// The first request and those queued behind it, up to a batch's worth.
pub(crate) fn gather(first: Job, queue: &mut mpsc::Receiver<Job>) -> Vec<Job> {
    // Room for all that waits, made once: a batch of large requests is not moved as it grows.
    let mut jobs = Vec::with_capacity(MAX_BATCH.min(queue.len() + 1));
    jobs.push(first);
    while jobs.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(job) => jobs.push(job),
            Err(_) => break,
        }
    }
    jobs
}

/// Answers each request of a batch with its result (the requests are dropped after, by the
/// caller: freeing them is no reason to keep a client waiting).
pub(crate) fn answer(jobs: &mut [Job], results: Vec<StoreResult<()>>) {
    for (job, result) in jobs.iter_mut().zip(results) {
        job.answer(result);
    }
}

/// What a batch did.
pub(crate) struct Done {
    /// Each request's result, in order (its answer is kept in its [`Job`]).
    pub results: Vec<StoreResult<()>>,
    /// The objects the writes replaced, to drop once the requests are answered.
    pub replaced: Replaced,
}

impl Done {
    /// The same failure for every request of a batch: unavailable when the database is, disk
    /// full when the disk is, else internal.
    pub fn failed(count: usize, error: &StoreError) -> Done {
        let results = (0..count)
            .map(|_| {
                Err(match error {
                    StoreError::Unavailable(e) => StoreError::Unavailable(e.clone()),
                    StoreError::DiskFull(e) => StoreError::DiskFull(e.clone()),
                    other => StoreError::Internal(format!("the write failed: {other}")),
                })
            })
            .collect();
        Done {
            results,
            replaced: Vec::new(),
        }
    }
}

/// Runs write requests in one transaction, `tx`, just begun; answers each, in order.
pub(crate) async fn run_batch(
    mut tx: impl Transaction,
    jobs: &mut [Job],
    turns: &impl Turns,
) -> Done {
    let count = jobs.len();
    let Some(first) = jobs.first() else {
        // Nothing to write, nothing to answer.
        return Done {
            results: Vec::new(),
            replaced: Vec::new(),
        };
    };
    let generation = match tx.begin(first).await {
        Ok(generation) => generation,
        Err(e) => return failed(turns, count, &e),
    };
    let began = Instant::now();
    let elsewhere = turns.missed_before(generation).await;
    let mut batch = Batch::new(now_timestamp(), elsewhere, turns.observer());
    let written = write(tx, generation, jobs, &mut batch).await;
    turns.ended(written.is_ok());
    let (results, versions) = match written {
        Ok(written) => written,
        Err(e) => return failed(turns, count, &e),
    };
    if let Some(observer) = turns.observer() {
        observer.wrote(results.iter().any(is_disk_full));
        let metrics = observer.metrics();
        metrics.batch_requests.observe(count as f64);
        metrics.batch_seconds.observe(began.elapsed().as_secs_f64());
        metrics.versions_written.inc_by(versions as u64);
    }
    let mut reports = Vec::with_capacity(count);
    let results = results
        .into_iter()
        .map(|result| result.map(|report| reports.push(report)))
        .collect();
    let mut replaced = Vec::new();
    if let Some(observer) = turns.observer() {
        turns.in_turn(generation, || {
            for report in reports {
                replaced.extend(observer.committed(Arc::new(report)));
            }
        });
    }
    Done { results, replaced }
}

/// Whether a result is a full disk's failure.
fn is_disk_full<T>(result: &StoreResult<T>) -> bool {
    matches!(result, Err(StoreError::DiskFull(_)))
}

/// A batch that failed as a whole, told to the observer when the disk was full.
fn failed(turns: &impl Turns, count: usize, error: &StoreError) -> Done {
    if let (Some(observer), StoreError::DiskFull(_)) = (turns.observer(), error) {
        observer.wrote(true);
    }
    Done::failed(count, error)
}

/// Runs each request under its savepoint, then commits: each request's result and how many
/// history versions were written, or the failure that undid them all. A request that panics
/// fails alone.
async fn write(
    mut tx: impl Transaction,
    generation: i64,
    jobs: &mut [Job],
    batch: &mut Batch<'_>,
) -> StoreResult<(Vec<StoreResult<Committed>>, usize)> {
    let count = jobs.len();
    let mut results = Vec::with_capacity(count);
    for (at, job) in jobs.iter_mut().enumerate() {
        let mark = batch.histories.mark();
        let result = AssertUnwindSafe(tx.apply(job, batch))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| Err(StoreError::Internal("a write panicked".into())));
        if result.is_err() {
            batch.histories.forget_from(mark);
        }
        tx.end_request(result.is_ok(), at + 1 < count).await?;
        if let Ok(report) = &result {
            batch.record(report);
        }
        results.push(result);
    }
    let reports: Vec<&Committed> = results
        .iter()
        .filter_map(|result| result.as_ref().ok())
        .collect();
    let (versions, heads) = batch.histories.take(&docs_deleted(&reports));
    let closing = Closing {
        generation,
        touched: docs_to_touch(&reports),
        now: &batch.now,
        reports: &reports,
        versions: &versions,
        heads: &heads,
    };
    tx.commit(closing).await?;
    Ok((results, versions.len()))
}

#[cfg(test)]
mod tests;
