//! Text fields: a one-line field (prompts, filters, the selector form's key and value, the
//! search lists) and a list's filter. Every printable key types; which keys are commands is the
//! key table's business, not theirs. Pasted text arrives as typed: line breaks of any kind (CR,
//! as tmux and xterm-style terminals send them, CRLF or LF) and tabs become spaces in a field of
//! one line.

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::keys::Command;
use crate::text::text_view;
use crate::widgets::typing::{Edit, Typed, TypingHistory};

/// A single line of text with a cursor, its typing history (`Ctrl-Z` by words, `Ctrl-Y`), and
/// the first column its view showed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
    history: TypingHistory<(String, usize)>,
    /// The first column shown when it was last drawn, so that the view moves as little as it
    /// can (see [`LineInput::view_offset`]).
    shown_from: Cell<usize>,
}

/// Pasted text as one line: the line breaks that end it left out, every other line break (CR,
/// CRLF, LF) and tab a space.
pub fn one_line(text: &str) -> String {
    text.trim_end_matches(['\r', '\n'])
        .replace("\r\n", " ")
        .replace(['\r', '\n', '\t'], " ")
}

impl LineInput {
    /// A field holding `text`, cursor at the end.
    pub fn new(text: impl Into<String>) -> LineInput {
        let text = one_line(&text.into());
        let cursor = text.chars().count();
        LineInput {
            text,
            cursor,
            ..LineInput::default()
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
            self.edit(Edit::Other, |text, _| {
                text.clear();
                0
            });
        }
    }

    /// Changes the text with `change` (given the text and the cursor, it returns the new
    /// cursor), kept in the history as `edit`.
    fn edit(&mut self, edit: Edit, change: impl FnOnce(&mut String, usize) -> usize) {
        let before = (self.text.clone(), self.cursor);
        let from = self.cursor;
        self.cursor = change(&mut self.text, self.cursor);
        self.history
            .record(before, edit, (0, from), (0, self.cursor));
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Inserts `text` at the cursor as one edit, as one line ([`one_line`]). Returns whether the
    /// text changed.
    pub fn paste(&mut self, text: &str) -> bool {
        let flat = one_line(text);
        if flat.is_empty() {
            return false;
        }
        let at = self.byte_at(self.cursor);
        self.edit(Edit::Other, |text, cursor| {
            text.insert_str(at, &flat);
            cursor + flat.chars().count()
        });
        true
    }

    /// Applies an editing key; returns whether the text changed. Keys that are not editing keys
    /// (Enter, Esc, Tab, Ctrl with a letter, ...) change nothing.
    pub fn handle(&mut self, key: KeyEvent) -> bool {
        let command = key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let len = self.text.chars().count();
        match key.code {
            KeyCode::Char(c) if !command => {
                let c = if c == '\t' { ' ' } else { c };
                let at = self.byte_at(self.cursor);
                self.edit(Edit::typing(c), |text, cursor| {
                    text.insert(at, c);
                    cursor + 1
                });
                true
            }
            KeyCode::Backspace if self.cursor > 0 => {
                let at = self.byte_at(self.cursor - 1);
                let gone = self.text[at..].chars().next().unwrap_or(' ');
                self.edit(Edit::deleting(gone), |text, cursor| {
                    text.remove(at);
                    cursor - 1
                });
                true
            }
            KeyCode::Delete if self.cursor < len => {
                let at = self.byte_at(self.cursor);
                let gone = self.text[at..].chars().next().unwrap_or(' ');
                self.edit(Edit::deleting(gone), |text, cursor| {
                    text.remove(at);
                    cursor
                });
                true
            }
            KeyCode::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                false
            }
            KeyCode::Right => {
                self.cursor = (self.cursor + 1).min(len);
                false
            }
            KeyCode::Home => {
                self.cursor = 0;
                false
            }
            KeyCode::End => {
                self.cursor = len;
                false
            }
            _ => false,
        }
    }

    /// The first column to show of the field drawn `width` columns wide (the cursor, a bar,
    /// takes a column of its own): all of it when it fits, else a window that keeps the cursor
    /// in view with room for the `…` markers, moved as little as possible since the last time
    /// it was drawn. Counted in terminal columns (a wide character takes two).
    pub fn view_offset(&self, width: usize) -> usize {
        let offset = if text_view::width(&self.text) < width {
            0
        } else {
            let col = text_view::column_of(&self.text, self.cursor);
            text_view::follow(self.shown_from.get(), col, 1, width)
        };
        self.shown_from.set(offset);
        offset
    }
}

impl Typed for LineInput {
    type State = (String, usize);

    fn state(&self) -> (String, usize) {
        (self.text.clone(), self.cursor)
    }

    fn restore(&mut self, (text, cursor): (String, usize)) {
        self.text = text;
        self.cursor = cursor;
    }

    fn history(&mut self) -> &mut TypingHistory<(String, usize)> {
        &mut self.history
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
            Command::RedoText => {
                self.input.redo();
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
        assert!(input.paste("x\r\ny\rz\tw\n"));
        assert_eq!((input.text(), input.cursor()), ("ax y z w", 8));
        assert!(input.undo(), "the paste is one edit");
        assert_eq!((input.text(), input.cursor()), ("a", 1));
        input.clear();
        let mut back = Vec::new();
        while input.undo() {
            back.push(input.text().to_string());
        }
        assert_eq!(back, ["a", "aéb", "ab"], "a run of deletes is one group");
    }

    #[test]
    fn a_cr_paste_is_one_line_of_spaces() {
        for (pasted, flat) in [
            ("a\rb\rc\r", "a b c"),
            ("a\r\nb\r\n", "a b"),
            ("a\nb", "a b"),
            ("a\tb", "a b"),
            ("\r\n", ""),
        ] {
            assert_eq!(one_line(pasted), flat, "{pasted:?}");
        }
    }

    #[test]
    fn typing_is_undone_by_words_and_redone() {
        let mut input = LineInput::default();
        for c in "status down".chars() {
            input.handle(key(KeyCode::Char(c)));
        }
        input.handle(key(KeyCode::Backspace));
        input.handle(key(KeyCode::Backspace));
        assert_eq!(input.text(), "status do");
        assert!(input.undo());
        assert_eq!(input.text(), "status down", "the deletes together");
        assert!(input.undo());
        assert_eq!((input.text(), input.cursor()), ("status ", 7), "a word");
        assert!(input.undo());
        assert_eq!(input.text(), "");
        assert!(!input.undo());
        assert!(input.redo());
        assert!(input.redo());
        assert_eq!((input.text(), input.cursor()), ("status down", 11));
    }

    #[test]
    fn the_view_keeps_the_cursor_in_its_column_with_wide_characters() {
        let mut input = LineInput::new("数据库 🚀 cluster");
        assert_eq!(input.view_offset(40), 0, "it fits");
        // 17 columns and the bar: in 10 columns the window follows the cursor to the end.
        assert_eq!(input.view_offset(10), 9);
        input.handle(key(KeyCode::Home));
        assert_eq!(input.view_offset(10), 0);
        for _ in 0..5 {
            input.handle(key(KeyCode::Right));
        }
        assert_eq!(text_view::column_of(input.text(), input.cursor()), 9);
        assert_eq!(input.view_offset(10), 1, "moved as little as it can");
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
