//! The properties pane: the selected object's `data` as JSON in a ratatui-textarea, with a view
//! mode (keys are commands) and an edit mode (every key types), checked as you type, and the
//! save: the diff, a re-read, the conflict choice, the update of the changed properties only,
//! and undo of the last save.

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui_textarea::{CursorMove, TextArea};

use crate::model::props::merge;
use crate::model::{DiagramObject, Props};
use crate::tui::action::{Action, Pane, PropsCall, PropsWork, Purpose};
use crate::tui::component::{Component, Cx};
use crate::tui::json::{Check, Diff, SyntaxError, check, highlight, pretty};
use crate::tui::keys::{Command, Context};
use crate::tui::layout;
use crate::tui::list::{ListCursor, Pointer};
use crate::tui::overlays::{Body, Choice, Overlay, Question};
use crate::tui::request::{Answer, Failure, Request, RequestId};
use crate::tui::theme::Role;
use crate::tui::widgets::{check_lines, pane_block, with_cursor};
use crate::tui::words;

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
enum Mode {
    #[default]
    View,
    Edit,
}

/// Where a save stands.
#[derive(Debug, Clone, PartialEq, Default)]
enum Save {
    /// No save under way.
    #[default]
    Idle,
    /// Re-reading the object (request `id`) before sending `diff`.
    Checking { id: RequestId, diff: Diff },
    /// It changed on the server meanwhile: the user chooses.
    Conflict { diff: Diff },
    /// Sending `diff` (request `id`).
    Sending { id: RequestId, diff: Diff },
}

/// A save that can be undone: the object and the values to put back.
#[derive(Debug, Clone, PartialEq)]
struct LastSave {
    doc: String,
    obj: String,
    previous: Props,
}

/// Lines at the top of a file handed back to `$EDITOR` that explain why it was reopened. They
/// start with this prefix and are dropped when the file comes back (JSON has no comments).
const NOTE_PREFIX: &str = "// diagtui: ";

/// The properties pane.
#[derive(Debug, Default)]
pub struct PropsPane {
    target: Option<Target>,
    original: Props,
    original_text: String,
    buffer: TextArea<'static>,
    mode: Mode,
    check: Check,
    view: ListCursor,
    save: Save,
    last_save: Option<LastSave>,
    /// The text last handed to `$EDITOR` (without the note), to tell whether the user changed
    /// it.
    handed_out: Option<String>,
    area: Rect,
}

impl PropsPane {
    /// The object shown.
    pub fn target(&self) -> Option<&Target> {
        self.target.as_ref()
    }

    /// Whether the buffer differs from what was read.
    pub fn is_dirty(&self) -> bool {
        self.target.is_some() && self.text() != self.original_text
    }

    /// The object whose edits are unsaved, if any.
    pub fn unsaved(&self) -> Option<&str> {
        self.is_dirty()
            .then(|| self.target.as_ref().map(|t| t.obj.as_str()))
            .flatten()
    }

    /// Shows `object` in view mode.
    pub fn show(&mut self, doc: &str, obj: &str, object: &DiagramObject) {
        self.target = Some(Target {
            doc: doc.to_string(),
            obj: obj.to_string(),
            kind: object.kind.clone(),
        });
        self.original = object.data.clone();
        self.original_text = pretty(&object.data);
        self.set_text(&self.original_text.clone());
        self.mode = Mode::View;
        self.view.select(0);
        self.save = Save::Idle;
    }

    /// Shows nothing (the last save stays undoable).
    pub fn close(&mut self) {
        *self = PropsPane {
            last_save: self.last_save.take(),
            area: self.area,
            ..PropsPane::default()
        };
        self.fit();
    }

    /// Closes it if it shows one of `objs` of `doc` (they are being deleted).
    pub fn drop_removed(&mut self, doc: &str, objs: &[String]) {
        if self
            .target
            .as_ref()
            .is_some_and(|t| t.doc == doc && objs.contains(&t.obj))
        {
            self.close();
        }
    }

    fn set_text(&mut self, text: &str) {
        self.buffer = TextArea::new(text.lines().map(str::to_string).collect());
        self.recheck();
    }

    fn text(&self) -> String {
        self.buffer.lines().join("\n")
    }

    fn recheck(&mut self) {
        self.check = check(&self.text()).0;
        self.fit();
    }

    /// Lines the check messages take below the text.
    fn footer_lines(&self) -> usize {
        usize::from(self.check.syntax.is_some()) + self.check.warnings.len().min(3)
    }

    /// The view follows the pane's height, the buffer's length and the cursor.
    fn fit(&mut self) {
        self.view
            .set_rows(layout::inner_rows(self.area, self.footer_lines() as u16));
        self.view.set_len(self.buffer.lines().len());
        self.view.select(self.buffer.cursor().0);
    }

    /// Moves the cursor to the line `step` lines away.
    fn move_lines(&mut self, step: isize) {
        self.view.select(self.buffer.cursor().0);
        let row = self.view.target(step);
        self.buffer.move_cursor(CursorMove::Jump(row as u16, 0));
        self.view.select(row);
    }

    /// Whether the pane holds the object `obj` of `doc`.
    fn holds(&self, doc: &str, obj: &str) -> bool {
        self.target
            .as_ref()
            .is_some_and(|t| t.doc == doc && t.obj == obj)
    }

    /// Whether `request` names the object in the pane.
    fn holds_request(&self, request: &Request) -> bool {
        match request {
            Request::GetObject { doc, obj } | Request::UpdateObject { doc, obj, .. } => {
                self.holds(doc, obj)
            }
            _ => false,
        }
    }

    /// `e`: the buffer for `$EDITOR`.
    pub fn external_edit(&mut self) -> Vec<Action> {
        if self.target.is_none() {
            return vec![Action::error("select an object first")];
        }
        let text = self.text();
        self.handed_out = Some(text.clone());
        vec![Action::ExternalEditor(text)]
    }

    /// `$EDITOR` exited: its text goes into the buffer. An invalid result the user changed
    /// reopens the editor with the error noted on top; one saved unchanged (or a second time the
    /// same) stays in the pane with the error shown; an empty file changes nothing.
    pub fn on_editor_done(&mut self, result: Result<String, String>, cx: &Cx) -> Vec<Action> {
        let handed_out = self.handed_out.take();
        let text = match result {
            Ok(text) => without_note(&text).trim_end().to_string(),
            Err(message) => {
                return vec![Action::error(format!(
                    "could not run the editor: {message}"
                ))];
            }
        };
        if self.target.is_none() {
            return Vec::new();
        }
        let mut actions = vec![Action::Focus(Pane::Props)];
        if text.trim().is_empty() {
            actions.push(Action::info(
                "the editor left the file empty: nothing changed",
            ));
            return actions;
        }
        self.set_text(&text);
        let Some(e) = self.check.syntax.clone() else {
            actions.push(Action::info(if self.is_dirty() {
                format!(
                    "edited in $EDITOR; {} saves",
                    cx.key(Context::Global, Command::Save)
                )
            } else {
                "no changes from $EDITOR".to_string()
            }));
            return actions;
        };
        if handed_out.as_deref() != Some(text.as_str()) {
            self.handed_out = Some(text.clone());
            actions.push(Action::error(format!(
                "the editor's result is not valid JSON (line {}, column {}): reopened",
                e.line, e.column
            )));
            actions.push(Action::ExternalEditor(with_note(&text, &e)));
            return actions;
        }
        actions.push(Action::error(format!(
            "the editor's result is not valid JSON (line {}, column {}): fix it here or press {} to reopen",
            e.line,
            e.column,
            cx.key(Context::Properties, Command::ExternalEdit)
        )));
        actions
    }

    /// `Ctrl-S`: checks the buffer and asks, showing what would change.
    pub fn begin_save(&mut self) -> Vec<Action> {
        if self.target.is_none() {
            return Vec::new();
        }
        if self.save != Save::Idle {
            return vec![Action::error("a save is already under way")];
        }
        let (check, props) = check(&self.text());
        let Some(props) = props else {
            let e = check.syntax.expect("no props means a syntax error");
            return vec![Action::error(format!(
                "cannot save: line {}, column {}: {}",
                e.line, e.column, e.message
            ))];
        };
        let diff = Diff::between(&self.original, &props);
        if diff.changes.is_empty() {
            return vec![Action::info("nothing to save")];
        }
        let cancelled = || vec![Action::info("save cancelled; the edit is kept")];
        vec![Action::Open(Overlay::Question(Question::new(
            "Save",
            Body::Diff(diff.clone()),
            vec![
                Choice::new(
                    Command::Yes,
                    "save (re-reads the object first)",
                    vec![Action::Props(PropsCall::ConfirmSave(diff))],
                ),
                Choice::new(Command::No, "keep editing", cancelled()),
            ],
        )))]
    }

    /// A call App forwards (a question's answer).
    pub fn call(&mut self, call: PropsCall, cx: &Cx) -> Vec<Action> {
        match call {
            PropsCall::ConfirmSave(diff) => {
                let Some(target) = self.target.clone() else {
                    return Vec::new();
                };
                let sent = cx.send(
                    Request::GetObject {
                        doc: target.doc,
                        obj: target.obj,
                    },
                    Purpose::Props(PropsWork::Check),
                );
                self.save = Save::Checking { id: sent.id, diff };
                vec![Action::Send(sent)]
            }
            PropsCall::Overwrite => match std::mem::take(&mut self.save) {
                Save::Conflict { diff } => self.send_save(diff, cx),
                other => {
                    self.save = other;
                    Vec::new()
                }
            },
            PropsCall::Reload(object) => {
                self.save = Save::Idle;
                let Some(target) = self.target.clone() else {
                    return Vec::new();
                };
                self.show(&target.doc, &target.obj, &object);
                vec![
                    Action::ObjectData {
                        doc: target.doc,
                        obj: target.obj,
                        data: object.data,
                    },
                    Action::info("reloaded the object from the server; your edit was dropped"),
                ]
            }
            PropsCall::CancelSave => {
                self.save = Save::Idle;
                Vec::new()
            }
        }
    }

    /// Sends the changed properties of `diff`.
    fn send_save(&mut self, diff: Diff, cx: &Cx) -> Vec<Action> {
        let Some(target) = self.target.clone() else {
            return Vec::new();
        };
        let sent = cx.send(
            Request::UpdateObject {
                doc: target.doc,
                obj: target.obj,
                props: diff.props(),
            },
            Purpose::Props(PropsWork::Save),
        );
        self.save = Save::Sending { id: sent.id, diff };
        vec![Action::Send(sent)]
    }

    /// `u`: puts back the values the last save replaced.
    fn undo(&mut self, cx: &Cx) -> Vec<Action> {
        let Some(last) = self.last_save.clone() else {
            return vec![Action::info("nothing to undo")];
        };
        if self.is_dirty() {
            return vec![Action::error(
                "save or drop your edits before undoing the last save",
            )];
        }
        if last.previous.is_empty() {
            self.last_save = None;
            return vec![Action::info(
                "the last save only added properties; an update cannot remove them",
            )];
        }
        vec![Action::Send(cx.send(
            Request::UpdateObject {
                doc: last.doc,
                obj: last.obj,
                props: last.previous,
            },
            Purpose::Props(PropsWork::Undo),
        ))]
    }

    /// The answer to one of its requests.
    pub fn on_reply(
        &mut self,
        work: PropsWork,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        let reread = |doc: String, obj: String| {
            Action::Send(cx.send(
                Request::GetObject { doc, obj },
                Purpose::Props(PropsWork::Reread),
            ))
        };
        match (work, outcome) {
            (PropsWork::Check, Ok(Answer::Object(object))) => {
                let diff = match &self.save {
                    Save::Checking { id: awaited, diff }
                        if *awaited == id && self.holds_request(&request) =>
                    {
                        diff.clone()
                    }
                    _ => return Vec::new(),
                };
                if object.data == self.original {
                    return self.send_save(diff, cx);
                }
                self.save = Save::Conflict { diff };
                vec![Action::Open(Overlay::Question(
                    Question::new(
                        "Changed on the server",
                        Body::Text("This object changed on the server since you opened it.".into()),
                        vec![
                            Choice::new(
                                Command::Overwrite,
                                "overwrite with your edit",
                                vec![Action::Props(PropsCall::Overwrite)],
                            ),
                            Choice::new(
                                Command::Reload,
                                "reload it and lose your edit",
                                vec![Action::Props(PropsCall::Reload(object))],
                            ),
                            Choice::new(
                                Command::Cancel,
                                "cancel the save, keep editing",
                                vec![
                                    Action::Props(PropsCall::CancelSave),
                                    Action::info("save cancelled; the edit is kept"),
                                ],
                            ),
                        ],
                    )
                    .in_context(Context::Conflict),
                ))]
            }
            (PropsWork::Check | PropsWork::Save, Err(failure)) => {
                self.save = Save::Idle;
                vec![Action::error(format!(
                    "save failed, your edit is kept: {}",
                    failure.message
                ))]
            }
            (PropsWork::Save, Ok(_)) => {
                let Request::UpdateObject { doc, obj, props } = request else {
                    return Vec::new();
                };
                let diff = match std::mem::take(&mut self.save) {
                    Save::Sending { diff, .. } => diff,
                    _ => Diff::default(),
                };
                self.last_save = Some(LastSave {
                    doc: doc.clone(),
                    obj: obj.clone(),
                    previous: diff.undo_props(),
                });
                let mut actions = Vec::new();
                if self.holds(&doc, &obj) {
                    let mut data = self.original.clone();
                    merge(&mut data, &props);
                    self.original_text = pretty(&data);
                    self.original = data.clone();
                    // The buffer now matches what was saved unless it was typed into meanwhile.
                    if check(&self.text()).1.as_ref() == Some(&self.original) {
                        let cursor = self.buffer.cursor();
                        self.set_text(&self.original_text.clone());
                        self.buffer
                            .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
                    }
                    actions.push(Action::ObjectData {
                        doc: doc.clone(),
                        obj: obj.clone(),
                        data,
                    });
                }
                actions.push(Action::info(format!(
                    "saved {} ({} undoes)",
                    words::count(props.len(), "property", "properties"),
                    cx.key(Context::Properties, Command::Undo)
                )));
                actions.push(reread(doc, obj));
                actions
            }
            (PropsWork::Reread, Ok(Answer::Object(object))) => {
                let Request::GetObject { doc, obj } = request else {
                    return Vec::new();
                };
                if self.holds(&doc, &obj) && !self.is_dirty() {
                    let cursor = self.buffer.cursor();
                    let mode = self.mode;
                    let save = std::mem::take(&mut self.save);
                    self.show(&doc, &obj, &object);
                    self.buffer
                        .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
                    self.mode = mode;
                    self.save = save;
                    self.fit();
                }
                vec![Action::ObjectData {
                    doc,
                    obj,
                    data: object.data,
                }]
            }
            (PropsWork::Reread, Err(failure)) => vec![Action::error(format!(
                "could not re-read the object: {}",
                failure.message
            ))],
            (PropsWork::Undo, Ok(_)) => {
                let Request::UpdateObject { doc, obj, .. } = request else {
                    return Vec::new();
                };
                self.last_save = None;
                vec![
                    Action::info(format!("undid the last save of {obj}")),
                    reread(doc, obj),
                ]
            }
            (PropsWork::Undo, Err(failure)) => {
                vec![Action::error(format!("undo failed: {}", failure.message))]
            }
            (work, Ok(answer)) => vec![Action::unexpected(&work, &answer)],
        }
    }
}

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

impl Component for PropsPane {
    fn context(&self) -> Context {
        if self.mode == Mode::Edit && self.target.is_some() {
            Context::Edit
        } else {
            Context::Properties
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if self.target.is_none() {
            return match command {
                Command::Back => vec![Action::Focus(Pane::Objects)],
                _ => Vec::new(),
            };
        }
        if let Some(step) = self.view.step_of(command) {
            self.move_lines(step);
            return Vec::new();
        }
        match command {
            Command::Edit => {
                self.mode = Mode::Edit;
                Vec::new()
            }
            Command::ViewMode => {
                self.mode = Mode::View;
                Vec::new()
            }
            Command::Back => vec![Action::Focus(Pane::Objects)],
            Command::ExternalEdit => vec![Action::ExternalEdit],
            Command::Undo => self.undo(cx),
            Command::Save => self.begin_save(),
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        if self.mode == Mode::Edit && self.buffer.input(key) {
            self.recheck();
        }
        self.fit();
        Vec::new()
    }

    fn paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        if self.mode == Mode::Edit && self.target.is_some() {
            if self.buffer.insert_str(text) {
                self.recheck();
            }
            return Vec::new();
        }
        cx.paste_elsewhere(Context::Properties, Command::Edit, "editing")
    }

    fn mouse(&mut self, mouse: MouseEvent, _cx: &Cx) -> Vec<Action> {
        if let Some(Pointer::Wheel(step)) = self.view.pointer(&mouse, self.area, 0) {
            self.view.scroll(step);
        }
        Vec::new()
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let title = match &self.target {
            Some(t) => {
                let mode = if self.mode == Mode::Edit {
                    "EDIT"
                } else {
                    "VIEW"
                };
                let dirty = if self.is_dirty() { " ●" } else { "" };
                let saving = if self.save == Save::Idle {
                    ""
                } else {
                    " saving…"
                };
                format!(
                    " 3 Properties [{mode}]{dirty} {} {}{saving} ",
                    t.kind, t.obj
                )
            }
            None => " 3 Properties ".to_string(),
        };
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if self.target.is_none() {
            let hint = Line::styled(
                "select an object to see its properties",
                cx.style(Role::Dim),
            );
            frame.render_widget(Paragraph::new(hint).wrap(Wrap { trim: true }), inner);
            return;
        }
        let [text_area, footer_area] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(self.footer_lines() as u16),
        ])
        .areas(inner);
        let syntax_line = self.check.syntax.as_ref().map(|e| e.line);
        let warned = |n: usize| self.check.warnings.iter().any(|w| w.line == n);
        let (cursor_row, cursor_col) = (self.buffer.cursor().0, self.buffer.cursor().1);
        let editing = self.mode == Mode::Edit && focused;
        let lines: Vec<Line> = self
            .view
            .visible()
            .map(|i| {
                let text = &self.buffer.lines()[i];
                let n = i + 1;
                let (mark, mark_style) = if syntax_line == Some(n) {
                    ("✗", cx.style(Role::Error).add_modifier(Modifier::BOLD))
                } else if warned(n) {
                    ("!", cx.style(Role::Warning).add_modifier(Modifier::BOLD))
                } else {
                    (" ", Style::new())
                };
                let mut spans = vec![
                    Span::styled(format!("{n:>3}"), cx.style(Role::Dim)),
                    Span::styled(mark, mark_style),
                ];
                if editing && i == cursor_row {
                    spans.extend(with_cursor(text, cursor_col, cx.theme));
                } else {
                    spans.extend(highlight(text, cx.theme));
                }
                Line::from(spans)
            })
            .collect();
        frame.render_widget(Paragraph::new(lines), text_area);
        let footer = check_lines(&self.check, usize::from(footer_area.width), cx.theme);
        frame.render_widget(Paragraph::new(footer), footer_area);
    }
}
