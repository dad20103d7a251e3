//! What the store counts as it works, for the server's `/metrics`: write batches (how many
//! requests, how long the transaction took), the document cache's hits, misses and evictions,
//! history versions written, and on PostgreSQL the other instances' commits applied and the
//! times everything kept was dropped (a resync). The counters are atomics shared by clones, so
//! counting costs an atomic add; [`StoreMetrics::register`] hands them to a registry.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};

/// The store's counters and histograms.
#[derive(Debug, Clone)]
pub struct StoreMetrics {
    /// Requests per committed write batch.
    pub batch_requests: Histogram,
    /// Seconds from a write batch's begin to its commit.
    pub batch_seconds: Histogram,
    /// The document cache's.
    pub cache: CacheCounters,
    /// History versions written.
    pub versions_written: Counter,
    /// Other instances' commits applied to what is kept (PostgreSQL).
    pub notifications_applied: Counter,
    /// Times everything kept was dropped because the database changed unreported (another
    /// process or instance; on PostgreSQL, missed notifications).
    pub resyncs: Counter,
}

/// What the document cache counts.
#[derive(Debug, Clone, Default)]
pub struct CacheCounters {
    /// Lookups answered from memory.
    pub hits: Counter,
    /// Lookups that started a load from the database.
    pub misses: Counter,
    /// Documents dropped to stay within the budget.
    pub evictions: Counter,
}

impl Default for StoreMetrics {
    fn default() -> StoreMetrics {
        StoreMetrics {
            // 1, 2, 4, ... 128: a batch holds at most 128 requests.
            batch_requests: Histogram::new(exponential_buckets(1.0, 2.0, 8)),
            // 100 µs to about 3 s.
            batch_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            cache: CacheCounters::default(),
            versions_written: Counter::default(),
            notifications_applied: Counter::default(),
            resyncs: Counter::default(),
        }
    }
}

impl StoreMetrics {
    /// Registers every series (clones sharing these counters) in `registry`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "write_batch_requests",
            "Write requests committed per transaction",
            self.batch_requests.clone(),
        );
        registry.register_with_unit(
            "write_batch_duration",
            "Time from a write transaction's begin to its commit",
            Unit::Seconds,
            self.batch_seconds.clone(),
        );
        registry.register(
            "cache_hits",
            "Documents answered from memory",
            self.cache.hits.clone(),
        );
        registry.register(
            "cache_misses",
            "Documents read from the database because they were not in memory",
            self.cache.misses.clone(),
        );
        registry.register(
            "cache_evictions",
            "Documents dropped from memory to stay within --cache-size",
            self.cache.evictions.clone(),
        );
        registry.register(
            "history_versions_written",
            "Document history versions written",
            self.versions_written.clone(),
        );
        registry.register(
            "team_notifications_applied",
            "Other instances' commits applied to this instance's memory (PostgreSQL)",
            self.notifications_applied.clone(),
        );
        registry.register(
            "resyncs",
            "Times everything kept in memory was dropped because the database changed unreported",
            self.resyncs.clone(),
        );
    }
}
