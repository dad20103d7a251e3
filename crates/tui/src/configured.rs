//! The TUI's settings in force: what the config file's tables ([`UiSettings`]) make of the
//! defaults, checked before the TUI starts (`diagtui keys` prints their key table).

use std::path::Path;
use std::time::Duration;

use crate::app::update::Setup;
use crate::keys::{Context, KeyTable};
use crate::session::selectors::SelectorHistory;
use crate::settings::{GraphicsSetting, SettingError, UiSettings};
use crate::theme::{self, Theme};
use crate::transfer::Places;

/// The key table, the looks and the map's settings the config file gives.
#[derive(Debug, Clone)]
pub struct Configured {
    /// The keys: the defaults with the file's `[keys.*]`.
    pub keys: KeyTable,
    /// The looks: `theme`, `[styles]`, and `NO_COLOR`.
    pub theme: Theme,
    /// `[map] status_key`, the `meta` entry read as a component's status.
    pub status_key: String,
    /// `[map] graphics`.
    pub graphics: GraphicsSetting,
}

impl Configured {
    /// What `settings` make of the defaults, or the first setting that cannot be used, with
    /// its line.
    pub fn new(settings: &UiSettings) -> Result<Configured, SettingError> {
        let keys = KeyTable::configured(&settings.keys)?;
        let theme = Theme::configured(
            settings.theme.as_ref(),
            &settings.styles,
            theme::no_color_wanted(),
        )?;
        let status_key = match &settings.status_key {
            Some(key) if key.value.trim().is_empty() => {
                return Err(SettingError::new(
                    key.line,
                    "[map] status_key is empty: name the meta entry that holds a status",
                ));
            }
            Some(key) => key.value.trim().to_string(),
            None => diagtui_scene::DEFAULT_STATUS_KEY.to_string(),
        };
        let graphics = match &settings.graphics {
            Some(graphics) => graphics
                .value
                .parse()
                .map_err(|e| SettingError::new(graphics.line, e))?,
            None => GraphicsSetting::default(),
        };
        Ok(Configured {
            keys,
            theme,
            status_key,
            graphics,
        })
    }

    /// The key table as `diagtui keys` prints it: text, or the Markdown of docs/keys.md.
    pub fn key_table(&self, markdown: bool) -> String {
        if markdown {
            self.keys.to_markdown(&Context::ALL)
        } else {
            self.keys.to_text()
        }
    }

    /// The TUI's setup for a connection the status bar names `mode` (with the account's
    /// e-mail when known), polling every `poll` (zero: never), remembering its selectors in
    /// `data_dir` (in remote mode too), typed paths starting where the process runs.
    pub fn into_setup(
        self,
        mode: String,
        account: Option<String>,
        poll: Duration,
        data_dir: &Path,
    ) -> Setup {
        Setup {
            mode,
            account,
            keys: self.keys,
            theme: self.theme,
            history: SelectorHistory::load(data_dir),
            status_key: self.status_key,
            graphics: self.graphics,
            poll,
            places: Places::here(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Located;

    #[test]
    fn the_defaults_without_a_file_and_a_setting_that_cannot_be_used_named_by_its_line() {
        let defaults = Configured::new(&UiSettings::default()).unwrap();
        assert_eq!(defaults.status_key, diagtui_scene::DEFAULT_STATUS_KEY);
        assert_eq!(defaults.graphics, GraphicsSetting::Auto);
        let settings = |status: &str, graphics: &str| UiSettings {
            status_key: Some(Located::new(status.to_string(), 3)),
            graphics: Some(Located::new(graphics.to_string(), 4)),
            ..UiSettings::default()
        };
        let configured = Configured::new(&settings(" health ", "sixel")).unwrap();
        assert_eq!(configured.status_key, "health");
        assert_eq!(configured.graphics, GraphicsSetting::Sixel);
        assert_eq!(Configured::new(&settings(" ", "off")).unwrap_err().line, 3);
        assert_eq!(
            Configured::new(&settings("x", "pixels")).unwrap_err().line,
            4
        );
    }
}
