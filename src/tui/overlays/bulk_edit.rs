//! The bulk edit of the marked objects (`b`): one props JSON, checked as you type; `Ctrl-S`
//! shows, object by object, what it changes (the same diff as a single save), and yes sends one
//! bulk update with each object's changed properties only. The text is kept when the edit is
//! closed or the update fails, until an update goes through.

use std::collections::BTreeMap;
use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::model::Props;
use crate::tui::action::{Action, Purpose};
use crate::tui::component::{Component, Cx};
use crate::tui::json::{BulkChange, Diff};
use crate::tui::keys::{Command, Context};
use crate::tui::props_field::PropsField;
use crate::tui::request::{Failure, Request, RequestId};
use crate::tui::theme::Role;
use crate::tui::widgets::{clip, field_lines, hint_line, overlay_box};
use crate::tui::words;
use crate::tui::writes::{ObjectWrite, Source, WriteKind};

use super::{Body, Choice, Overlay, Question};

/// Width of the box.
const WIDTH: u16 = 90;
/// Hidden marked objects listed.
const HIDDEN_ROWS: usize = 4;

/// The bulk edit.
#[derive(Debug, Default)]
pub struct BulkEdit {
    field: PropsField,
    /// The bulk update last asked for (its id) and what it changes in each object, kept for
    /// the write history once it goes through.
    asked: Option<(RequestId, Arc<[BulkChange]>)>,
    /// The marked objects the tree hides (the filter or a fold), said at the top.
    hidden: Vec<String>,
}

impl BulkEdit {
    /// The marked objects the tree hides now.
    pub fn set_hidden(&mut self, hidden: Vec<String>) {
        self.hidden = hidden;
    }

    /// What the edit would change in each marked object (those it changes), as a question
    /// whose yes sends one bulk update with each object's changed properties.
    fn ask(&mut self, cx: &Cx) -> Vec<Action> {
        let props = match self.field.props() {
            Ok(props) => props,
            Err(e) => return vec![Action::error(format!("cannot apply: {e}"))],
        };
        let Some(doc) = cx.doc.filter(|d| d.model().is_some()) else {
            return Vec::new();
        };
        let changes: Arc<[BulkChange]> = doc
            .marked()
            .filter_map(|entry| {
                let diff = Diff::of_merge(&entry.data_named(&props), &props);
                (!diff.changes.is_empty()).then(|| BulkChange {
                    obj: entry.id.to_string(),
                    diff,
                })
            })
            .collect();
        if changes.is_empty() {
            return vec![Action::info(
                "nothing to change: every marked object already has these values",
            )];
        }
        let objects: BTreeMap<String, Props> = changes
            .iter()
            .map(|c| (c.obj.clone(), c.diff.props()))
            .collect();
        let request = Request::BulkUpdate {
            doc: doc.id().to_string(),
            objects,
        };
        let send = cx.send(request, Purpose::BulkUpdate);
        self.asked = Some((send.id, Arc::clone(&changes)));
        vec![Action::Open(Overlay::Question(Question::new(
            "Bulk update",
            Body::BulkDiff {
                heading: format!(
                    "{}; these properties will be sent in one bulk update:",
                    words::count(changes.len(), "object changes", "objects change")
                ),
                changes,
                notes: Vec::new(),
            },
            vec![
                Choice::new(
                    Command::Yes,
                    "send the bulk update",
                    vec![Action::Close, Action::Send(send)],
                ),
                Choice::new(Command::No, "back to the edit", Vec::new()),
            ],
        )))]
    }

    /// The bulk update's answer: the text is cleared once it went through (and the write kept
    /// in the history), kept otherwise.
    pub fn on_reply(
        &mut self,
        id: RequestId,
        request: Request,
        outcome: Result<(), Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        let Request::BulkUpdate { doc, objects } = request else {
            return Vec::new();
        };
        match outcome {
            Ok(()) => {
                self.field = PropsField::template();
                let mut actions: Vec<Action> = self
                    .asked
                    .take()
                    .filter(|(asked, _)| *asked == id)
                    .map(|(_, changes)| Action::Record {
                        doc: doc.clone(),
                        kind: WriteKind::Update {
                            source: Source::BulkEdit,
                            objects: changes
                                .iter()
                                .map(|c| ObjectWrite::from_diff(&c.obj, &c.diff))
                                .collect(),
                        },
                    })
                    .into_iter()
                    .collect();
                actions.push(Action::info(format!(
                    "updated {}",
                    words::count(objects.len(), "marked object", "marked objects")
                )));
                if cx.doc_id() == Some(doc.as_str()) {
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            Err(failure) => vec![Action::error(format!(
                "bulk update failed, your edit is kept ({} reopens it): {}",
                cx.key(Context::Objects, Command::BulkEdit),
                failure.message
            ))],
        }
    }
}

impl BulkEdit {
    /// How many of the marked objects the tree hides, and the first few of them.
    fn hidden_lines(&self, width: usize, cx: &Cx) -> Vec<Line<'static>> {
        if self.hidden.is_empty() {
            return Vec::new();
        }
        let warning = cx.style(Role::Warning);
        let mut lines = vec![Line::styled(
            format!(
                "! {} hidden by the filter or a folded type:",
                words::count(self.hidden.len(), "marked object is", "marked objects are")
            ),
            warning,
        )];
        let names = cx.names();
        for id in self.hidden.iter().take(HIDDEN_ROWS) {
            lines.push(Line::styled(
                clip(&format!("  {}", names.of(id).words()), width),
                warning,
            ));
        }
        if self.hidden.len() > HIDDEN_ROWS {
            lines.push(Line::styled(
                format!("  … and {} more", self.hidden.len() - HIDDEN_ROWS),
                cx.style(Role::Dim),
            ));
        }
        lines
    }
}

impl Component for BulkEdit {
    fn context(&self) -> Context {
        Context::BulkEdit
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        match command {
            Command::ShowDiff => self.ask(cx),
            Command::Erase => {
                self.field = PropsField::template();
                Vec::new()
            }
            Command::UndoText => {
                self.field.undo();
                Vec::new()
            }
            Command::Close => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        self.field.input(key);
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        self.field.paste(text);
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let n = cx.doc.map_or(0, |d| d.marks.len());
        let mut lines = vec![Line::styled(
            format!(
                "Props merged into each marked object, {} (only what changes is sent):",
                words::objects(n)
            ),
            cx.style(Role::Strong),
        )];
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        lines.extend(self.hidden_lines(inner, cx));
        lines.extend(field_lines(&self.field, true, cx.theme));
        lines.push(Line::raw(""));
        lines.push(hint_line(
            cx.keys.hint(
                Context::BulkEdit,
                &[
                    (Command::ShowDiff, "show what changes"),
                    (Command::Erase, "clear"),
                    (Command::Close, "close (the text is kept)"),
                ],
            ),
            cx.theme,
        ));
        let height = lines.len() as u16 + 2;
        overlay_box(
            frame,
            area,
            &format!(" Bulk edit · {n} marked "),
            lines,
            (WIDTH, height),
            cx.theme,
        );
    }
}
