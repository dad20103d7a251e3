//! The properties pane: the selected object's `data` as JSON in a ratatui-textarea, with a view
//! mode (keys are commands) and an edit mode (every key types), checked as you type (the
//! messages of the cursor's line in full). The cursor's line scrolls sideways to keep the
//! cursor (in view mode, the line's end) in view, the others show from their start, each with
//! a marker where it goes on; `W` wraps them instead. A selected type heading shows a summary of its objects. And the
//! save: the diff, then the update of the changed properties only (kept in the write history,
//! which `u` undoes). Where the server gives versions (ours), the update names the version the
//! edit started from (`If-Match`): one request, and the server refuses (412) if the object
//! changed meanwhile, its answer holding the object now, which feeds the conflict choice.
//! Against a server without versions, a re-read before the update finds such a change (not
//! atomically: said once) and the object is read again after it.

mod replies;
mod view;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui_textarea::CursorMove;

use crate::document::summary::{Listed, TypeSummary};
use crate::document::{RequestId, Versioned};
use crate::keys::{Command, Context};
use crate::panes::{OBJECTS, PROPS, TypedPane};
use crate::panes::elsewhere::{Elsewhere, ServerSide};
use crate::requests::api;
use crate::requests::call::{Failure, Request, Stale};
use crate::requests::purpose::{Answered, Outcome};
use crate::session::record::{ObjectWrite, Source, WriteKind};
use crate::text::json::{Check, Diff, SyntaxError, check, highlight, pretty};
use crate::text::notification::{Level, Notification};
use crate::text::text_view::clip;
use crate::text::text_view::{self, wrap_words};
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Choice, Component, Cx};
use crate::vocab::calls::{Body, PropsCall};
use crate::vocab::layout::{self, Column};
use crate::widgets::editor::Editor;
use crate::widgets::list::{ListCursor, Pointer};
use crate::widgets::pieces::{pane_block, with_cursor};
use crate::widgets::typing::Typed;
use crate::writes::server_undo;
use diagtui_model::props::merge;
use diagtui_model::{DiagramObject, Props};

/// The properties pane's answers.
#[derive(Debug)]
pub enum PropsReply {
    /// The re-read before a save, to find a change made meanwhile.
    Check(Outcome<Versioned>),
    /// The update that saves: the object's new version (`None` from a server without them).
    Save(Outcome<Option<u64>>),
    /// The re-read after a write.
    Reread(Outcome<Versioned>),
    /// The edited object created again after it was deleted on the server: its new id.
    Recreate(Outcome<String>),
}

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
    /// Re-reading the object (request `id`) before sending `diff` (a server without versions).
    Checking { id: RequestId, diff: Diff },
    /// It changed on the server meanwhile: the user chooses. An overwrite names `version`,
    /// the one the user saw (`None`: a server without versions).
    Conflict { diff: Diff, version: Option<u64> },
    /// Sending `diff` (request `id`).
    Sending { id: RequestId, diff: Diff },
}

/// Lines at the top of a file handed back to `$EDITOR` that explain why it was reopened. They
/// start with this prefix and are dropped when the file comes back (JSON has no comments).
const NOTE_PREFIX: &str = "// diagtui: ";

/// The properties pane.
#[derive(Debug, Default)]
pub struct PropsPane {
    target: Option<Target>,
    original: Props,
    /// The version on the server of `original` (`None`: the server gives none).
    version: Option<u64>,
    /// The app said that saves are not atomic on this server (it gives no versions).
    told_not_atomic: bool,
    original_text: String,
    buffer: Editor,
    mode: Mode,
    check: Check,
    view: ListCursor,
    save: Save,
    /// The text last handed to `$EDITOR` (without the note), to tell whether the user changed
    /// it.
    handed_out: Option<String>,
    /// Long lines wrap (else they scroll sideways).
    wrap: bool,
    /// The cursor's line and the first column of it shown (unwrapped).
    hscroll: (usize, usize),
    /// The first line shown (wrapped).
    top: usize,
    /// The summary of the type whose heading is selected, shown when no object is.
    heading: Option<TypeSummary>,
    /// What the server did to the object while the edit is unsaved (the banner).
    server: ServerSide,
    area: Rect,
}

/// Columns the line numbers and the check mark take.
fn gutter(lines: usize) -> usize {
    lines.to_string().len().max(3) + 1
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

    /// Shows `object`, at `version` on the server, in view mode.
    pub fn show(&mut self, doc: &str, obj: &str, object: &DiagramObject, version: Option<u64>) {
        self.target = Some(Target {
            doc: doc.to_string(),
            obj: obj.to_string(),
            kind: object.kind.clone(),
        });
        self.original = object.data.clone();
        self.version = version;
        self.original_text = pretty(&object.data);
        self.set_text(&self.original_text.clone());
        self.mode = Mode::View;
        self.view.select(0);
        self.save = Save::Idle;
        self.heading = None;
        self.server = ServerSide::default();
        self.fit();
    }

    /// The server's version of an object of `doc` (`None`: gone) after a reload: when it is the
    /// one whose edits are unsaved and it differs from what the edit started from, the banner
    /// says so.
    pub fn compare_with_server(&mut self, doc: &str, obj: &str, server: Option<&DiagramObject>) {
        if self.is_dirty() && self.holds(doc, obj) {
            self.server.compare(&self.original, server);
        }
    }

    /// Shows the summary of a type (its heading is selected) instead of an object.
    pub fn show_type(&mut self, summary: TypeSummary) {
        self.close();
        self.heading = Some(summary);
    }

    /// The type whose summary it shows, if it shows one.
    pub fn shown_type(&self) -> Option<&str> {
        self.heading.as_ref().map(|h| h.kind.as_str())
    }

    /// Whether it shows the summary of a type.
    pub fn shows_type(&self) -> bool {
        self.heading.is_some()
    }

    /// Shows nothing (wrapping stays as it was).
    pub fn close(&mut self) {
        *self = PropsPane {
            area: self.area,
            wrap: self.wrap,
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
        self.buffer = Editor::new(text);
        self.recheck();
    }

    fn text(&self) -> String {
        self.buffer.text()
    }

    fn recheck(&mut self) {
        self.check = check(&self.text()).0;
        self.fit();
    }

    /// Columns inside the borders.
    fn inner_width(&self) -> usize {
        usize::from(self.area.width.saturating_sub(2))
    }

    /// Columns the text has beside the line numbers.
    fn text_width(&self) -> usize {
        self.inner_width()
            .saturating_sub(gutter(self.buffer.lines().len()))
            .max(1)
    }

    /// The check's messages as rows of the pane's width, worst first: those of the cursor's
    /// line in full, the others cut to a row; at most half the pane.
    fn messages(&self) -> Vec<(Level, String)> {
        let width = self.inner_width().max(1);
        let here = self.buffer.cursor().0 + 1;
        let syntax = self.check.syntax.iter().map(|e| {
            let text = format!("✗ line {} col {}: {}", e.line, e.column, e.message);
            (Level::Error, e.line, text)
        });
        let warnings = self.check.warnings.iter().map(|w| {
            (
                Level::Warning,
                w.line,
                format!("! line {}: {}", w.line, w.message),
            )
        });
        let mut rows = Vec::new();
        let mut others = 0;
        for (level, line, text) in syntax.chain(warnings) {
            if line == here {
                rows.extend(wrap_words(&text, width).into_iter().map(|r| (level, r)));
            } else if others < 3 {
                others += 1;
                rows.push((level, clip(&text, width)));
            }
        }
        let most = (usize::from(self.area.height.saturating_sub(2)) / 2).max(2);
        rows.truncate(most);
        rows
    }

    /// The view follows the pane's size, the buffer's length and the cursor: down and up, and
    /// sideways on the cursor's line (the cursor in edit mode, the line's end in view mode).
    fn fit(&mut self) {
        let height = layout::inner_rows(self.area, self.messages().len() as u16);
        self.view.set_rows(height);
        self.view.set_len(self.buffer.lines().len());
        let (row, col) = self.buffer.cursor();
        self.view.select(row);
        let width = self.text_width();
        let line = self.buffer.lines().get(row).map_or("", String::as_str);
        let (at, offset) = self.hscroll;
        let offset = if at == row { offset } else { 0 };
        self.hscroll = (
            row,
            match self.mode {
                Mode::Edit => text_view::follow(
                    offset,
                    text_view::column_of(line, col),
                    text_view::cell_at(line, col),
                    width,
                ),
                Mode::View => text_view::end_in_view(text_view::width(line), width),
            },
        );
        // Wrapped, the first line shown is the nearest to the last one that keeps the cursor's
        // line whole in view.
        self.top = self.top.min(row);
        let rows_of = |i: usize| {
            let mut line = self.buffer.lines()[i].clone();
            if i == row && self.mode == Mode::Edit {
                line.push(' ');
            }
            text_view::row_starts(&line, width).len()
        };
        while self.top < row && (self.top..=row).map(rows_of).sum::<usize>() > height {
            self.top += 1;
        }
    }

    /// Moves the cursor to the line `step` lines away.
    fn move_lines(&mut self, step: isize) {
        self.view.select(self.buffer.cursor().0);
        let row = self.view.target(step);
        self.buffer.move_cursor(CursorMove::Jump(row as u16, 0));
        self.view.select(row);
        self.fit();
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
        let mut actions = vec![Action::Focus(PROPS)];
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
        vec![Action::Ask(Ask::new(
            "Save",
            Body::Diff {
                heading: "What the save changes (only the changed top-level properties are sent):"
                    .into(),
                diff: diff.clone(),
                notes: Vec::new(),
            },
            vec![
                Choice::new(
                    Command::Yes,
                    if self.version.is_some() {
                        "save"
                    } else {
                        "save (re-reads the object first)"
                    },
                    vec![Action::to_pane(PropsCall::ConfirmSave(diff))],
                ),
                Choice::new(Command::No, "keep editing", cancelled()),
            ],
        ))]
    }

    /// Sends the changed properties of `diff`, naming the version the object must be at
    /// (`None`: unconditional).
    fn send_save(&mut self, diff: Diff, if_match: Option<u64>, cx: &Cx) -> Vec<Action> {
        let Some(target) = self.target.clone() else {
            return Vec::new();
        };
        let call = api::update_object(target.doc, target.obj, diff.props(), if_match);
        let sent = cx.send(call, |saved| Answered::pane(PropsReply::Save(saved)));
        self.save = Save::Sending { id: sent.id, diff };
        vec![Action::Send(sent)]
    }

    /// The banner's keys: the diff against the server's version, reloading it, keeping on
    /// editing, creating the deleted object again.
    fn on_server_side(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        let Some(target) = self.target.clone() else {
            return Vec::new();
        };
        let shown = self.server.shown().cloned();
        match (command, shown) {
            (Command::Keep, Some(_)) => {
                self.server.ignore();
                vec![Action::info(
                    "keeping your edit; a save asks about the server's version",
                )]
            }
            (Command::ServerDiff, Some(Elsewhere::Changed(server))) => {
                let Some(edit) = check(&self.text()).1 else {
                    return vec![Action::error(
                        "your edit is not valid JSON: fix it to see the diff",
                    )];
                };
                vec![Action::Ask(Ask::new(
                    "Changed on the server",
                    Body::Diff {
                        heading:
                            "What your edit changes against the object's version on the server:"
                                .into(),
                        diff: Diff::between(&server.data, &edit),
                        notes: Vec::new(),
                    },
                    vec![Choice::new(Command::No, "close", Vec::new())],
                ))]
            }
            (Command::Reload, Some(Elsewhere::Changed(server))) => {
                let version = cx
                    .doc
                    .and_then(|d| d.model()?.server_version_of(&target.obj));
                self.show(&target.doc, &target.obj, &server, version);
                vec![Action::info(
                    "reloaded the object from the server; your edit was dropped",
                )]
            }
            (Command::Recreate, Some(Elsewhere::Deleted)) => {
                let Some(props) = check(&self.text()).1 else {
                    return vec![Action::error(
                        "your edit is not valid JSON: fix it to create the object again",
                    )];
                };
                let call = api::create_object(target.doc, target.kind, props);
                vec![Action::Send(cx.send(call, |created| {
                    Answered::pane(PropsReply::Recreate(created))
                }))]
            }
            _ => vec![Action::info(
                "the edited object has not changed on the server",
            )],
        }
    }

    /// `u`: undoes the newest write to the object shown (asking first).
    fn undo(&mut self, cx: &Cx) -> Vec<Action> {
        let Some(target) = &self.target else {
            return Vec::new();
        };
        if self.is_dirty() {
            return vec![Action::error(format!(
                "save or drop your edits of {} before undoing a write to it",
                target.obj
            ))];
        }
        server_undo::ask_object(&target.doc, &target.obj, cx)
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

#[cfg(test)]
mod registry_tests {
    use super::*;
    use crate::panes::{DOCS, Panes};
    use crate::vocab::calls::{DocsCall, ObjectsCall};

    #[test]
    fn the_registry_hands_each_reply_and_call_to_the_pane_of_its_type() {
        let panes = Panes::new();
        assert_eq!(panes.taker(&DocsCall::Refresh), Some(DOCS));
        assert_eq!(panes.taker(&ObjectsCall::SelectRow(0)), Some(OBJECTS));
        assert_eq!(panes.taker(&PropsCall::CancelSave), Some(PROPS));
        let created = PropsReply::Recreate(Ok("o".into()));
        assert_eq!(panes.taker(&created), Some(PROPS));
        assert_eq!(panes.taker(&"a string"), None);
    }
}
