//! Differential test: every flowchart of the corpus (`../shared/mermaid`), of our own grammar
//! files (`tests/data/mermaid/`) and of the API tests' samples read by Mermaid 11's own parser, run headless in Node (scripts/mermaid-reference: npm `mermaid` and `jsdom`,
//! installed by this test into a cache under target/), and by diagtui's reader. The graphs
//! must be the same: nodes and their text, edges with their ends, kind and text, subgraph
//! membership, directions. Skipped with a note when node/npm is missing, except under CI
//! (`CI` set), where node must be there; the corpus is left out (with a note) when absent.
//!
//! Texts are compared as plain text: Mermaid's db keeps them raw (`<br>`, markdown), so
//! Mermaid's raw text is put through our reader in a one-node flowchart, and its reduction is
//! tested on its own (the reader's unit tests).

mod mermaid_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use diagtui_layout::{Format, Parsed};
use serde_json::Value;

use mermaid_support::corpus;

/// A graph as both readers are compared.
#[derive(Debug, PartialEq)]
struct Graph {
    direction: String,
    /// Node id to its plain text.
    nodes: BTreeMap<String, String>,
    /// Subgraph id to its title and own direction.
    groups: BTreeMap<String, (String, Option<String>)>,
    /// Node or subgraph id to the subgraph it belongs to.
    parents: BTreeMap<String, String>,
    edges: Vec<Edge>,
}

/// An edge as compared.
#[derive(Debug, PartialEq)]
struct Edge {
    from: String,
    to: String,
    arrow_start: bool,
    arrow_end: bool,
    stroke: String,
    text: String,
    length: u64,
    id: Option<String>,
}

#[test]
fn every_corpus_file_reads_as_mermaid_reads_it() {
    let mut files = corpus().unwrap_or_default();
    files.extend(own_files());
    let Some(script) = reference() else {
        return;
    };
    let output = Command::new("node")
        .arg(&script)
        .args(&files)
        .output()
        .expect("node runs the reference script");
    assert!(
        output.status.success(),
        "the reference script failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 from node");
    let mut compared = 0;
    let mut differences = Vec::new();
    for line in stdout.lines() {
        let reference: Value = serde_json::from_str(line).expect("one JSON object a line");
        let file = PathBuf::from(reference["file"].as_str().unwrap());
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(error) = reference.get("error") {
            differences.push(format!("{name}: Mermaid refuses it: {error}"));
            continue;
        }
        let body = std::fs::read(&file).unwrap();
        let ours = match Format::Mermaid.parse(&body) {
            Ok(parsed) => parsed,
            Err(e) => {
                differences.push(format!("{name}: we refuse it: {e}"));
                continue;
            }
        };
        let theirs = mermaids(&reference);
        let mine = ours_graph(&ours);
        if theirs != mine {
            differences.push(format!("{name}:\n{}", describe(&theirs, &mine)));
        }
        // Circle and cross ends are drawn as plain ends, and each such edge is noted.
        let odd = reference["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| {
                ["circle", "cross"]
                    .iter()
                    .any(|h| e["start"] == *h || e["end"] == *h)
            })
            .count();
        let noted = ours
            .notes
            .iter()
            .filter(|n| n.text.contains("drawn as a plain end"))
            .count();
        if odd != noted {
            differences.push(format!(
                "{name}: {odd} edges with circle or cross ends, {noted} noted"
            ));
        }
        compared += 1;
    }
    eprintln!(
        "compared {compared} flowcharts with Mermaid's own parser, {} differ",
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
    assert_eq!(compared, files.len(), "every file compared");
}

/// Our own flowcharts: the grammar files (every link, shape, label and subgraph form,
/// styles) and the sample documents' Mermaid files of the API tests.
fn own_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/data/mermaid", "../server/tests/api/samples"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Where the graphs differ, field by field.
fn describe(theirs: &Graph, mine: &Graph) -> String {
    let mut out = Vec::new();
    if theirs.direction != mine.direction {
        out.push(format!(
            "  direction: Mermaid {} / ours {}",
            theirs.direction, mine.direction
        ));
    }
    for (what, a, b) in [
        (
            "nodes",
            format!("{:?}", theirs.nodes),
            format!("{:?}", mine.nodes),
        ),
        (
            "groups",
            format!("{:?}", theirs.groups),
            format!("{:?}", mine.groups),
        ),
        (
            "parents",
            format!("{:?}", theirs.parents),
            format!("{:?}", mine.parents),
        ),
    ] {
        if a != b {
            out.push(format!("  {what}:\n    Mermaid {a}\n    ours    {b}"));
        }
    }
    if theirs.edges.len() != mine.edges.len() {
        out.push(format!(
            "  {} edges in Mermaid, {} ours",
            theirs.edges.len(),
            mine.edges.len()
        ));
    }
    for (i, (a, b)) in theirs.edges.iter().zip(&mine.edges).enumerate() {
        if a != b {
            out.push(format!("  edge {i}:\n    Mermaid {a:?}\n    ours    {b:?}"));
        }
    }
    out.join("\n")
}

/// The graph Mermaid's db holds, its texts reduced to plain text.
fn mermaids(r: &Value) -> Graph {
    let text = |v: &Value| plain(v["text"].as_str().unwrap_or(""), v["kind"].as_str(), true);
    let nodes = r["nodes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, v)| (id.clone(), text(v)))
        .collect();
    let mut parents: BTreeMap<String, String> = r["parents"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, p)| (id.clone(), p.as_str().unwrap().to_owned()))
        .collect();
    let mut groups = BTreeMap::new();
    for (id, g) in r["groups"].as_object().unwrap() {
        let title = plain(g["title"].as_str().unwrap_or(""), g["kind"].as_str(), false);
        let dir = g["dir"]
            .as_str()
            .map(|d| if d == "TD" { "TB" } else { d }.to_owned());
        groups.insert(id.clone(), (title, dir));
        if let Some(p) = g["parent"].as_str() {
            parents.insert(id.clone(), p.to_owned());
        }
    }
    let edges = r["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Edge {
            from: e["from"].as_str().unwrap().to_owned(),
            to: e["to"].as_str().unwrap().to_owned(),
            arrow_start: e["start"] == "arrow",
            arrow_end: e["end"] == "arrow",
            stroke: e["stroke"].as_str().unwrap().to_owned(),
            text: text(e),
            length: e["length"].as_u64().unwrap_or(1),
            id: e["id"].as_str().map(str::to_owned),
        })
        .collect();
    let direction = r["direction"].as_str().unwrap_or("TB");
    Graph {
        direction: if direction == "TD" { "TB" } else { direction }.to_owned(),
        nodes,
        groups,
        parents,
        edges,
    }
}

/// Mermaid's raw text as plain text: read by our reader as the label of a one-node
/// flowchart (a node's or an edge's text, `wrapped` as Mermaid wraps it) or as the title of a
/// one-subgraph flowchart (a subgraph's, never wrapped), quoted as Mermaid had it (a markdown
/// string, or a string).
fn plain(raw: &str, kind: Option<&str>, wrapped: bool) -> String {
    if raw.is_empty() {
        return String::new();
    }
    let quoted = match kind {
        Some("markdown") => format!("\"`{raw}`\""),
        _ => format!("\"{raw}\""),
    };
    let chart = if wrapped {
        format!("flowchart\n  n[{quoted}]\n")
    } else {
        format!("flowchart\n  subgraph n [{quoted}]\n  end\n")
    };
    let parsed = Format::Mermaid
        .parse(chart.as_bytes())
        .unwrap_or_else(|e| panic!("the text {raw:?} cannot be read as a label: {e}"));
    // A title that reduces to nothing leaves the group without a label.
    let label = parsed.entries[0].fields.get("label");
    label.and_then(Value::as_str).unwrap_or("").to_owned()
}

/// The graph our reader gives.
fn ours_graph(p: &Parsed) -> Graph {
    let mut nodes = BTreeMap::new();
    let mut groups = BTreeMap::new();
    let mut parents = BTreeMap::new();
    let mut edges = Vec::new();
    for e in &p.entries {
        let f = &e.fields;
        let parent = f
            .get("groups")
            .and_then(Value::as_array)
            .and_then(|g| g.last())
            .and_then(Value::as_str);
        if let Some(parent) = parent {
            parents.insert(e.id.clone(), parent.to_owned());
        }
        let label = f.get("label").and_then(Value::as_str).unwrap_or("");
        match f["type"].as_str().unwrap() {
            "component" => {
                nodes.insert(e.id.clone(), label.to_owned());
            }
            "group" => {
                let dir = f
                    .get("direction")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                groups.insert(e.id.clone(), (label.to_owned(), dir));
            }
            _ => {
                let from = f["from"].as_str().unwrap().to_owned();
                let to = f["to"].as_str().unwrap().to_owned();
                let generated = format!("{from}->{to}");
                let own = e.id != generated && !e.id.starts_with(&format!("{generated}#"));
                let stroke = if f.get("invisible") == Some(&Value::Bool(true)) {
                    "invisible"
                } else if f.get("lineDash").and_then(Value::as_str) == Some("dotted") {
                    "dotted"
                } else if f.get("lineWidth").and_then(Value::as_f64) == Some(0.175) {
                    "thick"
                } else {
                    "normal"
                };
                edges.push(Edge {
                    from,
                    to,
                    arrow_start: f["arrowStart"] == true,
                    arrow_end: f["arrowEnd"] == true,
                    stroke: stroke.to_owned(),
                    text: label.to_owned(),
                    length: f.get("minLength").and_then(Value::as_u64).unwrap_or(1),
                    id: own.then(|| e.id.clone()),
                });
            }
        }
    }
    let direction = match p.direction {
        Some(d) => diagtui_layout::model::Direction::NAMES
            .iter()
            .find(|(_, x)| *x == d)
            .map_or("TB", |(n, _)| n),
        None => "TB",
    };
    Graph {
        direction: direction.to_owned(),
        nodes,
        groups,
        parents,
        edges,
    }
}

/// The reference script, its packages installed (once) in a cache under target/; `None`
/// (with a note) when node or npm is missing outside CI.
fn reference() -> Option<PathBuf> {
    let have = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("node") || !have("npm") {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI the Mermaid reference needs node and npm (.ci/run installs them)"
        );
        eprintln!("note: node or npm is missing; the Mermaid reference comparison is skipped");
        return None;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/mermaid-reference");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mermaid-reference");
    std::fs::create_dir_all(&cache).unwrap();
    let mut changed = !cache.join("node_modules/mermaid").exists();
    for file in ["package.json", "package-lock.json", "reference.mjs"] {
        let new = std::fs::read(source.join(file)).unwrap();
        let old = std::fs::read(cache.join(file)).ok();
        if old.as_deref() != Some(new.as_slice()) {
            std::fs::write(cache.join(file), &new).unwrap();
            changed |= file != "reference.mjs";
        }
    }
    if changed {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&cache)
            .status()
            .expect("npm runs");
        assert!(status.success(), "npm ci in {} failed", cache.display());
    }
    Some(cache.join("reference.mjs"))
}
