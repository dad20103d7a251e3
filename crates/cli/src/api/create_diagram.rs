//! `diagtui doc create-diagram DOC FILE`: a file of entries (CSV, JSON, a Mermaid flowchart or a
//! DOT graph) laid out by the server's create-diagram into a document.

use std::path::PathBuf;

use super::confirm::Yes;
use super::output::Output;
use super::{Failure, Session, json};

/// Examples shown under `diagtui doc create-diagram --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui doc create-diagram DOC services.csv
  diagtui doc create-diagram DOC diagram.json --set COMP_GAP=3 --set tier_gap=4
  diagtui doc create-diagram DOC flow.mmd --replace --yes
  terraform graph | diagtui doc create-diagram DOC -";

/// The arguments of `diagtui doc create-diagram`.
#[derive(Debug, clap::Args)]
pub struct CreateDiagramArgs {
    /// The document id.
    doc: String,
    /// The entries: CSV, JSON, a Mermaid flowchart or a DOT graph (by extension, else by
    /// content); `-` reads them from stdin.
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

impl CreateDiagramArgs {
    /// Whether the entries come from stdin (`-`).
    fn reads_stdin(&self) -> bool {
        self.file.as_os_str() == "-"
    }

    /// The file's bytes, or stdin's for `-`.
    fn entries(&self) -> std::io::Result<Vec<u8>> {
        if self.reads_stdin() {
            let mut body = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut body)?;
            Ok(body)
        } else {
            std::fs::read(&self.file)
        }
    }

    /// Sends the file to create-diagram; prints `{success, objectCount, notes}`.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let source = if self.reads_stdin() {
            "stdin".to_owned()
        } else {
            self.file.display().to_string()
        };
        let body = self
            .entries()
            .map_err(|e| Failure::Other(anyhow::anyhow!("cannot read {source}: {e}")))?;
        if let Some(why) = diagtui_client::entries_unusable(&body) {
            return Err(Failure::Other(anyhow::anyhow!("{source}: {why}")));
        }
        if self.replace {
            self.yes.confirm(&format!(
                "Replace all content of document {} with the diagram of {source}",
                self.doc
            ))?;
        }
        let content_type = diagtui_client::entries_content_type(&self.file, &body);
        let created = session
            .client()
            .await?
            .create_diagram(&self.doc, content_type, body, &self.settings, self.replace)
            .await?;
        Ok(json(created))
    }
}
