//! Mermaid flowcharts (`flowchart TD` / `graph LR`), the whole language as Mermaid 11 reads
//! it: nodes become components (the label names a product, else the shape picks a generic
//! type; a `%% componentType NODE ID` comment names one), subgraphs become groups (Mermaid's
//! membership rule, see [`graph`]), links become connections with their arrows, dashes,
//! widths, labels and least lengths, `style`/`classDef`/`linkStyle` colours become the
//! objects' colours. What cannot be drawn is noted; only text that cannot be read is refused,
//! by its line.
//!
//! The pieces: [`prelude`] (front matter, directives, comments), [`scan`] (a cursor that
//! knows its line), [`statements`] (the grammar), [`shapes`], [`links`], [`text`] (labels to
//! plain text), [`styles`], and [`graph`] (the flowchart read, turned into entries).

mod graph;
mod links;
mod prelude;
mod scan;
mod shapes;
mod statements;
mod styles;
mod text;

use super::Parsed;
use crate::error::{LayoutError, LayoutResult};

/// Reads a Mermaid flowchart into raw entries, its direction and its notes.
pub fn parse_mermaid(body: &[u8]) -> LayoutResult<Parsed> {
    let text = std::str::from_utf8(body)
        .map_err(|e| LayoutError::input(format!("the body is not valid UTF-8: {e}")))?;
    let text = text.replace("\r\n", "\n");
    let prelude = prelude::read(&text).map_err(refused)?;
    if prelude.text.trim().is_empty() {
        return Err(LayoutError::input(
            "the body holds no flowchart (`flowchart TD` or `graph LR`)",
        ));
    }
    let mut graph = graph::Graph::default();
    graph.notes = prelude.notes;
    let direction = statements::read(&prelude.text, &mut graph).map_err(refused)?;
    for (node, (line, _)) in &prelude.types {
        if !graph.has_node(node) {
            return Err(refused(statements::Refusal {
                line: *line,
                what: format!("names node \"{node}\", which the flowchart does not have"),
            }));
        }
    }
    let types = prelude
        .types
        .into_iter()
        .map(|(node, (_, id))| (node, id))
        .collect();
    let (entries, notes) = graph.entries(&types);
    Ok(Parsed {
        entries,
        direction,
        notes,
    })
}

/// A refusal as the answer gives it: `line N: what`.
fn refused(r: statements::Refusal) -> LayoutError {
    LayoutError::setting(&format!("line {}", r.line), r.what)
}

#[cfg(test)]
mod tests;
