//! A props JSON field in a ratatui-textarea, checked as you type with the editor's own check
//! (`editor::check`): used by the selector form and the bulk edit.

use crossterm::event::KeyEvent;
use ratatui_textarea::{CursorMove, TextArea};

use super::editor::{Check, check};
use crate::model::Props;

/// A JSON object being typed, with its check.
#[derive(Debug, Clone, Default)]
pub struct PropsField {
    /// The text.
    pub area: TextArea<'static>,
    /// The check of the text.
    pub check: Check,
}

impl PropsField {
    /// A field holding `text`, the cursor at its end.
    pub fn new(text: &str) -> PropsField {
        let mut field = PropsField::default();
        field.set_text(text);
        field
    }

    /// An empty JSON object `{ }` over three lines, the cursor inside it, ready to type a
    /// property.
    pub fn empty_object() -> PropsField {
        let mut field = PropsField::new("{\n  \n}");
        field.area.move_cursor(CursorMove::Jump(1, 2));
        field
    }

    /// Replaces the text.
    pub fn set_text(&mut self, text: &str) {
        self.area = TextArea::new(text.lines().map(str::to_string).collect());
        self.area.move_cursor(CursorMove::Bottom);
        self.area.move_cursor(CursorMove::End);
        self.check = check(&self.text()).0;
    }

    /// The text as one string.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// Types a key; re-checks when the text changed.
    pub fn input(&mut self, key: KeyEvent) {
        if self.area.input(key) {
            self.check = check(&self.text()).0;
        }
    }

    /// The properties, or why they cannot be sent: a syntax error, a value the server would
    /// refuse, or nothing to set.
    pub fn props(&self) -> Result<Props, String> {
        let (check, props) = check(&self.text());
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
