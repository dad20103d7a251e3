//! The looks: every style the app draws with, by role. Built-in `dark` (the default) and
//! `light`; `theme = "light"` and single styles in `config.toml`:
//!
//! ```toml
//! theme = "light"
//! [styles]
//! selected = "black on yellow bold"
//! json_key = "#005f87"
//! ```
//!
//! With `NO_COLOR` set (and not empty) there is no colour at all: every role falls back to bold,
//! reverse video and underline, and the app's markers (`●` marks, `✗`/`!` check lines, `+`/`~`/`-`
//! diff lines, the thick border of the focused pane) carry the rest.

use ratatui::style::{Color, Modifier, Style};

use crate::settings::{Located, SettingError};

/// Declares [`Role`] with its config names and its three built-in styles, written once.
macro_rules! roles {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, dark: $dark:expr, light: $light:expr, plain: $plain:expr;)*) => {
        /// What a style is for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Role {
            $($(#[$doc])* $variant,)*
        }

        impl Role {
            /// Every role.
            pub const ALL: &[Role] = &[$(Role::$variant,)*];

            /// Its name in `config.toml`'s `[styles]`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Role::$variant => $name,)*
                }
            }

            fn dark(self) -> Style {
                match self {
                    $(Role::$variant => $dark,)*
                }
            }

            fn light(self) -> Style {
                match self {
                    $(Role::$variant => $light,)*
                }
            }

            fn plain(self) -> Style {
                match self {
                    $(Role::$variant => $plain,)*
                }
            }
        }
    };
}

const fn fg(color: Color) -> Style {
    Style::new().fg(color)
}

const fn with(modifier: Modifier) -> Style {
    Style::new().add_modifier(modifier)
}

const NONE: Style = Style::new();
const BOLD: Modifier = Modifier::BOLD;
const REVERSED: Modifier = Modifier::REVERSED;
const UNDERLINED: Modifier = Modifier::UNDERLINED;
/// Light theme colours that read on a white background (256-colour palette).
const DARK_GREEN: Color = Color::Indexed(28);
const DARK_ORANGE: Color = Color::Indexed(130);
const MID_GRAY: Color = Color::Indexed(244);

roles! {
    /// The border of a pane without the focus.
    Border => "border", dark: fg(Color::DarkGray), light: fg(MID_GRAY), plain: NONE;
    /// The border of the focused pane (drawn thick as well).
    FocusBorder => "focus_border", dark: fg(Color::Cyan).add_modifier(BOLD), light: fg(Color::Blue).add_modifier(BOLD), plain: with(BOLD);
    /// The border of an overlay.
    OverlayBorder => "overlay_border", dark: fg(Color::Cyan), light: fg(Color::Blue), plain: with(BOLD);
    /// The selected row of the focused list.
    Selected => "selected", dark: with(REVERSED), light: with(REVERSED), plain: with(REVERSED);
    /// The selected row of a list without the focus.
    SelectedUnfocused => "selected_unfocused", dark: with(BOLD).add_modifier(UNDERLINED), light: with(BOLD).add_modifier(UNDERLINED), plain: with(BOLD).add_modifier(UNDERLINED);
    /// The mark of a marked object (`●`).
    Marked => "marked", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: with(BOLD);
    /// A match of the selector preview while the form is open (its mark `◇`, `◈` when it is
    /// marked too; its row underlined): not a mark.
    Previewed => "previewed", dark: fg(Color::LightMagenta).add_modifier(UNDERLINED), light: fg(Color::Magenta).add_modifier(UNDERLINED), plain: with(UNDERLINED);
    /// An object changed elsewhere a moment ago (its mark `↻`).
    Changed => "changed", dark: fg(Color::Green).add_modifier(BOLD), light: fg(Color::Green).add_modifier(BOLD), plain: with(BOLD);
    /// A folder or type heading.
    Heading => "heading", dark: fg(Color::Blue).add_modifier(BOLD), light: fg(Color::Blue).add_modifier(BOLD), plain: with(BOLD);
    /// What is said in passing: ids, labels, hints, line numbers.
    Dim => "dim", dark: fg(Color::DarkGray), light: fg(MID_GRAY), plain: NONE;
    /// Text that stands out: titles of a list, the account.
    Strong => "strong", dark: with(BOLD), light: with(BOLD), plain: with(BOLD);
    /// A key in the help, the footer and the palette.
    Key => "key", dark: fg(Color::Cyan), light: fg(Color::Blue), plain: with(BOLD);
    /// The letters a fuzzy filter matched.
    Match => "match", dark: fg(Color::Yellow).add_modifier(BOLD), light: fg(Color::Magenta).add_modifier(BOLD), plain: with(BOLD).add_modifier(UNDERLINED);
    /// An error.
    Error => "error", dark: fg(Color::Red), light: fg(Color::Red), plain: with(BOLD);
    /// A warning.
    Warning => "warning", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: with(BOLD);
    /// What just went well.
    Success => "success", dark: fg(Color::Green), light: fg(DARK_GREEN), plain: NONE;
    /// The connection badge of the status bar.
    Badge => "badge", dark: fg(Color::Black).bg(Color::Cyan), light: fg(Color::White).bg(Color::Blue), plain: with(REVERSED);
    /// The requests-in-flight spinner.
    Spinner => "spinner", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: NONE;
    /// A text field without the keys.
    Field => "field", dark: with(UNDERLINED), light: with(UNDERLINED), plain: with(UNDERLINED);
    /// The text field with the keys.
    FieldFocused => "field_focused", dark: fg(Color::Black).bg(Color::Cyan), light: fg(Color::White).bg(Color::Blue), plain: with(REVERSED);
    /// The text cursor.
    Cursor => "cursor", dark: with(REVERSED), light: with(REVERSED), plain: with(REVERSED);
    /// A JSON key.
    JsonKey => "json_key", dark: fg(Color::Cyan), light: fg(Color::Blue), plain: NONE;
    /// A JSON string.
    JsonString => "json_string", dark: fg(Color::Green), light: fg(DARK_GREEN), plain: NONE;
    /// A JSON number.
    JsonNumber => "json_number", dark: fg(Color::Magenta), light: fg(Color::Magenta), plain: NONE;
    /// `true`, `false`, `null`.
    JsonLiteral => "json_literal", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: NONE;
    /// What a diff adds.
    DiffAdded => "diff_added", dark: fg(Color::Green), light: fg(DARK_GREEN), plain: with(BOLD);
    /// What a diff removes (the value before).
    DiffRemoved => "diff_removed", dark: fg(Color::Red), light: fg(Color::Red), plain: NONE;
    /// The mark of a changed property (`~`).
    DiffChanged => "diff_changed", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: with(BOLD);
    /// A component whose status is down, error, critical or failed (its title also reads `✗`).
    StatusError => "status_error", dark: fg(Color::LightRed), light: fg(Color::Red), plain: with(BOLD);
    /// A component whose status is degraded or warning (its title also reads `!`).
    StatusWarning => "status_warning", dark: fg(Color::Yellow), light: fg(DARK_ORANGE), plain: with(BOLD);
    /// A component whose status is up, ok or healthy (its title also reads `✓`).
    StatusGood => "status_good", dark: fg(Color::LightGreen), light: fg(DARK_GREEN), plain: NONE;
    /// A component whose status is none of the above (`unknown`, or any other value) in the
    /// tree (its title also reads `?` under `NO_COLOR`).
    StatusUnknown => "status_unknown", dark: fg(Color::Gray), light: fg(MID_GRAY), plain: NONE;
    /// A component of no known status on the map, and icons, images and widgets.
    MapComponent => "map_component", dark: fg(Color::White), light: fg(Color::Black), plain: NONE;
    /// An area's outline on the map.
    MapArea => "map_area", dark: fg(Color::Blue), light: fg(Color::Blue), plain: NONE;
    /// A line group on the map.
    MapLine => "map_line", dark: fg(Color::Gray), light: fg(MID_GRAY), plain: NONE;
    /// A label's text on the map.
    MapLabel => "map_label", dark: fg(Color::Gray), light: fg(Color::DarkGray), plain: NONE;
    /// The selected object on the map (its title also in reverse video).
    MapSelected => "map_selected", dark: fg(Color::LightCyan).add_modifier(BOLD), light: fg(Color::Blue).add_modifier(BOLD), plain: with(REVERSED);
    /// A marked object on the map, or a match of the selector preview (its title also reads
    /// `●`).
    MapMarked => "map_marked", dark: fg(Color::LightMagenta), light: fg(Color::Magenta), plain: with(BOLD);
    /// An object the tree's filter hides, dimmed on the map.
    MapHidden => "map_hidden", dark: fg(Color::DarkGray), light: fg(Color::Indexed(250)), plain: with(Modifier::DIM);
    /// The map's centre cross.
    MapCross => "map_cross", dark: fg(Color::LightYellow).add_modifier(BOLD), light: fg(Color::Magenta).add_modifier(BOLD), plain: with(BOLD);
}

/// The style of each role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    styles: Vec<Style>,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::dark()
    }
}

impl Theme {
    fn from(style: fn(Role) -> Style) -> Theme {
        Theme {
            styles: Role::ALL.iter().map(|r| style(*r)).collect(),
        }
    }

    /// Light text on a dark terminal: the default.
    pub fn dark() -> Theme {
        Theme::from(Role::dark)
    }

    /// Dark text on a light terminal.
    pub fn light() -> Theme {
        Theme::from(Role::light)
    }

    /// No colour at all (`NO_COLOR`): bold, reverse video and underline only.
    pub fn plain() -> Theme {
        Theme::from(Role::plain)
    }

    /// Whether any of its styles has a colour (none has under `NO_COLOR`): where an object's
    /// own colour may show (an area's swatch).
    pub fn has_colour(&self) -> bool {
        self.styles.iter().any(|s| {
            s.fg.is_some_and(|c| c != Color::Reset) || s.bg.is_some_and(|c| c != Color::Reset)
        })
    }

    /// The built-in theme called `name`.
    pub fn named(name: &str) -> Option<Theme> {
        match name {
            "dark" => Some(Theme::dark()),
            "light" => Some(Theme::light()),
            _ => None,
        }
    }

    /// The theme `config.toml` asks for, with its single styles; without colour when
    /// `no_color`. A theme or style name that does not exist, or a style that cannot be read, is
    /// an error naming the line.
    pub fn configured(
        theme: Option<&Located<String>>,
        styles: &[(Located<String>, Located<String>)],
        no_color: bool,
    ) -> Result<Theme, SettingError> {
        let named = match theme {
            None => Theme::dark(),
            Some(name) => Theme::named(&name.value).ok_or_else(|| {
                SettingError::new(
                    name.line,
                    format!("theme \"{}\": the themes are dark and light", name.value),
                )
            })?,
        };
        let mut theme = if no_color { Theme::plain() } else { named };
        for (name, spec) in styles {
            let role = Role::ALL
                .iter()
                .find(|r| r.name() == name.value)
                .ok_or_else(|| {
                    let known: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                    SettingError::new(
                        name.line,
                        format!(
                            "[styles] {}: no such style (the styles: {})",
                            name.value,
                            known.join(", ")
                        ),
                    )
                })?;
            let style = parse_style(&spec.value).map_err(|e| {
                SettingError::new(spec.line, format!("[styles] {}: {e}", name.value))
            })?;
            // Without colour an override can only add bold, underline, reverse ...: the plain
            // style stays under it, so a colour-only override never hides the selection.
            theme.styles[index(*role)] = if no_color {
                role.plain().patch(Style {
                    fg: None,
                    bg: None,
                    ..style
                })
            } else {
                style
            };
        }
        Ok(theme)
    }

    /// The style of `role`.
    pub fn of(&self, role: Role) -> Style {
        self.styles[index(role)]
    }
}

/// A role's place in [`Role::ALL`], which lists the roles in their order of declaration: its
/// discriminant (a search of the list cost a map frame of 100,000 objects milliseconds).
fn index(role: Role) -> usize {
    role as usize
}

/// Reads a style: words in any order, `bold`, `dim`, `italic`, `underlined`, `reversed`,
/// `crossed_out`, a colour for the text, and `on` then a colour for the background. A colour is a
/// name (`black`, `red`, `green`, `yellow`, `blue`, `magenta`, `cyan`, `gray`, `dark_gray`,
/// `light_red` ... `white`, `reset`), `#rrggbb`, or a number of the 256-colour palette.
pub fn parse_style(text: &str) -> Result<Style, String> {
    let mut style = Style::new();
    let mut words = text.split_whitespace();
    let mut any = false;
    while let Some(word) = words.next() {
        any = true;
        let word = word.to_ascii_lowercase();
        if let Some(modifier) = modifier(&word) {
            style = style.add_modifier(modifier);
        } else if word == "on" {
            let color = words
                .next()
                .ok_or_else(|| format!("\"{text}\": `on` needs a colour after it"))?;
            style = style.bg(parse_color(color)?);
        } else {
            style = style.fg(parse_color(&word)?);
        }
    }
    if any {
        Ok(style)
    } else {
        Err("an empty style: give a colour or bold, underlined, reversed ...".into())
    }
}

fn modifier(word: &str) -> Option<Modifier> {
    Some(match word {
        "bold" => Modifier::BOLD,
        "dim" => Modifier::DIM,
        "italic" => Modifier::ITALIC,
        "underlined" => Modifier::UNDERLINED,
        "reversed" => Modifier::REVERSED,
        "crossed_out" => Modifier::CROSSED_OUT,
        _ => return None,
    })
}

fn parse_color(word: &str) -> Result<Color, String> {
    let word = word.to_ascii_lowercase();
    let named = [
        ("reset", Color::Reset),
        ("black", Color::Black),
        ("red", Color::Red),
        ("green", Color::Green),
        ("yellow", Color::Yellow),
        ("blue", Color::Blue),
        ("magenta", Color::Magenta),
        ("cyan", Color::Cyan),
        ("gray", Color::Gray),
        ("dark_gray", Color::DarkGray),
        ("light_red", Color::LightRed),
        ("light_green", Color::LightGreen),
        ("light_yellow", Color::LightYellow),
        ("light_blue", Color::LightBlue),
        ("light_magenta", Color::LightMagenta),
        ("light_cyan", Color::LightCyan),
        ("white", Color::White),
    ];
    if let Some((_, color)) = named.iter().find(|(name, _)| *name == word) {
        return Ok(*color);
    }
    if let Some(hex) = word.strip_prefix('#')
        && hex.len() == 6
        && let Ok(rgb) = u32::from_str_radix(hex, 16)
    {
        return Ok(Color::Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8));
    }
    if let Ok(n) = word.parse::<u8>() {
        return Ok(Color::Indexed(n));
    }
    Err(format!(
        "\"{word}\" is not a colour or a modifier (colours: names such as red or dark_gray, \
         #rrggbb, 0-255; modifiers: bold, dim, italic, underlined, reversed, crossed_out)"
    ))
}

/// Whether `NO_COLOR` asks for no colour: set and not empty.
pub fn no_color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(value: &str, line: usize) -> Located<String> {
        Located::new(value.to_string(), line)
    }

    #[test]
    fn a_roles_index_is_its_place_in_the_list() {
        for (place, &role) in Role::ALL.iter().enumerate() {
            assert_eq!(index(role), place, "{role:?}");
        }
    }

    #[test]
    fn styles_read_colours_and_modifiers_in_any_order() {
        assert_eq!(
            parse_style("black on yellow bold").unwrap(),
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(
            parse_style("#005f87 underlined").unwrap(),
            Style::new()
                .fg(Color::Rgb(0, 0x5f, 0x87))
                .add_modifier(Modifier::UNDERLINED)
        );
        assert_eq!(
            parse_style("on 236").unwrap(),
            Style::new().bg(Color::Indexed(236))
        );
        for bad in ["", "purple", "red on", "#12345"] {
            assert!(parse_style(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn plain_has_no_colour_and_still_marks_the_selection() {
        let plain = Theme::plain();
        for role in Role::ALL {
            let style = plain.of(*role);
            assert_eq!((style.fg, style.bg), (None, None), "{}", role.name());
        }
        assert!(
            plain
                .of(Role::Selected)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        assert!(!plain.of(Role::FieldFocused).add_modifier.is_empty());
        assert_ne!(Theme::light(), Theme::dark());
    }

    #[test]
    fn the_config_picks_a_theme_and_overrides_styles_naming_the_line() {
        let styles = [(at("selected", 4), at("black on yellow", 4))];
        let theme = Theme::configured(Some(&at("light", 1)), &styles, false).unwrap();
        assert_eq!(theme.of(Role::Selected).bg, Some(Color::Yellow));
        assert_eq!(theme.of(Role::Heading), Theme::light().of(Role::Heading));
        let plain = Theme::configured(Some(&at("light", 1)), &styles, true).unwrap();
        assert_eq!(
            plain.of(Role::Selected),
            Theme::plain().of(Role::Selected),
            "NO_COLOR drops the colours and keeps the reverse video"
        );
        assert_eq!(plain.of(Role::Heading), Theme::plain().of(Role::Heading));
        let underlined = [(at("heading", 5), at("red underlined", 5))];
        let plain = Theme::configured(None, &underlined, true).unwrap();
        assert_eq!(
            plain.of(Role::Heading),
            Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        );

        let e = Theme::configured(Some(&at("solarized", 2)), &[], false).unwrap_err();
        assert_eq!(e.line, 2);
        let e = Theme::configured(None, &[(at("seleted", 6), at("red", 6))], false).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(e.message.contains("no such style"), "{e}");
        let e = Theme::configured(None, &[(at("error", 7), at("redd", 7))], false).unwrap_err();
        assert!(e.message.contains("not a colour"), "{e}");
    }
}
