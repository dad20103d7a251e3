//! The soak of issue 20: `cargo bench --bench load`. A release `diagtui serve` on a temp data
//! dir holds one 10,000-object document, and 64 keep-alive clients send the load of
//! `diagtui_testkit::soak` for 120 s (70% GET of one object, 20% single update, 5% selector
//! read, 5% bulk update of 20 objects; each client writes only its own objects and checks every
//! read of them). Printed: throughput, p50/p99 per kind of request, the server's resident
//! memory every few seconds with the verdict (at most 150 MB, and flat: the last 30 s within
//! 10% of the 10-20 s window), and the stale count at the end: reads during the load that
//! showed an older value than the client's last acknowledged write, and objects holding one
//! afterwards through `obj/all` and one GET each.
//!
//! `LOAD_CLIENTS`, `LOAD_SECS` and `LOAD_OBJECTS` change the shape (a short run:
//! `LOAD_SECS=30`). The server inherits the environment, so that an allocator setting
//! (`MALLOC_ARENA_MAX=2 cargo bench --bench load`) is measured the same way. The clients run in
//! this process, on the same cores as the server.

use std::time::{Duration, Instant};

use diagtui_testkit::Bin;
use diagtui_testkit::memory;
use diagtui_testkit::quantiles::percentiles;
use diagtui_testkit::soak::{self, Kind, Shape, Target};
use diagtui_testkit_server::serve::Server;

/// How often the server's resident memory is read.
const EVERY: Duration = Duration::from_secs(2);
/// The most resident memory the server may use under the load, in MB.
const CEILING_MB: f64 = 150.0;

/// A setting from the environment, else its default.
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
        })
        .unwrap_or(default)
}

/// The machine's load average over the last minute.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| text.split_whitespace().next().unwrap_or("?").to_owned())
        .unwrap_or_else(|_| "?".into())
}

#[tokio::main]
async fn main() {
    let shape = Shape {
        objects: setting("LOAD_OBJECTS", 10_000) as usize,
        clients: setting("LOAD_CLIENTS", 64) as usize,
        duration: Duration::from_secs(setting("LOAD_SECS", 120)),
    };
    let server = Server::start_temp(&Bin::new(env!("CARGO_BIN_EXE_diagtui")), &[]);
    let pid = server.child.id();
    let doc = soak::seed(&reqwest::Client::new(), &server.url, &server.key, &shape).await;
    let target = Target {
        url: server.url.clone(),
        key: server.key.clone(),
        doc,
    };
    println!(
        "{} clients x {} s on {} objects (load average {} at the start)",
        shape.clients,
        shape.duration.as_secs(),
        shape.objects,
        load_average()
    );

    let started = Instant::now();
    let sampler = tokio::spawn(async move {
        let mut samples = Vec::new();
        let mut tick = tokio::time::interval(EVERY);
        while started.elapsed() < shape.duration {
            tick.tick().await;
            samples.push((
                started.elapsed(),
                memory::memory(pid, "VmRSS") as f64 / 1024.0,
            ));
        }
        samples
    });
    let outcome = soak::run(&target, &shape).await;
    let elapsed = started.elapsed();
    let samples = sampler.await.expect("the memory sampler");

    println!(
        "{:.0} requests/s ({} answered, {} errors; load average {} at the end)",
        outcome.requests() as f64 / elapsed.as_secs_f64(),
        outcome.requests(),
        outcome.errors,
        load_average()
    );
    for kind in Kind::ALL {
        let times = outcome.times.get(&kind).cloned().unwrap_or_default();
        if times.is_empty() {
            continue;
        }
        let count = times.len();
        let (p50, p99) = percentiles(times);
        println!(
            "  {:<18} {count:>8}  p50 {:>7.2} ms  p99 {:>7.2} ms",
            kind.name(),
            p50 / 1000.0,
            p99 / 1000.0
        );
    }
    print_memory(&samples, shape.duration);

    let (via_all, via_each) = soak::stale_objects(&target, &outcome.acked).await;
    println!(
        "stale: {} reads during the load; {} objects in obj/all, {} read one by one",
        outcome.stale_reads,
        via_all.len(),
        via_each.len()
    );
}

/// Prints the resident memory over time and the verdict.
fn print_memory(samples: &[(Duration, f64)], duration: Duration) {
    let line: Vec<String> = samples
        .iter()
        .map(|(at, mb)| format!("{}s {mb:.0}", at.as_secs()))
        .collect();
    println!("resident MB: {}", line.join(", "));
    let peak = samples.iter().map(|(_, mb)| *mb).fold(0.0, f64::max);
    let within = |from: Duration, to: Duration| -> Vec<f64> {
        samples
            .iter()
            .filter(|(at, _)| *at >= from && *at <= to)
            .map(|(_, mb)| *mb)
            .collect()
    };
    let window = within(Duration::from_secs(10), Duration::from_secs(20));
    let last = within(duration.saturating_sub(Duration::from_secs(30)), duration);
    let flat = if duration < Duration::from_secs(50) || window.is_empty() {
        "not judged (runs under 50 s)".to_owned()
    } else {
        let base = window.iter().sum::<f64>() / window.len() as f64;
        let worst = last
            .iter()
            .map(|mb| (mb - base).abs() / base)
            .fold(0.0, f64::max);
        format!(
            "{} (last 30 s at most {:.1}% from the 10-20 s mean of {base:.0} MB)",
            if worst <= 0.10 { "flat" } else { "NOT flat" },
            worst * 100.0
        )
    };
    println!(
        "peak {peak:.0} MB: {} {CEILING_MB:.0} MB; {flat}",
        if peak <= CEILING_MB { "within" } else { "OVER" }
    );
}
