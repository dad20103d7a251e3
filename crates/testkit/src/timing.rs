//! Timing shared by the benchmarks.

use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then `runs` times, and prints the mean and the slowest run.
pub fn measure(name: &str, runs: u32, mut f: impl FnMut()) {
    f();
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    for _ in 0..runs {
        let run = Instant::now();
        f();
        slowest = slowest.max(run.elapsed());
    }
    let mean = start.elapsed() / runs;
    println!("{name:<52} {mean:>12.2?} per run, slowest {slowest:.2?} ({runs} runs)");
}
