//! `doc import` and `doc export` of a generated 100,000-object document (the seven types, meta
//! on components; an 18 MB file of compact JSON), each a run of the release binary against a
//! loopback `diagtui serve` on a temp data dir. Run with `cargo bench --bench cli`; prints the
//! wall time and the peak resident memory of each CLI process (its `ru_maxrss`, from `wait4`).
//! The import's time includes the server's set-content, which is most of it.
//!
//! `DIAGTUI_BENCH_BASELINE=/path/to/another/diagtui` runs the same commands with that binary
//! too, interleaved with this one, for a before/after ratio measured under the same load.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_testkit::{Bin, generated};
use diagtui_testkit_server::serve::Server;
use serde_json::Value;

const OBJECTS: usize = 100_000;
const RUNS: usize = 3;

/// Set to a path, the bench only writes the generated file there. The generator runs in a
/// process of its own because a child's peak resident memory, as the kernel counts it, starts
/// from the peak of the process that spawned it: the bench itself must stay small.
const GENERATE: &str = "DIAGTUI_BENCH_GENERATE";

/// What one run of a process took.
struct Run {
    wall: Duration,
    /// User and system CPU time: the process's own work, where the wall time includes the
    /// server's.
    cpu: Duration,
    peak_rss_kib: i64,
}

/// Runs `bin ARGS` to its end (stdout to /dev/null: not a terminal, so JSON is compact) and
/// measures it. The peak resident memory is the child's own, from `wait4`.
#[allow(unsafe_code, reason = "FFI: wait4")]
fn run(bin: &Bin, args: &[&str]) -> Run {
    let start = Instant::now();
    #[expect(
        clippy::zombie_processes,
        reason = "reaped by wait4, which gives its resource usage too"
    )]
    let child = bin
        .command()
        .args(args)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid, and wait4 writes it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: `pid` is a child of this process that nothing else waits for.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(waited, pid, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{:?} {args:?} failed ({status})",
        bin.path()
    );
    let seconds =
        |t: libc::timeval| Duration::from_secs_f64(t.tv_sec as f64 + t.tv_usec as f64 / 1e6);
    Run {
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_rss_kib: usage.ru_maxrss,
    }
}

/// The runs of one command with one binary.
struct Figures {
    label: String,
    runs: Vec<Run>,
}

impl Figures {
    fn print(&self) {
        let mut walls: Vec<f64> = self.runs.iter().map(|r| r.wall.as_secs_f64()).collect();
        walls.sort_by(f64::total_cmp);
        let mut cpus: Vec<f64> = self.runs.iter().map(|r| r.cpu.as_secs_f64()).collect();
        cpus.sort_by(f64::total_cmp);
        let peak = self.runs.iter().map(|r| r.peak_rss_kib).max().unwrap_or(0);
        println!(
            "{:<44} median {:>5.2} s (min {:.2}, max {:.2}), CPU {:.2} s, peak RSS {:>3.0} MB",
            self.label,
            walls[walls.len() / 2],
            walls[0],
            walls[walls.len() - 1],
            cpus[cpus.len() / 2],
            peak as f64 / 1024.0
        );
    }
}

fn main() {
    if let Some(path) = std::env::var_os(GENERATE) {
        let content = Value::Object(generated::content(OBJECTS));
        std::fs::write(path, serde_json::to_string(&content).unwrap()).unwrap();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let this = Bin::new(env!("CARGO_BIN_EXE_diagtui"));
    let mut binaries = vec![("this build", this.clone())];
    if let Some(baseline) = std::env::var_os("DIAGTUI_BENCH_BASELINE") {
        binaries.push(("baseline", Bin::new(baseline)));
    }

    let file = dir.path().join("content.json");
    let generator = Command::new(std::env::current_exe().unwrap())
        .env(GENERATE, &file)
        .status()
        .unwrap();
    assert!(generator.success());
    let file_mb = std::fs::metadata(&file).unwrap().len() as f64 / 1e6;
    println!("{OBJECTS} objects, {file_mb:.1} MB compact file; {RUNS} runs of each, interleaved");

    let server = Server::start(
        &this,
        &dir.path().join("data"),
        &["--max-body", "268435456"],
    );
    let created = this
        .command()
        .args(server.args(&["doc", "create", "Bench"]))
        .output()
        .unwrap();
    let created: Value = serde_json::from_slice(&created.stdout).unwrap();
    let doc = created["docId"].as_str().unwrap().to_owned();

    let file = file.to_str().unwrap();
    let exports: Vec<String> = (0..binaries.len())
        .map(|b| {
            dir.path()
                .join(format!("export-{b}.json"))
                .to_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let mut figures: Vec<Figures> = Vec::new();
    for name in COMMANDS {
        for (binary, _) in &binaries {
            figures.push(Figures {
                label: format!("{name}, {binary}"),
                runs: Vec::new(),
            });
        }
    }
    for _ in 0..RUNS {
        for c in 0..COMMANDS.len() {
            for (b, (_, bin)) in binaries.iter().enumerate() {
                let args: Vec<&str> = match c {
                    0 => vec!["doc", "import", &doc, file, "--yes"],
                    1 => vec!["doc", "export", &doc, "-o", &exports[b]],
                    _ => vec!["doc", "export", &doc],
                };
                let measured = run(bin, &server.args(&args));
                figures[c * binaries.len() + b].runs.push(measured);
            }
        }
    }
    for figure in &figures {
        figure.print();
    }
    println!(
        "peak RSS goal: at most 3 x the file = {:.0} MB",
        3.0 * file_mb
    );

    let read = |path: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let imported = read(file);
    for export in &exports {
        assert!(
            read(export) == imported,
            "the export is the content imported"
        );
    }
}

/// The commands measured, in the order `main` runs them.
const COMMANDS: [&str; 3] = [
    "doc import FILE",
    "doc export -o FILE (indented)",
    "doc export > /dev/null (compact)",
];
