//! Timing shared by the benchmarks.

use std::time::Instant;

/// Runs `f` once to warm up, then `runs` times, and prints the mean time of a run.
pub fn measure(name: &str, runs: u32, mut f: impl FnMut()) {
    f();
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let mean = start.elapsed() / runs;
    println!("{name:<52} {mean:>12.2?} per run ({runs} runs)");
}
