//! The statements of a flowchart, read by recursive descent over the whole text: the header
//! (`flowchart LR`), vertex statements (nodes, `&` lists, chains of links), `subgraph` …
//! `end`, `direction`, `classDef`, `class`, `style`, `linkStyle`, and the statements that
//! change nothing drawable (`click`, `accTitle`, `accDescr`).

use super::graph::{Graph, Header};
use super::links::{self, delimited, quoted};
use super::scan::Scanner;
use super::shapes;
use super::styles::Style;
use super::text::{Kind, Label};
use crate::catalogue::Shape;
use crate::model::Direction;

/// Why the text cannot be read: the line and what is wrong there.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong, for people.
    pub what: String,
}

type Read<T> = Result<T, Refusal>;

/// Reads the flowchart in `text` into `graph`: its direction, when the header gives one.
pub(super) fn read(text: &str, graph: &mut Graph) -> Read<Option<Direction>> {
    let mut s = Scanner::new(text);
    s.skip_blank();
    let direction = header(&mut s)?;
    loop {
        s.skip_blank();
        while s.eat(";") {
            s.skip_blank();
        }
        if s.rest().is_empty() {
            break;
        }
        let line = s.line();
        statement(&mut s, graph)?;
        if !s.at_statement_end() {
            let at = s.line();
            let rest = s.rest_of_statement().trim().to_owned();
            return Err(refusal(
                at,
                format!("not understood: \"{rest}\" (after a statement that began on line {line})"),
            ));
        }
    }
    if let Some(line) = graph.open_line() {
        return Err(refusal(line, "this subgraph has no `end`".into()));
    }
    Ok(direction)
}

fn refusal(line: usize, what: String) -> Refusal {
    Refusal { line, what }
}

/// `flowchart`, `graph` or `flowchart-elk`, then a direction or none.
fn header(s: &mut Scanner<'_>) -> Read<Option<Direction>> {
    let line = s.line();
    let keyword = ["flowchart-elk", "flowchart", "graph"]
        .into_iter()
        .find(|k| s.at_keyword(k));
    let Some(keyword) = keyword else {
        let first = s.rest_of_line().trim().to_owned();
        return Err(refusal(
            line,
            format!("not understood: \"{first}\" (a flowchart starts with `flowchart` or `graph`)"),
        ));
    };
    s.advance(keyword.len());
    s.skip_spaces();
    if s.at_statement_end() {
        return Ok(None);
    }
    let word = s.rest_of_statement().trim();
    let direction = match word {
        ">" => Some(Direction::LeftRight),
        "<" => Some(Direction::RightLeft),
        "^" => Some(Direction::BottomTop),
        "v" => Some(Direction::TopBottom),
        w => Direction::from_name(w),
    };
    direction.map(Some).ok_or_else(|| {
        refusal(
            line,
            format!("\"{word}\" is not a direction (TB, TD, BT, LR or RL)"),
        )
    })
}

/// One statement.
fn statement(s: &mut Scanner<'_>, graph: &mut Graph) -> Read<()> {
    let line = s.line();
    if s.at_keyword("subgraph") {
        s.advance("subgraph".len());
        let header = subgraph_header(s, line)?;
        graph.open_subgraph(header, line);
        return Ok(());
    }
    if s.at_keyword("end") {
        s.advance("end".len());
        if !graph.close_subgraph() {
            return Err(refusal(line, "an `end` with no subgraph open".into()));
        }
        return Ok(());
    }
    if s.at_keyword("direction") {
        s.advance("direction".len());
        s.skip_spaces();
        let word = s.rest_of_statement().trim();
        let direction = Direction::from_name(word).ok_or_else(|| {
            refusal(
                line,
                format!("\"{word}\" is not a direction (TB, TD, BT, LR or RL)"),
            )
        })?;
        graph.direction(direction, line);
        return Ok(());
    }
    if s.at_keyword("classDef") {
        s.advance("classDef".len());
        let (names, list) = word_and_rest(s, line, "classDef NAME STYLES")?;
        let style = style(graph, &list, line);
        graph.class_def(&names, style);
        return Ok(());
    }
    if s.at_keyword("class") {
        s.advance("class".len());
        let (ids, class) = word_and_rest(s, line, "class ID[,ID…] CLASS")?;
        graph.class(&ids, class.trim());
        return Ok(());
    }
    if s.at_keyword("style") {
        s.advance("style".len());
        let (id, list) = word_and_rest(s, line, "style ID STYLES")?;
        let style = style(graph, &list, line);
        graph.style(&id, style, line);
        return Ok(());
    }
    if s.at_keyword("linkStyle") {
        s.advance("linkStyle".len());
        let (targets, mut list) = word_and_rest(s, line, "linkStyle INDEX[,INDEX…] STYLES")?;
        // `interpolate basis` picks a curve: lines here are orthogonal, so it is left out.
        if let Some(after) = list.trim_start().strip_prefix("interpolate") {
            let after = after.trim_start();
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            list = after[end..].to_owned();
        }
        let style = style(graph, &list, line);
        graph.link_style(&targets, style, line);
        return Ok(());
    }
    // `click`, `accTitle: …` and `accDescr: …` change nothing drawn: the line is left out.
    if s.at_keyword("click") || s.rest().starts_with("accTitle") {
        s.rest_of_line();
        return Ok(());
    }
    if s.rest().starts_with("accDescr") {
        let rest = s.rest();
        let colon = rest.find(':');
        let brace = rest.find('{');
        match (brace, colon) {
            (Some(b), c) if c.is_none_or(|c| b < c) => {
                let close = rest
                    .find('}')
                    .ok_or_else(|| refusal(line, "`accDescr {` is not closed with `}`".into()))?;
                s.advance(close + 1);
            }
            _ => {
                s.rest_of_line();
            }
        }
        return Ok(());
    }
    vertex_statement(s, graph)
}

/// A style list, its unknown colours noted.
fn style(graph: &mut Graph, list: &str, line: usize) -> Style {
    let mut unknown = Vec::new();
    let style = Style::parse(list, &mut unknown);
    for colour in unknown {
        graph.note(
            line,
            format!("the colour \"{colour}\" is not one diagtui knows; left out"),
        );
    }
    style
}

/// A word (to the next white space) and the rest of the statement, for `shape`.
fn word_and_rest(s: &mut Scanner<'_>, line: usize, shape: &str) -> Read<(String, String)> {
    s.skip_spaces();
    let statement = s.rest_of_statement().trim();
    let (word, rest) = statement
        .split_once(char::is_whitespace)
        .unwrap_or((statement, ""));
    if word.is_empty() {
        return Err(refusal(line, format!("this statement reads `{shape}`")));
    }
    Ok((word.to_owned(), rest.trim().to_owned()))
}

/// What follows `subgraph`: `id [title]`, `id["title"]`, `"title"`, a bare title (spaces
/// allowed), or nothing.
fn subgraph_header(s: &mut Scanner<'_>, line: usize) -> Read<Header> {
    s.skip_spaces();
    if s.at_statement_end() {
        return Ok(Header::Bare);
    }
    let rest = s.rest();
    if rest.starts_with('"') {
        let (label, len) = quoted(rest)
            .ok_or_else(|| refusal(line, "the subgraph's quoted title is not closed".into()))?;
        s.advance(len);
        s.skip_spaces();
        if s.eat("[") {
            let title = bracket_title(s, line)?;
            return Ok(Header::IdTitle(label.raw.trim().to_owned(), title));
        }
        return Ok(Header::Text(label));
    }
    let statement_end = rest.find(['\n', ';']).unwrap_or(rest.len());
    match rest[..statement_end].find('[') {
        Some(open) => {
            let id = rest[..open].trim().to_owned();
            s.advance(open + 1);
            let title = bracket_title(s, line)?;
            if id.is_empty() {
                return Ok(Header::Text(title));
            }
            Ok(Header::IdTitle(id, title))
        }
        None => {
            let text = s.rest_of_statement().trim();
            Ok(Header::Text(Label::text(text)))
        }
    }
}

/// A subgraph title after its `[`, through the `]`.
fn bracket_title(s: &mut Scanner<'_>, line: usize) -> Read<Label> {
    let (label, len) = delimited(s.rest(), "]").ok_or_else(|| {
        refusal(
            line,
            "the subgraph's `[title` is not closed with `]`".into(),
        )
    })?;
    s.advance(len);
    Ok(label)
}

/// Nodes joined by links: `a --> b & c -- text --> d`. Links may continue on the next line.
fn vertex_statement(s: &mut Scanner<'_>, graph: &mut Graph) -> Read<()> {
    let mut previous = node_group(s, graph)?;
    loop {
        let end = s.mark();
        s.skip_blank();
        let line = s.line();
        let found = links::link(s.rest()).map_err(|what| refusal(line, what))?;
        let Some((link, len)) = found else {
            // Not a link: the statement ended before the white space.
            s.reset(end);
            return Ok(());
        };
        let written = s.rest()[..len].trim().to_owned();
        s.advance(len);
        s.skip_blank();
        if s.rest().trim().is_empty() {
            return Err(refusal(
                line,
                format!("the link `{written}` has no node after it (a node id was expected)"),
            ));
        }
        let next = node_group(s, graph)?;
        graph.link(&previous, &next, &link, line);
        previous = next;
    }
}

/// One node or several joined by `&`, each mentioned in the innermost open subgraph.
fn node_group(s: &mut Scanner<'_>, graph: &mut Graph) -> Read<Vec<String>> {
    let mut ids = Vec::new();
    loop {
        let line = s.line();
        let Some(id) = s.id() else {
            let rest = s.rest_of_statement().trim().to_owned();
            return Err(refusal(
                line,
                format!("not understood: \"{rest}\" (a node id was expected)"),
            ));
        };
        let mut definition: Option<(Option<Label>, Shape)> = None;
        if let Some((open, closes, shape)) = shapes::bracket(s.rest()) {
            s.advance(open);
            let (label, len) = shape_text(s.rest(), closes).ok_or_else(|| {
                refusal(
                    line,
                    format!("the text of node {id} is not closed with `{}`", closes[0]),
                )
            })?;
            s.advance(len);
            definition = Some((Some(label), shape));
        }
        let mut classes = Vec::new();
        for _ in 0..2 {
            if s.eat(":::") {
                let rest = s.rest();
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '&' | ';' | '@'))
                    .unwrap_or(rest.len());
                classes.push(rest[..end].to_owned());
                s.advance(end);
            }
            if s.rest().starts_with("@{") {
                let data = shape_data(s, line)?;
                if !graph.is_edge(&id) {
                    definition = Some(named_shape(graph, &id, data, definition, line));
                }
            }
        }
        graph.mention(&id, line);
        if let Some((label, shape)) = definition {
            graph.define(&id, label, shape, line);
        }
        for class in classes {
            graph.class(&id, &class);
        }
        ids.push(id);
        let rest = s.rest();
        let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        if rest[gap..].starts_with('&') {
            s.advance(gap + 1);
            s.skip_blank();
            continue;
        }
        return Ok(ids);
    }
}

/// A node's text after its opener: quoted, markdown or bare, through the first of `closes`.
fn shape_text(rest: &str, closes: &[&str]) -> Option<(Label, usize)> {
    let lead = rest.len() - rest.trim_start().len();
    if rest[lead..].starts_with('"')
        && let Some((label, len)) = quoted(&rest[lead..])
    {
        let after = &rest[lead + len..];
        let gap = after.len() - after.trim_start().len();
        if let Some(close) = closes.iter().find(|c| after[gap..].starts_with(*c)) {
            return Some((label, lead + len + gap + close.len()));
        }
    }
    let (end, close) = closes
        .iter()
        .filter_map(|c| rest.find(c).map(|at| (at, *c)))
        .min_by_key(|(at, _)| *at)?;
    Some((Label::text(rest[..end].trim()), end + close.len()))
}

/// The keys of `@{ … }` that diagtui reads.
#[derive(Default)]
struct ShapeData {
    shape: Option<String>,
    label: Option<String>,
    icon: Option<String>,
}

/// `@{ shape: …, label: "…", … }` (YAML's flow form, or one key a line), through its `}`.
fn shape_data(s: &mut Scanner<'_>, line: usize) -> Read<ShapeData> {
    s.advance(2);
    let rest = s.rest();
    let mut quote = false;
    let mut close = None;
    for (at, c) in rest.char_indices() {
        match c {
            '"' => quote = !quote,
            '}' if !quote => {
                close = Some(at);
                break;
            }
            _ => {}
        }
    }
    let close =
        close.ok_or_else(|| refusal(line, "the shape data `@{` is not closed with `}`".into()))?;
    let body = &rest[..close];
    s.advance(close + 1);
    let mut data = ShapeData::default();
    let mut quote = false;
    let mut from = 0;
    let mut items = Vec::new();
    for (at, c) in body.char_indices() {
        match c {
            '"' => quote = !quote,
            ',' | '\n' if !quote => {
                items.push(&body[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    items.push(&body[from..]);
    for item in items {
        let Some((key, value)) = item.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(value)
            .to_owned();
        match key.trim() {
            "shape" => data.shape = Some(value),
            "label" => data.label = Some(value),
            "icon" | "img" => data.icon = Some(value),
            // pos, w, h, form, constraint, animate, curve…: nothing a diagram keeps.
            _ => {}
        }
    }
    Ok(data)
}

/// The text and shape `@{ … }` gives node `id` (over what its brackets gave).
fn named_shape(
    graph: &mut Graph,
    id: &str,
    data: ShapeData,
    before: Option<(Option<Label>, Shape)>,
    line: usize,
) -> (Option<Label>, Shape) {
    let (mut label, mut shape) = before.unwrap_or((None, Shape::Rectangle));
    if let Some(name) = data.shape {
        match shapes::named(&name) {
            Some(Ok(named)) => shape = named,
            Some(Err(())) => {
                shape = Shape::Rectangle;
                graph.note(
                    line,
                    format!(
                        "node {id}: the shape `{name}` has no component of its own; drawn as a box"
                    ),
                );
            }
            None => {
                shape = Shape::Rectangle;
                graph.note(
                    line,
                    format!("node {id}: `{name}` is not a Mermaid shape; drawn as a box"),
                );
            }
        }
    }
    if let Some(icon) = data.icon {
        graph.note(
            line,
            format!("node {id}: its icon or image ({icon}) is not drawn"),
        );
    }
    if let Some(text) = data.label {
        label = Some(Label {
            raw: text,
            kind: Kind::Markdown,
        });
    }
    (label, shape)
}
