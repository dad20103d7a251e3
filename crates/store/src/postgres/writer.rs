//! The writer: one task running the shared write path (see [`writer`](crate::writer)) on the
//! write requests queued meanwhile, as the SQLite engine's writer does. Its round trips are
//! few, since each costs both processes CPU: the transaction's start travels with the
//! counter's bump, the first request's savepoint and that request's read ahead (an update of
//! named objects reads the document's access, the objects and its history's head in one
//! statement, see [`read_ahead`]), each request's release with the next one's savepoint (the
//! last one needs none), and the `lastChange` updates in one statement with the reports to
//! the other instances (see [`notify`](super::notify)), pipelined with the history's rows. An
//! update of one object is thus five round trips: start, update, closing, commit, and the
//! request's freshness check before it. Its commits take their turn in commit order among
//! every instance's (see [`sequence`](super::sequence)).

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use deadpool_postgres::{Client, Object, Pool};
use futures_util::TryStreamExt;
use tokio::sync::mpsc;
use tokio_postgres::SimpleQueryMessage;

use super::freshness::BUMP;
use super::notify;
use super::sequence::Sequence;
use super::statements::{ReadAhead, Writing, read_ahead};
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::{StoreError, StoreResult};
use crate::history::record;
use crate::observer::CommitObserver;
use crate::writer::{Closing, Done, Job, QUEUE, Transaction, Turns, answer, gather, run_batch};

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
            let mut jobs = gather(first, &mut queue);
            let (pool, around) = (pool.clone(), Arc::clone(&around));
            let batch = tokio::spawn(async move {
                let done = run(&pool, &mut jobs, &around).await;
                answer(&mut jobs, done.results);
                drop((jobs, done.replaced));
            });
            if let Err(e) = batch.await {
                tracing::error!("a write batch failed: {e}");
            }
        }
    });
    sender
}

/// Runs write requests in one transaction on a pooled connection.
pub async fn run(pool: &Pool, jobs: &mut [Job], around: &Around) -> Done {
    match pool.get().await {
        Ok(client) => {
            let tx = Tx {
                client: Some(client),
                around,
                first_ahead: Mutex::new(None),
            };
            run_batch(tx, jobs, around).await
        }
        Err(e) => Done::failed(jobs.len(), &e.into()),
    }
}

/// The writer's transaction, on a pooled connection. It begins with its first statements
/// rather than a round trip of its own; one that does not end committed (a batch that failed,
/// a panic) closes its connection instead of pooling it, which rolls it back.
struct Tx<'c> {
    /// The connection, until the transaction committed.
    client: Option<Client>,
    around: &'c Around,
    /// What the first request read ahead with the transaction's start, until it runs.
    first_ahead: Mutex<Option<StoreResult<Option<ReadAhead>>>>,
}

impl Tx<'_> {
    /// The connection of the open transaction.
    fn client(&self) -> &Client {
        self.client.as_ref().expect("the transaction is open")
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            drop(Object::take(client));
        }
    }
}

impl Transaction for Tx<'_> {
    /// The transaction's start, the counter's bump and the first request's savepoint, in one
    /// round trip: one simple query of three statements, so that the savepoint always begins
    /// after the bump. (Sent as pipelined statements, a bump not yet prepared on its connection
    /// ran after the savepoint, and a first request that failed took the bump back with it: the
    /// next batch took the same value, and its commit was never applied to what the instance
    /// keeps.) The first request's read ahead travels in the same round trip, sent once the
    /// start is, so that it reads inside the transaction, after the bump.
    async fn begin(&mut self, first: &Job) -> StoreResult<i64> {
        let sql = format!("BEGIN; {BUMP}; SAVEPOINT request");
        let client = self.client();
        // Sends the start without waiting for its answers.
        let started = client.simple_query_raw(&sql).await?;
        let (messages, ahead) =
            tokio::join!(started.try_collect::<Vec<_>>(), read_ahead(client, first));
        let messages = messages?;
        *self.first_ahead.lock().expect("not poisoned") = Some(ahead);
        let bumped = messages.iter().find_map(|message| match message {
            SimpleQueryMessage::Row(row) => row.get(0),
            _ => None,
        });
        bumped
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| StoreError::Internal("the generation counter is missing".into()))
    }

    async fn apply(&self, job: &mut Job, batch: &mut Batch<'_>) -> StoreResult<Committed> {
        let now = batch.now.clone();
        let writing = Writing::new(self.client(), &now);
        let first_ahead = self.first_ahead.lock().expect("not poisoned").take();
        let ahead = match first_ahead {
            Some(read) => read?,
            None => read_ahead(self.client(), job).await?,
        };
        writing.take_ahead(ahead, batch);
        job.apply(&writing, batch).await
    }

    /// At most one round trip: the request's end with the next one's start. The last request
    /// kept needs none (the commit takes its savepoint's work with it), and a savepoint rolled
    /// back to stays, ready for the next request.
    async fn end_request(&mut self, keep: bool, next: bool) -> StoreResult<()> {
        let sql = match (keep, next) {
            (true, false) => return Ok(()),
            (true, true) => "RELEASE request; SAVEPOINT request",
            (false, _) => "ROLLBACK TO request",
        };
        Ok(self.client().batch_execute(sql).await?)
    }

    /// The versions, and the `lastChange` updates with the reports: independent statements,
    /// pipelined.
    async fn commit(mut self, closing: Closing<'_>) -> StoreResult<()> {
        let client = self.client();
        let writing = Writing::new(client, closing.now);
        let sent = notify::Closing {
            signed: notify::Signed {
                instance: &self.around.instance,
                generation: closing.generation,
                serial: &self.around.serial,
            },
            reports: closing.reports,
            touched: &closing.touched,
            now: closing.now,
        };
        tokio::try_join!(
            record::write(&writing, closing.versions, closing.heads),
            notify::send(client, &sent)
        )?;
        client.batch_execute("COMMIT").await?;
        // Committed: the connection goes back to the pool.
        self.client = None;
        Ok(())
    }
}
