//! Every DOT test file (tests/data/dot: the kinds of graph users bring, from `terraform graph`
//! to hand-written state machines) read and laid out end to end, with what each holds.

use std::path::PathBuf;

use diagtui_layout::catalogue::{Shape, component_id};
use diagtui_layout::input::parse_dot;
use diagtui_layout::model::Direction;
use diagtui_layout::quality::{Drawing, Measures, labels_across_borders};
use diagtui_layout::{Format, Settings, check, lay_out, lay_out_parsed};
use serde_json::Value;

/// The DOT test files, by name.
fn files() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dot");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("tests/data/dot")
        .map(|e| e.expect("an entry").path())
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("readable"))
        })
        .collect();
    files.sort();
    files
}

fn count(entries: &[diagtui_layout::RawEntry], kind: &str) -> usize {
    entries.iter().filter(|e| e.fields["type"] == kind).count()
}

#[test]
fn every_file_is_read() {
    let files = files();
    assert!(files.len() >= 8, "the DOT test files are there");
    for (name, body) in &files {
        let parsed = parse_dot(body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let nodes = count(&parsed.entries, "component");
        let edges = count(&parsed.entries, "connection");
        println!(
            "{name}: {nodes} nodes, {edges} edges, {} clusters, {} notes",
            count(&parsed.entries, "group"),
            parsed.notes.len()
        );
        for note in &parsed.notes {
            println!("  line {:?}: {}", note.line, note.text);
        }
        assert!(nodes > 0 && edges > 0, "{name}");
    }
}

/// Files the layered layout cannot fit in the grid: the 154-node terraform graph, whose 18
/// module clusters with long resource names lay out 668 cells long (`RL`). Graphviz dot's own
/// drawing of it, at our scale (its boxes as wide as ours), is 349 × 111 cells (321 × 98
/// `TB`): no layered drawing of it fits the API's 100 × 100. A file here that starts to fit
/// fails the test, so that it leaves this list.
const TOO_WIDE_YET: [&str; 1] = ["terraform-modules.dot"];

#[test]
fn every_file_is_laid_out() {
    let failures: Vec<String> = files()
        .iter()
        .filter_map(|(name, body)| {
            let laid = lay_out(body, Format::Dot, &Settings::default());
            let known = TOO_WIDE_YET.contains(&name.as_str());
            match laid {
                Ok(laid) if !known => {
                    println!("{name}: {} objects", laid.objects.len());
                    None
                }
                Ok(_) => Some(format!("{name} fits now: take it out of TOO_WIDE_YET")),
                Err(e) if known && e.to_string().contains("larger than the grid") => {
                    println!("{name}: still too wide ({e})");
                    None
                }
                Err(e) => Some(format!("{name} is not laid out: {e}")),
            }
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_files_laid_out_reach_the_zero_targets_and_cross_little() {
    // Summed over the files laid out (scripts/layout-quality.sh prints them beside dot's 7
    // crossings and 0 lines along another): no line through a component, no components on one
    // another, every member inside its group, no sibling groups overlapping, no link's label
    // across a group's border; 8 crossings,
    // within 1.2 times dot's (19 before the groups planned the lines crossing their borders,
    // 10 before the order settled ties both ways and took the groups' ports into account)
    // and 1 line along another (the Maven tree's fan-out).
    let mut sum = Measures::default();
    for (name, body) in files() {
        if TOO_WIDE_YET.contains(&name.as_str()) {
            continue;
        }
        let parsed = Format::Dot
            .parse(&body)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let direction = parsed.direction.unwrap_or_default();
        let model = check::check(parsed.entries.clone(), direction).expect("checked");
        let laid = lay_out_parsed(parsed, &Settings::default()).expect("laid out");
        let m = Drawing::of_objects(&model, &laid.objects).measure(&model);
        assert_eq!(
            (m.through, m.overlapping, m.outside, m.sibling_overlaps),
            (0, 0, 0, 0),
            "{name}: {m:?}"
        );
        let across = labels_across_borders(&model, &laid.objects);
        assert!(
            across.is_empty(),
            "{name}: labels across a group's border: {across:?}"
        );
        sum.add(&m);
    }
    assert!(sum.crossings <= 8, "{sum:?}");
    assert!(sum.along <= 1, "{sum:?}");
}

#[test]
fn each_kind_reads_as_its_tool_meant() {
    let files = files();
    let get = |name: &str| {
        let (_, body) = files.iter().find(|(n, _)| n == name).expect(name);
        parse_dot(body).unwrap()
    };
    let tf = get("terraform-modules.dot");
    assert!(count(&tf.entries, "component") >= 150);
    assert_eq!(count(&tf.entries, "group"), 18);
    assert_eq!(tf.direction, Some(Direction::RightLeft));
    let nested = tf
        .entries
        .iter()
        .find(|e| e.id == "module.cluster.module.nodes.aws_eks_node_group.spot")
        .expect("a nested module's resource");
    assert_eq!(
        nested.fields["groups"],
        serde_json::json!([
            "cluster_module.cluster",
            "cluster_module.cluster.module.nodes"
        ])
    );
    assert_eq!(nested.fields["label"], "aws_eks_node_group.spot");

    let legacy = get("terraform-legacy.dot");
    let provider = legacy
        .entries
        .iter()
        .find(|e| e.id == "[root] provider[\"registry.terraform.io/hashicorp/aws\"]")
        .expect("the provider, its quotes unescaped");
    let label = provider.fields["label"].as_str().unwrap();
    assert_eq!(label, "provider[\"registry.terraform.io/hashicorp/aws\"]");
    assert_eq!(
        provider.fields["componentType"],
        component_id(label, Shape::Rhombus)
    );
    assert_eq!(
        count(&legacy.entries, "group"),
        0,
        "`subgraph \"root\"` is no cluster"
    );

    let states = get("order-states.gv");
    assert_eq!(states.direction, Some(Direction::LeftRight));
    // The retry from `placed` to itself (line 13) is a link of its own, drawn as a loop.
    let retry = states
        .entries
        .iter()
        .find(|e| e.id == "placed->placed")
        .expect("the loop is read");
    assert_eq!(retry.fields["label"], "payment\nretry");
    assert!(states.notes.iter().all(|n| n.line != Some(13)));
    let delivered = states.entries.iter().find(|e| e.id == "delivered").unwrap();
    assert_eq!(delivered.fields["primaryColor"], "#E8F5E9");
    let back = states
        .entries
        .iter()
        .find(|e| e.id == "shipped->packed")
        .unwrap();
    assert_eq!(
        (&back.fields["arrowStart"], &back.fields["arrowEnd"]),
        (&Value::Bool(true), &Value::Bool(false))
    );

    let maven = get("maven-dependency-tree.dot");
    let long = maven
        .entries
        .iter()
        .find(|e| {
            e.fields.get("meta-dotId")
                == Some(&Value::from(
                    "org.springframework.boot:spring-boot-starter-web:jar:3.2.1:compile",
                ))
        })
        .expect("a long name kept in meta");
    assert!(long.id.chars().count() <= 60);

    let bazel = get("bazel-query.dot");
    assert!(bazel.entries.iter().any(|e| e.fields.get("label")
        == Some(&Value::from(
            "//proto/checkout:checkout_proto\n//proto/checkout:checkout_go_proto"
        ))));
}

/// Cut anywhere, or with a bracket or quote put in, a file is read or refused, never more:
/// the reader is fed what any client sends.
#[test]
fn a_file_cut_or_broken_anywhere_is_refused_not_a_crash() {
    for (name, body) in files() {
        let text = String::from_utf8(body).expect("UTF-8");
        let step = (text.len() / 12).max(1);
        for (at, _) in text.char_indices().step_by(step) {
            let _ = parse_dot(&text.as_bytes()[..at]);
            for intruder in ["{", "}", "\"", "<", "[", "->", "/*"] {
                let broken = format!("{}{intruder}{}", &text[..at], &text[at..]);
                let _ = parse_dot(broken.as_bytes());
            }
        }
        println!("{name}: cut and broken at 12 places");
    }
}
