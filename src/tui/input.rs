//! Text fields: a one-line field (prompts, filters, the selector form's key and value, the
//! search lists) and a list's filter. Every printable key types; which keys are commands is the
//! key table's business, not theirs.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::keys::Command;

/// Edits a field remembers for undo.
const UNDO_STEPS: usize = 100;

/// A single line of text with a cursor, and the texts before its last edits (for `Ctrl-Z`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
    /// The text and cursor before each edit, oldest first.
    undo: Vec<(String, usize)>,
}

impl LineInput {
    /// A field holding `text`, cursor at the end.
    pub fn new(text: impl Into<String>) -> LineInput {
        let text = text.into();
        let cursor = text.chars().count();
        LineInput {
            text,
            cursor,
            undo: Vec::new(),
        }
    }

    /// The current text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Empties the field (an edit `undo` takes back).
    pub fn clear(&mut self) {
        if !self.text.is_empty() {
            self.remember();
        }
        self.text.clear();
        self.cursor = 0;
    }

    /// Keeps the text as it is before an edit.
    fn remember(&mut self) {
        if self.undo.len() == UNDO_STEPS {
            self.undo.remove(0);
        }
        self.undo.push((self.text.clone(), self.cursor));
    }

    /// Takes back the last edit; whether there was one.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some((text, cursor)) => {
                self.text = text;
                self.cursor = cursor;
                true
            }
            None => false,
        }
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Inserts `text` at the cursor as one edit; a line break becomes a space (the field has
    /// one line), and the line breaks that end it are left out. Returns whether the text
    /// changed.
    pub fn paste(&mut self, text: &str) -> bool {
        let flat: String = text
            .trim_end_matches(['\r', '\n'])
            .chars()
            .filter(|c| *c != '\r')
            .map(|c| if c == '\n' { ' ' } else { c })
            .collect();
        if flat.is_empty() {
            return false;
        }
        self.remember();
        let at = self.byte_at(self.cursor);
        self.text.insert_str(at, &flat);
        self.cursor += flat.chars().count();
        true
    }

    /// Applies an editing key; returns whether the text changed. Keys that are not editing keys
    /// (Enter, Esc, Tab, Ctrl with a letter, ...) change nothing.
    pub fn handle(&mut self, key: KeyEvent) -> bool {
        let command = key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Char(c) if !command => {
                self.remember();
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
                true
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.remember();
                self.cursor -= 1;
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
                true
            }
            KeyCode::Delete if self.cursor < self.text.chars().count() => {
                self.remember();
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
                true
            }
            KeyCode::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                false
            }
            KeyCode::Right => {
                self.cursor = (self.cursor + 1).min(self.text.chars().count());
                false
            }
            KeyCode::Home => {
                self.cursor = 0;
                false
            }
            KeyCode::End => {
                self.cursor = self.text.chars().count();
                false
            }
            _ => false,
        }
    }
}

/// A list's filter: a line of text, and whether it is being typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    input: LineInput,
    typing: bool,
}

impl Filter {
    /// The filter text.
    pub fn text(&self) -> &str {
        self.input.text()
    }

    /// The field (for drawing its cursor).
    pub fn input(&self) -> &LineInput {
        &self.input
    }

    /// Whether the filter is being typed.
    pub fn typing(&self) -> bool {
        self.typing
    }

    /// Whether the filter line shows: while typed, or while it holds text.
    pub fn shown(&self) -> bool {
        self.typing || !self.input.text().is_empty()
    }

    /// Carries out a filter command (start typing, keep, clear, erase); what it changed, or
    /// `None` when `command` is not one.
    pub fn command(&mut self, command: Command) -> Option<FilterChange> {
        Some(match command {
            Command::Filter => {
                self.typing = true;
                FilterChange::Shown
            }
            Command::Keep => {
                self.typing = false;
                FilterChange::Shown
            }
            Command::ClearFilter | Command::Cancel => {
                self.typing = false;
                self.input.clear();
                FilterChange::Text
            }
            Command::Erase => {
                self.input.clear();
                FilterChange::Text
            }
            Command::UndoText => {
                self.input.undo();
                FilterChange::Text
            }
            _ => return None,
        })
    }

    /// A key while it is typed; whether the text changed.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        self.typing && self.input.handle(key)
    }

    /// Pasted text while it is typed; whether it took it.
    pub fn paste(&mut self, text: &str) -> bool {
        self.typing && self.input.paste(text)
    }
}

/// What a filter command changed for its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterChange {
    /// Whether the filter line shows (the list has a row more or less).
    Shown,
    /// The text: filter the list again.
    Text,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn types_deletes_moves_and_pastes_on_one_line() {
        let mut input = LineInput::new("ab");
        input.handle(key(KeyCode::Left));
        input.handle(key(KeyCode::Char('é')));
        assert_eq!(input.text(), "aéb");
        input.handle(key(KeyCode::Backspace));
        input.handle(key(KeyCode::Delete));
        assert_eq!(input.text(), "a");
        assert_eq!(input.cursor(), 1);
        assert!(!input.handle(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)));
        assert!(input.paste("x\r\ny\n"));
        assert_eq!((input.text(), input.cursor()), ("ax y", 4));
        assert!(input.undo(), "the paste is one edit");
        assert_eq!((input.text(), input.cursor()), ("a", 1));
        input.clear();
        let mut back = Vec::new();
        while input.undo() {
            back.push(input.text().to_string());
        }
        assert_eq!(back, ["a", "ab", "aéb", "ab"], "each key is an edit");
    }

    #[test]
    fn a_filter_types_keeps_and_cancels() {
        let mut filter = Filter::default();
        assert!(!filter.shown());
        assert!(
            !filter.key(key(KeyCode::Char('a'))),
            "not typed before it starts"
        );
        assert_eq!(filter.command(Command::Filter), Some(FilterChange::Shown));
        assert!(filter.shown() && filter.typing());
        assert!(filter.key(key(KeyCode::Char('a'))));
        assert_eq!(filter.command(Command::Keep), Some(FilterChange::Shown));
        assert!(!filter.typing() && filter.shown(), "kept: it still shows");
        assert!(!filter.paste("b"), "not typed while kept");
        filter.command(Command::Filter);
        assert_eq!(filter.command(Command::Cancel), Some(FilterChange::Text));
        assert!(!filter.shown());
        assert_eq!(filter.command(Command::Down), None);
    }
}
