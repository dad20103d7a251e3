//! The flowchart as read: vertices, edges and subgraphs with their styles, and Mermaid's rule
//! of which subgraph a node belongs to. Turned into the contract's entries at the end.
//!
//! **Membership** (Mermaid's `flowDb.addSubGraph` and `makeUniq`): a subgraph lists every
//! node its own statements mention (both ends of its edges, `&` lists, nodes merely named)
//! and the subgraphs nested in it. When the subgraph closes (`end`), it keeps those not
//! already kept by a subgraph that closed before it. So a node belongs to the first subgraph
//! to close that mentions it: nested subgraphs close before their parents, and a node declared
//! outside every subgraph but linked inside one moves into it.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::links::{Head, Link, Stroke};
use super::styles::Style;
use super::text::{self, Label};
use crate::catalogue::{Shape, component_id};
use crate::input::{Note, RawEntry};
use crate::model::Direction;

/// A node as read.
struct Vertex {
    id: String,
    label: Option<Label>,
    shape: Shape,
    classes: Vec<String>,
    style: Style,
    line: usize,
}

/// An edge as read.
struct Edge {
    from: String,
    to: String,
    link: Link,
    style: Style,
    line: usize,
}

/// A subgraph still open: what its header said and what its statements mention.
struct Frame {
    header: Header,
    line: usize,
    order: usize,
    mentions: Vec<String>,
    direction: Option<Direction>,
}

/// A subgraph's header.
pub(super) enum Header {
    /// `subgraph id [title]` / `subgraph id["title"]`.
    IdTitle(String, Label),
    /// `subgraph text`: the id when it has no white space, and the title.
    Text(Label),
    /// A bare `subgraph`.
    Bare,
}

/// A closed subgraph.
struct Subgraph {
    id: String,
    title: Option<Label>,
    direction: Option<Direction>,
    nodes: Vec<String>,
    order: usize,
    classes: Vec<String>,
    style: Style,
}

/// The flowchart being read.
#[derive(Default)]
pub(super) struct Graph {
    vertices: Vec<Vertex>,
    by_id: HashMap<String, usize>,
    edges: Vec<Edge>,
    /// The edges' own ids (`e1@-->`).
    edge_ids: HashSet<String>,
    subgraphs: Vec<Subgraph>,
    open: Vec<Frame>,
    opened: usize,
    class_defs: HashMap<String, Style>,
    default_link_style: Style,
    /// Styles and classes for subgraphs not closed yet (or named before they open).
    pending_styles: HashMap<String, (Vec<String>, Style)>,
    /// What could not be drawn as written.
    pub notes: Vec<Note>,
}

impl Graph {
    /// Notes `text` at `line`.
    pub fn note(&mut self, line: usize, text: impl Into<String>) {
        self.notes.push(Note {
            line: Some(line),
            text: text.into(),
        });
    }

    /// Mentions node `id` in a statement at `line`: creates it if new, and lists it in the
    /// innermost open subgraph.
    pub fn mention(&mut self, id: &str, line: usize) {
        if let Some(frame) = self.open.last_mut() {
            frame.mentions.push(id.to_owned());
        }
        if self.is_edge(id) {
            return;
        }
        self.vertex(id, line);
    }

    /// Node `id`, created (with no text, as a box) if new.
    fn vertex(&mut self, id: &str, line: usize) -> &mut Vertex {
        let at = match self.by_id.get(id) {
            Some(&at) => at,
            None => {
                self.vertices.push(Vertex {
                    id: id.to_owned(),
                    label: None,
                    shape: Shape::Rectangle,
                    classes: Vec::new(),
                    style: Style::default(),
                    line,
                });
                self.by_id.insert(id.to_owned(), self.vertices.len() - 1);
                self.vertices.len() - 1
            }
        };
        &mut self.vertices[at]
    }

    /// Gives node `id` its text and shape (a later definition wins, as in Mermaid).
    pub fn define(&mut self, id: &str, label: Option<Label>, shape: Shape, line: usize) {
        let vertex = self.vertex(id, line);
        if label.is_some() {
            vertex.label = label;
        }
        vertex.shape = shape;
    }

    /// Whether `id` is a node (not a subgraph).
    pub fn has_node(&self, id: &str) -> bool {
        self.by_id.contains_key(id) && !self.subgraphs.iter().any(|s| s.id == id)
    }

    /// Whether `id` names an edge (its own id, `e1@-->`).
    pub fn is_edge(&self, id: &str) -> bool {
        self.edge_ids.contains(id)
    }

    /// Links every node of `from` to every node of `to`. As in Mermaid, a link's own id
    /// (`A & B e1@--> C & D`) goes to one edge, the last of `from` to the first of `to`,
    /// unless an earlier edge has it; the others get ids of their own.
    pub fn link(&mut self, from: &[String], to: &[String], link: &Link, line: usize) {
        for (i, a) in from.iter().enumerate() {
            for (j, b) in to.iter().enumerate() {
                let mut link = link.clone();
                let owner = i + 1 == from.len() && j == 0;
                link.id = link.id.filter(|id| owner && !self.edge_ids.contains(id));
                if let Some(id) = &link.id {
                    self.edge_ids.insert(id.clone());
                }
                self.edges.push(Edge {
                    from: a.clone(),
                    to: b.clone(),
                    link,
                    style: Style::default(),
                    line,
                });
            }
        }
    }

    /// Opens a subgraph.
    pub fn open_subgraph(&mut self, header: Header, line: usize) {
        self.opened += 1;
        self.open.push(Frame {
            header,
            line,
            order: self.opened,
            mentions: Vec::new(),
            direction: None,
        });
    }

    /// The line where the innermost open subgraph starts.
    pub fn open_line(&self) -> Option<usize> {
        self.open.last().map(|f| f.line)
    }

    /// `direction X` inside the innermost open subgraph (the last one given counts).
    pub fn direction(&mut self, direction: Direction, line: usize) {
        match self.open.last_mut() {
            Some(frame) => frame.direction = Some(direction),
            None => self.note(
                line,
                "`direction` outside a subgraph changes nothing (as in Mermaid): the \
                 flowchart's direction is the one on its first line",
            ),
        }
    }

    /// Closes the innermost subgraph (`end`), applying Mermaid's membership rule.
    pub fn close_subgraph(&mut self) -> bool {
        let Some(frame) = self.open.pop() else {
            return false;
        };
        let number = self.subgraphs.len();
        let (id, title) = match frame.header {
            Header::IdTitle(id, title) => (id, Some(title)),
            Header::Text(title) if title.raw.chars().any(char::is_whitespace) => {
                (format!("subGraph{number}"), Some(title))
            }
            Header::Text(title) => (title.raw.trim().to_owned(), Some(title)),
            Header::Bare => (format!("subGraph{number}"), None),
        };
        let kept: HashSet<&String> = self.subgraphs.iter().flat_map(|s| &s.nodes).collect();
        let mut seen = HashSet::new();
        let nodes: Vec<String> = frame
            .mentions
            .into_iter()
            .filter(|n| !kept.contains(n) && *n != id && seen.insert(n.clone()))
            .collect();
        let (classes, style) = self.pending_styles.remove(&id).unwrap_or_default();
        self.subgraphs.push(Subgraph {
            id: id.clone(),
            title,
            direction: frame.direction,
            nodes,
            order: frame.order,
            classes,
            style,
        });
        if let Some(parent) = self.open.last_mut() {
            parent.mentions.push(id);
        }
        true
    }

    /// `classDef a,b styles`.
    pub fn class_def(&mut self, names: &str, style: Style) {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let merged = self.class_defs.get(name).cloned().unwrap_or_default();
            self.class_defs.insert(name.to_owned(), merged.and(&style));
        }
    }

    /// `class a,b name` and `a:::name`: a class for nodes or subgraphs by id (a subgraph
    /// may be named before it closes); edges' classes only animate, and are left out.
    pub fn class(&mut self, ids: &str, class: &str) {
        for id in ids.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if let Some(s) = self.subgraphs.iter_mut().find(|s| s.id == id) {
                s.classes.push(class.to_owned());
            } else if let Some(&at) = self.by_id.get(id) {
                self.vertices[at].classes.push(class.to_owned());
                self.pending_styles
                    .entry(id.to_owned())
                    .or_default()
                    .0
                    .push(class.to_owned());
            } else if !self.is_edge(id) {
                let pending = self.pending_styles.entry(id.to_owned()).or_default();
                pending.0.push(class.to_owned());
            }
        }
    }

    /// `style id styles`: for a node (created if new, as Mermaid does) and for the subgraph
    /// of that id, closed now or later.
    pub fn style(&mut self, id: &str, style: Style, line: usize) {
        if let Some(s) = self.subgraphs.iter_mut().find(|s| s.id == id) {
            s.style = s.style.and(&style);
            return;
        }
        let pending = self.pending_styles.entry(id.to_owned()).or_default();
        pending.1 = pending.1.and(&style);
        if !self.is_edge(id) {
            let vertex = self.vertex(id, line);
            vertex.style = vertex.style.and(&style);
        }
    }

    /// `linkStyle 0,2 styles` / `linkStyle default styles`.
    pub fn link_style(&mut self, targets: &str, style: Style, line: usize) {
        for target in targets.split(',').map(str::trim) {
            if target == "default" {
                self.default_link_style = self.default_link_style.and(&style);
                continue;
            }
            match target.parse::<usize>() {
                Ok(i) if i < self.edges.len() => {
                    self.edges[i].style = self.edges[i].style.and(&style);
                }
                _ => self.note(
                    line,
                    format!(
                        "linkStyle {target}: there is no such link (the flowchart has {} so \
                         far, counted from 0); left out",
                        self.edges.len()
                    ),
                ),
            }
        }
    }

    /// The entries: nodes in the order first mentioned, subgraphs in the order opened, then
    /// one connection per edge in input order. `types` are the `%% componentType` comments.
    pub fn entries(mut self, types: &HashMap<String, String>) -> (Vec<RawEntry>, Vec<Note>) {
        let groups: HashSet<String> = self.subgraphs.iter().map(|s| s.id.clone()).collect();
        // The first subgraph (in closing order) listing an id owns it.
        let mut parent: HashMap<String, String> = HashMap::new();
        for s in self.subgraphs.iter().rev() {
            for n in &s.nodes {
                parent.insert(n.clone(), s.id.clone());
            }
        }
        let chain = |id: &str| -> Vec<String> {
            let mut chain = Vec::new();
            let mut at = id.to_owned();
            while let Some(p) = parent.get(&at) {
                if chain.contains(p) || chain.len() > groups.len() {
                    break;
                }
                chain.push(p.clone());
                at = p.clone();
            }
            chain.reverse();
            chain
        };
        let mut entries = Vec::new();
        let mut notes = std::mem::take(&mut self.notes);
        let default_class = self.class_defs.get("default").cloned().unwrap_or_default();
        for v in self.vertices.iter().filter(|v| !groups.contains(&v.id)) {
            // A node with no text is labelled with its id, as Mermaid draws it.
            let plain = v.label.as_ref().map_or_else(
                || text::Plain {
                    text: v.id.clone(),
                    icons: Vec::new(),
                },
                text::plain,
            );
            for icon in &plain.icons {
                notes.push(Note {
                    line: Some(v.line),
                    text: format!("node {}: the icon fa-{icon} is not drawn", v.id),
                });
            }
            // A text given but blank (`("&nbsp")`) stays blank, as Mermaid draws it.
            let label = plain.text;
            let component = types
                .get(&v.id)
                .cloned()
                .unwrap_or_else(|| component_id(&label, v.shape).to_owned());
            let style = self.classes_style(&default_class, &v.classes).and(&v.style);
            let mut fields = Map::from_iter([
                ("type".to_owned(), json!("component")),
                ("componentType".to_owned(), json!(component)),
                (
                    "label".to_owned(),
                    json!(text::wrapped(&label, text::WRAP_CHARS)),
                ),
                ("groups".to_owned(), json!(chain(&v.id))),
            ]);
            if let Some(fill) = style.fill {
                notes.extend(Note::unshown_fill(Some(v.line), &v.id, &fill, &component));
                fields.insert("primaryColor".into(), json!(fill));
            }
            entries.push(entry(&v.id, fields));
        }
        let mut subgraphs: Vec<&Subgraph> = self.subgraphs.iter().collect();
        subgraphs.sort_by_key(|s| s.order);
        for s in subgraphs {
            entries.push(self.group_entry(s, chain(&s.id)));
        }
        let mut taken: HashSet<String> = entries.iter().map(|e| e.id.clone()).collect();
        for e in &self.edges {
            let (fields, note) = self.connection(e);
            if let Some(note) = note {
                notes.push(Note {
                    line: Some(e.line),
                    text: note,
                });
            }
            let id = connection_id(e, &taken);
            taken.insert(id.clone());
            entries.push(entry(&id, fields));
        }
        (entries, notes)
    }

    /// A subgraph's group entry, inside the groups `outer` (outermost first).
    fn group_entry(&self, s: &Subgraph, outer: Vec<String>) -> RawEntry {
        let mut fields = Map::from_iter([("type".to_owned(), json!("group"))]);
        let title = s.title.as_ref().map(|t| text::plain(t).text);
        if let Some(title) = title.filter(|t| !t.is_empty()) {
            fields.insert("label".into(), json!(title));
        }
        if let Some(d) = s.direction {
            fields.insert("direction".into(), json!(d.name()));
        }
        if !outer.is_empty() {
            fields.insert("groups".into(), json!(outer));
        }
        let style = self
            .classes_style(&Style::default(), &s.classes)
            .and(&s.style);
        for (name, value) in [
            ("fillColor", style.fill),
            ("lineColor", style.stroke),
            ("labelFontColor", style.color),
        ] {
            if let Some(value) = value {
                fields.insert(name.into(), json!(value));
            }
        }
        entry(&s.id, fields)
    }

    /// The style of `classes` (in order, the later winning) over `base`.
    fn classes_style(&self, base: &Style, classes: &[String]) -> Style {
        classes
            .iter()
            .filter_map(|c| self.class_defs.get(c))
            .fold(base.clone(), |acc, s| acc.and(s))
    }

    /// An edge's connection fields, and a note when its ends cannot be drawn as written.
    fn connection(&self, e: &Edge) -> (Map<String, Value>, Option<String>) {
        let link = &e.link;
        let mut fields = Map::from_iter([
            ("type".to_owned(), json!("connection")),
            ("from".to_owned(), json!(e.from)),
            ("to".to_owned(), json!(e.to)),
            ("arrowStart".to_owned(), json!(link.start == Head::Arrow)),
            ("arrowEnd".to_owned(), json!(link.end == Head::Arrow)),
        ]);
        let style = self.default_link_style.and(&e.style);
        match link.stroke {
            Stroke::Dotted => {
                fields.insert("lineDash".into(), json!("dotted"));
            }
            Stroke::Thick => {
                fields.insert("lineWidth".into(), json!(THICK));
            }
            Stroke::Invisible => {
                fields.insert("invisible".into(), json!(true));
            }
            Stroke::Normal => {}
        }
        if style.dashed == Some(true) {
            fields.insert("lineDash".into(), json!("dashed"));
        }
        if let Some(width) = style.stroke_width.filter(|w| *w > 0.0) {
            fields.insert("lineWidth".into(), json!(width / 20.0));
        }
        if let Some(colour) = style.stroke {
            fields.insert("lineColor".into(), json!(colour));
        }
        if link.length > 1 {
            fields.insert("minLength".into(), json!(link.length));
        }
        if let Some(label) = &link.text {
            let plain = text::plain(label).text;
            if !plain.is_empty() {
                fields.insert(
                    "label".into(),
                    json!(text::wrapped(&plain, text::WRAP_CHARS)),
                );
            }
        }
        let odd: Vec<&str> = [link.start, link.end]
            .iter()
            .filter_map(|h| match h {
                Head::Circle => Some("circle"),
                Head::Cross => Some("cross"),
                _ => None,
            })
            .collect();
        let note = (!odd.is_empty()).then(|| {
            format!(
                "the link {} to {}: its {} end{} drawn as a plain end",
                e.from,
                e.to,
                odd.join(" and "),
                if odd.len() > 1 { "s are" } else { " is" }
            )
        });
        (fields, note)
    }
}

/// A thick link's width (`==>`): Mermaid's 3.5 px at 20 px a cell.
const THICK: f64 = 0.175;

/// An edge's entry id: its own (`A e1@--> B`), else `FROM->TO`, numbered `#2`, `#3`... after
/// the first when the id is `taken`.
fn connection_id(e: &Edge, taken: &HashSet<String>) -> String {
    match &e.link.id {
        Some(id) => id.clone(),
        None => {
            let base = format!("{}->{}", e.from, e.to);
            let mut id = base.clone();
            let mut n = 1;
            while taken.contains(&id) {
                n += 1;
                id = format!("{base}#{n}");
            }
            id
        }
    }
}

/// A raw entry.
fn entry(id: &str, fields: Map<String, Value>) -> RawEntry {
    RawEntry {
        id: id.to_owned(),
        fields,
        textual: false,
    }
}
