//! Mermaid flowcharts (`flowchart TD` / `graph LR`): nodes become components (the shape, or a
//! `%% componentType NODE ID` comment, picks the componentId), `subgraph`s become groups, edges
//! become connections with their arrows, dashes and labels. A line that is not understood is
//! refused by its number. Styling statements (`classDef`, `class`, `style`, `linkStyle`,
//! `click`) and `direction` are read and left out.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::{Parsed, RawEntry};
use crate::error::{LayoutError, LayoutResult};
use crate::model::Direction;

/// Node shapes: opener, closer and the componentId they stand for (ours).
const SHAPES: [(&str, &str, &str); 13] = [
    ("(((", ")))", "generic.pc"),
    ("([", "])", "generic.api-gateway"),
    ("[(", ")]", "generic.database"),
    ("[[", "]]", "generic.processor"),
    ("((", "))", "generic.pc"),
    ("{{", "}}", "generic.cache"),
    ("[/", "/]", "generic.bucket"),
    ("[\\", "\\]", "generic.bucket"),
    ("[", "]", "generic.server"),
    ("(", ")", "generic.server"),
    ("{", "}", "generic.gateway"),
    (">", "]", "generic.message-queue"),
    ("@{", "}", "generic.server"),
];

/// The componentId of a node given without a shape.
const PLAIN: &str = "generic.server";

/// Statements that are understood and carry nothing a diagram keeps.
const IGNORED: [&str; 8] = [
    "classDef",
    "class",
    "style",
    "linkStyle",
    "click",
    "direction",
    "accTitle",
    "accDescr",
];

/// A node as read.
#[derive(Default)]
struct Node {
    label: Option<String>,
    component_id: Option<&'static str>,
    groups: Vec<String>,
    order: usize,
}

/// An edge as read.
struct Edge {
    from: String,
    to: String,
    start: bool,
    end: bool,
    dash: Option<&'static str>,
    thick: bool,
    label: Option<String>,
}

/// What a flowchart holds.
#[derive(Default)]
struct Chart {
    nodes: HashMap<String, Node>,
    groups: Vec<(String, Option<String>)>,
    edges: Vec<Edge>,
    types: BTreeMap<String, (usize, String)>,
}

/// Reads a Mermaid flowchart into raw entries.
pub fn parse_mermaid(body: &[u8]) -> LayoutResult<Parsed> {
    let text = std::str::from_utf8(body)
        .map_err(|e| LayoutError::input(format!("the body is not valid UTF-8: {e}")))?;
    let mut chart = Chart::default();
    let mut open: Vec<String> = Vec::new();
    let mut header = false;
    let mut direction = None;
    let mut front_matter = false;
    for (n, line) in text.lines().enumerate() {
        let number = n + 1;
        let line = line.trim();
        let refuse = |what: &str| LayoutError::setting(&format!("line {number}"), what.to_owned());
        if n == 0 && line == "---" {
            front_matter = true;
            continue;
        }
        if front_matter {
            front_matter = line != "---";
            continue;
        }
        if let Some(comment) = line.strip_prefix("%%") {
            chart.comment(comment, number)?;
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if !header {
            let first = line.split_whitespace().next().unwrap_or("");
            if first != "flowchart" && first != "graph" {
                return Err(refuse(&format!(
                    "not understood: \"{line}\" (a flowchart starts with `flowchart` or `graph`)"
                )));
            }
            header = true;
            direction = line
                .split_whitespace()
                .nth(1)
                .and_then(Direction::from_name);
            continue;
        }
        for statement in line.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            chart
                .statement(statement, &mut open)
                .map_err(|what| refuse(&format!("not understood: \"{statement}\" ({what})")))?;
        }
    }
    if !header {
        return Err(LayoutError::input(
            "the body holds no flowchart (`flowchart TD` or `graph LR`)",
        ));
    }
    if let Some(group) = open.last() {
        return Err(LayoutError::setting(
            &format!("subgraph {group}"),
            "has no `end`",
        ));
    }
    Ok(Parsed {
        entries: chart.entries()?,
        direction,
        notes: Vec::new(),
    })
}

impl Chart {
    /// A `%%` comment: `componentType NODE ID` sets a node's componentId; others are comments.
    fn comment(&mut self, comment: &str, number: usize) -> LayoutResult<()> {
        let mut words = comment.split_whitespace();
        if words.next() != Some("componentType") {
            return Ok(());
        }
        match (words.next(), words.next(), words.next()) {
            (Some(node), Some(id), None) => {
                self.types.insert(node.to_owned(), (number, id.to_owned()));
                Ok(())
            }
            _ => Err(LayoutError::setting(
                &format!("line {number}"),
                "a componentType comment reads `%% componentType NODE COMPONENT_ID`",
            )),
        }
    }

    /// One statement, inside the subgraphs `open`.
    fn statement(&mut self, s: &str, open: &mut Vec<String>) -> Result<(), String> {
        let keyword = s.split_whitespace().next().unwrap_or("");
        if IGNORED.contains(&keyword)
            || keyword.starts_with("accTitle:")
            || keyword.starts_with("accDescr:")
        {
            return Ok(());
        }
        if keyword == "end" && s == "end" {
            return open
                .pop()
                .map(|_| ())
                .ok_or_else(|| "an `end` with no subgraph open".into());
        }
        if keyword == "subgraph" {
            let rest = s["subgraph".len()..].trim();
            let (id, title) = if rest.starts_with('"') {
                let title = rest.trim_matches('"').to_owned();
                (title.clone(), Some(title))
            } else {
                let mut cur = Cursor::new(rest);
                let id = cur.id().ok_or("a subgraph needs an id or a title")?;
                cur.rest = cur.rest.trim_start();
                let title = cur.shape()?.map(|(_, text)| text);
                if !cur.rest().is_empty() {
                    return Err("unexpected text after the subgraph's id and title".into());
                }
                (id, title)
            };
            self.groups.push((id.clone(), title));
            open.push(id);
            return Ok(());
        }
        let mut cur = Cursor::new(s);
        let mut previous = self.nodes_at(&mut cur, open)?;
        while !cur.rest().is_empty() {
            let arrow = cur.arrow()?;
            let next = self.nodes_at(&mut cur, open)?;
            for from in &previous {
                for to in &next {
                    self.edges.push(Edge {
                        from: from.clone(),
                        to: to.clone(),
                        start: arrow.start,
                        end: arrow.end,
                        dash: arrow.dash,
                        thick: arrow.thick,
                        label: arrow.label.clone(),
                    });
                }
            }
            previous = next;
        }
        Ok(())
    }

    /// One or more nodes joined by `&`, registered (in the innermost open subgraph when new).
    fn nodes_at(&mut self, cur: &mut Cursor<'_>, open: &[String]) -> Result<Vec<String>, String> {
        let mut ids = Vec::new();
        loop {
            let id = cur.id().ok_or("a node id was expected")?;
            let shape = cur.shape()?;
            cur.class();
            let order = self.nodes.len();
            let is_group = self.groups.iter().any(|(g, _)| *g == id);
            if !is_group {
                let node = self.nodes.entry(id.clone()).or_insert_with(|| Node {
                    groups: open.to_vec(),
                    order,
                    ..Node::default()
                });
                if let Some((component_id, text)) = shape {
                    node.component_id = Some(component_id);
                    node.label = Some(text);
                }
            }
            ids.push(id);
            if !cur.eat("&") {
                return Ok(ids);
            }
        }
    }

    /// The entries: nodes in order, groups, then connections (one per pair).
    fn entries(self) -> LayoutResult<Vec<RawEntry>> {
        let mut entries = Vec::new();
        for (node, (number, _)) in &self.types {
            if !self.nodes.contains_key(node) {
                return Err(LayoutError::setting(
                    &format!("line {number}"),
                    format!("names node \"{node}\", which the flowchart does not have"),
                ));
            }
        }
        let mut nodes: Vec<(&String, &Node)> = self.nodes.iter().collect();
        nodes.sort_by_key(|(_, n)| n.order);
        for (id, node) in nodes {
            let component_id = self
                .types
                .get(id)
                .map_or(node.component_id.unwrap_or(PLAIN).to_owned(), |(_, t)| {
                    t.clone()
                });
            let mut fields = Map::from_iter([
                ("type".to_owned(), json!("component")),
                ("componentType".to_owned(), json!(component_id)),
                ("groups".to_owned(), json!(node.groups)),
            ]);
            if let Some(label) = &node.label {
                fields.insert("label".into(), json!(label));
            }
            entries.push(RawEntry {
                id: id.clone(),
                fields,
                textual: false,
            });
        }
        for (id, title) in &self.groups {
            let mut fields = Map::from_iter([("type".to_owned(), json!("group"))]);
            if let Some(title) = title {
                fields.insert("label".into(), json!(title));
            }
            entries.push(RawEntry {
                id: id.clone(),
                fields,
                textual: false,
            });
        }
        let mut seen: HashMap<(String, String), usize> = HashMap::new();
        for edge in self.edges {
            let key = if edge.from <= edge.to {
                (edge.from.clone(), edge.to.clone())
            } else {
                (edge.to.clone(), edge.from.clone())
            };
            if let Some(&at) = seen.get(&key) {
                let fields = &mut entries[at].fields;
                let forward = fields["from"] == json!(edge.from);
                let (start, end) = if forward {
                    (edge.start, edge.end)
                } else {
                    (edge.end, edge.start)
                };
                for (name, on) in [("arrowStart", start), ("arrowEnd", end)] {
                    if on {
                        fields.insert(name.into(), Value::Bool(true));
                    }
                }
                continue;
            }
            let mut fields = Map::from_iter([
                ("type".to_owned(), json!("connection")),
                ("from".to_owned(), json!(edge.from)),
                ("to".to_owned(), json!(edge.to)),
                ("arrowStart".to_owned(), json!(edge.start)),
                ("arrowEnd".to_owned(), json!(edge.end)),
            ]);
            if let Some(dash) = edge.dash {
                fields.insert("lineDash".into(), json!(dash));
            }
            if edge.thick {
                fields.insert("lineWidth".into(), json!(0.1));
            }
            if let Some(label) = edge.label {
                fields.insert("label".into(), json!(label));
            }
            seen.insert(key, entries.len());
            entries.push(RawEntry {
                id: format!("{}->{}", edge.from, edge.to),
                fields,
                textual: false,
            });
        }
        Ok(entries)
    }
}

/// An edge operator as read.
struct Arrow {
    start: bool,
    end: bool,
    dash: Option<&'static str>,
    thick: bool,
    label: Option<String>,
}

/// A cursor over one statement.
struct Cursor<'a> {
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str) -> Cursor<'a> {
        Cursor {
            rest: s.trim_start(),
        }
    }

    fn rest(&self) -> &'a str {
        self.rest
    }

    /// Takes `token` (after white space) if it comes next.
    fn eat(&mut self, token: &str) -> bool {
        let trimmed = self.rest.trim_start();
        match trimmed.strip_prefix(token) {
            Some(after) => {
                self.rest = after.trim_start();
                true
            }
            None => false,
        }
    }

    /// A node or subgraph id: letters, digits and `_` (and `-` or `.` inside, not starting an arrow).
    fn id(&mut self) -> Option<String> {
        let s = self.rest.trim_start();
        let mut end = 0;
        let chars: Vec<(usize, char)> = s.char_indices().collect();
        for (i, &(at, c)) in chars.iter().enumerate() {
            let next = chars.get(i + 1).map(|(_, c)| *c);
            let inner = (c == '-' || c == '.')
                && end > 0
                && next.is_some_and(|n| n.is_alphanumeric() || n == '_');
            if c.is_alphanumeric() || c == '_' || inner {
                end = at + c.len_utf8();
            } else {
                break;
            }
        }
        if end == 0 {
            return None;
        }
        self.rest = &s[end..];
        Some(s[..end].to_owned())
    }

    /// A shape right after a node id: its componentId and text.
    fn shape(&mut self) -> Result<Option<(&'static str, String)>, String> {
        for (open, close, component_id) in SHAPES {
            if let Some(after) = self.rest.strip_prefix(open) {
                let end = after
                    .find(close)
                    .ok_or_else(|| format!("`{open}` is not closed with `{close}`"))?;
                let text = after[..end]
                    .trim()
                    .trim_matches('"')
                    .trim_matches('`')
                    .trim()
                    .to_owned();
                self.rest = after[end + close.len()..].trim_start();
                return Ok(Some((component_id, text)));
            }
        }
        self.rest = self.rest.trim_start();
        Ok(None)
    }

    /// A `:::class` suffix, left out.
    fn class(&mut self) {
        if let Some(after) = self.rest.strip_prefix(":::") {
            let end = after
                .find(|c: char| c.is_whitespace() || c == '&')
                .unwrap_or(after.len());
            self.rest = after[end..].trim_start();
        }
    }

    /// An edge operator: `-->`, `---`, `-.->`, `==>`, `<-->`, with `|label|` or `-- label -->`.
    fn arrow(&mut self) -> Result<Arrow, String> {
        let s = self.rest.trim_start();
        let start = s.starts_with('<');
        let s = s.strip_prefix('<').unwrap_or(s);
        let body_len = s
            .find(|c: char| !matches!(c, '-' | '=' | '.'))
            .unwrap_or(s.len());
        let body = &s[..body_len];
        if body.len() < 2 && !(body == "-" && s[1..].starts_with('>')) {
            return Err("an edge such as `-->` was expected".into());
        }
        let mut after = &s[body_len..];
        let mut label = None;
        let mut end = after.starts_with('>');
        let mut kind = body.to_owned();
        if end {
            after = &after[1..];
        } else if after.starts_with(char::is_whitespace)
            && (body == "--" || body == "==" || body == "-.")
        {
            // `A -- text --> B`: the text runs to the closing operator.
            let closing = ["-->", "---", "==>", "===", ".->", ".-"]
                .iter()
                .filter_map(|op| after.find(op).map(|at| (at, *op)))
                .min_by_key(|(at, _)| *at)
                .ok_or("a labelled edge `-- text -->` is not closed")?;
            label = Some(after[..closing.0].trim().to_owned());
            kind.push_str(closing.1);
            end = closing.1.ends_with('>');
            after = &after[closing.0 + closing.1.len()..];
        }
        let mut rest = after.trim_start();
        if let Some(inner) = rest.strip_prefix('|') {
            let close = inner
                .find('|')
                .ok_or("an edge label `|text|` is not closed")?;
            label = Some(inner[..close].trim().trim_matches('"').to_owned());
            rest = inner[close + 1..].trim_start();
        }
        self.rest = rest;
        Ok(Arrow {
            start,
            end,
            dash: kind.contains('.').then_some("dotted"),
            thick: kind.contains('='),
            label: label.filter(|l| !l.is_empty()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<RawEntry> {
        parse_mermaid(text.as_bytes()).unwrap().entries
    }

    fn get<'a>(entries: &'a [RawEntry], id: &str) -> &'a Map<String, Value> {
        &entries
            .iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("no {id}"))
            .fields
    }

    #[test]
    fn nodes_subgraphs_and_edges() {
        let e = entries(
            "%% a comment\nflowchart LR\n  %% componentType api networking.haproxy\n  user((User)) --> api[\"API gateway\"]\n\
             subgraph backend [Back end]\n    api -->|calls| svc(Service) & db[(Orders DB)]\n    subgraph inner\n      q>Queue] -.-> svc\n    end\n  end\n\
             svc <==> db\n  a -- talks to --> b; b --- a\n  classDef hot fill:#f00\n  class a hot\n",
        );
        assert_eq!(get(&e, "user")["componentType"], "generic.pc");
        assert_eq!(get(&e, "user")["label"], "User");
        assert_eq!(get(&e, "api")["componentType"], "networking.haproxy");
        assert_eq!(get(&e, "api")["groups"], json!([]));
        assert_eq!(get(&e, "svc")["groups"], json!(["backend"]));
        assert_eq!(get(&e, "db")["componentType"], "generic.database");
        assert_eq!(get(&e, "q")["groups"], json!(["backend", "inner"]));
        assert_eq!(get(&e, "q")["componentType"], "generic.message-queue");
        assert_eq!(get(&e, "backend")["label"], "Back end");
        assert_eq!(get(&e, "api->svc")["label"], "calls");
        assert_eq!(get(&e, "api->db")["arrowEnd"], true);
        assert_eq!(get(&e, "q->svc")["lineDash"], "dotted");
        let both = get(&e, "svc->db");
        assert_eq!(
            (
                both["arrowStart"].clone(),
                both["arrowEnd"].clone(),
                both["lineWidth"].clone()
            ),
            (json!(true), json!(true), json!(0.1))
        );
        assert_eq!(get(&e, "a->b")["label"], "talks to");
        assert!(!e.iter().any(|x| x.id == "b->a"), "one connection per pair");
        assert_eq!(get(&e, "user->api")["arrowStart"], false);
    }

    #[test]
    fn lines_not_understood_are_named_by_number() {
        for (text, line) in [
            ("flowchart TD\n  a --> b\n  a ?? b\n", "line 3"),
            ("sequenceDiagram\n", "line 1"),
            ("graph TD\nend\n", "line 2"),
            ("graph TD\na[open\n", "line 2"),
            ("graph TD\n%% componentType a\n", "line 2"),
            ("graph TD\n%% componentType zz generic.pc\na\n", "line 2"),
        ] {
            let e = parse_mermaid(text.as_bytes()).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(line), "{text}: {e}");
        }
        let e = parse_mermaid(b"graph TD\nsubgraph x\na\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("subgraph x"));
    }
}
