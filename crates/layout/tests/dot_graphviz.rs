//! The DOT reader against Graphviz itself: every DOT test file read by `parse_dot` and by
//! `dot -Tjson` (Debian's `graphviz`), and the two graphs compared: the nodes and the text
//! Graphviz draws for them, the edges with their ends, text and arrowheads, the cluster each
//! node is drawn in (by where dot put it), the flow's direction. A difference fails the test.
//! Without `dot` the test prints a note and passes, except under CI (`CI` set).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use diagtui_layout::input::parse_dot;
use diagtui_layout::model::Direction;
use serde_json::Value;

/// A graph as compared: nodes (name → text), edges (tail, head, text, arrow at the start, at
/// the end; invisible ones without text or arrows; loops, from a node to itself, among them),
/// each node's innermost cluster, the direction.
#[derive(Debug, PartialEq)]
struct Compared {
    nodes: BTreeMap<String, String>,
    edges: Vec<(String, String, String, bool, bool)>,
    clusters: BTreeMap<String, String>,
    direction: Direction,
}

/// Text without its white space: Graphviz draws each line (and each run of an HTML label's
/// font) as a piece of its own.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text of an object's drawing operations (`_ldraw_`).
fn drawn_text(object: &Value) -> String {
    object["_ldraw_"]
        .as_array()
        .map(|ops| {
            ops.iter()
                .filter(|op| op["op"] == "T")
                .filter_map(|op| op["text"].as_str())
                .collect::<String>()
        })
        .map(|t| squeeze(&t))
        .unwrap_or_default()
}

fn drawn(object: &Value, key: &str) -> bool {
    object[key].as_array().is_some_and(|ops| !ops.is_empty())
}

fn numbers(text: &str) -> Vec<f64> {
    text.split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect()
}

/// Graphviz's reading of a file.
fn graphviz(path: &Path) -> Compared {
    let out = Command::new("dot")
        .arg("-Tjson")
        .arg(path)
        .output()
        .expect("dot runs");
    assert!(
        out.status.success(),
        "dot refuses {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("dot's JSON");
    let objects = json["objects"].as_array().cloned().unwrap_or_default();
    let subgraphs = json["_subgraph_cnt"].as_u64().unwrap_or(0) as usize;
    let clusters: Vec<(String, Vec<f64>)> = objects[..subgraphs]
        .iter()
        .filter_map(|o| Some((o["name"].as_str()?.to_owned(), numbers(o["bb"].as_str()?))))
        .collect();
    let mut names = HashMap::new();
    let mut compared = Compared {
        nodes: BTreeMap::new(),
        edges: Vec::new(),
        clusters: BTreeMap::new(),
        direction: json["rankdir"]
            .as_str()
            .and_then(Direction::from_name)
            .unwrap_or_default(),
    };
    for node in &objects[subgraphs..] {
        let name = node["name"].as_str().expect("a name").to_owned();
        names.insert(node["_gvid"].as_u64().expect("a gvid"), name.clone());
        compared.nodes.insert(name.clone(), drawn_text(node));
        let pos = numbers(node["pos"].as_str().expect("a position"));
        let innermost = clusters
            .iter()
            .filter(|(_, bb)| {
                bb[0] <= pos[0] && pos[0] <= bb[2] && bb[1] <= pos[1] && pos[1] <= bb[3]
            })
            .min_by(|a, b| {
                let area = |bb: &[f64]| (bb[2] - bb[0]) * (bb[3] - bb[1]);
                area(&a.1).total_cmp(&area(&b.1))
            });
        if let Some((cluster, _)) = innermost {
            compared.clusters.insert(name, cluster.clone());
        }
    }
    for edge in json["edges"].as_array().cloned().unwrap_or_default() {
        let end = |key: &str| names[&edge[key].as_u64().expect("an end")].clone();
        let (tail, head) = (end("tail"), end("head"));
        let invisible = edge["style"].as_str().is_some_and(|s| s.contains("invis"));
        compared.edges.push(if invisible {
            (tail, head, String::new(), false, false)
        } else {
            (
                tail,
                head,
                drawn_text(&edge),
                drawn(&edge, "_tdraw_"),
                drawn(&edge, "_hdraw_"),
            )
        });
    }
    compared.edges.sort();
    compared
}

/// Our reading of a file.
fn ours(body: &[u8]) -> Compared {
    let parsed = parse_dot(body).expect("our reader reads it");
    let mut names = HashMap::new();
    let mut compared = Compared {
        nodes: BTreeMap::new(),
        edges: Vec::new(),
        clusters: BTreeMap::new(),
        direction: parsed.direction.unwrap_or_default(),
    };
    let text = |fields: &serde_json::Map<String, Value>| {
        fields
            .get("label")
            .and_then(Value::as_str)
            .map(squeeze)
            .unwrap_or_default()
    };
    for entry in parsed
        .entries
        .iter()
        .filter(|e| e.fields["type"] == "component")
    {
        let name = entry
            .fields
            .get("meta-dotId")
            .and_then(Value::as_str)
            .unwrap_or(&entry.id)
            .to_owned();
        names.insert(entry.id.clone(), name.clone());
        compared.nodes.insert(name.clone(), text(&entry.fields));
        if let Some(innermost) = entry
            .fields
            .get("groups")
            .and_then(Value::as_array)
            .and_then(|g| g.last())
        {
            compared
                .clusters
                .insert(name, innermost.as_str().expect("a group id").to_owned());
        }
    }
    for entry in parsed
        .entries
        .iter()
        .filter(|e| e.fields["type"] == "connection")
    {
        let end = |key: &str| names[entry.fields[key].as_str().expect("an end")].clone();
        let flag = |key: &str| {
            entry
                .fields
                .get(key)
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        compared.edges.push(if flag("invisible") {
            (end("from"), end("to"), String::new(), false, false)
        } else {
            (
                end("from"),
                end("to"),
                text(&entry.fields),
                flag("arrowStart"),
                flag("arrowEnd"),
            )
        });
    }
    compared.edges.sort();
    compared
}

fn dot_runs() -> bool {
    Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn every_dot_file_reads_as_graphviz_reads_it() {
    if !dot_runs() {
        assert!(
            std::env::var_os("CI").is_none(),
            "Graphviz's `dot` is missing under CI (.ci/run installs the graphviz package)"
        );
        eprintln!("note: Graphviz's `dot` is not installed: the differential test is skipped");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dot");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/dot")
        .map(|e| e.expect("an entry").path())
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    for path in &paths {
        let reference = graphviz(path);
        let read = ours(&std::fs::read(path).expect("readable"));
        println!(
            "{}: {} nodes, {} edges, {} in clusters: {}",
            path.file_name().unwrap().to_string_lossy(),
            reference.nodes.len(),
            reference.edges.len(),
            reference.clusters.len(),
            if read == reference {
                "the same"
            } else {
                "DIFFERENT"
            }
        );
        if read != reference {
            failures.push(describe(path, &reference, &read));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// What differs, part by part.
fn describe(path: &Path, reference: &Compared, read: &Compared) -> String {
    let mut out = format!("{}:", path.display());
    for (name, text) in &reference.nodes {
        match read.nodes.get(name) {
            None => out.push_str(&format!("\n  node {name:?} missing")),
            Some(t) if t != text => {
                out.push_str(&format!("\n  node {name:?}: ours {t:?}, dot {text:?}"))
            }
            _ => {}
        }
    }
    for name in read
        .nodes
        .keys()
        .filter(|n| !reference.nodes.contains_key(*n))
    {
        out.push_str(&format!("\n  node {name:?} is not dot's"));
    }
    for edge in reference.edges.iter().filter(|e| !read.edges.contains(e)) {
        out.push_str(&format!("\n  dot's edge {edge:?} is not ours"));
    }
    for edge in read.edges.iter().filter(|e| !reference.edges.contains(e)) {
        out.push_str(&format!("\n  our edge {edge:?} is not dot's"));
    }
    if reference.clusters != read.clusters {
        out.push_str(&format!(
            "\n  clusters: ours {:?}\n  dot's {:?}",
            read.clusters, reference.clusters
        ));
    }
    if reference.direction != read.direction {
        out.push_str(&format!(
            "\n  direction: ours {:?}, dot's {:?}",
            read.direction, reference.direction
        ));
    }
    out
}
