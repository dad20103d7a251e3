//! A DOT graph as create-diagram entries: nodes become components (the shape picks the kind
//! through the catalogue unless a `componentType` attribute names one), clusters become groups
//! (nested), edges become connections, one per edge. What cannot be drawn is noted, never
//! refused: loops, shapes with no likeness, attributes the layout does not keep.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::colour::{Colour, colour};
use super::graph::{Attrs, Graph, is_true};
use super::lexer::IdKind;
use super::syntax::Id;
use super::text::{self, Names};
use crate::catalogue::{Shape, component_id};
use crate::input::MAX_ID_CHARS;
use crate::input::{Note, RawEntry};
use crate::model::Direction;

/// The notes made while reading, each kind of note made once where it would repeat.
#[derive(Default)]
pub struct Notes {
    notes: Vec<Note>,
    made: HashSet<String>,
}

impl Notes {
    /// Notes `text` at `line`.
    pub fn add(&mut self, line: Option<usize>, text: impl Into<String>) {
        self.notes.push(Note {
            line,
            text: text.into(),
        });
    }

    /// Notes `text` at `line` unless a note of this `kind` was made already.
    fn once(&mut self, kind: impl Into<String>, line: usize, text: impl Into<String>) {
        if self.made.insert(kind.into()) {
            self.add(Some(line), text);
        }
    }

    /// The notes, in the order made.
    pub fn into_vec(self) -> Vec<Note> {
        self.notes
    }
}

/// The entries of a graph, and its flow's direction (`rankdir`).
pub fn entries(graph: &Graph, notes: &mut Notes) -> (Vec<RawEntry>, Option<Direction>) {
    let mut ids = Ids::default();
    let node_ids: Vec<String> = graph.nodes.iter().map(|n| ids.take(&n.name)).collect();
    let clusters = Clusters::of(graph, &mut ids, notes);
    let mut entries = Vec::new();
    for (index, node) in graph.nodes.iter().enumerate() {
        let groups: Vec<&str> = clusters.chain[index]
            .iter()
            .map(|&c| clusters.ids[c].as_str())
            .collect();
        let mut fields = component(graph, &node.name, &node.attrs, node.line, notes);
        fields.insert("groups".into(), json!(groups));
        if node_ids[index] != node.name {
            fields.insert("meta-dotId".into(), json!(node.name));
            notes.once(
                "long ids",
                node.line,
                format!("node names longer than {MAX_ID_CHARS} characters are shortened for their ids (the name is kept in the component's meta `dotId`)"),
            );
        }
        entries.push(entry(&node_ids[index], fields));
    }
    for (&cluster, id) in clusters.order.iter().zip(&clusters.group_ids) {
        let subgraph = &graph.subgraphs[cluster];
        let mut fields = group(
            subgraph.name.as_deref().unwrap_or(""),
            &subgraph.attrs,
            subgraph.line,
            notes,
        );
        let outer: Vec<&str> = clusters
            .outer(cluster)
            .iter()
            .map(|&c| clusters.ids[c].as_str())
            .collect();
        if !outer.is_empty() {
            fields.insert("groups".into(), json!(outer));
        }
        entries.push(entry(id, fields));
    }
    let mut pairs: HashMap<(usize, usize), usize> = HashMap::new();
    for edge in &graph.edges {
        let count = pairs.entry((edge.tail, edge.head)).or_default();
        *count += 1;
        let fields = connection(
            graph,
            edge.tail,
            edge.head,
            &node_ids,
            &edge.attrs,
            edge.line,
            notes,
        );
        let own = edge
            .attrs
            .text("id")
            .filter(|id| !id.is_empty() && !ids.used(id))
            .map(|id| ids.take(id));
        let id = own.unwrap_or_else(|| {
            let base = format!("{}->{}", node_ids[edge.tail], node_ids[edge.head]);
            let suffix = if *count > 1 {
                format!("#{count}")
            } else {
                String::new()
            };
            ids.take_with_suffix(&base, &suffix)
        });
        entries.push(entry(&id, fields));
    }
    let direction = direction(graph, notes);
    (entries, direction)
}

/// The graph's flow (`rankdir`), noting what of the graph's own settings is not kept (`rank`,
/// its title) and a `rankdir` that is no direction.
fn direction(graph: &Graph, notes: &mut Notes) -> Option<Direction> {
    for &line in &graph.ranks {
        notes.once(
            "rank",
            line,
            "`rank` is not kept: the layout places nodes in layers by their edges",
        );
    }
    if let Some(label) = graph.attrs.get("label") {
        let line = graph.attr_lines.get("label").copied().unwrap_or(1);
        let names = Names {
            graph: &graph.name,
            object: &graph.name,
            edge: None,
        };
        notes.once(
            "graph label",
            line,
            format!(
                "the graph's title \"{}\" is not drawn",
                label_text(label, false, names)
            ),
        );
    }
    graph.attrs.text("rankdir").and_then(|r| {
        let d = Direction::from_name(r);
        if d.is_none() {
            let line = graph.attr_lines.get("rankdir").copied().unwrap_or(1);
            notes.once(
                "rankdir",
                line,
                format!("rankdir={r} is not a direction (TB, LR, BT, RL): top to bottom is used"),
            );
        }
        d
    })
}

fn entry(id: &str, fields: Map<String, Value>) -> RawEntry {
    RawEntry {
        id: id.to_owned(),
        fields,
        textual: false,
    }
}

/// Entry ids: a name longer than create-diagram allows is cut and given a hash of the whole,
/// so that it stays unique; every id is used once.
#[derive(Default)]
struct Ids {
    used: HashSet<String>,
}

impl Ids {
    fn used(&self, id: &str) -> bool {
        self.used.contains(id)
    }

    /// The id for `name`, unique among those taken.
    fn take(&mut self, name: &str) -> String {
        self.take_with_suffix(name, "")
    }

    /// The id for `name` followed by `suffix`, unique among those taken.
    fn take_with_suffix(&mut self, name: &str, suffix: &str) -> String {
        let mut candidate = fit(name, suffix);
        let mut n = 1;
        while self.used.contains(&candidate) {
            n += 1;
            candidate = fit(name, &format!("{suffix}~{n}"));
        }
        self.used.insert(candidate.clone());
        candidate
    }
}

/// `name` then `suffix`, within [`MAX_ID_CHARS`]: a long name keeps its start and a hash.
fn fit(name: &str, suffix: &str) -> String {
    let room = MAX_ID_CHARS - suffix.chars().count();
    if name.chars().count() <= room {
        return format!("{name}{suffix}");
    }
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let start: String = name.chars().take(room - 9).collect();
    format!("{start}~{:08x}{suffix}", hash as u32)
}

/// The clusters that become groups: their ids, nesting, and the chain each node sits in.
struct Clusters {
    /// Each subgraph's group id (empty for those that are no group).
    ids: Vec<String>,
    /// Each subgraph's nearest enclosing cluster.
    parent: Vec<Option<usize>>,
    /// The clusters that become groups, in the order opened.
    order: Vec<usize>,
    /// Their ids, in that order.
    group_ids: Vec<String>,
    /// Each node's clusters, outermost first.
    chain: Vec<Vec<usize>>,
}

impl Clusters {
    fn of(graph: &Graph, ids: &mut Ids, notes: &mut Notes) -> Clusters {
        let count = graph.subgraphs.len();
        let is_group: Vec<bool> = graph
            .subgraphs
            .iter()
            .map(|s| s.is_cluster() && !s.members.is_empty())
            .collect();
        for s in graph
            .subgraphs
            .iter()
            .filter(|s| s.is_cluster() && s.members.is_empty())
        {
            notes.add(
                Some(s.line),
                format!(
                    "the cluster \"{}\" holds no node and is not drawn",
                    s.name.as_deref().unwrap_or("")
                ),
            );
        }
        let parent: Vec<Option<usize>> = (0..count)
            .map(|s| {
                let mut at = graph.subgraphs[s].parent;
                while let Some(p) = at {
                    if is_group[p] {
                        return Some(p);
                    }
                    at = graph.subgraphs[p].parent;
                }
                None
            })
            .collect();
        let mut names = vec![String::new(); count];
        let mut order = Vec::new();
        let mut group_ids = Vec::new();
        for s in (0..count).filter(|&s| is_group[s]) {
            let subgraph = &graph.subgraphs[s];
            let name = subgraph
                .name
                .clone()
                .unwrap_or_else(|| format!("cluster@{}", subgraph.line));
            names[s] = ids.take(&name);
            order.push(s);
            group_ids.push(names[s].clone());
        }
        let mut chain = vec![Vec::new(); graph.nodes.len()];
        for (node, chain) in chain.iter_mut().enumerate() {
            let mut level: Option<usize> = None;
            loop {
                let mut inside = order
                    .iter()
                    .copied()
                    .filter(|&c| parent[c] == level && graph.subgraphs[c].holds(node));
                let Some(first) = inside.next() else { break };
                if let Some(other) = inside.next() {
                    let n = &graph.nodes[node];
                    notes.add(
                        Some(n.line),
                        format!(
                            "node \"{}\" is in clusters \"{}\" and \"{}\": it is drawn in the first",
                            n.name, names[first], names[other]
                        ),
                    );
                }
                chain.push(first);
                level = Some(first);
            }
        }
        Clusters {
            ids: names,
            parent,
            order,
            group_ids,
            chain,
        }
    }

    /// The clusters around `cluster`, outermost first.
    fn outer(&self, cluster: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut at = self.parent[cluster];
        while let Some(p) = at {
            chain.push(p);
            at = self.parent[p];
        }
        chain.reverse();
        chain
    }
}

/// A label's text: an HTML label's, a record's fields', or a string's with its escapes.
fn label_text(label: &Id, record: bool, names: Names<'_>) -> String {
    match label.kind {
        IdKind::Html => text::html(&label.text),
        _ if record => text::record(&label.text, names),
        _ => text::escaped(&label.text, names),
    }
}

/// The words of a `style` (`filled,dashed`, `"rounded, bold"`).
fn styles(attrs: &Attrs) -> Vec<String> {
    attrs
        .text("style")
        .unwrap_or("")
        .split([',', ' '])
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A colour attribute as `#RRGGBB`; one not known is noted and left out.
fn colour_of(attrs: &Attrs, name: &str, line: usize, notes: &mut Notes) -> Option<String> {
    let value = attrs.text(name)?;
    match colour(value) {
        Colour::Hex(hex) => Some(hex),
        Colour::Nothing => None,
        Colour::Unknown => {
            notes.once(
                format!("colour {value}"),
                line,
                format!("{name}=\"{value}\" is not a colour this reader knows: left out"),
            );
            None
        }
    }
}

/// `penwidth` as a line width (points / 20, as CSS pixels are), `bold` as 2.
fn line_width(attrs: &Attrs, styles: &[String], line: usize, notes: &mut Notes) -> Option<f64> {
    match attrs.text("penwidth").map(|w| w.trim().parse::<f64>()) {
        Some(Ok(w)) if w > 0.0 && w.is_finite() => Some(w / 20.0),
        Some(_) => {
            notes.once(
                "penwidth",
                line,
                format!(
                    "penwidth=\"{}\" is not a width above 0: left out",
                    attrs.text("penwidth").unwrap_or("")
                ),
            );
            None
        }
        None => styles.iter().any(|s| s == "bold").then_some(0.1),
    }
}

/// The dash of a line's `style`.
fn dash(styles: &[String]) -> Option<&'static str> {
    if styles.iter().any(|s| s == "dashed") {
        Some("dashed")
    } else if styles.iter().any(|s| s == "dotted") {
        Some("dotted")
    } else {
        None
    }
}

/// Graphviz's node shapes and the catalogue's shape each is drawn as; `false` when the likeness
/// is poor enough to note.
fn shape(name: &str) -> Option<(Shape, bool)> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "box" | "rect" | "rectangle" | "square" | "record" | "plaintext" | "plain" | "none"
        | "underline" | "polygon" | "msquare" => (Shape::Rectangle, true),
        "ellipse" | "oval" | "egg" | "mrecord" => (Shape::Rounded, true),
        "component" | "box3d" => (Shape::Subroutine, true),
        "cylinder" => (Shape::Cylinder, true),
        "circle" | "doublecircle" | "mcircle" | "point" => (Shape::Circle, true),
        "diamond" | "mdiamond" => (Shape::Rhombus, true),
        "hexagon" => (Shape::Hexagon, true),
        "parallelogram" | "trapezium" | "invtrapezium" => (Shape::Parallelogram, true),
        "cds" | "rarrow" | "larrow" | "rpromoter" | "lpromoter" => (Shape::Flag, true),
        "note" | "tab" | "folder" => (Shape::Document, true),
        "triangle" | "invtriangle" | "house" | "invhouse" | "pentagon" | "septagon" | "octagon"
        | "doubleoctagon" | "tripleoctagon" | "star" | "promoter" | "terminator" | "utr"
        | "primersite" | "restrictionsite" | "fivepoverhang" | "threepoverhang" | "noverhang"
        | "assembly" | "signature" | "insulator" | "ribosite" | "rnastab" | "proteasesite"
        | "proteinstab" => (Shape::Rectangle, false),
        _ => return None,
    })
}

/// A node's component fields (all but `groups`).
fn component(
    graph: &Graph,
    name: &str,
    attrs: &Attrs,
    line: usize,
    notes: &mut Notes,
) -> Map<String, Value> {
    let shape_name = attrs.text("shape").unwrap_or("ellipse");
    let mut kind = match shape(shape_name) {
        Some((kind, true)) => kind,
        Some((kind, false)) => {
            notes.once(
                format!("shape {shape_name}"),
                line,
                format!("shape={shape_name} has no likeness among the components: drawn as a box"),
            );
            kind
        }
        None => {
            notes.once(
                format!("shape {shape_name}"),
                line,
                format!("shape={shape_name} is not a Graphviz shape: drawn as a box"),
            );
            Shape::Rectangle
        }
    };
    let styles = styles(attrs);
    if kind == Shape::Rectangle && styles.iter().any(|s| s == "rounded") {
        kind = Shape::Rounded;
    }
    let record = matches!(
        shape_name.to_ascii_lowercase().as_str(),
        "record" | "mrecord"
    );
    let names = Names {
        graph: &graph.name,
        object: name,
        edge: None,
    };
    let default = Id {
        text: "\\N".into(),
        kind: IdKind::Quoted,
    };
    let label = if shape_name.eq_ignore_ascii_case("point") {
        String::new()
    } else {
        label_text(attrs.get("label").unwrap_or(&default), record, names)
    };
    let component_type = attrs
        .text("componentType")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map_or_else(|| component_id(&label, kind).to_owned(), str::to_owned);
    let mut fields = Map::from_iter([
        ("type".to_owned(), json!("component")),
        ("componentType".to_owned(), json!(component_type)),
    ]);
    if !label.is_empty() {
        fields.insert("label".into(), json!(label));
    } else if shape_name.eq_ignore_ascii_case("point") {
        // An empty name: the pictures draw a point with no title (not its type's name).
        fields.insert("name".into(), json!(""));
    }
    if styles
        .iter()
        .any(|s| matches!(s.as_str(), "filled" | "radial" | "striped" | "wedged"))
    {
        let fill = colour_of(attrs, "fillcolor", line, notes)
            .or_else(|| colour_of(attrs, "color", line, notes))
            .unwrap_or_else(|| "#D3D3D3".to_owned());
        if let Some(note) = Note::unshown_fill(Some(line), name, &fill, &component_type) {
            notes.add(note.line, note.text);
        }
        fields.insert("primaryColor".into(), json!(fill));
    }
    if styles.iter().any(|s| s == "invis") {
        notes.add(
            Some(line),
            format!("node \"{name}\" is invisible in Graphviz; it is drawn here"),
        );
    }
    fields
}

/// A cluster's group fields (all but `groups`).
fn group(name: &str, attrs: &Attrs, line: usize, notes: &mut Notes) -> Map<String, Value> {
    let mut fields = Map::from_iter([("type".to_owned(), json!("group"))]);
    if let Some(label) = attrs.get("label") {
        let names = Names {
            graph: name,
            object: name,
            edge: None,
        };
        let text = label_text(label, false, names);
        if !text.is_empty() {
            fields.insert("label".into(), json!(text));
        }
    }
    let styles = styles(attrs);
    let fill = if styles.iter().any(|s| s == "filled") {
        Some(
            colour_of(attrs, "fillcolor", line, notes)
                .or_else(|| colour_of(attrs, "color", line, notes))
                .or_else(|| colour_of(attrs, "bgcolor", line, notes))
                .unwrap_or_else(|| "#D3D3D3".to_owned()),
        )
    } else {
        colour_of(attrs, "bgcolor", line, notes)
    };
    if let Some(fill) = fill {
        fields.insert("fillColor".into(), json!(fill));
    }
    if let Some(stroke) =
        colour_of(attrs, "pencolor", line, notes).or_else(|| colour_of(attrs, "color", line, notes))
    {
        fields.insert("lineColor".into(), json!(stroke));
    }
    if let Some(font) = colour_of(attrs, "fontcolor", line, notes) {
        fields.insert("labelFontColor".into(), json!(font));
    }
    if let Some(width) = line_width(attrs, &styles, line, notes) {
        fields.insert("lineWidth".into(), json!(width));
    }
    if let Some(dash) = dash(&styles) {
        fields.insert("lineDash".into(), json!(dash));
    }
    fields
}

/// An edge's connection fields.
fn connection(
    graph: &Graph,
    tail: usize,
    head: usize,
    node_ids: &[String],
    attrs: &Attrs,
    line: usize,
    notes: &mut Notes,
) -> Map<String, Value> {
    let (tail_name, head_name) = (&graph.nodes[tail].name, &graph.nodes[head].name);
    let dir = attrs
        .text("dir")
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| if graph.directed { "forward" } else { "none" }.to_owned());
    let none = |name: &str| {
        attrs
            .text(name)
            .is_some_and(|a| a.trim().eq_ignore_ascii_case("none"))
    };
    let end = matches!(dir.as_str(), "forward" | "both") && !none("arrowhead");
    let start = matches!(dir.as_str(), "back" | "both") && !none("arrowtail");
    let mut fields = Map::from_iter([
        ("type".to_owned(), json!("connection")),
        ("from".to_owned(), json!(node_ids[tail])),
        ("to".to_owned(), json!(node_ids[head])),
        ("arrowStart".to_owned(), json!(start)),
        ("arrowEnd".to_owned(), json!(end)),
    ]);
    if let Some(label) = attrs.get("label") {
        let op = if graph.directed { "->" } else { "--" };
        let names = Names {
            graph: &graph.name,
            object: "",
            edge: Some((tail_name, head_name, op)),
        };
        let text = label_text(label, false, names);
        if !text.is_empty() {
            fields.insert("label".into(), json!(text));
        }
    }
    let styles = styles(attrs);
    if let Some(colour) = colour_of(attrs, "color", line, notes) {
        fields.insert("lineColor".into(), json!(colour));
    }
    if let Some(width) = line_width(attrs, &styles, line, notes) {
        fields.insert("lineWidth".into(), json!(width));
    }
    if let Some(dash) = dash(&styles) {
        fields.insert("lineDash".into(), json!(dash));
    }
    if styles.iter().any(|s| s == "invis") {
        fields.insert("invisible".into(), json!(true));
    }
    if let Some(minlen) = attrs.text("minlen") {
        match minlen.trim().parse::<u32>() {
            Ok(n) if n >= 2 => {
                fields.insert("minLength".into(), json!(n));
            }
            Ok(1) => {}
            _ => notes.once(
                "minlen",
                line,
                format!("minlen={minlen} is kept only as a whole number of 1 or more: left out"),
            ),
        }
    }
    for (name, what) in [
        ("xlabel", "an edge's xlabel"),
        ("headlabel", "an edge's headlabel"),
        ("taillabel", "an edge's taillabel"),
        ("lhead", "lhead (an edge clipped at a cluster)"),
        ("ltail", "ltail (an edge clipped at a cluster)"),
    ] {
        if attrs.get(name).is_some() {
            notes.once(name, line, format!("{what} is not drawn"));
        }
    }
    if attrs.text("constraint").is_some_and(|c| !is_true(c)) {
        notes.once(
            "constraint",
            line,
            "constraint=false is not kept: every edge orders the layers",
        );
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_ids_are_cut_with_a_hash_and_stay_unique() {
        let long = "x".repeat(80);
        let mut ids = Ids::default();
        let a = ids.take(&long);
        assert_eq!(a.chars().count(), MAX_ID_CHARS);
        assert!(a.starts_with("xxxx") && a.contains('~'));
        let b = ids.take_with_suffix(&long, "#2");
        assert!(b.ends_with("#2") && b.chars().count() == MAX_ID_CHARS && b != a);
        assert_eq!(ids.take("a"), "a");
        assert_eq!(ids.take("a"), "a~2");
        assert_ne!(fit(&format!("{long}1"), ""), fit(&format!("{long}2"), ""));
    }
}
