//! The release binary in a real terminal (tmux, 160×50) opening a generated 100,000-object
//! document (the seven types, meta on components), in remote mode against a loopback
//! `diagtui serve` and in local mode (the server in-process on the same data dir): the time from
//! `Enter` to the tree on the screen (polling the screen, so a few milliseconds coarse), and the
//! resident memory of the TUI's process once it shows (`VmRSS`), four seconds later once the
//! map's scene is built (settled) and at its peak (`VmHWM`), from `/proc`; each the largest of
//! the runs. Run with `cargo bench --bench tui_binary` (Linux, tmux); prints the figures.
//!
//! `DIAGTUI_BENCH_BASELINE=/path/to/another/diagtui` runs the same with that binary too,
//! interleaved with this one, for a before/after measured under the same load.

use std::time::{Duration, Instant};

use diagtui_testkit::memory::memory;
use diagtui_testkit::tmux::Tmux;
use diagtui_testkit::{Bin, generated};
use diagtui_testkit_server::serve::Server;
use serde_json::Value;

const OBJECTS: usize = 100_000;
const RUNS: usize = 3;
/// How long after the tree the resident size is read again, the scene built.
const SETTLE: Duration = Duration::from_secs(4);
/// What the objects pane's title says once the tree is there.
const LOADED: &str = "Bench (100000)";

/// One opening of the document.
struct Opened {
    time: Duration,
    rss_mb: f64,
    settled_mb: f64,
    peak_mb: f64,
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let this = Bin::new(env!("CARGO_BIN_EXE_diagtui"));
    let mut binaries = vec![("this build", this.clone())];
    if let Some(baseline) = std::env::var_os("DIAGTUI_BENCH_BASELINE") {
        binaries.push(("baseline", Bin::new(baseline)));
    }
    let data = dir.path().join("data");
    let file = dir.path().join("content.json");
    let content = Value::Object(generated::content(OBJECTS));
    std::fs::write(&file, serde_json::to_vec(&content).unwrap()).unwrap();
    drop(content);

    let server = Server::start(&this, &data, &["--max-body", "268435456"]);
    let created = this
        .command()
        .args(server.args(&["doc", "create", "Bench"]))
        .output()
        .unwrap();
    let created: Value = serde_json::from_slice(&created.stdout).unwrap();
    let doc = created["docId"].as_str().unwrap();
    let imported = this
        .command()
        .args(server.args(&["doc", "import", doc, file.to_str().unwrap(), "--yes"]))
        .output()
        .unwrap();
    assert!(imported.status.success(), "{imported:?}");

    let mut figures: Vec<(String, Vec<Opened>)> = Vec::new();
    let remote_dir = dir.path().join("tui");
    let remote = server.args(&["--data-dir", remote_dir.to_str().unwrap()]);
    measure_mode("remote", &remote, &binaries, &mut figures);
    // Local mode opens the data dir itself: the server must be gone.
    drop(server);
    let local = vec!["--data-dir", data.to_str().unwrap()];
    measure_mode("local", &local, &binaries, &mut figures);

    for (label, runs) in &figures {
        let mut times: Vec<Duration> = runs.iter().map(|r| r.time).collect();
        times.sort();
        let rss = runs.iter().map(|r| r.rss_mb).fold(0.0, f64::max);
        let settled = runs.iter().map(|r| r.settled_mb).fold(0.0, f64::max);
        let peak = runs.iter().map(|r| r.peak_mb).fold(0.0, f64::max);
        println!(
            "{label:<28} Enter -> tree: median {:>5.0} ms (min {:.0}, max {:.0}); RSS {rss:>4.0} MB, settled {settled:>4.0} MB, peak {peak:>4.0} MB",
            ms(times[times.len() / 2]),
            ms(times[0]),
            ms(times[times.len() - 1]),
        );
    }
}

/// A duration in milliseconds.
fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

/// `RUNS` openings with each binary, interleaved, in one mode.
fn measure_mode(
    mode: &str,
    args: &[&str],
    binaries: &[(&str, Bin)],
    figures: &mut Vec<(String, Vec<Opened>)>,
) {
    let first = figures.len();
    for (name, _) in binaries {
        figures.push((format!("{mode}, {name}"), Vec::new()));
    }
    for run in 0..RUNS {
        for (b, (_, bin)) in binaries.iter().enumerate() {
            let tag = format!("{mode}-{b}-{run}");
            if let Some(opened) = open(&tag, bin, args) {
                figures[first + b].1.push(opened);
            }
        }
    }
}

/// Starts the TUI, opens the document and measures; `None` without tmux.
fn open(tag: &str, bin: &Bin, args: &[&str]) -> Option<Opened> {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let line = format!(
        "exec env -u DIAGTUI_URL -u DIAGTUI_API_KEY -u DIAGTUI_DATA_DIR \
         DIAGTUI_CONFIG=/dev/null '{}' {}",
        bin.path().display(),
        quoted.join(" ")
    );
    let session = Tmux::start(&format!("bench-{tag}"), 160, 50, Some(&line))?;
    let pid: u32 = session
        .run(&["display", "-p", "#{pane_pid}"])
        .trim()
        .parse()
        .unwrap();
    session.wait_for("Bench");
    session.keys(&["/"]);
    session.type_line("Bench");
    let started = Instant::now();
    session.keys(&["Enter"]);
    while !session.screen().contains(LOADED) {
        assert!(started.elapsed() < Duration::from_secs(60), "never opened");
        std::thread::sleep(Duration::from_millis(2));
    }
    let time = started.elapsed();
    // Let what the load freed go back before reading the resident size.
    std::thread::sleep(Duration::from_millis(500));
    let mb = |field: &str| memory(pid, field) as f64 / 1024.0;
    let rss_mb = mb("VmRSS");
    // Once the map's scene is built (about a second after the tree on these cores).
    std::thread::sleep(SETTLE);
    let opened = Opened {
        time,
        rss_mb,
        settled_mb: mb("VmRSS"),
        peak_mb: mb("VmHWM"),
    };
    session.keys(&["q"]);
    Some(opened)
}
