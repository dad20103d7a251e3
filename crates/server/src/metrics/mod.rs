//! The server's metrics, off by default: with `serve --metrics-bind ADDR` every request is
//! counted by route template, method and status and timed by route template, and a listener of
//! its own serves `/metrics` (OpenMetrics text, encoded by `prometheus-client`), `/healthz` and
//! `/readyz`, so that the public port shows no internals. Series are labelled by route
//! templates (`/api/v1/doc/{doc_id}`), never by ids or paths: a request that matches no route
//! counts as `unmatched`. What is a state rather than a count (the cache's bytes, the pool, the
//! open streams, the disk) is read when scraped. The listener's routes are
//! `routes/listener.rs`.

mod latency;
mod layer;
pub(crate) mod templates;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::{Registry, Unit};

use diagtui_store::{AnyEngine, DB_FILE, PoolStatus, Store};
use latency::Latency;
pub use layer::{Count, Counting};

/// The OpenMetrics text format's content type.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A request's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: Arc<String>,
    method: &'static str,
    status: u16,
}

/// A route's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: Arc<String>,
}

/// The registry and the series the server fills itself.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Requests by route template, method and status.
    requests: Family<RequestLabels, Counter>,
    /// Latency by route template.
    latency: Family<RouteLabels, Latency>,
    cache_bytes: Gauge,
    pool_in_use: Gauge,
    pool_waiting: Gauge,
    event_streams: Gauge,
    embed_viewers: Gauge,
    wal_bytes: Gauge,
    data_dir_bytes: Gauge,
    /// The data dir whose sizes are reported (SQLite), if any.
    data_dir: Option<PathBuf>,
}

impl Metrics {
    /// Every series, the store's included, under the prefix `diagtui`; `data_dir` is the SQLite
    /// data dir whose sizes are reported (`None` on PostgreSQL).
    pub fn new(store: &Store<AnyEngine>, data_dir: Option<&Path>) -> Metrics {
        let mut registry = Registry::with_prefix("diagtui");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status",
            requests.clone(),
        );
        let latency = Family::<RouteLabels, Latency>::default();
        registry.register_with_unit(
            "http_request_duration",
            "Time to answer a request (until its head is sent), by route template",
            Unit::Seconds,
            latency.clone(),
        );
        store.metrics().register(&mut registry);
        let gauge = |registry: &mut Registry, name: &str, help: &str, unit: Option<Unit>| {
            let gauge = Gauge::default();
            match unit {
                Some(unit) => registry.register_with_unit(name, help, unit, gauge.clone()),
                None => registry.register(name, help, gauge.clone()),
            }
            gauge
        };
        let cache_bytes = gauge(
            &mut registry,
            "cache",
            "Bytes of documents kept in memory",
            Some(Unit::Bytes),
        );
        let pool_in_use = gauge(
            &mut registry,
            "db_pool_in_use",
            "PostgreSQL connections handed out",
            None,
        );
        let pool_waiting = gauge(
            &mut registry,
            "db_pool_waiting",
            "Requests waiting for a PostgreSQL connection",
            None,
        );
        let event_streams = gauge(
            &mut registry,
            "event_streams",
            "Change event streams open (the API's and live embed pages')",
            None,
        );
        let embed_viewers = gauge(
            &mut registry,
            "embed_viewers",
            "Live embed pages open",
            None,
        );
        let wal_bytes = gauge(
            &mut registry,
            "sqlite_wal",
            "Size of the SQLite write-ahead log",
            Some(Unit::Bytes),
        );
        let data_dir_bytes = gauge(
            &mut registry,
            "data_dir",
            "Size of the files in the data dir",
            Some(Unit::Bytes),
        );
        registry.register(
            "build",
            "The build serving",
            Info::new(vec![("version", env!("CARGO_PKG_VERSION"))]),
        );
        Metrics {
            registry,
            requests,
            latency,
            cache_bytes,
            pool_in_use,
            pool_waiting,
            event_streams,
            embed_viewers,
            wal_bytes,
            data_dir_bytes,
            data_dir: data_dir.map(Path::to_owned),
        }
    }

    /// The counting of the requests of an application with these route templates ([`Count`]),
    /// kept for the rest of the process: an application is made once a server, and its
    /// requests then read the counting without a reference count (a few kilobytes a server).
    pub fn counting(&self, templates: &[&str]) -> &'static Counting {
        Box::leak(Box::new(Counting::new(
            self.requests.clone(),
            &self.latency,
            templates,
        )))
    }

    /// Sets the states read now (memory, pool, streams) and the disk's, and encodes every
    /// series.
    pub fn scrape(&self, now: &States) -> Result<String, std::fmt::Error> {
        let as_gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.cache_bytes.set(as_gauge(now.cache_bytes));
        self.pool_in_use.set(as_gauge(now.pool.in_use));
        self.pool_waiting.set(as_gauge(now.pool.waiting));
        self.event_streams.set(as_gauge(now.event_streams));
        self.embed_viewers.set(as_gauge(now.embed_viewers));
        if let Some(dir) = &self.data_dir {
            let wal = dir.join(format!("{DB_FILE}-wal"));
            self.wal_bytes
                .set(std::fs::metadata(wal).map_or(0, |m| m.len() as i64));
            self.data_dir_bytes.set(dir_bytes(dir) as i64);
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// What is a state rather than a count, read when scraped (see [`Metrics::scrape`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct States {
    /// The bytes the document cache holds.
    pub cache_bytes: usize,
    /// The PostgreSQL pool (all 0 on SQLite).
    pub pool: PoolStatus,
    /// The open event streams.
    pub event_streams: usize,
    /// The open pages of live embeds.
    pub embed_viewers: usize,
}

/// The bytes of the files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.metadata().ok())
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len())
            .sum()
    })
}
