//! The selectors used last, remembered across runs in a small JSON file in the data dir
//! (`selector-history.json`), newest first. The runner loads it at start; saving is a file job.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::transfer::FileJob;

/// The history file's name in the data dir.
pub(crate) const HISTORY_FILE: &str = "selector-history.json";

/// How many selectors are kept.
pub(crate) const HISTORY_LEN: usize = 20;

/// One row of a remembered selector, as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SavedRow {
    /// The meta key.
    pub key: String,
    /// The operator's wire name.
    pub op: String,
    /// The value as typed.
    pub value: String,
}

/// A remembered selector form: its rows and its props text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SavedSelector {
    /// The rows (AND).
    pub rows: Vec<SavedRow>,
    /// The props JSON as typed.
    pub props: String,
}

/// The remembered selectors and where they are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectorHistory {
    /// The file, when there is one (none in tests that do not give one).
    pub path: Option<PathBuf>,
    /// Newest first.
    pub(crate) entries: Vec<SavedSelector>,
}

impl SelectorHistory {
    /// Reads the history file of `data_dir`; a missing or unreadable file gives an empty
    /// history (logged), never an error.
    pub fn load(data_dir: &Path) -> SelectorHistory {
        let path = data_dir.join(HISTORY_FILE);
        let entries = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!(path = %path.display(), "selector history ignored: {e}");
                Vec::new()
            }),
            Err(_) => Vec::new(),
        };
        SelectorHistory {
            path: Some(path),
            entries,
        }
    }

    /// Puts `entry` first (once), keeps the newest [`HISTORY_LEN`], and returns the job that
    /// saves the file, when there is one.
    pub(crate) fn push(&mut self, entry: SavedSelector) -> Option<FileJob> {
        self.entries.retain(|e| e != &entry);
        self.entries.insert(0, entry);
        self.entries.truncate(HISTORY_LEN);
        let path = self.path.clone()?;
        let text = serde_json::to_string_pretty(&self.entries).ok()?;
        Some(FileJob::Keep { path, text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::perform;

    fn entry(value: &str) -> SavedSelector {
        SavedSelector {
            rows: vec![SavedRow {
                key: "status".into(),
                op: "eq".into(),
                value: value.into(),
            }],
            props: "{}".into(),
        }
    }

    #[test]
    fn keeps_the_newest_once_and_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let mut history = SelectorHistory::load(dir.path());
        assert!(history.entries.is_empty());
        for value in ["a", "b", "a"] {
            let job = history.push(entry(value)).unwrap();
            perform(&job).unwrap();
        }
        assert_eq!(history.entries, vec![entry("a"), entry("b")]);
        for i in 0..HISTORY_LEN + 5 {
            history.push(entry(&i.to_string()));
        }
        assert_eq!(history.entries.len(), HISTORY_LEN);
        let again = SelectorHistory::load(dir.path());
        assert_eq!(again.entries, vec![entry("a"), entry("b")]);
    }

    #[test]
    fn a_broken_file_gives_an_empty_history() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(HISTORY_FILE), "not json").unwrap();
        assert!(SelectorHistory::load(dir.path()).entries.is_empty());
    }
}
