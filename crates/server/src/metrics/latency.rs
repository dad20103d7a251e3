//! A request latency histogram recorded with two atomic additions and no lock: each request
//! adds one to its bucket, found by arithmetic rather than a search (the bounds double from
//! 100 µs), and its nanoseconds to the sum. Scraped through `prometheus-client`'s encoder as
//! any histogram (the count is the buckets' total). `prometheus-client`'s own `Histogram`
//! takes a mutex and searches its bounds on every observation.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::{MetricType, TypedMetric};

/// The first bucket's upper bound, in nanoseconds (100 µs); each next one doubles it.
const FIRST_BOUND_NANOS: u64 = 100_000;
/// The buckets with a bound (100 µs to about 6.5 s); one more holds what is over.
const BOUNDED: usize = 17;

/// A latency histogram: 100 µs to about 6.5 s in doubling buckets, and over.
#[derive(Clone, Debug, Default)]
pub struct Latency(Arc<Cells>);

/// The counts of a [`Latency`].
#[derive(Debug, Default)]
struct Cells {
    /// Observations by bucket: each bound's own (not cumulative), and last those over.
    buckets: [AtomicU64; BOUNDED + 1],
    /// The sum of the observations, in nanoseconds.
    sum_nanos: AtomicU64,
}

impl Latency {
    /// Counts one request that took `took`.
    pub fn observe(&self, took: Duration) {
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let cells = &*self.0;
        cells.buckets[bucket_of(nanos)].fetch_add(1, Ordering::Relaxed);
        cells.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }
}

/// The bucket of an observation of `nanos`: the first whose bound is at least it.
fn bucket_of(nanos: u64) -> usize {
    // Bucket k holds (100 µs × 2^(k-1), 100 µs × 2^k]: k is the bit length of
    // (nanos - 1) / 100 µs.
    let multiple = nanos.saturating_sub(1) / FIRST_BOUND_NANOS;
    ((u64::BITS - multiple.leading_zeros()) as usize).min(BOUNDED)
}

/// The upper bound of bucket `k`, in seconds (infinite for the last).
fn bound_seconds(k: usize) -> f64 {
    if k < BOUNDED {
        (FIRST_BOUND_NANOS << k) as f64 / 1e9
    } else {
        f64::INFINITY
    }
}

impl TypedMetric for Latency {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for Latency {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let buckets: Vec<(f64, u64)> = self
            .0
            .buckets
            .iter()
            .enumerate()
            .map(|(k, count)| (bound_seconds(k), count.load(Ordering::Relaxed)))
            .collect();
        let count = buckets.iter().map(|(_, n)| n).sum();
        let sum = self.0.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        encoder.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        Self::TYPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observation_lands_in_the_first_bucket_whose_bound_holds_it() {
        assert_eq!(bucket_of(0), 0);
        assert_eq!(bucket_of(100_000), 0);
        assert_eq!(bucket_of(100_001), 1);
        assert_eq!(bucket_of(200_000), 1);
        assert_eq!(bucket_of(200_001), 2);
        assert_eq!(bucket_of(400_000), 2);
        let last_bound = FIRST_BOUND_NANOS << (BOUNDED - 1);
        assert_eq!(bucket_of(last_bound), BOUNDED - 1);
        assert_eq!(bucket_of(last_bound + 1), BOUNDED);
        assert_eq!(bucket_of(u64::MAX), BOUNDED);
        for k in 0..BOUNDED {
            let bound = FIRST_BOUND_NANOS << k;
            assert_eq!(bound_seconds(k), bound as f64 / 1e9);
            assert_eq!(bucket_of(bound), k, "{bound} ns");
        }
    }

    #[test]
    fn a_scrape_reads_cumulative_buckets_their_count_and_sum() {
        let latency = Latency::default();
        latency.observe(Duration::from_micros(50));
        latency.observe(Duration::from_micros(150));
        latency.observe(Duration::from_secs(10));
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register("took", "time", latency);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        assert!(text.contains("took_count 3\n"), "{text}");
        assert!(text.contains("took_sum 10.0002\n"), "{text}");
        assert!(text.contains("took_bucket{le=\"0.0001\"} 1\n"), "{text}");
        assert!(text.contains("took_bucket{le=\"0.0002\"} 2\n"), "{text}");
        assert!(text.contains("took_bucket{le=\"6.5536\"} 2\n"), "{text}");
        assert!(text.contains("took_bucket{le=\"+Inf\"} 3\n"), "{text}");
    }
}
