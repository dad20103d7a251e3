//! The bulk edit of the marked objects (`b`): one props JSON, checked as you type, with the
//! switch `nested: merge | replace` (a nested value given is merged into each object's, or
//! replaces it whole); `Ctrl-S` shows, object by object, what it changes by path, and yes sends
//! one bulk update with each object's changed properties (a nested merge reads the objects
//! again first, as a save does: `writes/bulk.rs`). The text is kept when the edit is closed or
//! the update fails, until an update goes through.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::requests::api::{self, Call};
use crate::requests::purpose::{BulkOwner, BulkReply};
use crate::session::record::Source;
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::vocab::calls::BulkCall;
use crate::widgets::pieces::{field_lines, hint_line, overlay_box};
use crate::widgets::props_field::PropsField;
use crate::writes::bulk::{BulkWrite, Plan, Settled};
use diagtui_model::Content;
use diagtui_model::merge::Nested;

/// Width of the box.
const WIDTH: u16 = 90;
/// Hidden marked objects listed.
const HIDDEN_ROWS: usize = 4;
/// The most objects a nested merge reads again one by one before sending (more: the content).
const READ_ONE_BY_ONE: usize = 64;

/// The bulk edit.
#[derive(Debug)]
pub struct BulkEdit {
    field: PropsField,
    /// The bulk change asked about, from the question to the answer of its update.
    write: BulkWrite,
    /// The marked objects the tree hides (the filter or a fold), said at the top.
    hidden: Vec<String>,
}

impl Default for BulkEdit {
    fn default() -> BulkEdit {
        BulkEdit {
            field: PropsField::default(),
            write: BulkWrite::new(BulkOwner::BulkEdit),
            hidden: Vec::new(),
        }
    }
}

impl BulkEdit {
    /// The marked objects the tree hides now.
    pub fn set_hidden(&mut self, hidden: Vec<String>) {
        self.hidden = hidden;
    }

    /// What the edit would change in each marked object (those it changes), worked out from
    /// the objects as the tree has them, as a question whose yes sends one bulk update.
    fn ask(&mut self, cx: &Cx) -> Vec<Action> {
        if self.write.busy() {
            return Vec::new();
        }
        let props = match self.field.props() {
            Ok(props) => props,
            Err(e) => return vec![Action::error(format!("cannot apply: {e}"))],
        };
        let Some(doc) = cx.doc.filter(|d| d.model().is_some()) else {
            return Vec::new();
        };
        let marked = doc.marked().map(|e| (e.id, e.kind, e.data_named(&props)));
        let versions = doc.marked_versions();
        let plan = match Plan::new(doc.id(), &props, self.field.nested(), marked) {
            Ok(plan) => plan.with_versions(&versions),
            Err(refused) => return vec![Action::error(format!("cannot apply: {refused}"))],
        };
        if plan.changes.is_empty() {
            return vec![Action::info(
                "nothing to change: every marked object already has these values",
            )];
        }
        let heading = format!(
            "{} of {}; these properties will be sent in one bulk update:",
            words::count(plan.changes.len(), "object changes", "objects change"),
            words::count(doc.marks.len(), "marked object", "marked objects")
        );
        let notes = match self.hidden.len() {
            0 => Vec::new(),
            n => vec![format!(
                "{} hidden by the filter or a folded type",
                words::count(n, "marked object is", "marked objects are")
            )],
        };
        vec![self.write.ask(plan, heading, notes)]
    }

    /// An answer to the bulk change's question.
    pub fn call(&mut self, call: BulkCall, cx: &Cx) -> Vec<Action> {
        self.write.call(call, reread, cx)
    }

    /// The answer to the bulk change's re-read or update: the text is cleared once it went
    /// through (and the write kept in the history), kept otherwise.
    pub fn on_reply(&mut self, reply: BulkReply, id: RequestId, cx: &Cx) -> Vec<Action> {
        match self.write.on_reply(reply, id, cx) {
            Settled::Pending(actions) => actions,
            Settled::Done(plan) => {
                self.field.clear();
                let mut actions = vec![
                    Action::Record {
                        doc: plan.doc.clone(),
                        kind: plan.write(Source::BulkEdit),
                    },
                    Action::info(format!(
                        "updated {}",
                        words::count(plan.changes.len(), "marked object", "marked objects")
                    )),
                ];
                if cx.doc_id() == Some(plan.doc.as_str()) {
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            Settled::Failed(message) => vec![Action::error(format!(
                "bulk update failed, your edit is kept ({} reopens it): {message}",
                cx.key(Context::Objects, Command::BulkEdit),
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
                self.field.clear();
                Vec::new()
            }
            Command::Nested => {
                let nested = self.field.toggle_nested();
                vec![Action::info(format!("nested: {}", nested.name()))]
            }
            Command::UndoText => {
                self.field.undo();
                Vec::new()
            }
            Command::RedoText => {
                self.field.redo();
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
                "Props given to each marked object, {} (only what changes is sent):",
                words::objects(n)
            ),
            cx.style(Role::Strong),
        )];
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        lines.extend(self.hidden_lines(inner, cx));
        lines.extend(field_lines(&self.field, true, cx.theme));
        lines.push(nested_line(
            self.field.nested(),
            cx.key(Context::BulkEdit, Command::Nested),
            cx,
        ));
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
        let footer = lines.split_off(lines.len() - 2);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            &format!(" Bulk edit · {n} marked "),
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}

/// The switch `nested: merge | replace`, the one in use highlighted, and its key.
pub(super) fn nested_line(nested: Nested, key: String, cx: &Cx) -> Line<'static> {
    let dim = cx.style(Role::Dim);
    let choice = |this: Nested| {
        let style = if this == nested {
            cx.style(Role::Selected)
        } else {
            dim
        };
        Span::styled(format!(" {} ", this.name()), style)
    };
    Line::from(vec![
        Span::styled("nested: ", cx.style(Role::Strong)),
        choice(Nested::Merge),
        Span::styled("|", dim),
        choice(Nested::Replace),
        Span::styled(
            format!(
                "  ({key}) {}",
                match nested {
                    Nested::Merge => "an object given merges in, other keys kept",
                    Nested::Replace => "an object given replaces the value whole",
                }
            ),
            dim,
        ),
    ])
}

/// The call that reads the marked objects of `plan` again, as values by id (those gone left
/// out): a few one by one, many at once with the content (20,000 requests at once would
/// outlast the client's timeout).
fn reread(plan: &Plan) -> Call<Content> {
    let (doc, ids) = (plan.doc.clone(), plan.ids());
    if ids.len() <= READ_ONE_BY_ONE {
        return api::get_objects(doc, ids).map(|fresh| {
            (fresh.into_iter())
                .filter_map(|(obj, read)| Some((obj, read?.object)))
                .collect()
        });
    }
    api::content(doc).map(move |model| {
        (ids.into_iter())
            .filter_map(|obj| {
                let at = model.index_of(&obj)?;
                Some((obj, model.entry(at).object()))
            })
            .collect()
    })
}
