//! A props JSON field in a ratatui-textarea, checked as you type (`json::check`): the selector
//! form's and the bulk edit's. And how any text area takes keys: `Ctrl-U` is the key table's
//! (it clears a field), never the text area's own undo; text undo is the table's `Ctrl-Z`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea};

use super::json::{Check, check_for};
use crate::model::Props;
use crate::model::merge::Nested;

/// The template a field starts from: an empty object over three lines.
const TEMPLATE: &str = "{\n  \n}";

/// Types `key` into a text area, except the keys the text area would take as commands of its
/// own that the app gives other meanings (`Ctrl-U`, its undo); whether the text changed.
pub fn type_into(area: &mut TextArea, key: KeyEvent) -> bool {
    let ctrl_u = key.code == KeyCode::Char('u') && key.modifiers.contains(KeyModifiers::CONTROL);
    !ctrl_u && area.input(key)
}

/// A JSON object being typed, with its check.
#[derive(Debug, Clone)]
pub struct PropsField {
    /// The text.
    pub area: TextArea<'static>,
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
            area: TextArea::default(),
            check: Check::default(),
            nested: Nested::default(),
        };
        field.set_text(TEMPLATE);
        field.area.move_cursor(CursorMove::Jump(1, 2));
        field
    }

    /// Back to the template, keeping the switch `nested`.
    pub fn clear(&mut self) {
        let nested = self.nested;
        *self = PropsField::template();
        self.nested = nested;
        self.recheck();
    }

    /// Replaces the text, the cursor at its end.
    pub fn set_text(&mut self, text: &str) {
        self.area = TextArea::new(text.lines().map(str::to_string).collect());
        self.area.move_cursor(CursorMove::Bottom);
        self.area.move_cursor(CursorMove::End);
        self.recheck();
    }

    /// The text as one string.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
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
            self.set_text("{");
        } else if type_into(&mut self.area, key) {
            self.recheck();
        }
    }

    /// Undoes the last edit of the text (`Ctrl-Z`).
    pub fn undo(&mut self) {
        if self.area.undo() {
            self.recheck();
        }
    }

    /// Pastes `text` as one edit: a whole object pasted into the untouched template replaces
    /// it, anything else goes in at the cursor.
    pub fn paste(&mut self, text: &str) {
        if self.is_template() && text.trim_start().starts_with('{') {
            self.set_text(text.trim());
        } else if self.area.insert_str(text) {
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
