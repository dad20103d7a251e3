//! The layered layout's speed: each Mermaid corpus diagram (../shared/mermaid, skipped when
//! absent) laid out alone; a generated layered graph of 300 nodes and 450 links laid out alone,
//! laid out and stored (`POST create-diagram` to a loopback local server on SQLite), and laid
//! out by `dot -Tjson`; one of 1,000 nodes and 1,500 links laid out alone and by dot. Ours and
//! dot's runs are interleaved, so both meet the same load. Run with `cargo bench --bench
//! layout`; prints the figures (BENCHMARKS.md, "create-diagram's layered layout").

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_layout::{Format, Settings};
use diagtui_testkit::Local;
use serde_json::{Map, Value, json};
use tokio::runtime::Runtime;

/// Runs of each corpus diagram.
const CORPUS_RUNS: usize = 20;
/// Runs of each generated graph.
const RUNS: usize = 7;
/// The gaps the generated graphs are laid out with, as query parameters.
const TIGHT: [(&str, &str); 4] = [
    ("COMP_GAP", "0.5"),
    ("TIER_GAP", "0.5"),
    ("GROUP_MARGIN", "0.5"),
    ("GROUP_PADDING", "0.5"),
];

/// A generated layered graph: `layers` layers of `width` nodes; each node links to one or two
/// nodes near it on the next layer, a few to the layer after, `links` links in all (a fixed
/// pseudo-random sequence, so every run lays out the same graph). As JSON entries and as DOT.
fn generated(layers: usize, width: usize, links: usize) -> (Vec<u8>, String) {
    let mut seed = 0x2545_f491_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let id = |l: usize, i: usize| format!("n{l}-{i}");
    let mut pairs = Vec::new();
    for l in 0..layers - 1 {
        for i in 0..width {
            let j = (i + width + next(5) - 2) % width;
            pairs.push(((l, i), (l + 1, j)));
        }
    }
    while pairs.len() < links {
        let l = next(layers - 1);
        let i = next(width);
        let span = if next(4) == 0 && l + 2 < layers { 2 } else { 1 };
        let j = (i + width + next(7) - 3) % width;
        let pair = ((l, i), (l + span, j));
        if !pairs.contains(&pair) {
            pairs.push(pair);
        }
    }
    pairs.truncate(links);
    let mut entries = Map::new();
    let mut dot = String::from("digraph G {\n  node [shape=box];\n");
    for l in 0..layers {
        for i in 0..width {
            entries.insert(
                id(l, i),
                json!({"type": "component", "componentType": "generic.server"}),
            );
        }
    }
    for (k, (a, b)) in pairs.iter().enumerate() {
        entries.insert(
            format!("e{k}"),
            json!({"type": "connection", "from": id(a.0, a.1), "to": id(b.0, b.1), "arrowEnd": true}),
        );
        dot.push_str(&format!("  \"{}\" -> \"{}\";\n", id(a.0, a.1), id(b.0, b.1)));
    }
    dot.push_str("}\n");
    (serde_json::to_vec(&Value::Object(entries)).unwrap(), dot)
}

/// One run of `dot -Tjson` on a graph.
fn dot_run(dot: &str) -> Duration {
    let started = Instant::now();
    let mut child = Command::new("dot")
        .arg("-Tjson")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("dot runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "dot lays the graph out");
    started.elapsed()
}

fn has_dot() -> bool {
    Command::new("dot")
        .arg("-V")
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn main() {
    corpus();
    let settings = Settings::from_pairs(TIGHT).unwrap();
    let dot = has_dot();
    if !dot {
        println!("note: Graphviz dot is not installed: dot's figures are left out");
    }
    for (name, layers, width, links) in [
        ("300 nodes, 450 links", 15, 20, 450),
        ("1,000 nodes, 1,500 links", 40, 25, 1500),
    ] {
        let (body, graph) = generated(layers, width, links);
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let mut count = 0;
        for _ in 0..RUNS {
            let started = Instant::now();
            let laid = diagtui_layout::lay_out(&body, Format::Json, &settings)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            ours.push(started.elapsed());
            count = laid.objects.len();
            if dot {
                theirs.push(dot_run(&graph));
            }
        }
        report(&format!("{name}: laid out ({count} objects)"), ours);
        if dot {
            report(&format!("{name}: dot -Tjson"), theirs);
        }
    }
    stored(&settings, dot);
}

/// The 300-node graph through the route, laid out and stored, beside dot.
fn stored(settings: &Settings, dot: bool) {
    let (body, graph) = generated(15, 20, 450);
    let count = diagtui_layout::lay_out(&body, Format::Json, settings)
        .unwrap()
        .objects
        .len();
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let local = Local::start().await;
        let doc = local.client.create_doc("Bench", None).await.unwrap();
        let query: Vec<(String, String)> = TIGHT
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let started = Instant::now();
            let answer = local
                .client
                .create_diagram(&doc, "application/json", body.clone(), &query, true)
                .await
                .unwrap();
            ours.push(started.elapsed());
            assert_eq!(answer.object_count, count);
            if dot {
                theirs.push(dot_run(&graph));
            }
        }
        report(
            "300 nodes, 450 links: laid out and stored (POST create-diagram)",
            ours,
        );
        if dot {
            report("300 nodes, 450 links: dot -Tjson, in the same loop", theirs);
        }
    });
}

/// Each corpus diagram laid out alone; the slowest median is the figure to hold to 20 ms.
fn corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/mermaid");
    let Ok(read) = std::fs::read_dir(&dir) else {
        println!("note: {} is absent: the corpus is skipped", dir.display());
        return;
    };
    let mut files: Vec<_> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    files.sort();
    let settings = Settings::default();
    let mut slowest: Option<(Duration, String)> = None;
    let (mut laid, mut refused) = (0, 0);
    for file in &files {
        let body = std::fs::read(file).unwrap();
        let mut times = Vec::new();
        for _ in 0..CORPUS_RUNS {
            let started = Instant::now();
            let result = diagtui_layout::lay_out(&body, Format::Mermaid, &settings);
            times.push(started.elapsed());
            if result.is_err() {
                break;
            }
        }
        if times.len() < CORPUS_RUNS {
            refused += 1;
            continue;
        }
        laid += 1;
        times.sort();
        let median = times[times.len() / 2];
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if slowest.as_ref().is_none_or(|(t, _)| median > *t) {
            slowest = Some((median, name));
        }
    }
    if let Some((t, name)) = slowest {
        println!(
            "corpus: {laid} diagrams laid out ({refused} refused by the reader or the grid); \
             the slowest median {t:.2?} ({name}, {CORPUS_RUNS} runs each)"
        );
    }
}

/// Prints the median and the slowest of the runs.
fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let median = times[times.len() / 2];
    let slowest = times[times.len() - 1];
    println!(
        "{name:<66} median {median:>10.2?}, slowest {slowest:>10.2?} ({} runs)",
        times.len()
    );
}
