//! The layered layout's speed, each figure beside `dot -Tjson` on the same graph (Debian's
//! graphviz, a process per run), the runs interleaved so that both meet the same load:
//!
//! - each Mermaid corpus diagram (../shared/mermaid beside the repository, or the folder
//!   `DIAGTUI_MERMAID_CORPUS` names; skipped when absent) laid out alone;
//! - a generated layered graph of 300 nodes and 450 links, with clusters, **through the
//!   route**: its DOT text posted to `POST /api/v1/create-diagram/{docId}` of a local server on
//!   a loopback port (SQLite on a temp data dir), read, laid out and stored;
//! - one of 1,000 nodes and 1,500 links laid out alone (read, checked, placed, routed, objects
//!   made), and placed in layers without routes.
//!
//! A generated graph the grid cannot hold is said so, with the refusal, and the largest of the
//! same kind that it holds is measured instead. Run with
//! `cargo bench --bench layered`; prints the figures (BENCHMARKS.md,
//! "create-diagram's layered layout").

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_layout::{Format, Settings};
use diagtui_testkit_server::Local;
use tokio::runtime::Runtime;

/// Nodes to a layer of the generated graph sent through the route: the 300 nodes and
/// 450 links then take 10 layers, which the grid holds; at 20 or 25 to a layer (15 or 12
/// layers) they are too long for it even with the smallest gaps (BENCHMARKS.md,
/// "create-diagram's layered layout"). The 1,000-node graph keeps 25 to a layer (40 layers).
const WIDTH: usize = 30;
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

/// A generated layered graph as DOT, the same text for us and for dot: `layers` layers of
/// `width` nodes; each node links to one near it on the next layer, the other links to the next
/// layer or the one after, `links` links in all; every third block of 3 layers × 5 nodes is a
/// cluster. The sequence is seeded, so every run lays out the same graph.
fn generated(layers: usize, width: usize, links: usize) -> String {
    let mut seed = 0x2545_f491_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let id = |l: usize, i: usize| format!("n{l}_{i}");
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
    let mut dot = String::from("digraph G {\n  node [shape=box];\n");
    let mut clustered = vec![false; layers * width];
    let blocks_across = width.div_ceil(5);
    for block in (0..layers.div_ceil(3) * blocks_across).step_by(3) {
        let (top, left) = (block / blocks_across * 3, block % blocks_across * 5);
        dot.push_str(&format!(
            "  subgraph cluster_{block} {{\n    label=\"c{block}\";\n"
        ));
        for l in top..(top + 3).min(layers) {
            for i in left..(left + 5).min(width) {
                dot.push_str(&format!("    {};\n", id(l, i)));
                clustered[l * width + i] = true;
            }
        }
        dot.push_str("  }\n");
    }
    for l in 0..layers {
        for i in 0..width {
            if !clustered[l * width + i] {
                dot.push_str(&format!("  {};\n", id(l, i)));
            }
        }
    }
    for (a, b) in &pairs {
        dot.push_str(&format!("  {} -> {};\n", id(a.0, a.1), id(b.0, b.1)));
    }
    dot.push_str("}\n");
    dot
}

/// A graph of `nodes` nodes (`width` to a layer) and half as many links again.
fn graph(nodes: usize, width: usize) -> String {
    generated(nodes / width, width, nodes * 3 / 2)
}

/// The size of graph the grid holds: `nodes` if it does, else said so and the largest
/// (in steps of a layer) that it does.
fn fitting(nodes: usize, width: usize, settings: &Settings) -> usize {
    let mut n = nodes;
    loop {
        match diagtui_layout::lay_out(graph(n, width).as_bytes(), Format::Dot, settings) {
            Ok(_) if n == nodes => return n,
            Ok(_) => {
                println!(
                    "  the largest the grid holds: {n} nodes, {} links",
                    n * 3 / 2
                );
                return n;
            }
            Err(e) if n == nodes => {
                println!("{nodes} nodes, {} links: refused: {e}", nodes * 3 / 2)
            }
            Err(_) => {}
        }
        n -= width;
        assert!(n > 0, "no generated graph fits the grid");
    }
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
    through_the_route(&settings, dot);
    alone(&settings, dot);
}

/// 300 nodes and 450 links posted as DOT to the create-diagram route of a loopback server, laid
/// out and stored (`replace=true`, one transaction), beside dot on the same text.
fn through_the_route(settings: &Settings, dot: bool) {
    let nodes = fitting(300, WIDTH, settings);
    let text = graph(nodes, WIDTH);
    let name = format!("{nodes} nodes, {} links", nodes * 3 / 2);
    let query: Vec<(String, String)> = TIGHT
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let runtime = Runtime::new().unwrap();
    let (ours, theirs, count) = runtime.block_on(async {
        let local = Local::start().await;
        let doc = local.client.create_doc("Bench", None).await.unwrap();
        let (mut ours, mut theirs, mut count) = (Vec::new(), Vec::new(), 0);
        for _ in 0..RUNS {
            let started = Instant::now();
            let answer = local
                .client
                .create_diagram(
                    &doc,
                    "text/vnd.graphviz",
                    text.clone().into_bytes(),
                    &query,
                    true,
                )
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            ours.push(started.elapsed());
            count = answer.object_count;
            if dot {
                theirs.push(dot_run(&text));
            }
        }
        (ours, theirs, count)
    });
    report(
        &format!("{name}: POST create-diagram, laid out and stored ({count} objects)"),
        ours,
    );
    if dot {
        report(&format!("{name}: dot -Tjson"), theirs);
    }
}

/// 1,000 nodes and 1,500 links laid out alone (read, checked, placed, routed, objects made),
/// and placed in layers only (cycles, layers, order, coordinates, groups), beside dot.
fn alone(settings: &Settings, dot: bool) {
    let text = graph(1000, 25);
    let nodes = fitting(1000, 25, settings);
    let fits = graph(nodes, 25);
    let parsed = Format::Dot.parse(text.as_bytes()).unwrap();
    let model =
        diagtui_layout::check::check(parsed.entries, parsed.direction.unwrap_or_default()).unwrap();
    let (mut laid, mut placed, mut theirs, mut theirs_fits) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut count = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let objects = diagtui_layout::lay_out(fits.as_bytes(), Format::Dot, settings)
            .unwrap()
            .objects;
        laid.push(started.elapsed());
        count = objects.len();
        let started = Instant::now();
        let placement = diagtui_layout::layered::place_once(&model, settings);
        placed.push(started.elapsed());
        assert_eq!(placement.components.len(), 1000);
        if dot {
            theirs.push(dot_run(&text));
            if nodes != 1000 {
                theirs_fits.push(dot_run(&fits));
            }
        }
    }
    let name = format!("{nodes} nodes, {} links", nodes * 3 / 2);
    report(&format!("{name}: laid out alone ({count} objects)"), laid);
    if dot && nodes != 1000 {
        report(&format!("{name}: dot -Tjson"), theirs_fits);
    }
    report(
        "1000 nodes, 1500 links: placed in layers (no routes)",
        placed,
    );
    if dot {
        report("1000 nodes, 1500 links: dot -Tjson", theirs);
    }
}

/// Each corpus diagram laid out alone; the slowest median is the figure to hold to 20 ms.
fn corpus() {
    let dir = std::env::var_os("DIAGTUI_MERMAID_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/mermaid"));
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
