//! An engine's write transaction as the write path drives it ([`Transaction`]): it runs the
//! batch's [`Job`]s, so it sits above them, and what its commit adds to their changes
//! ([`Closing`]).

use super::Job;
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::StoreResult;
use crate::history::{Head, Recorded};

/// One write transaction of an engine, as the write path drives it: every request of a batch
/// runs in it under a savepoint of its own.
pub(crate) trait Transaction: Sized {
    /// Bumps the `generation` counter and opens the first request's savepoint; returns the
    /// counter's new value. `first` is the batch's first request, which an engine may start
    /// reading for in the same round trip.
    async fn begin(&mut self, first: &Job) -> StoreResult<i64>;

    /// Runs one write request (through the engine's [`Statements`], see [`Job::apply`]),
    /// keeping its answer; returns what it changed.
    async fn apply(&self, job: &mut Job, batch: &mut Batch<'_>) -> StoreResult<Committed>;

    /// Ends the request's savepoint, keeping its changes (`keep`) or rolling them back, and
    /// opens the next request's savepoint when `next`.
    async fn end_request(&mut self, keep: bool, next: bool) -> StoreResult<()>;

    /// Writes the versions the batch recorded, sets the `lastChange` of the documents it
    /// changed, hands the committed requests' reports to whoever reads them from the database
    /// (other instances), and commits.
    async fn commit(self, closing: Closing<'_>) -> StoreResult<()>;
}

/// What the commit of a batch adds to its requests' own changes.
pub(crate) struct Closing<'a> {
    /// The transaction's value of the `generation` counter.
    #[cfg_attr(
        not(feature = "postgres"),
        expect(dead_code, reason = "only PostgreSQL sends reports")
    )]
    pub generation: i64,
    /// The documents whose `lastChange` becomes `now`.
    pub touched: Vec<&'a str>,
    /// The batch's time.
    pub now: &'a str,
    /// The committed requests' reports, in order.
    #[cfg_attr(
        not(feature = "postgres"),
        expect(dead_code, reason = "only PostgreSQL sends reports")
    )]
    pub reports: &'a [&'a Committed],
    /// The versions the committed requests recorded, to be written before the commit.
    pub versions: &'a [Recorded],
    /// Where the histories they advanced stand, to be written with them.
    pub heads: &'a [(String, Head)],
}
