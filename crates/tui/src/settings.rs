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
    /// `[map] graphics`: whether and how the map shows pixels ([`GraphicsSetting`]).
    pub graphics: Option<Located<String>>,
}

/// `[map] graphics`: whether the map shows the picture of its view in pixels, and with which
/// terminal graphics protocol.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GraphicsSetting {
    /// Ask the terminal at start (the default); braille where it shows no pictures.
    #[default]
    Auto,
    /// The kitty graphics protocol, without asking.
    Kitty,
    /// Sixel, without asking.
    Sixel,
    /// iTerm2's inline images, without asking.
    Iterm2,
    /// Braille only.
    Off,
}

impl std::str::FromStr for GraphicsSetting {
    type Err = String;

    fn from_str(text: &str) -> Result<GraphicsSetting, String> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "auto" => GraphicsSetting::Auto,
            "kitty" => GraphicsSetting::Kitty,
            "sixel" => GraphicsSetting::Sixel,
            "iterm2" => GraphicsSetting::Iterm2,
            "off" => GraphicsSetting::Off,
            _ => {
                return Err(format!(
                    "[map] graphics must be auto, kitty, sixel, iterm2 or off, got \"{text}\""
                ));
            }
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphics_settings_are_read_in_any_case_and_a_wrong_one_is_named() {
        assert_eq!("auto".parse(), Ok(GraphicsSetting::Auto));
        assert_eq!("Kitty".parse(), Ok(GraphicsSetting::Kitty));
        assert_eq!(" SIXEL ".parse(), Ok(GraphicsSetting::Sixel));
        assert_eq!("iterm2".parse(), Ok(GraphicsSetting::Iterm2));
        assert_eq!("off".parse(), Ok(GraphicsSetting::Off));
        assert_eq!(GraphicsSetting::default(), GraphicsSetting::Auto);
        assert_eq!(
            "pixels".parse::<GraphicsSetting>(),
            Err("[map] graphics must be auto, kitty, sixel, iterm2 or off, got \"pixels\"".into())
        );
    }
}
