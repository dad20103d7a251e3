//! A one-line text field: the filter boxes and the prompts. Every printable key types.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A single line of text with a cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
}

impl LineInput {
    /// A field holding `text`, cursor at the end.
    pub fn new(text: impl Into<String>) -> LineInput {
        let text = text.into();
        let cursor = text.chars().count();
        LineInput { text, cursor }
    }

    /// The current text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Empties the field.
    pub fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Applies an editing key; returns whether the text changed. Keys that are not editing keys
    /// (Enter, Esc, Tab, ...) are left to the caller and change nothing.
    pub fn handle(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let changed = !self.text.is_empty();
                self.clear();
                changed
            }
            KeyCode::Char(c) if !ctrl => {
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
                true
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
                true
            }
            KeyCode::Delete if self.cursor < self.text.chars().count() => {
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
    editing: bool,
}

/// What a key typed into a filter asks of its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKey {
    /// The text changed (or was cleared): filter the list again.
    Changed,
    /// Move the selection by this step, typing on.
    Move(isize),
    /// Nothing for the list to do.
    Unchanged,
}

impl Filter {
    /// The filter text.
    pub fn text(&self) -> &str {
        self.input.text()
    }

    /// Whether the filter is being typed.
    pub fn editing(&self) -> bool {
        self.editing
    }

    /// Whether the filter line shows: while typed, or while it holds text.
    pub fn shown(&self) -> bool {
        self.editing || !self.input.text().is_empty()
    }

    /// `/`: starts typing.
    pub fn start(&mut self) {
        self.editing = true;
    }

    /// Empties the filter (typing goes on if it was under way).
    pub fn clear(&mut self) {
        self.input.clear();
    }

    /// A key while the filter is typed: `Enter` keeps it, `Esc` clears it, `↑`/`↓` move the
    /// list, every other key edits the text.
    pub fn key(&mut self, key: KeyEvent) -> FilterKey {
        match key.code {
            KeyCode::Enter => {
                self.editing = false;
                FilterKey::Unchanged
            }
            KeyCode::Esc => {
                self.editing = false;
                self.input.clear();
                FilterKey::Changed
            }
            KeyCode::Down => FilterKey::Move(1),
            KeyCode::Up => FilterKey::Move(-1),
            _ if self.input.handle(key) => FilterKey::Changed,
            _ => FilterKey::Unchanged,
        }
    }
}

/// Whether `needle` matches `haystack` fuzzily: its characters appear in order, ignoring case.
pub fn fuzzy_match(needle: &str, haystack: &str) -> bool {
    let mut hay = haystack.chars().flat_map(char::to_lowercase);
    needle
        .chars()
        .flat_map(char::to_lowercase)
        .all(|n| hay.any(|h| h == n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn types_deletes_and_moves() {
        let mut input = LineInput::new("ab");
        input.handle(key(KeyCode::Left));
        input.handle(key(KeyCode::Char('é')));
        assert_eq!(input.text(), "aéb");
        input.handle(key(KeyCode::Backspace));
        input.handle(key(KeyCode::Delete));
        assert_eq!(input.text(), "a");
        assert_eq!(input.cursor(), 1);
    }

    #[test]
    fn a_filter_types_keeps_clears_and_moves() {
        let mut filter = Filter::default();
        assert!(!filter.shown());
        filter.start();
        assert!(filter.shown() && filter.editing());
        assert_eq!(filter.key(key(KeyCode::Char('a'))), FilterKey::Changed);
        assert_eq!(filter.key(key(KeyCode::Down)), FilterKey::Move(1));
        assert_eq!(filter.key(key(KeyCode::Enter)), FilterKey::Unchanged);
        assert!(!filter.editing() && filter.shown(), "kept: it still shows");
        filter.start();
        assert_eq!(filter.key(key(KeyCode::Esc)), FilterKey::Changed);
        assert!(!filter.shown());
    }

    #[test]
    fn fuzzy_matches_in_order_ignoring_case() {
        assert!(fuzzy_match("nprd", "Network PRoD"));
        assert!(!fuzzy_match("dn", "nd"));
        assert!(fuzzy_match("", "x"));
    }
}
