//! The layered layout's speed: each Mermaid corpus diagram (../shared/mermaid beside the
//! repository, or the folder `DIAGTUI_MERMAID_CORPUS` names; skipped when absent) laid out
//! alone; a generated layered graph of 300 nodes and 450 links laid out alone (read, checked,
//! placed, routed, objects made), one of 1,000 nodes and 1,500 links placed in layers (too many
//! to fit the grid a cell apart, so without routes), each beside `dot -Tjson` on the same
//! graph, the runs interleaved so that both meet the same load. Run with `cargo bench -p diagtui-layout
//! --bench layered`; prints the figures (BENCHMARKS.md, "create-diagram's layered layout").

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_layout::model::Direction;
use diagtui_layout::{Format, Settings};
use serde_json::{Map, Value, json};

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
        dot.push_str(&format!(
            "  \"{}\" -> \"{}\";\n",
            id(a.0, a.1),
            id(b.0, b.1)
        ));
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
    let (body, graph) = generated(15, 20, 450);
    let name = "300 nodes, 450 links";
    {
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
    // A thousand components do not fit the grid in layers a cell apart: their layout alone
    // (cycles, layers, order, coordinates, groups; no routes, no grid check).
    let (body, graph) = generated(40, 25, 1500);
    let name = "1,000 nodes, 1,500 links";
    let entries = diagtui_layout::input::parse_json(&body).unwrap();
    let model = diagtui_layout::check::check(entries, Direction::TopBottom).unwrap();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let placement = diagtui_layout::layered::place_once(&model, &settings);
        ours.push(started.elapsed());
        assert_eq!(placement.components.len(), 1000);
        if dot {
            theirs.push(dot_run(&graph));
        }
    }
    report(&format!("{name}: placed in layers (no routes)"), ours);
    if dot {
        report(&format!("{name}: dot -Tjson"), theirs);
    }
}

/// Each corpus diagram laid out alone; the slowest median is the figure to hold to 20 ms.
fn corpus() {
    let dir = std::env::var_os("DIAGTUI_MERMAID_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mermaid"));
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
