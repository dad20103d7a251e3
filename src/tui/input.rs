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
    fn fuzzy_matches_in_order_ignoring_case() {
        assert!(fuzzy_match("nprd", "Network PRoD"));
        assert!(!fuzzy_match("dn", "nd"));
        assert!(fuzzy_match("", "x"));
    }
}
