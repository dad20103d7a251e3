//! `POST /create-diagram/{docId}`: entries (JSON, CSV, Mermaid or DOT text) laid out by the
//! server.

use std::path::Path;

use super::{ApiError, Client};
use crate::route;
use diagtui_model::DiagramCreated;

/// Why a file of entries cannot make a diagram before it is sent, if it cannot: it holds
/// nothing but blanks (the reader would answer for the format guessed, a CSV's missing
/// header row, which says nothing of the real fault).
pub fn entries_unusable(body: &[u8]) -> Option<&'static str> {
    body.iter().all(u8::is_ascii_whitespace).then_some(
        "it is empty: create-diagram needs a Mermaid flowchart, a DOT graph, JSON or CSV entries",
    )
}

/// The media type of a file of entries (what [`Client::create_diagram`] sends it as): by its
/// extension (`.csv`, `.json`, `.mmd`/`.mermaid`, `.dot`/`.gv`), else by its first statement
/// past blank lines and comments (`/* … */`, `//`, `#`, `%%`): `{` or `[` JSON; `digraph`,
/// `strict`, `graph {` or `graph NAME {` DOT; front matter (`---`), `flowchart` or `graph`
/// Mermaid; anything else CSV.
pub fn entries_content_type(path: &Path, body: &[u8]) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("csv") => return "text/csv",
        Some("json") => return "application/json",
        Some("mmd" | "mermaid") => return "text/vnd.mermaid",
        Some("dot" | "gv") => return "text/vnd.graphviz",
        _ => {}
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(4096)]);
    let first = first_statement(&text);
    if first.starts_with('{') || first.starts_with('[') {
        "application/json"
    } else if is_dot(first) {
        "text/vnd.graphviz"
    } else if first.starts_with("---")
        || first.starts_with("flowchart")
        || first.starts_with("graph")
    {
        "text/vnd.mermaid"
    } else {
        "text/csv"
    }
}

/// The title a file of entries gives itself, if any: a Mermaid flowchart's front matter
/// `title:` (the layout notes that it is not drawn; a new document made from the file takes it
/// as its name).
pub fn entries_title(content_type: &str, body: &[u8]) -> Option<String> {
    if content_type != "text/vnd.mermaid" {
        return None;
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(4096)]);
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    if lines.next().map(str::trim) != Some("---") {
        return None;
    }
    // The top-level key only, as Mermaid reads it (an indented `title:` belongs to `config`).
    lines
        .take_while(|l| l.trim() != "---")
        .find_map(|l| l.strip_prefix("title:"))
        .map(|t| t.trim().trim_matches(['"', '\'']).trim().to_owned())
        .filter(|t| !t.is_empty())
}

/// The first line of `text` that is neither blank nor a comment: a `/* … */` block (DOT's,
/// over several lines), or a line starting `//`, `#` (DOT) or `%%` (Mermaid).
fn first_statement(text: &str) -> &str {
    let mut rest = text.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else if rest.starts_with("//") || rest.starts_with('#') || rest.starts_with("%%") {
            rest = rest.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else {
            return rest.lines().next().unwrap_or("").trim();
        }
    }
}

/// Whether a first line starts a DOT graph: `strict`, `digraph`, or `graph` followed by `{` or a
/// name and `{` (Mermaid's `graph TD` has no brace).
fn is_dot(first: &str) -> bool {
    let mut words = first.split_whitespace();
    let keyword = words.next().unwrap_or("").to_ascii_lowercase();
    match keyword.as_str() {
        "strict" | "digraph" => true,
        "graph" => first.contains('{'),
        _ => keyword.starts_with("digraph{") || keyword.starts_with("graph{"),
    }
}

impl Client {
    /// Sends entries of `content_type` (`application/json`, `text/csv`, `text/vnd.mermaid`,
    /// `text/vnd.graphviz`) to
    /// be laid out into a document, with layout `settings` (name, value) as query parameters;
    /// `replace` empties the document first, in the same transaction.
    pub async fn create_diagram(
        &self,
        doc: &str,
        content_type: &str,
        body: Vec<u8>,
        settings: &[(String, String)],
        replace: bool,
    ) -> Result<DiagramCreated, ApiError> {
        let request = self
            .request(&route::create_diagram(doc, settings, replace))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body);
        self.send(request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_by_extension_else_by_their_first_line() {
        let kind = |path: &str, body: &str| entries_content_type(Path::new(path), body.as_bytes());
        assert_eq!(kind("a.CSV", "{"), "text/csv");
        assert_eq!(kind("a.json", "id,type"), "application/json");
        assert_eq!(kind("a.mmd", ""), "text/vnd.mermaid");
        assert_eq!(kind("a.mermaid", ""), "text/vnd.mermaid");
        assert_eq!(kind("a", "\n  [{\"id\": 1}]"), "application/json");
        assert_eq!(
            kind("a.txt", "%% note\ngraph TD\n a-->b"),
            "text/vnd.mermaid"
        );
        assert_eq!(kind("a", "id,type\n"), "text/csv");
        assert_eq!(kind("a.dot", ""), "text/vnd.graphviz");
        assert_eq!(kind("a.GV", ""), "text/vnd.graphviz");
        assert_eq!(
            kind("a", "// made by hand\ndigraph G {"),
            "text/vnd.graphviz"
        );
        assert_eq!(kind("a", "strict graph {"), "text/vnd.graphviz");
        assert_eq!(
            kind("a", "graph \"deps\" {\n a -- b }"),
            "text/vnd.graphviz"
        );
        assert_eq!(kind("a", "digraph{a->b}"), "text/vnd.graphviz");
        assert_eq!(kind("a", "graph LR\n a --> b"), "text/vnd.mermaid");
        // Comments over several lines, and Mermaid's front matter (found on stdin by hand).
        for (body, expected) in [
            (
                "/* the life of an order,\n   as states */\ndigraph order {",
                "text/vnd.graphviz",
            ),
            ("/* x */ digraph{a->b}", "text/vnd.graphviz"),
            (
                "---\ntitle: Shop\n---\nflowchart LR\n a --> b",
                "text/vnd.mermaid",
            ),
            ("%%{init: {}}%%\n\nflowchart", "text/vnd.mermaid"),
            ("/* never closed", "text/csv"),
        ] {
            assert_eq!(kind("-", body), expected, "{body}");
        }
    }

    #[test]
    fn a_blank_file_is_unusable() {
        assert!(entries_unusable(b"").is_some());
        assert!(entries_unusable(b" \n\t\r\n").is_some());
        assert_eq!(entries_unusable(b"flowchart LR\n  a --> b"), None);
    }

    #[test]
    fn a_mermaid_front_matter_gives_the_title() {
        let mermaid = "text/vnd.mermaid";
        let title = |body: &str| entries_title(mermaid, body.as_bytes());
        assert_eq!(
            title("---\ntitle: \"Shop\"\nconfig:\n  look: neo\n---\nflowchart LR"),
            Some("Shop".into())
        );
        assert_eq!(
            title("\n---\nconfig: {}\ntitle: Orders flow\n---\n"),
            Some("Orders flow".into())
        );
        // Only in the front matter, and only a title with words.
        assert_eq!(title("flowchart LR\ntitle: not this"), None);
        assert_eq!(title("---\nconfig: {}\n---\ntitle: nor this"), None);
        assert_eq!(title("---\ntitle: \"\"\n---\n"), None);
        assert_eq!(title("---\nconfig:\n  gantt:\n    title: no\n---\n"), None);
        assert_eq!(entries_title("text/csv", b"---\ntitle: x\n---"), None);
    }
}
