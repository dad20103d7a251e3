//! The selector form (`w` in the objects pane): rows of `key operator value` (AND), a props JSON
//! field with the switch `nested: merge | replace`, a preview that runs the selector read and
//! shows the matches in the tree in a style of their own (never as marks: a key marks them,
//! explicitly; closing the form ends the preview), and an apply that asks once (naming the
//! count) and shows its answer: the selector update, or, to merge a nested value, one bulk
//! update giving each match its own merged value (`writes/bulk.rs`). The form keeps its content
//! when it fails or is closed (App keeps it aside), until another document is opened; the
//! selectors used are remembered in the history.

mod replies;
mod view;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use std::collections::HashSet;

use crate::document::MetaIndex;
use crate::document::load::Load;
use crate::document::names::Name;
use crate::document::{ObjectVersions, RequestId};
use crate::keys::{Command, Context};
use crate::requests::api;
use crate::requests::call::{Failure, Request, Stale};
use crate::requests::purpose::{Answered, BulkOwner, BulkReply, FormReply};
use crate::session::record::{ObjectWrite, Source, WriteKind};
use crate::session::selectors::{SavedRow, SavedSelector};
use crate::text::json::Diff;
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Choice, Component, Cx};
use crate::vocab::calls::{Applied, Body, BulkCall, MarksChange};
use crate::widgets::input::LineInput;
use crate::widgets::pieces::{
    field_lines, hint_line, input_spans, overlay_box, selected_line, wrapped_rows,
};
use crate::widgets::props_field::PropsField;
use crate::widgets::typing::Typed;
use crate::writes::bulk::{BulkWrite, Plan, Settled};
use diagtui_model::merge::Nested;
use diagtui_model::{
    Condition, Content, DiagramObject, Operator, Props, Selector, SelectorUpdated,
};

use crate::overlays::bulk_edit::nested_line;

/// Width of the form's box (room for every operator's whole meaning).
const WIDTH: u16 = 102;
/// Preview rows listed.
const PREVIEW_ROWS: usize = 8;
/// The lines of keys at the form's foot (a blank line, then two of keys), always shown.
const FOOTER_LINES: usize = 3;
/// Suggestions listed.
const SUGGESTIONS: usize = 6;
/// Columns of a row without the operator's meaning: number, key field, operator, the bar
/// between the meaning and the value, value field.
const ROW_FIELDS: usize = 58;
/// Columns the operator's meaning takes when there is room.
const MEANING: usize = 42;

/// A field of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Key,
    Op,
    Value,
}

/// Which field has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormFocus {
    Row(usize, Field),
    Props,
}

/// One `key operator value` row.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FormRow {
    key: LineInput,
    op: Operator,
    /// Sent as text (the API compares type-insensitively).
    value: LineInput,
}

impl Default for FormRow {
    fn default() -> FormRow {
        FormRow {
            key: LineInput::default(),
            op: Operator::Eq,
            value: LineInput::default(),
        }
    }
}

impl FormRow {
    fn condition(&self, n: usize) -> Result<Condition, String> {
        let key = self.key.text().trim();
        if key.is_empty() {
            return Err(format!("row {n}: the key is empty"));
        }
        Ok(Condition::new(key, self.op, self.value.text()))
    }

    fn saved(&self) -> SavedRow {
        SavedRow {
            key: self.key.text().to_string(),
            op: self.op.as_str().to_string(),
            value: self.value.text().to_string(),
        }
    }

    /// A typed character picks the operator it starts (the five start with five different
    /// letters); any other character changes nothing.
    fn type_operator(&mut self, c: char) {
        if let Some(op) = Operator::ALL
            .into_iter()
            .find(|op| op.as_str().starts_with(c))
        {
            self.op = op;
        }
    }

    /// The next (`step` 1) or previous (`step` -1) operator, wrapping.
    fn cycle_operator(&mut self, step: isize) {
        let n = Operator::ALL.len() as isize;
        let at = Operator::ALL
            .iter()
            .position(|o| *o == self.op)
            .unwrap_or(0) as isize;
        self.op = Operator::ALL[(at + step).rem_euclid(n) as usize];
    }
}

/// What the last preview found.
#[derive(Debug, Clone, PartialEq)]
struct Preview {
    selector: Selector,
    matches: Vec<(String, DiagramObject)>,
    /// The matches' versions on the server: what an apply names (`ifVersions`), so that it
    /// writes nothing unless the selector still matches exactly these, unchanged. `None` when
    /// the server gave none, or nothing matched (then the apply is unconditional).
    versions: Option<ObjectVersions>,
}

/// The form.
#[derive(Debug, Clone)]
pub struct SelectorForm {
    doc: String,
    rows: Vec<FormRow>,
    focus: FormFocus,
    props: PropsField,
    suggestion: Option<usize>,
    preview: Load<Preview>,
    apply: Load<()>,
    /// Why the last preview or apply failed, or what is wrong with the form.
    error: Option<String>,
    /// The history entry last recalled.
    recall: Option<usize>,
    /// A nested merge asked about, from the question to the answer of its bulk update.
    merge: BulkWrite,
    /// The selector of the nested merge asked about.
    merging: Option<Selector>,
}

impl SelectorForm {
    /// An empty form for document `doc`.
    pub fn new(doc: &str) -> SelectorForm {
        SelectorForm {
            doc: doc.to_string(),
            rows: vec![FormRow::default()],
            focus: FormFocus::Row(0, Field::Key),
            props: PropsField::template(),
            suggestion: None,
            preview: Load::Idle,
            apply: Load::Idle,
            error: None,
            recall: None,
            merge: BulkWrite::new(BulkOwner::Form),
            merging: None,
        }
    }

    /// The form was closed: its preview ends (App ends the tree's; a preview still on its way
    /// is dropped when it arrives).
    pub fn end_preview(&mut self) {
        self.preview = Load::Idle;
    }

    /// The document it is for.
    pub fn doc(&self) -> &str {
        &self.doc
    }

    fn busy(&self) -> bool {
        self.preview.is_loading() || self.apply.is_loading() || self.merge.busy()
    }

    /// Whether an apply of `props` merges a nested value into each match (one bulk update)
    /// rather than sending the selector update.
    fn merges(&self, props: &Props) -> bool {
        self.props.nested() == Nested::Merge && props.values().any(|v| v.is_object())
    }

    /// The selector the rows describe.
    fn selector(&self) -> Result<Selector, String> {
        let conditions = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| row.condition(i + 1))
            .collect::<Result<Vec<_>, _>>()?;
        Selector::all(conditions).map_err(|e| e.to_string())
    }

    /// Whether the preview shown is of the selector the rows describe now.
    fn preview_is_current(&self) -> bool {
        match (self.preview.value(), self.selector()) {
            (Some(preview), Ok(selector)) => preview.selector == selector,
            _ => false,
        }
    }

    fn saved(&self) -> SavedSelector {
        SavedSelector {
            rows: self.rows.iter().map(FormRow::saved).collect(),
            props: self.props.text(),
        }
    }

    fn load_saved(&mut self, saved: &SavedSelector) {
        self.rows = saved
            .rows
            .iter()
            .map(|row| FormRow {
                key: LineInput::new(&row.key),
                op: Operator::parse(&row.op).unwrap_or(Operator::Eq),
                value: LineInput::new(&row.value),
            })
            .collect();
        if self.rows.is_empty() {
            self.rows.push(FormRow::default());
        }
        self.props.set_text(&saved.props);
        self.focus = FormFocus::Row(0, Field::Key);
        self.suggestion = None;
    }

    /// Every field, in `Tab` order.
    fn fields(&self) -> Vec<FormFocus> {
        let mut fields: Vec<FormFocus> = (0..self.rows.len())
            .flat_map(|i| {
                [Field::Key, Field::Op, Field::Value].map(|field| FormFocus::Row(i, field))
            })
            .collect();
        fields.push(FormFocus::Props);
        fields
    }

    fn move_focus(&mut self, step: isize) {
        let fields = self.fields();
        let at = fields.iter().position(|f| *f == self.focus).unwrap_or(0) as isize;
        self.focus = fields[(at + step).rem_euclid(fields.len() as isize) as usize];
        self.suggestion = None;
    }

    /// The type-ahead for the focused field, from the open document's meta index: its keys
    /// for a key, the values seen under the row's key for a value; those containing what is
    /// typed, ignoring case, those starting with it first.
    fn suggestions(&self, meta_index: Option<&MetaIndex>) -> Vec<String> {
        let (FormFocus::Row(i, field), Some(meta_index)) = (self.focus, meta_index) else {
            return Vec::new();
        };
        let Some(row) = self.rows.get(i) else {
            return Vec::new();
        };
        let (typed, found): (&str, Vec<&String>) = match field {
            Field::Op => return Vec::new(),
            Field::Key => (row.key.text(), meta_index.keys().collect()),
            Field::Value => match meta_index.get(row.key.text().trim()) {
                Some(values) => (row.value.text(), values.iter().collect()),
                None => return Vec::new(),
            },
        };
        let typed = typed.to_lowercase();
        let mut list: Vec<String> = found
            .into_iter()
            .filter(|s| s.to_lowercase().contains(&typed))
            .cloned()
            .collect();
        list.sort_by_key(|s| !s.to_lowercase().starts_with(&typed));
        if list.len() == 1 && list[0].to_lowercase() == typed {
            return Vec::new();
        }
        list
    }

    fn focused_input(&mut self) -> Option<&mut LineInput> {
        match self.focus {
            FormFocus::Row(i, Field::Key) => self.rows.get_mut(i).map(|r| &mut r.key),
            FormFocus::Row(i, Field::Value) => self.rows.get_mut(i).map(|r| &mut r.value),
            _ => None,
        }
    }

    fn meta_index<'a>(&self, cx: &'a Cx) -> Option<&'a MetaIndex> {
        cx.doc
            .filter(|d| d.id() == self.doc)
            .and_then(|d| d.model())
            .map(|m| m.meta_index())
    }

    /// The selector, or the reason it cannot be sent (shown in the form).
    fn checked_selector(&mut self) -> Option<Selector> {
        match self.selector() {
            Ok(selector) => Some(selector),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// The selector read (and the first step of an apply without a current preview).
    fn preview(&mut self, then_apply: bool, cx: &Cx) -> Vec<Action> {
        if self.busy() {
            return Vec::new();
        }
        let Some(selector) = self.checked_selector() else {
            return Vec::new();
        };
        self.error = None;
        let sent = cx.send(
            api::objects_where(self.doc.clone(), selector),
            move |read| Answered::Form(FormReply::Preview { then_apply, read }),
        );
        self.preview.start(sent.id);
        vec![Action::Send(sent)]
    }

    /// Checks the form, then previews afresh and asks with what the preview found.
    pub fn apply(&mut self, cx: &Cx) -> Vec<Action> {
        if self.busy() || self.checked_selector().is_none() {
            return Vec::new();
        }
        if let Err(e) = self.props.props() {
            self.error = Some(e);
            return Vec::new();
        }
        self.preview(true, cx)
    }

    /// The question of an apply, naming the count, the document and the first objects the
    /// preview just found.
    fn ask_apply(&mut self, cx: &Cx) -> Action {
        let matches = self.preview.value().map_or(&[][..], |p| &p.matches[..]);
        if matches.is_empty() {
            return Action::info("no object matches the selector: nothing to apply");
        }
        let selector = self.selector().map(|s| s.to_string()).unwrap_or_default();
        let title = cx.doc.map(|d| d.summary.title.clone()).unwrap_or_default();
        let props = self.props.props().unwrap_or_default();
        if self.merges(&props) {
            return self.ask_merge(&props, &title);
        }
        let keys: Vec<String> = props.keys().cloned().collect();
        Action::Ask(Ask::new(
            "Apply the selector",
            Body::Listed {
                text: format!(
                    "Set {} on {} of \"{title}\" matching {selector}? A preview just now found:",
                    keys.join(", "),
                    words::objects(matches.len())
                ),
                rows: matches
                    .iter()
                    .take(PREVIEW_ROWS)
                    .map(|(id, object)| cx.names().of_object(id, object).words())
                    .collect(),
                more: matches.len().saturating_sub(PREVIEW_ROWS),
                after: None,
            },
            vec![
                Choice::new(Command::Yes, "apply", vec![Action::ApplySelector]),
                Choice::new(Command::No, "back to the form", Vec::new()),
            ],
        )
        .destructive_if(matches.len() > 1))
    }

    /// The question of a nested merge: what it changes in each match the preview just read.
    fn ask_merge(&mut self, props: &Props, title: &str) -> Action {
        let Some(preview) = self.preview.value() else {
            return Action::info("no object matches the selector: nothing to apply");
        };
        let objects = preview
            .matches
            .iter()
            .map(|(id, o)| (id.as_str(), o.kind.as_str(), &o.data));
        let plan = match Plan::new(&self.doc, props, Nested::Merge, objects) {
            Ok(plan) => match &preview.versions {
                Some(versions) => plan.with_versions(versions),
                None => plan,
            },
            Err(refused) => {
                self.error = Some(refused.clone());
                return Action::error(format!("cannot apply: {refused}"));
            }
        };
        if plan.changes.is_empty() {
            return Action::info("nothing to change: every match already has these values");
        }
        let heading = format!(
            "{} of the {} of \"{title}\" matching {}; one bulk update sends each its own values:",
            words::count(plan.changes.len(), "object changes", "objects change"),
            words::count(preview.matches.len(), "match", "matches"),
            preview.selector
        );
        self.merging = Some(preview.selector.clone());
        self.merge.ask(plan, heading, Vec::new())
    }

    /// An answer to the nested merge's question.
    pub fn bulk_call(&mut self, call: BulkCall, cx: &Cx) -> Vec<Action> {
        let Some(selector) = self.merging.clone() else {
            return Vec::new();
        };
        let reread = |plan: &Plan| {
            api::objects_where(plan.doc.clone(), selector).map(|(content, _)| content)
        };
        self.merge.call(call, reread, cx)
    }

    /// The apply was confirmed: the selector update.
    pub fn apply_confirmed(&mut self, cx: &Cx) -> Vec<Action> {
        let Some(selector) = self.checked_selector() else {
            return Vec::new();
        };
        let props = match self.props.props() {
            Ok(props) => props,
            Err(e) => {
                self.error = Some(e);
                return Vec::new();
            }
        };
        let previewed = self.preview.value().filter(|p| p.selector == selector);
        let expected = previewed.map(|p| p.matches.len());
        let if_versions = previewed.and_then(|p| p.versions.clone());
        self.error = None;
        let call = api::update_where(self.doc.clone(), selector, props, if_versions);
        let sent = cx.send(call, move |updated| {
            Answered::Form(FormReply::Apply { expected, updated })
        });
        self.apply.start(sent.id);
        vec![Action::Send(sent)]
    }

    /// Marks the preview's matches (the user's marks stay; these are added).
    fn mark_matches(&self, cx: &Cx) -> Vec<Action> {
        let Some(preview) = self.preview.value() else {
            return vec![Action::error(format!(
                "nothing to mark: {} previews the selector first",
                cx.key(Context::Form, Command::Preview)
            ))];
        };
        let ids: Vec<String> = preview.matches.iter().map(|(id, _)| id.clone()).collect();
        let n = ids.len();
        vec![
            Action::Marks(MarksChange::AddIds(ids)),
            Action::info(format!(
                "marked the {}",
                words::count(n, "match", "matches")
            )),
        ]
    }

    /// `Ctrl-R`: the next older remembered selector.
    fn recall(&mut self, cx: &Cx) -> Vec<Action> {
        let entries = &cx.history.entries;
        if entries.is_empty() {
            self.error = Some("no selectors remembered yet".into());
            return Vec::new();
        }
        let at = self.recall.map_or(0, |i| (i + 1) % entries.len());
        self.load_saved(&entries[at]);
        self.recall = Some(at);
        self.error = None;
        vec![Action::info(format!(
            "recalled selector {} of {}",
            at + 1,
            entries.len()
        ))]
    }
}

impl SelectorForm {}

/// An object's type, then its name as a row.
pub(super) fn typed_line(name: &Name, width: usize, cx: &Cx) -> Line<'static> {
    let kind = format!("  {:<11}", name.kind);
    let rest = width.saturating_sub(kind.chars().count());
    let mut line = name.row(rest, false, cx.theme);
    line.spans
        .insert(0, Span::styled(kind, cx.style(Role::Dim)));
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_takes_first_letters_and_cycles() {
        let mut row = FormRow::default();
        for c in "co".chars() {
            row.type_operator(c);
        }
        assert_eq!(row.op, Operator::Co);
        row.type_operator('g');
        assert_eq!(row.op, Operator::Gt);
        row.type_operator('x');
        assert_eq!(row.op, Operator::Gt);
        row.type_operator('n');
        row.type_operator('o');
        assert_eq!(row.op, Operator::No);
        row.cycle_operator(1);
        assert_eq!(row.op, Operator::Eq);
        row.cycle_operator(-1);
        assert_eq!(row.op, Operator::No);
    }

    #[test]
    fn rows_make_an_and_selector_and_need_keys() {
        let mut form = SelectorForm::new("d");
        assert_eq!(form.selector().unwrap_err(), "row 1: the key is empty");
        form.rows[0].key = LineInput::new("status");
        form.rows[0].value = LineInput::new("down");
        assert_eq!(
            form.selector().unwrap().to_string(),
            r#"["status","eq","down"]"#
        );
        form.rows.push(FormRow {
            key: LineInput::new("env"),
            op: Operator::Co,
            value: LineInput::new("pro"),
        });
        assert_eq!(
            form.selector().unwrap().to_string(),
            r#"[["status","eq","down"],["env","co","pro"]]"#
        );
    }
}
