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
    /// The names in directory `path`, one a line, a directory's ending in `/` (Tab in a path
    /// prompt).
    List(PathBuf),
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
            FileJob::Read(path)
            | FileJob::List(path)
            | FileJob::Write { path, .. }
            | FileJob::Keep { path, .. } => path,
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
    /// Tab in a path prompt holding this text: the names to complete it from.
    Complete(String),
}

/// Where paths typed in prompts start: the working directory and the home (`~`), read once at
/// start (the app itself never asks the system).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// The working directory a relative path is in (empty: left relative, as in tests).
    pub cwd: PathBuf,
    /// The home directory `~` stands for, when known.
    pub home: Option<PathBuf>,
}

impl Places {
    /// The process's working directory and `$HOME`.
    pub fn here() -> Places {
        Places {
            cwd: std::env::current_dir().unwrap_or_default(),
            home: std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from),
        }
    }

    /// The path `text` names, as a shell gives it: `~` and `~/…` in the home, a relative path
    /// in the working directory; surrounding spaces dropped.
    pub fn resolve(&self, text: &str) -> PathBuf {
        let text = text.trim();
        let home = self.home.as_ref();
        let path = match (text.strip_prefix('~'), home) {
            (Some(""), Some(home)) => home.clone(),
            (Some(rest), Some(home)) if rest.starts_with('/') => {
                home.join(rest.trim_start_matches('/'))
            }
            _ => PathBuf::from(text),
        };
        if path.is_absolute() {
            path
        } else {
            self.cwd.join(path)
        }
    }
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
        FileJob::List(path) => {
            let mut names = Vec::new();
            for entry in std::fs::read_dir(path).map_err(failed)? {
                let entry = entry.map_err(failed)?;
                let mut name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().is_dir() {
                    name.push('/');
                }
                names.push(name);
            }
            names.sort();
            Ok(names.join("\n"))
        }
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

    #[test]
    fn paths_resolve_as_a_shell_gives_them() {
        let places = Places {
            cwd: PathBuf::from("/work"),
            home: Some(PathBuf::from("/home/me")),
        };
        assert_eq!(places.resolve("out.json"), PathBuf::from("/work/out.json"));
        assert_eq!(
            places.resolve(" ~/plans/a.csv "),
            PathBuf::from("/home/me/plans/a.csv")
        );
        assert_eq!(places.resolve("~"), PathBuf::from("/home/me"));
        assert_eq!(places.resolve("/tmp/x"), PathBuf::from("/tmp/x"));
        assert_eq!(places.resolve("~bob/x"), PathBuf::from("/work/~bob/x"));
        assert_eq!(
            Places::default().resolve("out.json"),
            PathBuf::from("out.json"),
            "without a working directory, left relative"
        );
    }

    #[test]
    fn a_listing_names_directories_with_a_slash() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("plans")).unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        let listed = perform(&FileJob::List(dir.path().to_path_buf()));
        assert_eq!(listed, Ok("a.json\nplans/".to_string()));
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
