//! The file jobs the app hands to the runner (the app itself never touches a file: it returns
//! `Effect::File` and gets `Msg::File` back): the export and import of a document's content
//! (the documents pane's `x` and `i`) and the selector history (a file of the data dir, so
//! readable by the user only: 0600, as every file there).

use std::io::Write;
use std::path::{Path, PathBuf};

use diagtui_model::{DocSummary, private_files};

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
    /// Write `text` to `path`, a file of the data dir, replacing it: readable by the user only
    /// (0600, also when it existed with another mode).
    Keep {
        /// Where.
        path: PathBuf,
        /// What.
        text: String,
    },
}

impl FileJob {
    /// The file it concerns.
    pub fn path(&self) -> &Path {
        match self {
            FileJob::Read(path) | FileJob::Write { path, .. } | FileJob::Keep { path, .. } => {
                path
            }
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
    /// A file of create-diagram entries for a new document, in this folder (the first when
    /// `None`).
    Diagram {
        /// The folder.
        folder: Option<String>,
    },
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
pub(crate) type FileOutcome = Result<String, FileError>;

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
        FileJob::Keep { path, text } => {
            let mut file = private_files::open_options()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .map_err(failed)?;
            private_files::restrict(path).map_err(failed)?;
            file.write_all(text.as_bytes()).map_err(failed)?;
            file.write_all(b"\n").map_err(failed)?;
            Ok(String::new())
        }
    }
}

/// The file name an export of a document titled `title` gets by default: the title in lower
/// case, words joined by `-`, with `.json`, in the current directory.
pub(crate) fn export_name(title: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_follow_the_title() {
        assert_eq!(export_name("Network overview"), "network-overview.json");
        assert_eq!(export_name("Prod / EU (v2)"), "prod-eu-v2.json");
        assert_eq!(export_name("  "), "document.json");
    }

    #[cfg(unix)]
    #[test]
    fn a_kept_file_is_readable_by_its_user_only_even_when_it_was_not() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kept.json");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let job = FileJob::Keep {
            path: path.clone(),
            text: "[]".into(),
        };
        assert_eq!(perform(&job), Ok(String::new()));
        assert_eq!(mode(&path), 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(perform(&job), Ok(String::new()));
        assert_eq!(mode(&path), 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[]\n");
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
