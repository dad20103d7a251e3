//! A props JSON field in an [`Editor`], checked as you type (`json::check`): the selector
//! form's and the bulk edit's.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::CursorMove;

use crate::text::json::{Check, check_for};
use crate::widgets::editor::Editor;
use crate::widgets::typing::Typed;
use diagtui_model::Props;
use diagtui_model::merge::Nested;

/// The template a field starts from: an empty object over three lines.
const TEMPLATE: &str = "{\n  \n}";

/// A JSON object being typed, with its check.
#[derive(Debug, Clone)]
pub struct PropsField {
    /// The text.
    pub editor: Editor,
    /// The check of the text.
    pub check: Check,
    /// How the props treat a nested value (the switch `nested: merge | replace`): an object to
    /// merge is checked once merged into each object, not as typed.
    nested: Nested,
}

impl Default for PropsField {
    fn default() -> PropsField {
        PropsField::template()
    }
}

impl PropsField {
    /// An empty JSON object `{ }` over three lines, the cursor inside it, ready to type a
    /// property.
    pub fn template() -> PropsField {
        let mut field = PropsField {
            editor: Editor::default(),
            check: Check::default(),
            nested: Nested::default(),
        };
        field.set_text(TEMPLATE);
        field.editor.move_cursor(CursorMove::Jump(1, 2));
        field
    }

    /// Replaces the text, the cursor at its end.
    pub fn set_text(&mut self, text: &str) {
        self.editor = Editor::new(text);
        self.editor.move_cursor(CursorMove::Bottom);
        self.editor.move_cursor(CursorMove::End);
        self.recheck();
    }

    /// Back to the template, as an edit undo takes back (`Ctrl-U`); the switch `nested` stays.
    pub fn clear(&mut self) {
        self.editor.replace(TEMPLATE);
        self.editor.move_cursor(CursorMove::Jump(1, 2));
        self.recheck();
    }

    /// The text as one string.
    pub fn text(&self) -> String {
        self.editor.text()
    }

    /// Whether it still holds the untouched template.
    pub fn is_template(&self) -> bool {
        self.text() == TEMPLATE
    }

    fn recheck(&mut self) {
        self.check = check_for(&self.text(), self.nested).0;
    }

    /// How the props treat a nested value.
    pub fn nested(&self) -> Nested {
        self.nested
    }

    /// Switches `nested: merge | replace`; returns the new one.
    pub fn toggle_nested(&mut self) -> Nested {
        self.nested = self.nested.toggled();
        self.recheck();
        self.nested
    }

    /// Types a key; re-checks when the text changed. A `{` typed into the untouched template
    /// starts a whole object in its place.
    pub fn input(&mut self, key: KeyEvent) {
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if plain && key.code == KeyCode::Char('{') && self.is_template() {
            self.editor.replace("{");
            self.recheck();
        } else if self.editor.key(key) {
            self.recheck();
        }
    }

    /// Undoes the last group of edits of the text (`Ctrl-Z`: a word, a paste).
    pub fn undo(&mut self) {
        if self.editor.undo() {
            self.recheck();
        }
    }

    /// Puts back what the last undo took (`Ctrl-Y`).
    pub fn redo(&mut self) {
        if self.editor.redo() {
            self.recheck();
        }
    }

    /// Pastes `text` as one edit, its line breaks and tabs as typed: a whole object pasted into
    /// the untouched template replaces it, anything else goes in at the cursor.
    pub fn paste(&mut self, text: &str) {
        if self.is_template() && text.trim_start().starts_with('{') {
            self.editor.replace(text.trim());
            self.recheck();
        } else if self.editor.paste(text) {
            self.recheck();
        }
    }

    /// The properties, or why they cannot be sent: a syntax error, a value the server would
    /// refuse, or nothing to set.
    pub fn props(&self) -> Result<Props, String> {
        let (check, props) = check_for(&self.text(), self.nested);
        if let Some(e) = check.syntax {
            return Err(format!(
                "props: line {}, column {}: {}",
                e.line, e.column, e.message
            ));
        }
        if let Some(w) = check.warnings.first() {
            return Err(format!("props: line {}: {}", w.line, w.message));
        }
        match props {
            Some(props) if !props.is_empty() => Ok(props),
            _ => Err(
                "props: nothing to set; type a JSON object such as {\"color\": \"#FF0000\"}".into(),
            ),
        }
    }
}
