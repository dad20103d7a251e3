//! Graphviz DOT (`text/vnd.graphviz`), read as Graphviz reads it: [`lexer`] splits the text
//! into tokens, [`syntax`] reads them by DOT's grammar (a token out of place is refused with
//! its line and what was expected), [`graph`] carries the statements out (scoped defaults,
//! edges to subgraphs, `strict`), [`entries`] makes components of nodes, groups of clusters
//! and connections of edges, noting what cannot be drawn. Label text is [`text`]'s, colours
//! [`colour`]'s. The rules in words: docs/create-diagram.md, "DOT graphs".

mod colour;
mod entries;
mod graph;
mod lexer;
mod syntax;
mod text;

use super::Parsed;
use crate::error::{LayoutError, LayoutResult};

/// Reads a DOT graph into raw entries, its direction and notes.
pub fn parse_dot(body: &[u8]) -> LayoutResult<Parsed> {
    let text = std::str::from_utf8(body)
        .map_err(|e| LayoutError::input(format!("the body is not valid UTF-8: {e}")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let refuse =
        |line: usize, message: String| LayoutError::setting(&format!("line {line}"), message);
    let tokens = lexer::tokens(text).map_err(|e| refuse(e.line, e.message))?;
    if tokens.is_empty() {
        return Err(LayoutError::input(
            "the body holds no graph (`digraph { ... }` or `graph { ... }`)",
        ));
    }
    let parsed = syntax::parse(&tokens).map_err(|e| refuse(e.line, e.message))?;
    let graph = graph::build(&parsed);
    let mut notes = entries::Notes::default();
    if let Some(line) = parsed.more {
        notes.add(
            Some(line),
            "the text holds more than one graph: only the first is drawn",
        );
    }
    let (entries, direction) = entries::entries(&graph, &mut notes);
    Ok(Parsed {
        entries,
        direction,
        notes: notes.into_vec(),
    })
}
