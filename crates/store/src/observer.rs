//! Who learns of an engine's commits: the store, which writes them through to what it keeps
//! and passes them on (see [`engine`](super::engine)).

use std::sync::Arc;

use super::change::Committed;
use super::metrics::StoreMetrics;
use super::object::StoredObject;

/// Who learns of an engine's commits: the store, which writes them through to its cache and
/// passes them on.
pub trait CommitObserver: Send + Sync + 'static {
    /// What the store counts, for the engines to count into.
    fn metrics(&self) -> &StoreMetrics;

    /// A write batch ended: whether it, or a request of it, found the disk full.
    fn wrote(&self, disk_full: bool);

    /// The version of a document as cached now, if it is; a plan made from another version
    /// does not hold.
    fn doc_version(&self, doc_id: &str) -> Option<u64>;

    /// A write request committed: this process's, before the request is answered, or (on
    /// PostgreSQL) another instance's, from its report; called in commit order. Returns the
    /// objects the write replaced, for the engine to drop once the request is answered:
    /// freeing them is no reason to keep a client waiting.
    fn committed(&self, report: Arc<Committed>) -> Vec<Arc<StoredObject>>;

    /// Another process or instance changed the database in ways not reported: forget
    /// everything kept.
    fn changed_elsewhere(&self);
}
