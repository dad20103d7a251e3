//! Latency figures shared by the server benchmarks.

use std::time::Duration;

/// The 50th and 99th percentiles of request times, in µs.
pub fn percentiles(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    (at(0.50), at(0.99))
}
