//! `diagtui doc history`, `doc diff` and `doc restore`: a document's versions as the server
//! keeps them (our extension, see `docs/history.md`).

use super::confirm::Yes;
use super::output::Output;
use super::{Failure, Session, json};
use diagtui_model::history::{HistoryPage, Version};

/// The arguments of `diagtui doc history`.
#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// The document id.
    doc: String,
    /// At most this many versions, newest first (1–1000).
    #[arg(long, value_name = "N", default_value_t = 20)]
    limit: usize,
    /// Only versions older than this one (a page's nextBefore).
    #[arg(long, value_name = "VERSION")]
    before: Option<u64>,
    /// Only the versions that changed this object.
    #[arg(long, value_name = "OBJ")]
    object: Option<String>,
    /// Print the server's JSON page instead of a table.
    #[arg(long)]
    json: bool,
}

impl HistoryArgs {
    /// Lists the versions.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let page = session
            .client()
            .await?
            .history(
                &self.doc,
                self.object.as_deref(),
                self.before,
                Some(self.limit),
            )
            .await?;
        Ok(if self.json {
            json(page)
        } else {
            Output::Text(table(&page))
        })
    }
}

/// `VERSION  WHEN  WHO  KIND  OBJECTS  NOTE` columns, newest first; a note when there are none
/// and where the next page starts.
fn table(page: &HistoryPage) -> String {
    if page.versions.is_empty() {
        return "(no versions: the history begins at the document's next write)\n".to_owned();
    }
    let rows: Vec<[String; 6]> = page
        .versions
        .iter()
        .map(|v| {
            [
                v.version.to_string(),
                v.at.clone(),
                v.account.clone().unwrap_or_else(|| "-".into()),
                v.kind.as_str().to_owned(),
                v.changed.to_string(),
                note(v),
            ]
        })
        .collect();
    let header = ["VERSION", "WHEN", "WHO", "KIND", "OBJECTS", "NOTE"];
    let widths: Vec<usize> = (0..header.len())
        .map(|at| {
            rows.iter()
                .map(|row| row[at].chars().count())
                .chain([header[at].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[&str]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut text = line(&header);
    for row in &rows {
        text.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    if let Some(before) = page.next_before {
        text.push_str(&format!("(older: --before {before})\n"));
    }
    text
}

/// What a version says beyond its kind.
fn note(version: &Version) -> String {
    if let Some(title) = &version.notes.title {
        return format!("title {title:?}");
    }
    if let Some(folder) = &version.notes.folder {
        return format!("to folder {:?}", folder.title);
    }
    if let Some(source) = &version.notes.source {
        return match source.version {
            Some(at) => format!("from {} version {at}", source.doc_id),
            None => format!("from {}", source.doc_id),
        };
    }
    match version.notes.restored_from {
        Some(at) => format!("back to version {at}"),
        None => String::new(),
    }
}

/// The arguments of `diagtui doc diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The document id.
    doc: String,
    /// The older version.
    from: u64,
    /// The newer version (default: the newest).
    to: Option<u64>,
}

impl DiffArgs {
    /// Prints the difference as the server's JSON.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let diff = session
            .client()
            .await?
            .diff(&self.doc, self.from, self.to)
            .await?;
        Ok(json(diff))
    }
}

/// The arguments of `diagtui doc restore`.
#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// The document id.
    doc: String,
    /// The version whose content comes back.
    version: u64,
    /// Do it without asking.
    #[command(flatten)]
    yes: Yes,
}

impl RestoreArgs {
    /// Asks, naming how many objects change, then restores; prints {success, version, changed}.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let client = session.client().await?;
        let diff = client.diff(&self.doc, self.version, None).await?;
        let changing = diff.added.len() + diff.removed.len() + diff.changed.len();
        let objects = if changing == 1 { "object" } else { "objects" };
        self.yes.confirm(&format!(
            "Set document {} back to version {} (now {}), changing {changing} {objects}",
            self.doc, self.version, diff.to
        ))?;
        Ok(json(client.restore(&self.doc, self.version).await?))
    }
}
