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
use crate::engine::CommitObserver;
use crate::history::record;
use crate::write::{Job, WriteOp};
use crate::writer::{Applied, Closing, Done, QUEUE, Queued, Transaction, Turns, apply, run_batch};
use crate::{StoreError, StoreResult};

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
                let mut queued = Queued::gather(first, &mut queue);
                let bulky = queued.ops.iter().any(WriteOp::is_bulky);
                let done = run(&mut conn, &mut queued.ops, &around);
                let ops = queued.answer(done.answers);
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

/// Runs write requests in one transaction on this thread.
pub fn run(conn: &mut Connection, ops: &mut [WriteOp], around: &Around) -> Done {
    match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => block_on(run_batch(Tx(tx), ops, around)),
        Err(e) => Done::failed(ops.len(), &e.into()),
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
    async fn begin(&mut self, _first: &WriteOp) -> StoreResult<i64> {
        let generation = bump_generation(&self.0)?;
        self.run("SAVEPOINT request")?;
        Ok(generation)
    }

    async fn apply(&self, op: &mut WriteOp, batch: &mut Batch<'_>) -> StoreResult<Applied> {
        let now = batch.now.clone();
        let writing = Writing {
            conn: &self.0,
            now: &now,
        };
        apply(&writing, op, batch).await
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Account;
    use crate::sqlite::{account_by_key_once, open_migrated, write_once};
    use crate::write::Outcome;

    /// A writer that nobody observes or follows.
    const ALONE: Around = Around {
        freshness: None,
        observer: None,
        checkpoints: None,
    };

    /// A data dir set up in `dir` with no samples; its account.
    fn set_up(dir: &std::path::Path) -> Account {
        let op = WriteOp::Initialise {
            samples: Vec::new(),
        };
        let Outcome::Initialised(Some(key)) = write_once(dir, op).unwrap() else {
            panic!("set up");
        };
        account_by_key_once(dir, &key).unwrap().unwrap()
    }

    #[test]
    fn a_failed_request_leaves_the_others_of_its_batch_in() {
        let dir = tempfile::tempdir().unwrap();
        let me = set_up(dir.path());
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
        let around = ALONE;
        let answers = run(&mut conn, &mut ops, &around).answers;
        let created = |answer: &StoreResult<Outcome>| matches!(answer, Ok(outcome) if matches!(outcome.clone().versioned().0, Outcome::Created(_)));
        assert!(created(&answers[0]));
        assert!(matches!(answers[1], Err(StoreError::DocNotFound(_))));
        assert!(created(&answers[2]));
        let titles: Vec<String> = conn
            .prepare("SELECT title FROM documents ORDER BY title")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(titles, ["first", "third"]);
    }

    /// Two updates naming the object's version, committed in one batch (one transaction):
    /// the second's check runs against what the first wrote, so it fails and writes nothing.
    #[test]
    fn two_updates_at_one_version_in_one_batch_commit_only_the_first() {
        use crate::object::StoredObject;
        use crate::write::ObjectUpdate;
        use diagtui_model::props::ObjectType;
        use diagtui_model::versions::VersionCondition;

        let dir = tempfile::tempdir().unwrap();
        let me = set_up(dir.path());
        let create_doc = WriteOp::CreateDoc {
            account_id: me.id.clone(),
            title: "Raced".into(),
            folder_id: None,
        };
        let Outcome::Created(doc) = write_once(dir.path(), create_doc).unwrap().versioned().0
        else {
            panic!("a document");
        };
        let object = StoredObject::created(ObjectType::Label, r#"{"text":"start"}"#);
        let create = WriteOp::CreateObject {
            account_id: me.id.clone(),
            doc_id: doc.clone(),
            object: Arc::new(object),
        };
        let (Outcome::Created(obj), Some(read)) =
            write_once(dir.path(), create).unwrap().versioned()
        else {
            panic!("an object at a version");
        };
        let update = |text: &str| {
            let props = serde_json::json!({ "text": text })
                .as_object()
                .unwrap()
                .clone();
            WriteOp::UpdateObjects {
                account_id: me.id.clone(),
                doc_id: doc.clone(),
                update: Arc::new(ObjectUpdate::Each {
                    objects: [(obj.clone(), props)].into(),
                    labelled: false,
                    if_versions: [(obj.clone(), VersionCondition::OneOf(vec![read]))].into(),
                }),
                plan: None,
            }
        };
        let mut ops = [update("first"), update("second")];
        let (_, mut conn) = open_migrated(dir.path()).unwrap();
        let answers = run(&mut conn, &mut ops, &ALONE).answers;
        let (_, written) = answers[0].clone().unwrap().versioned();
        assert_eq!(written, Some(read + 1));
        let Err(StoreError::PreconditionFailed(failed)) = &answers[1] else {
            panic!("the second is refused: {:?}", answers[1]);
        };
        assert_eq!(failed.document_version, read + 1);
        let current = failed.objects.as_ref().unwrap()[0].1.as_ref().unwrap();
        assert_eq!(current.version(), read + 1);
        assert!(current.data().contains("first"), "{}", current.data());
        let (data, version): (String, i64) = conn
            .query_row(
                "SELECT data, version FROM objects WHERE obj_id = ?1",
                [&obj],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert!(data.contains("first"), "{data}");
        assert_eq!(version as u64, read + 1);
    }

    /// The numbers a query answers for a document.
    fn numbers(conn: &Connection, sql: &str, doc: &str) -> Vec<i64> {
        conn.prepare(sql)
            .unwrap()
            .query_map([doc], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// A document's stored versions; `alone`: only those whose row keeps the one object they
    /// changed.
    fn versions_of(conn: &Connection, doc: &str, alone: bool) -> Vec<i64> {
        let sql = format!(
            "SELECT v.id - h.num * 1099511627776 FROM history_heads h JOIN history_versions v \
             ON v.id / 1099511627776 = h.num WHERE h.doc_id = ?1 {} ORDER BY v.id",
            if alone {
                "AND v.obj_id IS NOT NULL"
            } else {
                ""
            }
        );
        numbers(conn, &sql, doc)
    }

    /// The versions of a document's snapshots, one per object.
    fn snapshots_of(conn: &Connection, doc: &str) -> Vec<i64> {
        let sql = "SELECT version FROM history_snapshots WHERE doc_id = ?1 ORDER BY version";
        numbers(conn, sql, doc)
    }

    /// How many versions belong to no history.
    fn orphans(conn: &Connection) -> i64 {
        conn.query_row(
            "SELECT count(*) FROM history_versions WHERE id / 1099511627776 NOT IN \
             (SELECT num FROM history_heads)",
            [],
            |row| row.get(0),
        )
        .unwrap()
    }

    /// A batch's versions are written at its commit: a failed request's are not, a document
    /// deleted later in the batch takes its own with it, and a compaction in the batch sees only
    /// what earlier batches stored.
    #[test]
    fn a_batch_writes_the_versions_of_its_committed_requests_at_its_commit() {
        use crate::object::StoredObject;
        use diagtui_model::props::ObjectType;

        let dir = tempfile::tempdir().unwrap();
        let me = set_up(dir.path());
        let create_doc = |title: &str| WriteOp::CreateDoc {
            account_id: me.id.clone(),
            title: title.into(),
            folder_id: None,
        };
        let Outcome::Created(kept) = write_once(dir.path(), create_doc("kept"))
            .unwrap()
            .versioned()
            .0
        else {
            panic!("a document");
        };
        let Outcome::Created(gone) = write_once(dir.path(), create_doc("gone"))
            .unwrap()
            .versioned()
            .0
        else {
            panic!("a document");
        };
        let label = |doc: &str| WriteOp::CreateObject {
            account_id: me.id.clone(),
            doc_id: doc.to_owned(),
            object: Arc::new(StoredObject::created(ObjectType::Label, r#"{"text":"a"}"#)),
        };
        let compact = || WriteOp::CompactHistory {
            cutoff: "9999-01-01T00:00:00.000Z".into(),
        };
        let mut ops = [
            label(&kept),
            WriteOp::DeleteObject {
                account_id: me.id.clone(),
                doc_id: kept.clone(),
                obj_id: "nosuchobject".into(),
                if_match: None,
            },
            label(&kept),
            label(&gone),
            WriteOp::DeleteDoc {
                account_id: me.id.clone(),
                doc_id: gone.clone(),
            },
            compact(),
        ];
        let (_, mut conn) = open_migrated(dir.path()).unwrap();
        let around = ALONE;
        let answers = run(&mut conn, &mut ops, &around).answers;
        assert!(matches!(answers[1], Err(StoreError::ObjNotFound(_))));
        assert!(
            answers
                .iter()
                .enumerate()
                .all(|(at, a)| at == 1 || a.is_ok())
        );
        assert_eq!(versions_of(&conn, &kept, false), [1, 2, 3]);
        assert_eq!(
            versions_of(&conn, &kept, true),
            [2, 3],
            "one label each, in its row"
        );
        assert_eq!(versions_of(&conn, &gone, false), [0; 0]);
        assert_eq!(
            orphans(&conn),
            0,
            "the deleted document's versions went with it"
        );
        // The compaction in the batch kept everything: nothing stored was older than version 1.
        assert_eq!(snapshots_of(&conn, &kept), [0; 0]);

        // Compacted in a batch of its own, the history keeps its newest version as a snapshot
        // of the content then: both labels.
        let answers = run(&mut conn, &mut [compact()], &around).answers;
        assert!(answers[0].is_ok());
        assert_eq!(versions_of(&conn, &kept, false), [3]);
        assert_eq!(snapshots_of(&conn, &kept), [3, 3]);
    }
}
