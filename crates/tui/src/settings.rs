//! What the TUI takes from the config file: theme, styles, keys and the map's settings, with
//! the line each is written on, so that a setting that cannot be used is named by its line.
//! The command line finds and reads the file (its profiles are the connection's) and hands
//! the TUI its text ([`UiSettings::from_config`]).

use std::collections::BTreeMap;

use serde::Deserialize;

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

impl UiSettings {
    /// The TUI's tables of the config file whose text is `text`: `theme`, `[styles]`,
    /// `[keys.CONTEXT]` and `[map]` (`[profiles.*]` and `[serve]` are the command line's, which
    /// also names the file). A text that does not parse, or a table that holds what the TUI
    /// does not know, is an error naming the line but never quoting it (the file may hold a
    /// key).
    pub fn from_config(text: &str) -> Result<UiSettings, SettingError> {
        let line_of = |at: usize| text[..at.min(text.len())].matches('\n').count() + 1;
        let file: UiFile = toml::from_str(text).map_err(|e| {
            let message = e.message().trim_end().replace('\n', " ");
            SettingError::new(e.span().map_or(1, |span| line_of(span.start)), message)
        })?;
        let located = |s: toml::Spanned<String>| {
            let line = line_of(s.span().start);
            Located::new(s.into_inner(), line)
        };
        let mut styles: Vec<_> = file
            .styles
            .into_iter()
            .map(|(name, spec)| (located(name), located(spec)))
            .collect();
        styles.sort_by_key(|(name, _)| name.line);
        let mut keys = Vec::new();
        for (context, actions) in file.keys {
            let context = located(context);
            for (action, list) in actions {
                let line = line_of(list.span().start);
                let value = match list.into_inner() {
                    KeyList::One(key) => vec![key],
                    KeyList::Many(keys) => keys,
                };
                keys.push(KeySetting {
                    context: context.clone(),
                    action: located(action),
                    keys: Located::new(value, line),
                });
            }
        }
        keys.sort_by_key(|k| k.action.line);
        let map = file.map.unwrap_or_default();
        Ok(UiSettings {
            theme: file.theme.map(located),
            styles,
            keys,
            status_key: map.status_key.map(located),
            graphics: map.graphics.map(located),
        })
    }
}

/// One key or a list of keys.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "expected a key (\"x\") or a list of keys ([\"x\", \"ctrl-x\"])"
)]
enum KeyList {
    One(String),
    Many(Vec<String>),
}

/// The config file as the TUI reads it (the profiles are the connection's, `[serve]` the
/// server's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UiFile {
    #[serde(default, rename = "profiles")]
    _profiles: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    theme: Option<toml::Spanned<String>>,
    #[serde(default)]
    styles: BTreeMap<toml::Spanned<String>, toml::Spanned<String>>,
    #[serde(default)]
    keys: BTreeMap<toml::Spanned<String>, BTreeMap<toml::Spanned<String>, toml::Spanned<KeyList>>>,
    #[serde(default)]
    map: Option<MapTable>,
    #[serde(default, rename = "serve")]
    _serve: Option<serde::de::IgnoredAny>,
}

/// The config file's `[map]` table.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct MapTable {
    #[serde(default)]
    status_key: Option<toml::Spanned<String>>,
    #[serde(default)]
    graphics: Option<toml::Spanned<String>>,
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

    #[test]
    fn the_tuis_tables_keep_their_lines_and_leave_the_profiles_alone() {
        let text = "theme = \"light\"\n\n[profiles.p]\nurl = \"http://h\"\napi_key = \"k\"\n\n\
             [styles]\nselected = \"black on yellow\"\n\n[keys.objects]\ndelete = \"x\"\n\
             add = [\"A\", \"ctrl-a\"]\n\n[map]\nstatus_key = \"health\"\ngraphics = \"sixel\"\n\
             [serve]\npublic_url = \"http://h\"\n";
        let ui = UiSettings::from_config(text).unwrap();
        assert_eq!(ui.theme, Some(Located::new("light".to_string(), 1)));
        assert_eq!(
            ui.styles,
            vec![(
                Located::new("selected".to_string(), 8),
                Located::new("black on yellow".to_string(), 8)
            )]
        );
        let keys: Vec<_> = ui
            .keys
            .iter()
            .map(|k| {
                (
                    k.context.line,
                    k.action.value.as_str(),
                    k.keys.value.clone(),
                    k.keys.line,
                )
            })
            .collect();
        assert_eq!(
            keys,
            vec![
                (10, "delete", vec!["x".to_string()], 11),
                (10, "add", vec!["A".to_string(), "ctrl-a".to_string()], 12),
            ]
        );
        assert_eq!(ui.status_key, Some(Located::new("health".to_string(), 15)));
        assert_eq!(ui.graphics, Some(Located::new("sixel".to_string(), 16)));
    }

    #[test]
    fn a_table_the_tui_cannot_read_is_named_by_its_line_without_quoting_it() {
        let read = |text: &str| UiSettings::from_config(text).unwrap_err();
        let err = read("[keys.objects]\ndelete = 5\n");
        assert_eq!(err.line, 2);
        assert!(
            err.message.contains("a key (\"x\") or a list of keys"),
            "{err}"
        );
        assert_eq!(read("colour = \"red\"\n").line, 1);
        let err = read("[profiles.x]\napi_key = \"secret-key-123456\" junk\n");
        assert_eq!(err.line, 2);
        assert!(!err.message.contains("secret-key"), "{err}");
    }
}
