//! The text area of the JSON editors (the properties pane, the selector form's and the bulk
//! edit's props): a ratatui-textarea that takes keys and pastes as typed. A paste's line
//! breaks (CR, CRLF, LF) are line breaks and its tabs are spaces to the next tab stop; `Enter`
//! keeps the line's indentation; `Ctrl-Z` undoes a word at a time and `Ctrl-Y` redoes
//! ([`TypingHistory`]); `Ctrl-U` is the key table's (it clears a field), never the text area's
//! own undo.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea};

use crate::widgets::typing::{Edit, Typed, TypingHistory};

/// Columns between tab stops: a tab pasted becomes spaces up to the next one.
const TAB_STOP: usize = 4;

/// The lines and the cursor (row, column in characters): what undo puts back.
type Snapshot = (Vec<String>, (usize, usize));

/// A text of several lines with a cursor and its typing history.
#[derive(Debug, Clone)]
pub struct Editor {
    area: TextArea<'static>,
    history: TypingHistory<Snapshot>,
}

impl Default for Editor {
    fn default() -> Editor {
        Editor::new("")
    }
}

/// Pasted text with every line break (CR, CRLF, LF) a LF and every tab spaces up to the next
/// tab stop, the first line starting at column `col`.
pub fn as_typed(text: &str, col: usize) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut at = col;
    for c in text.chars() {
        match c {
            '\t' => {
                let spaces = TAB_STOP - at % TAB_STOP;
                out.extend(std::iter::repeat_n(' ', spaces));
                at += spaces;
            }
            '\n' => {
                out.push(c);
                at = 0;
            }
            c => {
                out.push(c);
                at += 1;
            }
        }
    }
    out
}

impl Editor {
    /// An editor holding `text` (its line breaks of any kind), the cursor at its start.
    pub fn new(text: &str) -> Editor {
        let mut editor = Editor {
            area: TextArea::default(),
            history: TypingHistory::default(),
        };
        editor.restore((
            as_typed(text, 0).split('\n').map(str::to_string).collect(),
            (0, 0),
        ));
        editor
    }

    /// The lines.
    pub fn lines(&self) -> &[String] {
        self.area.lines()
    }

    /// The text as one string.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// The cursor: row and column, in characters.
    pub fn cursor(&self) -> (usize, usize) {
        let cursor = self.area.cursor();
        (cursor.0, cursor.1)
    }

    /// Moves the cursor (not an edit).
    pub fn move_cursor(&mut self, to: CursorMove) {
        self.area.move_cursor(to);
    }

    /// Carries out `change` on the text area; when it changed the text, records it as `edit`.
    fn edit(&mut self, edit: Edit, change: impl FnOnce(&mut TextArea<'static>) -> bool) -> bool {
        let before = self.state();
        let from = self.cursor();
        let changed = change(&mut self.area);
        if changed {
            let to = self.cursor();
            self.history.record(before, edit, from, to);
        }
        changed
    }

    /// The character before the cursor (a line break at a line's start), if any.
    fn before_cursor(&self) -> Option<char> {
        let (row, col) = self.cursor();
        match col {
            0 => (row > 0).then_some('\n'),
            _ => self.area.lines()[row].chars().nth(col - 1),
        }
    }

    /// The character at the cursor (a line break at a line's end), if any.
    fn at_cursor(&self) -> Option<char> {
        let (row, col) = self.cursor();
        let lines = self.area.lines();
        lines[row]
            .chars()
            .nth(col)
            .or_else(|| (row + 1 < lines.len()).then_some('\n'))
    }

    /// Types a key; whether the text changed. `Enter` starts a line indented as the cursor's
    /// line is (up to the cursor).
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Char('u') if ctrl => false,
            KeyCode::Enter if plain => {
                let (row, col) = self.cursor();
                let indent: String = self.area.lines()[row]
                    .chars()
                    .take(col)
                    .take_while(|c| *c == ' ' || *c == '\t')
                    .collect();
                self.edit(Edit::typing('\n'), |area| {
                    area.insert_newline();
                    area.insert_str(&indent);
                    true
                })
            }
            KeyCode::Char(c) if plain => self.edit(Edit::typing(c), |area| area.input(key)),
            KeyCode::Backspace if plain => match self.before_cursor() {
                Some(gone) => self.edit(Edit::deleting(gone), |area| area.input(key)),
                None => false,
            },
            KeyCode::Delete if plain => match self.at_cursor() {
                Some(gone) => self.edit(Edit::deleting(gone), |area| area.input(key)),
                None => false,
            },
            _ => self.edit(Edit::Other, |area| area.input(key)),
        }
    }

    /// Inserts pasted text at the cursor as one edit ([`as_typed`]); whether the text changed.
    pub fn paste(&mut self, text: &str) -> bool {
        let text = as_typed(text, self.cursor().1);
        self.edit(Edit::Other, |area| area.insert_str(&text))
    }

    /// Replaces the whole text as one edit (a paste over a template), the cursor at its end.
    pub fn replace(&mut self, text: &str) {
        let before = self.state();
        let from = self.cursor();
        let lines: Vec<String> = as_typed(text, 0).split('\n').map(str::to_string).collect();
        let end = (lines.len() - 1, lines[lines.len() - 1].chars().count());
        self.restore((lines, end));
        self.history.record(before, Edit::Other, from, end);
    }
}

impl Typed for Editor {
    type State = Snapshot;

    fn state(&self) -> Snapshot {
        (self.area.lines().to_vec(), self.cursor())
    }

    fn restore(&mut self, (lines, (row, col)): Snapshot) {
        let lines = if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        };
        self.area = TextArea::new(lines);
        // Undo is this editor's, by words; the text area's own, by keys, is not kept.
        self.area.set_max_histories(0);
        self.area
            .move_cursor(CursorMove::Jump(clamp_u16(row), clamp_u16(col)));
    }

    fn history(&mut self) -> &mut TypingHistory<Snapshot> {
        &mut self.history
    }
}

fn clamp_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(editor: &mut Editor, text: &str) {
        for c in text.chars() {
            editor.key(key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn a_cr_paste_breaks_lines_and_tabs_become_spaces() {
        let mut editor = Editor::new("");
        assert!(editor.paste("{\r\t\"a\": 1,\r\n\t\"b\":\t2\r}"));
        assert_eq!(
            editor.lines(),
            ["{", "    \"a\": 1,", "    \"b\":    2", "}"]
        );
        assert_eq!(editor.cursor(), (3, 1));
        assert!(editor.undo(), "the paste is one edit");
        assert_eq!(editor.text(), "");
        assert_eq!(as_typed("ab\tc", 0), "ab  c", "to the next tab stop");
        assert_eq!(as_typed("ab\tc", 1), "ab c");
    }

    #[test]
    fn enter_keeps_the_indentation() {
        let mut editor = Editor::new("{\n    \"a\": 1,\n}");
        editor.move_cursor(CursorMove::Jump(1, 11));
        editor.key(key(KeyCode::Enter));
        typed(&mut editor, "\"b\": 2");
        assert_eq!(editor.lines(), ["{", "    \"a\": 1,", "    \"b\": 2", "}"]);
        editor.move_cursor(CursorMove::Jump(2, 2));
        editor.key(key(KeyCode::Enter));
        assert_eq!(
            editor.lines()[2..4],
            ["  ", "    \"b\": 2"],
            "up to the cursor"
        );
    }

    #[test]
    fn typing_is_undone_by_words_and_redone() {
        let mut editor = Editor::new("");
        typed(&mut editor, "{\"name\": \"web 01\"}");
        editor.key(key(KeyCode::Backspace));
        let undone: Vec<String> =
            std::iter::from_fn(|| editor.undo().then(|| editor.text())).collect();
        assert_eq!(
            undone,
            [
                "{\"name\": \"web 01\"}",
                "{\"name\": \"web ",
                "{\"name\": ",
                ""
            ]
        );
        assert!(editor.redo());
        assert!(editor.redo());
        assert_eq!(editor.text(), "{\"name\": \"web ");
        assert_eq!(editor.cursor(), (0, 14));
        assert!(!editor.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)));
        assert_eq!(
            editor.text(),
            "{\"name\": \"web ",
            "Ctrl-U is not the area's undo"
        );
    }
}
