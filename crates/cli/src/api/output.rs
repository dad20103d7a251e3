//! What the CLI prints: the API's JSON on stdout (pretty on a terminal, compact otherwise), or
//! the document list as a table.

use std::io::{IsTerminal, Stdout, Write};

use serde_json::Value;

use super::relayout::Layout;
use diagtui_model::DocSummary;

/// A command's result, ready to print.
#[derive(Debug)]
pub enum Output {
    /// JSON for stdout.
    Json(Value),
    /// The document list as a readable table.
    DocTable(Vec<DocSummary>),
    /// Plain text for stdout, as it is (a table).
    Text(String),
    /// Nothing for stdout (the result went to a file).
    Nothing,
}

impl Output {
    /// Prints to stdout.
    pub fn print(&self) -> std::io::Result<()> {
        let stdout = std::io::stdout();
        let layout = stdout_layout(&stdout);
        let mut out = stdout.lock();
        match self {
            Output::Json(value) => writeln!(out, "{}", json_text(value, layout)),
            Output::DocTable(docs) => out.write_all(doc_table(docs).as_bytes()),
            Output::Text(text) => out.write_all(text.as_bytes()),
            Output::Nothing => Ok(()),
        }
    }
}

/// How JSON goes to stdout: indented on a terminal, compact otherwise.
pub fn stdout_layout(stdout: &Stdout) -> Layout {
    if stdout.is_terminal() {
        Layout::Indented
    } else {
        Layout::Compact
    }
}

/// JSON as text in a layout.
fn json_text(value: &Value, layout: Layout) -> String {
    match layout {
        Layout::Indented => serde_json::to_string_pretty(value),
        Layout::Compact => serde_json::to_string(value),
    }
    .expect("a JSON value always serializes")
}

/// `ID  TITLE` columns, one document a line; a note when there are none.
fn doc_table(docs: &[DocSummary]) -> String {
    if docs.is_empty() {
        return "(no documents)\n".to_owned();
    }
    let width = docs.iter().map(|d| d.id.chars().count()).max().unwrap_or(0);
    let mut text = format!("{:<width$}  TITLE\n", "ID");
    for doc in docs {
        text.push_str(&format!("{:<width$}  {}\n", doc.id, doc.title));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_aligns_titles() {
        let docs = vec![
            DocSummary {
                id: "abc".into(),
                title: "First".into(),
            },
            DocSummary {
                id: "a".into(),
                title: "Second".into(),
            },
        ];
        assert_eq!(doc_table(&docs), "ID   TITLE\nabc  First\na    Second\n");
        assert_eq!(doc_table(&[]), "(no documents)\n");
    }
}
