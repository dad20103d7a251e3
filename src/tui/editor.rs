//! The properties pane: the selected object's `data` as JSON in a ratatui-textarea, with a view
//! mode (keys are commands) and an edit mode (every key types), checked as you type, and the
//! save flow: diff, re-read, conflict choice, update of the changed properties only, undo.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui_textarea::{CursorMove, TextArea};
use serde_json::Value;

use super::app::{App, Effect, Pane, Purpose, movement, scroll_into_view, step_index};
use super::layout;
use super::overlay::Overlay;
use super::request::Request;
use super::words;
use crate::model::props::{check_property, merge};
use crate::model::{DiagramObject, Props};

/// The object being edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Its document.
    pub doc: String,
    /// Its id.
    pub obj: String,
    /// Its type's wire name.
    pub kind: String,
}

/// View mode (keys are commands) or edit mode (every key types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Keys are commands.
    #[default]
    View,
    /// Every key types.
    Edit,
}

/// A JSON syntax error at a place in the buffer (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A value the server would refuse, on its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line of the property.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What the check as you type found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// The syntax error, if the buffer does not parse as a JSON object.
    pub syntax: Option<SyntaxError>,
    /// Values the server would refuse.
    pub warnings: Vec<Warning>,
}

/// One changed top-level property.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The property.
    pub key: String,
    /// Its value before, if it had one.
    pub before: Option<Value>,
    /// Its new value.
    pub after: Value,
}

impl Change {
    /// Whether a nested value (object or array) is replaced whole by this change.
    pub fn replaces_nested(&self) -> bool {
        self.before.is_some() && (self.after.is_object() || self.after.is_array())
    }
}

/// What a save would send.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diff {
    /// The changed or added properties.
    pub changes: Vec<Change>,
    /// Properties removed in the buffer (an update cannot remove them).
    pub removed: Vec<String>,
}

impl Diff {
    /// Compares the top-level properties of `before` and `after`.
    pub fn between(before: &Props, after: &Props) -> Diff {
        let changes = after
            .iter()
            .filter(|(k, v)| before.get(*k) != Some(v))
            .map(|(k, v)| Change {
                key: k.clone(),
                before: before.get(k).cloned(),
                after: v.clone(),
            })
            .collect();
        let removed = before
            .keys()
            .filter(|k| !after.contains_key(*k))
            .cloned()
            .collect();
        Diff { changes, removed }
    }

    /// The properties to send: the changed ones only.
    pub fn props(&self) -> Props {
        self.changes
            .iter()
            .map(|c| (c.key.clone(), c.after.clone()))
            .collect()
    }

    /// What to send to undo this diff once saved: the previous values of changed properties.
    pub fn undo_props(&self) -> Props {
        self.changes
            .iter()
            .filter_map(|c| c.before.clone().map(|b| (c.key.clone(), b)))
            .collect()
    }
}

/// A save that can be undone: the object and the values to put back.
#[derive(Debug, Clone, PartialEq)]
pub struct LastSave {
    /// The document of the object saved.
    pub doc: String,
    /// The object saved.
    pub obj: String,
    /// Its previous values of the changed properties.
    pub previous: Props,
}

/// The properties pane's state.
#[derive(Debug, Default)]
pub struct Editor {
    target: Option<Target>,
    /// The data as last read from the server.
    pub original: Props,
    original_text: String,
    /// The edit buffer.
    pub area: TextArea<'static>,
    /// View or edit mode.
    pub mode: Mode,
    /// The check of the buffer.
    pub check: Check,
    /// The first line shown.
    pub scroll: usize,
    /// Whether a save is under way.
    pub saving: bool,
    /// The diff being saved, between the confirmation and the server's answer.
    pending: Option<Diff>,
    /// The last save, for `u`.
    pub last_save: Option<LastSave>,
    /// The text last handed to `$EDITOR` (without the error note), to tell whether the user
    /// changed it.
    handed_out: Option<String>,
}

/// Lines at the top of a file handed back to `$EDITOR` that explain why it was reopened. They
/// start with this prefix and are dropped when the file comes back (JSON has no comments).
const NOTE_PREFIX: &str = "// diagtui: ";

/// The text with the note lines `$EDITOR` was given at its top taken off.
fn without_note(text: &str) -> String {
    text.lines()
        .skip_while(|line| line.starts_with(NOTE_PREFIX))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text with a note on top saying what is wrong with it and how to give up.
fn with_note(text: &str, error: &SyntaxError) -> String {
    format!(
        "{NOTE_PREFIX}not valid JSON: line {}, column {}: {}\n\
         {NOTE_PREFIX}fix it and save; save it unchanged to fix it in diagtui instead, or empty the file to give up.\n{text}",
        error.line, error.column, error.message
    )
}

/// Pretty JSON of a property map.
pub fn pretty(data: &Props) -> String {
    serde_json::to_string_pretty(data).unwrap_or_else(|_| "{}".into())
}

/// Checks a buffer: syntax first, then every top-level property against the model's rules.
pub fn check(text: &str) -> (Check, Option<Props>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            let syntax = SyntaxError {
                line: e.line().max(1),
                column: e.column().max(1),
                message: without_position(&e.to_string()),
            };
            return (
                Check {
                    syntax: Some(syntax),
                    warnings: Vec::new(),
                },
                None,
            );
        }
    };
    let Value::Object(map) = value else {
        let syntax = SyntaxError {
            line: 1,
            column: 1,
            message: "the properties must be a JSON object { … }".into(),
        };
        return (
            Check {
                syntax: Some(syntax),
                warnings: Vec::new(),
            },
            None,
        );
    };
    let warnings = map
        .iter()
        .filter_map(|(key, value)| {
            check_property(key, value).map(|problem| Warning {
                line: line_of_key(text, key),
                message: problem.to_string(),
            })
        })
        .collect();
    (
        Check {
            syntax: None,
            warnings,
        },
        Some(map),
    )
}

/// serde_json's message without its trailing " at line L column C" (shown separately).
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// The 1-based line where top-level `key` is written (the least indented mention).
fn line_of_key(text: &str, key: &str) -> usize {
    let quoted = serde_json::to_string(key).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let trimmed = line.trim_start();
            let rest = trimmed.strip_prefix(quoted.as_str())?;
            rest.trim_start()
                .starts_with(':')
                .then_some((line.len() - trimmed.len(), i + 1))
        })
        .min()
        .map_or(1, |(_, line)| line)
}

impl Editor {
    /// The object being edited.
    pub fn target(&self) -> Option<&Target> {
        self.target.as_ref()
    }

    /// Shows `object` (in view mode).
    pub fn load(&mut self, doc: String, obj: String, object: DiagramObject) {
        self.target = Some(Target {
            doc,
            obj,
            kind: object.kind,
        });
        self.original_text = pretty(&object.data);
        self.original = object.data;
        self.set_text(&self.original_text.clone());
        self.mode = Mode::View;
        self.scroll = 0;
        self.saving = false;
        self.pending = None;
    }

    /// Shows nothing.
    pub fn close(&mut self) {
        let last_save = self.last_save.take();
        *self = Editor {
            last_save,
            ..Editor::default()
        };
    }

    /// Replaces the buffer (keeps the target and original) and checks it.
    pub fn set_text(&mut self, text: &str) {
        self.area = TextArea::new(text.lines().map(str::to_string).collect());
        self.recheck();
    }

    /// The buffer as one string.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// Whether the buffer differs from what was read.
    pub fn is_dirty(&self) -> bool {
        self.target.is_some() && self.text() != self.original_text
    }

    /// Whether keys type into the buffer.
    pub fn is_editing(&self) -> bool {
        self.mode == Mode::Edit && self.target.is_some()
    }

    fn recheck(&mut self) {
        self.check = check(&self.text()).0;
    }

    /// Lines the check messages take below the text.
    pub fn footer_lines(&self) -> usize {
        usize::from(self.check.syntax.is_some()) + self.check.warnings.len().min(3)
    }

    /// Scrolls the view by `step` lines.
    pub fn scroll_by(&mut self, step: isize) {
        self.scroll = step_index(self.scroll, self.area.lines().len(), step);
    }

    /// Scrolls so the cursor shows in `rows` rows.
    pub fn keep_cursor_visible(&mut self, rows: usize) {
        self.scroll = scroll_into_view(self.scroll, self.area.cursor().0, rows, 0);
    }
}

impl App {
    /// Rows of text the properties pane shows.
    fn editor_rows(&self) -> usize {
        layout::inner_rows(
            layout::screen(self.size).props,
            self.editor.footer_lines() as u16,
        )
    }

    /// A key in edit mode: `Esc` returns to view mode, everything else types.
    pub(super) fn editor_edit_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.code == KeyCode::Esc {
            self.editor.mode = Mode::View;
            return Vec::new();
        }
        if self.editor.area.input(key) {
            self.editor.recheck();
        }
        self.editor.keep_cursor_visible(self.editor_rows());
        Vec::new()
    }

    /// A key in view mode: commands.
    pub(super) fn editor_view_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if self.editor.target().is_none() {
            if key.code == KeyCode::Esc {
                self.focus = Pane::Objects;
            }
            return Vec::new();
        }
        if let Some(step) = movement(key, self.editor_rows()) {
            let lines = self.editor.area.lines().len();
            let row = step_index(self.editor.area.cursor().0, lines, step);
            self.editor
                .area
                .move_cursor(CursorMove::Jump(row as u16, 0));
            self.editor.keep_cursor_visible(self.editor_rows());
            return Vec::new();
        }
        match key.code {
            KeyCode::Char('i') | KeyCode::Enter => self.editor.mode = Mode::Edit,
            KeyCode::Esc => self.focus = Pane::Objects,
            KeyCode::Char('e') => return self.open_external_editor(),
            KeyCode::Char('u') => return self.undo_last_save(),
            _ => {}
        }
        Vec::new()
    }

    /// `e`: hands the selected object's JSON (or the edit buffer) to `$EDITOR`.
    pub(super) fn open_external_editor(&mut self) -> Vec<Effect> {
        if self.editor.target().is_none() {
            self.show_selected_object();
        }
        if self.editor.target().is_none() {
            self.fail("select an object first");
            return Vec::new();
        }
        let text = self.editor.text();
        self.editor.handed_out = Some(text.clone());
        vec![Effect::OpenEditor(text)]
    }

    /// `$EDITOR` exited: its text goes into the buffer. An invalid result that the user changed
    /// reopens the editor with the error noted on top; one saved unchanged (or a second time the
    /// same) stays in the pane with the error shown; an empty file changes nothing.
    pub(super) fn on_editor_done(&mut self, result: Result<String, String>) -> Vec<Effect> {
        let handed_out = self.editor.handed_out.take();
        let text = match result {
            Ok(text) => without_note(&text).trim_end().to_string(),
            Err(message) => {
                self.fail(format!("could not run the editor: {message}"));
                return Vec::new();
            }
        };
        if self.editor.target().is_none() {
            return Vec::new();
        }
        self.focus = Pane::Props;
        if text.trim().is_empty() {
            self.notify("the editor left the file empty: nothing changed");
            return Vec::new();
        }
        self.editor.set_text(&text);
        let Some(e) = self.editor.check.syntax.clone() else {
            self.notify(if self.editor.is_dirty() {
                "edited in $EDITOR; Ctrl-S saves"
            } else {
                "no changes from $EDITOR"
            });
            return Vec::new();
        };
        if handed_out.as_deref() != Some(text.as_str()) {
            self.editor.handed_out = Some(text.clone());
            self.fail(format!(
                "the editor's result is not valid JSON (line {}, column {}): reopened",
                e.line, e.column
            ));
            return vec![Effect::OpenEditor(with_note(&text, &e))];
        }
        self.fail(format!(
            "the editor's result is not valid JSON (line {}, column {}): fix it here or press e to reopen",
            e.line, e.column
        ));
        Vec::new()
    }

    /// `Ctrl-S`: checks the buffer and shows what would change.
    pub(super) fn begin_save(&mut self) -> Vec<Effect> {
        if self.editor.target().is_none() {
            return Vec::new();
        }
        if self.editor.saving {
            self.fail("a save is already under way");
            return Vec::new();
        }
        let (check, props) = check(&self.editor.text());
        let Some(props) = props else {
            let e = check.syntax.expect("no props means a syntax error");
            self.fail(format!(
                "cannot save: line {}, column {}: {}",
                e.line, e.column, e.message
            ));
            return Vec::new();
        };
        let diff = Diff::between(&self.editor.original, &props);
        if diff.changes.is_empty() {
            self.notify("nothing to save");
            return Vec::new();
        }
        self.overlay = Some(Overlay::SaveDiff(diff));
        Vec::new()
    }

    /// The diff was confirmed: re-read the object first.
    pub(super) fn confirm_save(&mut self, diff: Diff) -> Vec<Effect> {
        let Some(target) = self.editor.target().cloned() else {
            return Vec::new();
        };
        self.editor.saving = true;
        self.editor.pending = Some(diff);
        vec![self.request(
            Request::GetObject {
                doc: target.doc,
                obj: target.obj,
            },
            Purpose::PreSave,
        )]
    }

    /// The object as the server has it now: save, or ask when it changed meanwhile.
    pub(super) fn presave_read(&mut self, request: Request, object: DiagramObject) -> Vec<Effect> {
        if !self.is_editing_request(&request) || self.editor.pending.is_none() {
            return Vec::new();
        }
        if object.data != self.editor.original {
            self.overlay = Some(Overlay::Conflict(object));
            return Vec::new();
        }
        self.send_save()
    }

    /// Whether `request` names the object in the editor.
    fn is_editing_request(&self, request: &Request) -> bool {
        match request {
            Request::GetObject { doc, obj } | Request::UpdateObject { doc, obj, .. } => {
                self.is_editing(doc, obj)
            }
            _ => false,
        }
    }

    /// Whether the editor holds the object `obj` of `doc`.
    fn is_editing(&self, doc: &str, obj: &str) -> bool {
        self.editor
            .target()
            .is_some_and(|t| t.doc == doc && t.obj == obj)
    }

    /// Sends the changed properties of the pending diff.
    pub(super) fn send_save(&mut self) -> Vec<Effect> {
        let (Some(target), Some(diff)) =
            (self.editor.target().cloned(), self.editor.pending.as_ref())
        else {
            return Vec::new();
        };
        let props = diff.props();
        vec![self.request(
            Request::UpdateObject {
                doc: target.doc,
                obj: target.obj,
                props,
            },
            Purpose::Save,
        )]
    }

    /// The conflict was settled by reloading: the edit is dropped.
    pub(super) fn reload_after_conflict(&mut self, object: DiagramObject) {
        self.cancel_save();
        if let Some(target) = self.editor.target().cloned() {
            self.objects.replace_data(&target.obj, object.data.clone());
            self.editor.load(target.doc, target.obj, object);
            self.notify("reloaded the object from the server; your edit was dropped");
        }
    }

    /// The save was cancelled or failed: no save is under way any more.
    pub(super) fn cancel_save(&mut self) {
        self.editor.pending = None;
        self.editor.saving = false;
    }

    /// The update succeeded: remember how to undo it, then re-read the object.
    pub(super) fn saved(&mut self, request: Request) -> Vec<Effect> {
        let Request::UpdateObject { doc, obj, props } = request else {
            return Vec::new();
        };
        let diff = self.editor.pending.take().unwrap_or_default();
        self.editor.saving = false;
        self.editor.last_save = Some(LastSave {
            doc: doc.clone(),
            obj: obj.clone(),
            previous: diff.undo_props(),
        });
        if self.is_editing(&doc, &obj) {
            let mut data = self.editor.original.clone();
            merge(&mut data, &props);
            self.editor.original_text = pretty(&data);
            self.editor.original = data.clone();
            self.objects.replace_data(&obj, data);
            // The buffer now matches what was saved unless it was typed into meanwhile.
            if check(&self.editor.text()).1.as_ref() == Some(&self.editor.original) {
                let cursor = self.editor.area.cursor();
                self.editor.set_text(&self.editor.original_text.clone());
                self.editor
                    .area
                    .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
            }
        }
        self.notify(format!(
            "saved {} (u undoes)",
            words::count(props.len(), "property", "properties")
        ));
        vec![self.request(Request::GetObject { doc, obj }, Purpose::Reread)]
    }

    /// `u`: puts back the values the last save replaced.
    fn undo_last_save(&mut self) -> Vec<Effect> {
        let Some(last) = self.editor.last_save.clone() else {
            self.notify("nothing to undo");
            return Vec::new();
        };
        if self.editor.is_dirty() {
            self.fail("save or drop your edits before undoing the last save");
            return Vec::new();
        }
        if last.previous.is_empty() {
            self.editor.last_save = None;
            self.notify("the last save only added properties; an update cannot remove them");
            return Vec::new();
        }
        vec![self.request(
            Request::UpdateObject {
                doc: last.doc,
                obj: last.obj,
                props: last.previous,
            },
            Purpose::Undo,
        )]
    }

    /// The undo went through: re-read the object.
    pub(super) fn undone(&mut self, request: Request) -> Vec<Effect> {
        let Request::UpdateObject { doc, obj, .. } = request else {
            return Vec::new();
        };
        self.editor.last_save = None;
        self.notify(format!("undid the last save of {obj}"));
        vec![self.request(Request::GetObject { doc, obj }, Purpose::Reread)]
    }

    /// A re-read object: the tree takes it, and the editor too unless it holds edits.
    pub(super) fn object_reread(&mut self, request: Request, object: DiagramObject) {
        let Request::GetObject { doc, obj } = &request else {
            return;
        };
        if self.objects.is_open(doc) {
            self.objects.replace_data(obj, object.data.clone());
        }
        if self.is_editing_request(&request) && !self.editor.is_dirty() {
            let cursor = self.editor.area.cursor();
            let scroll = self.editor.scroll;
            let mode = self.editor.mode;
            self.editor.load(doc.clone(), obj.clone(), object);
            self.editor
                .area
                .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
            self.editor.scroll = scroll;
            self.editor.mode = mode;
        }
    }
}
