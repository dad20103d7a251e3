//! Noticing other instances' commits exactly: a request answered from memory first reads the
//! `generation` counter that every write transaction bumps and waits until this instance has
//! applied every commit up to it (see [`Sequence`]): another instance's (or `diagtui account
//! create`'s) is applied from its report, or, when the report cannot arrive in time, everything
//! kept is dropped. So a write answered by one instance is read by every other at once.
//!
//! One read of the counter serves every request that arrived before it started: requests take
//! a ticket, and a checker task reads the counter for all tickets issued so far, then answers
//! them together. Under load that is one small query per round trip, whatever the request rate.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use deadpool_postgres::Pool;
use tokio::sync::{Notify, watch};

use super::sequence::Sequence;
use super::sql::query_one;
use crate::error::{StoreError, StoreResult};
use crate::observer::CommitObserver;

/// The outcome of the last read of the counter: the tickets it covered, and its error.
#[derive(Clone, Default)]
struct Checked {
    covered: u64,
    error: Option<String>,
}

/// The check for other instances' commits.
pub struct Freshness {
    /// The commits applied to what this instance keeps.
    pub sequence: Arc<Sequence>,
    issued: AtomicU64,
    wake: Notify,
    checked: watch::Sender<Checked>,
}

/// Reads the counter.
pub async fn read_generation(c: &impl deadpool_postgres::GenericClient) -> StoreResult<i64> {
    Ok(query_one(c, "SELECT n FROM generation WHERE id = 1", &[])
        .await?
        .get(0))
}

/// The statement bumping the counter and returning its new value. The row lock it takes
/// orders the write transactions of every instance.
pub const BUMP: &str = "UPDATE generation SET n = n + 1 WHERE id = 1 RETURNING n";

/// Bumps the counter inside a write transaction; returns its new value.
pub async fn bump_generation(c: &impl deadpool_postgres::GenericClient) -> StoreResult<i64> {
    Ok(query_one(c, BUMP, &[]).await?.get(0))
}

impl Freshness {
    /// Checks against `sequence`; [`Freshness::run`] must run beside it.
    pub fn new(sequence: Arc<Sequence>) -> Freshness {
        Freshness {
            sequence,
            issued: AtomicU64::new(0),
            wake: Notify::new(),
            checked: watch::channel(Checked::default()).0,
        }
    }

    /// Makes sure that what the observer keeps is not older than the database as of now:
    /// every commit up to now applied, or everything kept forgotten.
    pub async fn check(&self) -> StoreResult<()> {
        let ticket = self.issued.fetch_add(1, Ordering::AcqRel) + 1;
        let mut checked = self.checked.subscribe();
        self.wake.notify_one();
        let outcome = checked
            .wait_for(|checked| checked.covered >= ticket)
            .await
            .map_err(|_| StoreError::Internal("the freshness check has stopped".into()))?;
        match &outcome.error {
            None => Ok(()),
            Some(e) => Err(StoreError::Unavailable(e.clone())),
        }
    }

    /// Reads the counter whenever tickets wait, for all of them at once, until the engine is
    /// dropped (the task is then aborted).
    pub async fn run(self: Arc<Self>, pool: Pool, observer: Arc<dyn CommitObserver>) {
        loop {
            let issued = self.issued.load(Ordering::Acquire);
            if self.checked.borrow().covered >= issued {
                self.wake.notified().await;
                continue;
            }
            let read = async { read_generation(&pool.get().await?).await }.await;
            let error = match read {
                Ok(generation) => {
                    if !self.sequence.caught_up(generation).await {
                        self.sequence
                            .skip_to(generation, || observer.changed_elsewhere());
                    }
                    None
                }
                Err(e) => Some(e.to_string()),
            };
            self.checked.send_replace(Checked {
                covered: issued,
                error,
            });
        }
    }
}
