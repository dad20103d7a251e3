//! Every document's history: each committed write to a document adds a version (its number,
//! time, account and kind, and for each object it changed the data after it), recorded
//! by the writer inside the write's own transaction and savepoint, so that an acknowledged
//! write always has its version and a failed one none. Changes are stored, not copies: a
//! snapshot of the whole content is kept when a history begins and again whenever the objects
//! changed since the last one reach the document's size (at least [`SNAPSHOT_EVERY`]), so the
//! content at any version is a snapshot plus at most about a document's worth of changes.
//!
//! - [`record`]: what the write path calls, through an engine's [`HistoryWrites`];
//! - [`read`]: the answers to the history routes, through an engine's [`HistoryReads`];
//! - [`compact`]: retention, compacting what is older than the time kept into a snapshot.
//!
//! A document written before its history was kept starts it at its next write with a version
//! of kind `started` holding its content then. A document's history goes with it (the tables
//! cascade).

pub(crate) mod compact;
mod kept;
pub(crate) mod read;
pub(crate) mod record;
pub(crate) mod sql;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::error::StoreResult;
use crate::object::StoredObject;

pub(crate) use self::kept::Histories;
pub use self::read::PageQuery;

/// The fewest changed objects between two snapshots.
pub(crate) const SNAPSHOT_EVERY: u64 = 1000;

/// A version's row is keyed by its history's number times this plus the version (see
/// [`key`]), so that one document's versions are one range of integers: SQLite keeps them in
/// a rowid table, whose appends fill pages whole, where a table keyed by document and version
/// rewrote several half-full pages per commit. The `history::sql` statements write it as a
/// literal (1099511627776).
pub(crate) const KEY_SPAN: u64 = 1 << 40;

/// The most histories: keys stay within a signed 64-bit integer.
pub(crate) const MAX_HISTORIES: u64 = (i64::MAX as u64) / KEY_SPAN - 1;

/// The key of version `version` of history number `num`.
pub(crate) fn key(num: u64, version: u64) -> i64 {
    (num * KEY_SPAN + version) as i64
}

/// Objects by id.
pub(crate) type Objects = BTreeMap<String, Arc<StoredObject>>;

/// Where a document's history stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    /// The newest version.
    pub head: u64,
    /// How many objects changed since the last snapshot.
    pub pending: u64,
    /// How many objects the last snapshot held.
    pub snapshot_len: u64,
    /// The history's number, which keys its versions (see [`key`]).
    pub num: u64,
}

/// One object a version changed, as it was after it: absent when deleted. Its state before
/// is not stored: it is the content one version back (see [`read`]).
#[derive(Debug, Clone)]
pub(crate) struct Change {
    /// The object.
    pub obj_id: String,
    /// Its state after.
    pub after: Option<Arc<StoredObject>>,
}

/// A version a request recorded, kept by its batch until the commit (see
/// [`record::write`]).
#[derive(Debug)]
pub(crate) struct Recorded {
    /// The document.
    pub doc: String,
    /// Its history's number.
    pub num: u64,
    /// The version's row.
    pub row: VersionRow,
    /// How many objects the snapshot taken at it holds, when one was.
    pub snapshot_len: Option<u64>,
    /// The objects it changed.
    pub changes: Vec<Change>,
}

/// A version as stored: the detail (title, source, restored version) as JSON text.
#[derive(Debug, Clone)]
pub(crate) struct VersionRow {
    /// Its number.
    pub version: u64,
    /// When.
    pub at: String,
    /// Who: an account id when written, its e-mail address when read.
    pub account: Option<String>,
    /// The kind's text (`object-updated`).
    pub kind: String,
    /// How many objects it changed.
    pub changed: u64,
    /// The kind's details, as JSON text (see [`record::Detail`]).
    pub detail: Option<String>,
}

/// What the history routes read, in an engine's SQL, in one consistent view.
pub(crate) trait HistoryReads {
    /// Where the document's history stands; `None` before it began.
    async fn head(&self, doc: &str) -> StoreResult<Option<Head>>;
    /// The oldest version kept.
    async fn oldest(&self, doc: &str) -> StoreResult<u64>;
    /// Up to `limit` versions older than `before`, newest first (those that changed `object`
    /// only, when given), with their accounts' e-mail addresses.
    async fn versions(
        &self,
        doc: &str,
        before: u64,
        limit: usize,
        object: Option<&str>,
    ) -> StoreResult<Vec<VersionRow>>;
    /// The objects a version changed, as they were after it, in id order.
    async fn changes(&self, doc: &str, version: u64) -> StoreResult<Vec<Change>>;
    /// The state an object was left in by the newest kept version before `before` that
    /// changed it (`Some(None)` when that version deleted it); `None` when none did.
    async fn last_change(
        &self,
        doc: &str,
        obj: &str,
        before: u64,
    ) -> StoreResult<Option<Option<Arc<StoredObject>>>>;
    /// One object of the snapshot at a version, when it holds it.
    async fn snapshot_object(
        &self,
        doc: &str,
        version: u64,
        obj: &str,
    ) -> StoreResult<Option<Arc<StoredObject>>>;
    /// The newest snapshot at or before a version.
    async fn last_snapshot(&self, doc: &str, at_most: u64) -> StoreResult<Option<u64>>;
    /// The content a snapshot holds.
    async fn snapshot(&self, doc: &str, version: u64) -> StoreResult<Objects>;
    /// Each object's state after each version in `(after, up_to]`, oldest version first.
    async fn changes_between(&self, doc: &str, after: u64, up_to: u64) -> StoreResult<Vec<Change>>;
}

/// What recording a version asks of an engine, inside the writer's transaction.
pub(crate) trait HistoryWrites: HistoryReads {
    /// The document's objects now: those with these ids, or all of them.
    async fn current(&self, doc: &str, ids: Option<&[&str]>) -> StoreResult<Objects>;
    /// Sets where the history stands.
    async fn put_head(&self, doc: &str, head: &Head) -> StoreResult<()>;
    /// The number after the highest any history has.
    async fn next_num(&self) -> StoreResult<u64>;
    /// The lowest number no history has.
    async fn lowest_free_num(&self) -> StoreResult<u64>;
    /// Adds a version of history `num`; `snapshot` when a snapshot was taken at it; `only`
    /// the one object it changed, kept in its row, when it changed exactly one.
    async fn insert_version(
        &self,
        num: u64,
        row: &VersionRow,
        snapshot: bool,
        only: Option<&Change>,
    ) -> StoreResult<()>;
    /// Adds the changes of a version that changed several objects.
    async fn insert_changes(&self, doc: &str, version: u64, changes: &[Change]) -> StoreResult<()>;
    /// Copies the document's objects now as the snapshot at a version; returns how many.
    async fn take_snapshot(&self, doc: &str, version: u64) -> StoreResult<u64>;
    /// The documents that have a history.
    async fn histories(&self) -> StoreResult<Vec<String>>;
    /// The oldest version of a document written at or after `at`, else its newest stored;
    /// `None` when it has none stored.
    async fn keep_from(&self, doc: &str, at: &str) -> StoreResult<Option<u64>>;
    /// Stores objects as snapshot rows at a version.
    async fn insert_snapshot_rows(
        &self,
        doc: &str,
        version: u64,
        objects: &Objects,
    ) -> StoreResult<()>;
    /// Marks a version as holding a snapshot.
    async fn mark_snapshot(&self, doc: &str, version: u64) -> StoreResult<()>;
    /// Drops a document's versions, changes and snapshots before a version.
    async fn drop_before(&self, doc: &str, version: u64) -> StoreResult<()>;
}
