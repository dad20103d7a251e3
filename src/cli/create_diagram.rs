//! `diagtui doc create-diagram DOC FILE`: a file of entries (CSV, JSON or a Mermaid flowchart)
//! laid out by the server's create-diagram into a document.

use std::path::{Path, PathBuf};

use super::confirm::Yes;
use super::output::Output;
use super::{Failure, Session, json};

/// Examples shown under `diagtui doc create-diagram --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui doc create-diagram DOC services.csv
  diagtui doc create-diagram DOC diagram.json --set COMP_GAP=3 --set tier_gap=4
  diagtui doc create-diagram DOC flow.mmd --replace --yes";

/// The arguments of `diagtui doc create-diagram`.
#[derive(Debug, clap::Args)]
pub struct CreateDiagramArgs {
    /// The document id.
    doc: String,
    /// The entries: CSV, JSON or a Mermaid flowchart (by extension, else by content).
    file: PathBuf,
    /// A layout setting, e.g. COMP_GAP=3 (repeatable; names are case-insensitive).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
    settings: Vec<(String, String)>,
    /// Empty the document first, in the same step (asks first; --yes when not on a terminal).
    #[arg(long)]
    replace: bool,
    /// With --replace: do it without asking.
    #[command(flatten)]
    yes: Yes,
}

/// `KEY=VALUE`.
fn parse_setting(text: &str) -> Result<(String, String), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("\"{text}\" is not KEY=VALUE"))?;
    Ok((key.trim().to_owned(), value.trim().to_owned()))
}

/// The media type of a file of entries: by its extension, else by its first characters.
pub fn content_type(path: &Path, body: &[u8]) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("csv") => return "text/csv",
        Some("json") => return "application/json",
        Some("mmd" | "mermaid") => return "text/vnd.mermaid",
        _ => {}
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(4096)]);
    let first = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with("%%"))
        .unwrap_or("");
    if first.starts_with('{') || first.starts_with('[') {
        "application/json"
    } else if first.starts_with("flowchart") || first.starts_with("graph") {
        "text/vnd.mermaid"
    } else {
        "text/csv"
    }
}

impl CreateDiagramArgs {
    /// Sends the file to create-diagram; prints `{success, objectCount}`.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let body = std::fs::read(&self.file).map_err(|e| {
            Failure::Other(anyhow::anyhow!("cannot read {}: {e}", self.file.display()))
        })?;
        if self.replace {
            self.yes.confirm(&format!(
                "Replace all content of document {} with the diagram of {}",
                self.doc,
                self.file.display()
            ))?;
        }
        let content_type = content_type(&self.file, &body);
        let created = session
            .client()
            .await?
            .create_diagram(&self.doc, content_type, body, &self.settings, self.replace)
            .await?;
        Ok(json(created))
    }
}
