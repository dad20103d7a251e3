//! One key as the key table knows it: a key code and its modifiers, read from a terminal event
//! (normalised, so `G` is `G` whether or not the terminal also reports Shift) or from the text of
//! the config file (`ctrl-s`, `G`, `enter`, `shift-tab`, `pgdn`, and the forms `diagtui keys`
//! prints: `Ctrl-S`, `PgDn`, `↑`).

use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key with its modifiers (only Ctrl, Alt and Shift count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    code: KeyCode,
    mods: KeyModifiers,
}

/// The modifiers a chord keeps.
const KEPT: KeyModifiers = KeyModifiers::CONTROL
    .union(KeyModifiers::ALT)
    .union(KeyModifiers::SHIFT);

/// Named keys: the name `diagtui keys` prints, then the other names the config file accepts.
const NAMED: &[(KeyCode, &[&str])] = &[
    (KeyCode::Enter, &["Enter", "return"]),
    (KeyCode::Esc, &["Esc", "escape"]),
    (KeyCode::Tab, &["Tab"]),
    (KeyCode::BackTab, &["Shift-Tab", "backtab"]),
    (KeyCode::Char(' '), &["Space"]),
    (KeyCode::Backspace, &["Backspace"]),
    (KeyCode::Delete, &["Delete", "del"]),
    (KeyCode::Insert, &["Insert", "ins"]),
    (KeyCode::Home, &["Home"]),
    (KeyCode::End, &["End"]),
    (KeyCode::Up, &["↑", "up"]),
    (KeyCode::Down, &["↓", "down"]),
    (KeyCode::Left, &["←", "left"]),
    (KeyCode::Right, &["→", "right"]),
    (KeyCode::PageUp, &["PgUp", "pageup"]),
    (KeyCode::PageDown, &["PgDn", "pagedown"]),
];

impl Chord {
    /// A chord of `code` with `mods`, normalised like a key event.
    pub fn new(code: KeyCode, mods: KeyModifiers) -> Chord {
        let mut mods = mods & KEPT;
        let code = match code {
            // The character says whether Shift was held; with Ctrl or Alt, terminals differ on
            // the case, so the letter counts in lower case.
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                if mods.is_empty() {
                    KeyCode::Char(c)
                } else {
                    KeyCode::Char(c.to_ascii_lowercase())
                }
            }
            KeyCode::Tab if mods.contains(KeyModifiers::SHIFT) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        Chord { code, mods }
    }

    /// The chord a key event is.
    pub fn of(event: &KeyEvent) -> Chord {
        Chord::new(event.code, event.modifiers)
    }

    /// A plain character: the key as it types.
    pub fn char(c: char) -> Chord {
        Chord::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    /// Reads a chord as the config file writes it: modifiers `ctrl-`, `alt-`, `shift-` (any
    /// case), then one character (case counts: `G` is not `g`) or a key name (any case).
    pub fn parse(text: &str) -> Result<Chord, String> {
        // A lone space is the space key; otherwise surrounding blanks do not count.
        let mut rest = if text.trim().is_empty() {
            text
        } else {
            text.trim()
        };
        let mut mods = KeyModifiers::NONE;
        loop {
            let lower = rest.to_ascii_lowercase();
            let found = [
                ("ctrl-", KeyModifiers::CONTROL),
                ("alt-", KeyModifiers::ALT),
                ("shift-", KeyModifiers::SHIFT),
            ]
            .into_iter()
            .find(|(prefix, _)| lower.starts_with(prefix) && rest.len() > prefix.len());
            match found {
                Some((prefix, modifier)) => {
                    mods |= modifier;
                    rest = &rest[prefix.len()..];
                }
                None => break,
            }
        }
        // Shift written with Ctrl or Alt on a character: terminals without the kitty keyboard
        // protocol (diagtui does not ask for it) send it as the same chord without Shift.
        let shifted = mods.contains(KeyModifiers::SHIFT)
            && mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (None, _) => return Err(format!("\"{text}\" names no key")),
            (Some(c), None) if mods.contains(KeyModifiers::SHIFT) && c.is_alphabetic() => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(c.to_ascii_uppercase())
            }
            (Some(c), None) if !c.is_control() => NAMED
                .iter()
                .find(|(_, names)| names[0] == rest)
                .map_or(KeyCode::Char(c), |(code, _)| *code),
            _ => named(rest).ok_or_else(|| {
                format!(
                    "\"{text}\" is not a key: give one character (`x`, `G`, `?`) or a name \
                     (enter, esc, tab, space, backspace, delete, insert, home, end, up, down, \
                     left, right, pgup, pgdn, f1-f12), after ctrl-, alt- or shift- if wanted"
                )
            })?,
        };
        if let Some(why) = unsendable(code, mods, shifted) {
            return Err(format!(
                "\"{text}\" cannot be used: {why}; choose another key"
            ));
        }
        Ok(Chord::new(code, mods))
    }

    /// Whether this is a plain character: in a text field it types rather than commands.
    pub fn types(&self) -> bool {
        matches!(self.code, KeyCode::Char(_)) && self.mods.is_empty()
    }
}

/// Why a terminal cannot send a chord as written (without the kitty keyboard protocol, which
/// diagtui does not ask for): it sends another chord in its place, or nothing.
fn unsendable(code: KeyCode, mods: KeyModifiers, shifted: bool) -> Option<String> {
    let ctrl = mods.contains(KeyModifiers::CONTROL);
    let shift = mods.contains(KeyModifiers::SHIFT);
    let plain = Chord::new(code, mods - KeyModifiers::SHIFT);
    match code {
        KeyCode::Char(_) if shifted => Some(format!(
            "terminals send it as {plain} (Shift is lost with Ctrl or Alt without the kitty keyboard protocol, which diagtui does not use)"
        )),
        KeyCode::Char('i' | 'I') if ctrl => Some("terminals send Ctrl-I as Tab".into()),
        KeyCode::Char('m' | 'M') if ctrl => Some("terminals send Ctrl-M as Enter".into()),
        KeyCode::Char('[') if ctrl => Some("terminals send Ctrl-[ as Esc".into()),
        KeyCode::Char('0'..='3' | '8' | '9') if ctrl => {
            Some("terminals send Ctrl with this digit as another key or not at all".into())
        }
        KeyCode::Enter | KeyCode::Esc | KeyCode::Backspace | KeyCode::Char(' ') if shift => {
            Some(format!("terminals send it as {plain}"))
        }
        KeyCode::Enter | KeyCode::Esc | KeyCode::Tab if ctrl => Some(format!(
            "terminals send it as {}",
            Chord::new(code, mods - KeyModifiers::CONTROL)
        )),
        _ => None,
    }
}

/// The key code of a key name (any case), or of `f1`-`f12`.
fn named(name: &str) -> Option<KeyCode> {
    let found = NAMED.iter().find(|(_, names)| {
        names
            .iter()
            .any(|candidate| candidate.eq_ignore_ascii_case(name))
    });
    if let Some((code, _)) = found {
        return Some(*code);
    }
    let lower = name.to_ascii_lowercase();
    let n: u8 = lower.strip_prefix('f')?.parse().ok()?;
    (1..=12).contains(&n).then_some(KeyCode::F(n))
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (modifier, name) in [
            (KeyModifiers::CONTROL, "Ctrl-"),
            (KeyModifiers::ALT, "Alt-"),
            (KeyModifiers::SHIFT, "Shift-"),
        ] {
            if self.mods.contains(modifier) {
                f.write_str(name)?;
            }
        }
        match NAMED.iter().find(|(code, _)| *code == self.code) {
            Some((_, names)) => f.write_str(names[0]),
            None => match self.code {
                KeyCode::Char(c) if self.mods.is_empty() => write!(f, "{c}"),
                KeyCode::Char(c) => write!(f, "{}", c.to_ascii_uppercase()),
                KeyCode::F(n) => write!(f, "F{n}"),
                other => write!(f, "{other:?}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn events_are_normalised() {
        let shifted = Chord::of(&event(KeyCode::Char('G'), KeyModifiers::SHIFT));
        assert_eq!(shifted, Chord::char('G'));
        assert_eq!(
            Chord::of(&event(KeyCode::Tab, KeyModifiers::SHIFT)),
            Chord::of(&event(KeyCode::BackTab, KeyModifiers::SHIFT))
        );
        assert_eq!(
            Chord::of(&event(
                KeyCode::Char('S'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            )),
            Chord::parse("ctrl-s").unwrap()
        );
    }

    #[test]
    fn parses_what_it_prints_and_the_config_forms() {
        for text in [
            "q",
            "G",
            "?",
            ":",
            "/",
            "Ctrl-S",
            "Shift-Tab",
            "Enter",
            "Esc",
            "↑",
            "PgDn",
            "Space",
            "F5",
            "Alt-X",
        ] {
            let chord = Chord::parse(text).unwrap();
            assert_eq!(chord.to_string(), text, "{text}");
        }
        for (config, shown) in [
            ("ctrl-q", "Ctrl-Q"),
            ("C", "C"),
            ("shift-g", "G"),
            ("shift-tab", "Shift-Tab"),
            ("backtab", "Shift-Tab"),
            ("pgdn", "PgDn"),
            ("PAGEUP", "PgUp"),
            ("down", "↓"),
            ("escape", "Esc"),
            ("space", "Space"),
            (" ", "Space"),
            ("f12", "F12"),
            ("-", "-"),
            ("ctrl--", "Ctrl--"),
        ] {
            assert_eq!(Chord::parse(config).unwrap().to_string(), shown, "{config}");
        }
        for bad in ["", "ctrl-", "enterr", "f13", "ctrl-foo"] {
            assert!(Chord::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_chord_the_terminal_cannot_send_as_written_is_refused() {
        let refused = |text: &str| Chord::parse(text).unwrap_err();
        let err = refused("ctrl-shift-q");
        assert!(err.contains("terminals send it as Ctrl-Q"), "{err}");
        assert!(refused("alt-shift-x").contains("as Alt-X"));
        assert!(refused("ctrl-i").contains("as Tab"));
        assert!(refused("ctrl-m").contains("as Enter"));
        assert!(refused("ctrl-[").contains("as Esc"));
        assert!(refused("ctrl-1").contains("digit"));
        assert!(refused("shift-enter").contains("as Enter"));
        assert!(refused("ctrl-tab").contains("as Tab"));
        assert!(refused("shift-space").contains("as Space"));
        for fine in [
            "ctrl-q",
            "Ctrl-S",
            "alt-x",
            "ctrl-4",
            "shift-tab",
            "shift-up",
            "ctrl-up",
            "G",
        ] {
            assert!(Chord::parse(fine).is_ok(), "{fine}");
        }
    }

    #[test]
    fn only_plain_characters_type() {
        assert!(Chord::char('x').types());
        assert!(!Chord::parse("ctrl-x").unwrap().types());
        assert!(!Chord::parse("enter").unwrap().types());
    }
}
