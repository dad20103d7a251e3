//! What the TUI takes from the config file, as the binary reads it (`config.rs` of the
//! `diagtui` package): theme, styles and keys with the line each is written on, so that a
//! setting that cannot be used is named by its line.

use std::path::PathBuf;
use std::time::Duration;

/// The default time between polls of a server without change events.
pub const DEFAULT_POLL: Duration = Duration::from_secs(5);

/// A value of the config file and the line it is written on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Its 1-based line.
    pub line: usize,
}

impl<T> Located<T> {
    /// `value`, written on `line`.
    pub fn new(value: T, line: usize) -> Located<T> {
        Located { value, line }
    }
}

/// One `action = "key"` (or `action = ["key", ...]`) under `[keys.CONTEXT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySetting {
    /// The context's name (`objects`), on its table's line.
    pub context: Located<String>,
    /// The action's name (`delete`).
    pub action: Located<String>,
    /// The keys, as written (`x`, `ctrl-q`).
    pub keys: Located<Vec<String>>,
}

/// What the TUI takes from the config file: its theme, single styles, and keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UiSettings {
    /// The file they came from, to name it in errors (none when there is no file).
    pub path: Option<PathBuf>,
    /// `theme = "dark" | "light"`.
    pub theme: Option<Located<String>>,
    /// `[styles]`: a style's name and its description (`"black on yellow bold"`), in file order.
    pub styles: Vec<(Located<String>, Located<String>)>,
    /// `[keys.CONTEXT]` entries, in file order.
    pub keys: Vec<KeySetting>,
    /// `[map] status_key`: the `meta` entry read as a component's status on the map.
    pub status_key: Option<Located<String>>,
}

/// A TUI setting that cannot be used: what is wrong, on which line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError {
    /// The 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl SettingError {
    /// An error on `line`.
    pub fn new(line: usize, message: impl Into<String>) -> SettingError {
        SettingError {
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SettingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
