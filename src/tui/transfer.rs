//! Export (`x`) and import (`i`) of a document's content as a JSON file, and the file jobs the
//! app hands to the runner (the app itself never touches a file: it returns `Effect::File` and
//! gets `Msg::File` back).
//!
//! Export reads the content and writes it pretty-printed to a new file; an existing file is only
//! replaced after a confirmation. Import reads a file, shows what it holds and every problem in
//! it (`model::check_content`), refuses what is not a content map, and replaces the content
//! with set-content only after a confirmation naming the document.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::app::{App, Effect, Purpose};
use super::overlay::{ConfirmAction, InputPurpose, Overlay};
use super::request::Request;
use super::words;
use crate::model::{Content, ContentReport, DocSummary, check_content};

/// A file operation for the runner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileJob {
    /// Read a file as text.
    Read(PathBuf),
    /// Write `text` to `path`; without `overwrite` an existing file is left alone
    /// ([`FileError::Exists`]).
    Write {
        /// Where.
        path: PathBuf,
        /// What.
        text: String,
        /// Whether an existing file may be replaced.
        overwrite: bool,
    },
}

impl FileJob {
    /// The file it concerns.
    pub fn path(&self) -> &Path {
        match self {
            FileJob::Read(path) | FileJob::Write { path, .. } => path,
        }
    }
}

/// What a file job is for, so its outcome lands in the right place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileFor {
    /// An export of this document.
    Export(DocSummary),
    /// An import into this document.
    Import(DocSummary),
    /// Saving the selector history.
    History,
}

/// Why a file job failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The file exists and the job may not replace it.
    Exists,
    /// Anything else, in words.
    Failed(String),
}

/// A read's text, or an empty string for a write.
pub type FileOutcome = Result<String, FileError>;

/// Carries out a file job (blocking; files here are small enough).
pub fn perform(job: &FileJob) -> FileOutcome {
    let failed = |e: std::io::Error| FileError::Failed(e.to_string());
    match job {
        FileJob::Read(path) => std::fs::read_to_string(path).map_err(failed),
        FileJob::Write {
            path,
            text,
            overwrite,
        } => {
            let mut options = std::fs::OpenOptions::new();
            options.write(true);
            if *overwrite {
                options.create(true).truncate(true);
            } else {
                options.create_new(true);
            }
            let mut file = options.open(path).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => FileError::Exists,
                _ => failed(e),
            })?;
            file.write_all(text.as_bytes()).map_err(failed)?;
            file.write_all(b"\n").map_err(failed)?;
            Ok(String::new())
        }
    }
}

/// The file name an export of a document titled `title` gets by default: the title in lower
/// case, words joined by `-`, with `.json`, in the current directory.
pub fn export_name(title: &str) -> String {
    let slug: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if slug.is_empty() {
        "document.json".into()
    } else {
        format!("{}.json", slug.join("-"))
    }
}

impl App {
    /// `x`: asks where to export `doc`.
    pub(super) fn ask_export(&mut self, doc: DocSummary) {
        let name = export_name(&doc.title);
        self.overlay = Some(Overlay::input(
            "Export document",
            &format!("Write the content of \"{}\" as JSON to", doc.title),
            &name,
            InputPurpose::Export(doc),
        ));
    }

    /// `i`: asks which file to import into `doc`.
    pub(super) fn ask_import(&mut self, doc: DocSummary) {
        let name = export_name(&doc.title);
        self.overlay = Some(Overlay::input(
            "Import into document",
            &format!(
                "JSON content file to replace the content of \"{}\" with",
                doc.title
            ),
            &name,
            InputPurpose::Import(doc),
        ));
    }

    /// The export path was given: read the content first.
    pub(super) fn export_to(&mut self, doc: DocSummary, path: String) -> Vec<Effect> {
        let request = Request::Content {
            doc: doc.id.clone(),
        };
        vec![self.request(
            request,
            Purpose::Export {
                doc,
                path: PathBuf::from(path),
            },
        )]
    }

    /// The content to export arrived: write it, not over an existing file.
    pub(super) fn export_content(
        &mut self,
        doc: DocSummary,
        path: PathBuf,
        content: &Content,
    ) -> Vec<Effect> {
        let text = match serde_json::to_string_pretty(content) {
            Ok(text) => text,
            Err(e) => {
                self.fail(format!("could not write the export: {e}"));
                return Vec::new();
            }
        };
        let job = FileJob::Write {
            path,
            text,
            overwrite: false,
        };
        vec![Effect::File(FileFor::Export(doc), job)]
    }

    /// The import path was given: read the file.
    pub(super) fn import_from(&mut self, doc: DocSummary, path: String) -> Vec<Effect> {
        vec![Effect::File(
            FileFor::Import(doc),
            FileJob::Read(PathBuf::from(path)),
        )]
    }

    /// A file job finished.
    pub(super) fn on_file(
        &mut self,
        what: FileFor,
        job: FileJob,
        outcome: FileOutcome,
    ) -> Vec<Effect> {
        let path = job.path().display().to_string();
        match (what, outcome) {
            (FileFor::Export(doc), Ok(_)) => {
                self.notify(format!("exported \"{}\" to {path}", doc.title));
            }
            (FileFor::Export(doc), Err(FileError::Exists)) => {
                self.overlay = Some(Overlay::confirm(
                    "File exists",
                    &format!(
                        "{path} already exists. Replace it with the export of \"{}\"?",
                        doc.title
                    ),
                    ConfirmAction::OverwriteExport { doc, job },
                ));
            }
            (FileFor::Import(doc), Ok(text)) => self.show_import_report(doc, job, &text),
            (FileFor::History, Ok(_)) => {}
            (FileFor::History, Err(e)) => {
                tracing::warn!(?e, %path, "selector history not saved");
            }
            (FileFor::Export(_) | FileFor::Import(_), Err(e)) => {
                let why = match e {
                    FileError::Exists => "it exists".to_string(),
                    FileError::Failed(why) => why,
                };
                self.fail(format!("{path}: {why}"));
            }
        }
        Vec::new()
    }

    /// The import file was read: check it and show the report (the confirmation).
    fn show_import_report(&mut self, doc: DocSummary, job: FileJob, text: &str) {
        let report = match serde_json::from_str(text) {
            Ok(value) => check_content(&value),
            Err(e) => Err(format!("not JSON: {e}")),
        };
        if let Err(why) = &report {
            self.fail(format!("{} refused: {why}", job.path().display()));
        }
        self.overlay = Some(Overlay::ImportReport {
            doc,
            path: job.path().to_path_buf(),
            report,
        });
    }

    /// A key on the import report: `y`/`Enter` replaces the content when the file can be sent.
    pub(super) fn import_report_key(
        &mut self,
        doc: DocSummary,
        report: Result<ContentReport, String>,
        yes: bool,
    ) -> Vec<Effect> {
        let content = match (yes, report) {
            (
                true,
                Ok(ContentReport {
                    content: Some(content),
                    ..
                }),
            ) => content,
            (true, _) => {
                self.fail("this file cannot be imported; nothing was changed");
                return Vec::new();
            }
            (false, _) => {
                self.notify("import cancelled; nothing was changed");
                return Vec::new();
            }
        };
        let request = Request::SetContent {
            doc: doc.id.clone(),
            content,
        };
        vec![self.request(request, Purpose::Import(doc))]
    }

    /// Set-content went through: say so and reload what shows the document.
    pub(super) fn imported(&mut self, doc: DocSummary, request: Request) -> Vec<Effect> {
        if let Request::SetContent { content, .. } = &request {
            self.docs.counts.insert(doc.id.clone(), content.len());
            self.notify(format!(
                "imported {} into \"{}\"",
                words::objects(content.len()),
                doc.title
            ));
        }
        let mut effects = self.request_details();
        if self.objects.is_open(&doc.id) {
            if !self.has_unsaved_edits() {
                self.editor.close();
            }
            effects.extend(self.reload_content());
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_follow_the_title() {
        assert_eq!(export_name("Network overview"), "network-overview.json");
        assert_eq!(export_name("Prod / EU (v2)"), "prod-eu-v2.json");
        assert_eq!(export_name("  "), "document.json");
    }

    #[test]
    fn writes_refuse_to_replace_unless_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        let job = |overwrite| FileJob::Write {
            path: path.clone(),
            text: "{}".into(),
            overwrite,
        };
        assert_eq!(perform(&job(false)), Ok(String::new()));
        assert_eq!(perform(&job(false)), Err(FileError::Exists));
        assert_eq!(perform(&job(true)), Ok(String::new()));
        assert_eq!(perform(&FileJob::Read(path)), Ok("{}\n".into()));
    }
}
