//! The writer: one thread owning the one connection that writes, committing the write requests
//! queued meanwhile together in one transaction (group commit). Each request runs under its own
//! savepoint, so one that fails leaves the others in; each is answered only after the commit,
//! and its report reaches the observer (write-through, live events) first, in commit order.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rusqlite::{Connection, TransactionBehavior};
use tokio::sync::mpsc;

use super::apply::{apply, touch_changed};
use super::checkpointer;
use super::freshness::{Freshness, bump_generation};
use crate::batch::Batch;
use crate::change::Committed;
use crate::engine::CommitObserver;
use crate::object::StoredObject;
use crate::write::{Job, Outcome, WriteOp};
use crate::{StoreError, StoreResult};
use diagtui_model::ids::now_timestamp;

/// The most write requests committed in one transaction.
const MAX_BATCH: usize = 128;
/// How many write requests may wait for the writer before senders wait too.
pub const QUEUE: usize = 1024;

/// What surrounds a writer: how it notices other processes' commits and whom it tells of its
/// own. A one-off write outside a running store has neither.
pub struct Around {
    /// The check for other processes' commits.
    pub freshness: Option<Arc<Freshness>>,
    /// Who learns of each commit.
    pub observer: Option<Arc<dyn CommitObserver>>,
    /// Told after each commit that the WAL grew; without it, commits checkpoint themselves.
    pub checkpoints: Option<checkpointer::Nudge>,
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
                let mut jobs = vec![first];
                while jobs.len() < MAX_BATCH {
                    match queue.try_recv() {
                        Ok(job) => jobs.push(job),
                        Err(_) => break,
                    }
                }
                let (mut ops, replies): (Vec<WriteOp>, Vec<_>) =
                    jobs.into_iter().map(|job| (job.op, job.reply)).unzip();
                let bulky = ops.iter().any(WriteOp::is_bulky);
                let done = run_batch(&mut conn, &mut ops, &around);
                for (reply, answer) in replies.into_iter().zip(done.answers) {
                    let _ = reply.send(answer);
                }
                if let Some(checkpoints) = &around.checkpoints {
                    checkpoints.nudge();
                }
                drop((ops, done.replaced));
                if bulky {
                    give_memory_back(&conn);
                }
            }
        })
        .map_err(|e| StoreError::Internal(format!("cannot start the writer: {e}")))?;
    Ok(sender)
}

/// What a batch did.
pub struct Done {
    /// Each request's answer, in order.
    pub answers: Vec<StoreResult<Outcome>>,
    /// The objects the writes replaced, to drop once the requests are answered.
    pub replaced: Vec<Arc<StoredObject>>,
}

/// Runs write requests in one transaction.
pub fn run_batch(conn: &mut Connection, ops: &mut [WriteOp], around: &Around) -> Done {
    let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return failed(ops.len(), &format!("cannot begin a write: {e}")),
    };
    let generation = match bump_generation(&tx) {
        Ok(generation) => generation,
        Err(e) => return failed(ops.len(), &e.to_string()),
    };
    let elsewhere = around.freshness.as_ref().is_some_and(|freshness| {
        freshness.generations.begin_write(generation, || {
            if let Some(observer) = &around.observer {
                observer.changed_elsewhere();
            }
        })
    });
    let mut batch = Batch::new(now_timestamp(), elsewhere, around.observer.as_deref());
    let mut results = Vec::with_capacity(ops.len());
    for op in ops.iter_mut() {
        let result = in_savepoint(&tx, || {
            catch_unwind(AssertUnwindSafe(|| apply(&tx, op, &mut batch)))
                .unwrap_or_else(|_| Err(StoreError::Internal("a write panicked".into())))
        });
        if let Ok((_, report)) = &result {
            batch.record(report);
        }
        results.push(result);
    }
    let reports: Vec<&Committed> = results
        .iter()
        .filter_map(|result| result.as_ref().ok().map(|(_, report)| report))
        .collect();
    let committed = touch_changed(&tx, &reports, &batch.now)
        .and_then(|()| tx.commit().map_err(StoreError::from));
    if let Some(freshness) = &around.freshness {
        freshness.generations.end_write(committed.is_ok(), || {
            if let Some(observer) = &around.observer {
                observer.changed_elsewhere();
            }
        });
    }
    if let Err(e) = committed {
        return failed(ops.len(), &format!("the commit failed: {e}"));
    }
    let mut replaced = Vec::new();
    let answers = results
        .into_iter()
        .map(|result| {
            result.map(|(outcome, report)| {
                if let Some(observer) = &around.observer {
                    replaced.extend(observer.committed(Arc::new(report)));
                }
                outcome
            })
        })
        .collect();
    Done { answers, replaced }
}

/// Gives the memory a bulky write took back to the operating system: the writer's page cache,
/// and the pages the allocator keeps free.
fn give_memory_back(conn: &Connection) {
    let _ = conn.execute_batch("PRAGMA shrink_memory");
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free heap pages to the kernel; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Runs `f` under a savepoint (prepared once, not parsed per request): kept when it succeeds,
/// rolled back when it fails.
fn in_savepoint<T>(conn: &Connection, f: impl FnOnce() -> StoreResult<T>) -> StoreResult<T> {
    let run = |sql: &str| -> StoreResult<()> {
        conn.prepare_cached(sql)?.execute([])?;
        Ok(())
    };
    run("SAVEPOINT request")?;
    match f() {
        Ok(value) => {
            run("RELEASE request")?;
            Ok(value)
        }
        Err(e) => {
            run("ROLLBACK TO request")?;
            run("RELEASE request")?;
            Err(e)
        }
    }
}

/// The same internal failure for every request of a batch.
fn failed(count: usize, detail: &str) -> Done {
    Done {
        answers: (0..count)
            .map(|_| Err(StoreError::Internal(detail.to_owned())))
            .collect(),
        replaced: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqlite::{account_by_key_once, open_migrated, write_once};

    #[test]
    fn a_failed_request_leaves_the_others_of_its_batch_in() {
        let dir = tempfile::tempdir().unwrap();
        let Outcome::Initialised(Some(key)) = write_once(
            dir.path(),
            WriteOp::Initialise {
                samples: Vec::new(),
            },
        )
        .unwrap() else {
            panic!("set up");
        };
        let me = account_by_key_once(dir.path(), &key).unwrap().unwrap();
        let create = |title: &str| WriteOp::CreateDoc {
            account_id: me.id.clone(),
            title: title.into(),
            folder_id: None,
        };
        let mut ops = [
            create("first"),
            WriteOp::DeleteDoc {
                account_id: me.id.clone(),
                doc_id: "no such document".into(),
            },
            create("third"),
        ];
        let (_, mut conn) = open_migrated(dir.path()).unwrap();
        let around = Around {
            freshness: None,
            observer: None,
            checkpoints: None,
        };
        let answers = run_batch(&mut conn, &mut ops, &around).answers;
        assert!(matches!(answers[0], Ok(Outcome::Created(_))));
        assert!(matches!(answers[1], Err(StoreError::DocNotFound(_))));
        assert!(matches!(answers[2], Ok(Outcome::Created(_))));
        let titles: Vec<String> = conn
            .prepare("SELECT title FROM documents ORDER BY title")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(titles, ["first", "third"]);
    }
}
