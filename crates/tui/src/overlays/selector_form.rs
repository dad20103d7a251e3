//! The selector form (`w` in the objects pane): rows of `key operator value` (AND), a props JSON
//! field with the switch `nested: merge | replace`, a preview that runs the selector read and
//! shows the matches in the tree in a style of their own (never as marks: a key marks them,
//! explicitly; closing the form ends the preview), and an apply that asks once (naming the
//! count) and shows its answer: the selector update, or, to merge a nested value, one bulk
//! update giving each match its own merged value (`writes/bulk.rs`). The form keeps its content
//! when it fails or is closed (App keeps it aside), until another document is opened; the
//! selectors used are remembered in the history.

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
use crate::requests::call::{Answer, Failure, Request, Stale};
use crate::requests::purpose::{BulkOwner, BulkWork, FormWork, Purpose};
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
            Request::ObjectsWhere {
                doc: self.doc.clone(),
                selector,
            },
            Purpose::Form(FormWork::Preview { then_apply }),
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
        let reread = |plan: &Plan| Request::ObjectsWhere {
            doc: plan.doc.clone(),
            selector,
        };
        self.merge.call(call, reread, cx)
    }

    /// The answer to the nested merge's re-read or bulk update.
    pub fn on_bulk_reply(
        &mut self,
        work: BulkWork,
        id: RequestId,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        match self.merge.on_reply(work, id, outcome, cx) {
            Settled::Pending(actions) => actions,
            Settled::Done(plan) => {
                let selector = self
                    .merging
                    .take()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                let n = plan.changes.len();
                let mut actions = vec![
                    Action::Record {
                        doc: plan.doc.clone(),
                        kind: plan.write(Source::Selector(selector)),
                    },
                    Action::info(format!("merged into {}", words::objects(n))),
                    Action::Remember(self.saved()),
                ];
                if cx.doc_id() == Some(plan.doc.as_str()) {
                    let updated = SelectorUpdated {
                        success: true,
                        updated_object_count: n,
                        updated_object_ids: plan.ids(),
                    };
                    actions.push(Action::ShowSelectorResult(Applied {
                        updated,
                        expected: None,
                    }));
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            Settled::Failed(message) => {
                self.error = Some(format!("apply failed: {message}"));
                vec![Action::error(format!(
                    "apply failed, the form is kept: {message}"
                ))]
            }
        }
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
        let sent = cx.send(
            Request::UpdateWhere {
                doc: self.doc.clone(),
                selector,
                props,
                if_versions,
            },
            Purpose::Form(FormWork::Apply { expected }),
        );
        self.apply.start(sent.id);
        vec![Action::Send(sent)]
    }

    /// The answer to one of its requests; `shown` when the form is on top of the screen.
    pub fn on_reply(
        &mut self,
        work: FormWork,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
        shown: bool,
    ) -> Vec<Action> {
        // Answers for a document the user has left change nothing but the form's state.
        let open = cx.doc_id() == Some(self.doc.as_str());
        match (work, outcome) {
            (FormWork::Preview { then_apply }, Ok(Answer::Content(content, versions))) => {
                let Request::ObjectsWhere { selector, .. } = request else {
                    return Vec::new();
                };
                if !open {
                    self.preview = Load::Idle;
                    return Vec::new();
                }
                let ids: Vec<String> = content.keys().cloned().collect();
                let n = ids.len();
                if !self
                    .preview
                    .settle_dropping_elsewhere(id, preview(selector, content, versions))
                {
                    return Vec::new();
                }
                let mut actions = vec![
                    Action::Marks(MarksChange::Preview(ids)),
                    Action::info(format!(
                        "{} (◇ in the tree; {} marks them)",
                        words::objects_match(n),
                        cx.key(Context::Form, Command::MarkMatches)
                    )),
                    Action::Remember(self.saved()),
                ];
                if then_apply && shown && self.preview_is_current() {
                    actions.push(self.ask_apply(cx));
                }
                actions
            }
            (FormWork::Apply { expected }, Ok(Answer::Updated(updated))) => {
                if !self.apply.settle(id, ()) {
                    return Vec::new();
                }
                let written = self.written(&request, &updated.updated_object_ids);
                let applied = Applied { updated, expected };
                let n = applied.updated.updated_object_count;
                let mut actions: Vec<Action> = written.into_iter().collect();
                actions.extend([
                    match applied.mismatch() {
                        Some(mismatch) => Action::error(format!("updated {n}; {mismatch}")),
                        None => Action::info(format!("updated {}", words::objects(n))),
                    },
                    Action::Remember(self.saved()),
                ]);
                // The write is done either way; its result list and reload belong only to the
                // document it changed, and only while that one is open.
                if open {
                    actions.push(Action::ShowSelectorResult(applied));
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            (
                FormWork::Apply { .. },
                Err(Failure {
                    stale: Some(stale),
                    message,
                    ..
                }),
            ) => {
                if !self.apply.fail(id, message) {
                    return Vec::new();
                }
                self.error = Some("apply refused: the matches changed since the preview".into());
                vec![changed_since_preview(&stale, cx)]
            }
            (work, Err(failure)) => {
                let what = match work {
                    FormWork::Preview { .. } => {
                        self.preview.fail(id, failure.message.clone());
                        "preview"
                    }
                    FormWork::Apply { .. } => {
                        self.apply.fail(id, failure.message.clone());
                        "apply"
                    }
                };
                self.error = Some(format!("{what} failed: {}", failure.message));
                vec![Action::error(format!(
                    "{what} failed, the form is kept: {}",
                    failure.message
                ))]
            }
            (work, Ok(answer)) => vec![Action::unexpected(&work, &answer)],
        }
    }

    /// The write history's record of an apply that updated `updated`: each updated object the
    /// preview had, with the values the update replaced.
    fn written(&self, request: &Request, updated: &[String]) -> Option<Action> {
        let Request::UpdateWhere {
            doc,
            selector,
            props,
            ..
        } = request
        else {
            return None;
        };
        let preview = self.preview.value().filter(|p| &p.selector == selector)?;
        let updated: HashSet<&str> = updated.iter().map(String::as_str).collect();
        let objects: Vec<ObjectWrite> = preview
            .matches
            .iter()
            .filter(|(id, _)| updated.contains(id.as_str()))
            .map(|(id, object)| ObjectWrite::from_diff(id, &Diff::of_merge(&object.data, props)))
            .filter(|part| !part.before.is_empty())
            .collect();
        (!objects.is_empty()).then(|| Action::Record {
            doc: doc.clone(),
            kind: WriteKind::Update {
                source: Source::Selector(selector.to_string()),
                objects,
            },
        })
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

/// The question when an apply was refused because the matches changed since the preview
/// (`stale`): which ones, and how; it offers to preview again.
fn changed_since_preview(stale: &Stale, cx: &Cx) -> Action {
    let names = cx.names();
    let ids = stale.ids();
    let rows = ids
        .iter()
        .take(PREVIEW_ROWS)
        .map(|id| {
            let how = if stale.now_match.contains(id) {
                "matches now"
            } else if stale.no_longer_match.contains(id) {
                "no longer matches"
            } else if stale
                .objects
                .iter()
                .any(|(o, now)| o == id && now.is_none())
            {
                "deleted"
            } else {
                "changed"
            };
            format!("{}: {how}", names.of(id).words())
        })
        .collect();
    Action::Ask(
        Ask::new(
            "Changed since the preview",
            Body::Listed {
                text: format!(
                    "Nothing was written: {} changed on the server since the preview.",
                    words::count(ids.len(), "object", "objects")
                ),
                rows,
                more: ids.len().saturating_sub(PREVIEW_ROWS),
                after: None,
            },
            vec![
                Choice::new(
                    Command::Reload,
                    "preview again (then asks to apply)",
                    vec![Action::PreviewSelectorAgain],
                ),
                Choice::new(Command::Cancel, "back to the form", Vec::new()),
            ],
        )
        .in_context(Context::Conflict),
    )
}

fn preview(selector: Selector, content: Content, versions: ObjectVersions) -> Preview {
    let versioned = !content.is_empty() && content.keys().all(|id| versions.contains_key(id));
    Preview {
        selector,
        matches: content.into_iter().collect(),
        versions: versioned.then_some(versions),
    }
}

impl Component for SelectorForm {
    fn context(&self) -> Context {
        match self.focus {
            FormFocus::Props => Context::Form,
            FormFocus::Row(_, Field::Op) => Context::FormOperator,
            FormFocus::Row(..) => Context::FormField,
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        match command {
            Command::Close if self.suggestion.is_some() => self.suggestion = None,
            Command::Close => return vec![Action::Close],
            Command::Preview => return self.preview(false, cx),
            Command::Apply => return self.apply(cx),
            Command::Recall => return self.recall(cx),
            Command::MarkMatches => return self.mark_matches(cx),
            Command::Nested => {
                let nested = self.props.toggle_nested();
                return vec![Action::info(format!("nested: {}", nested.name()))];
            }
            Command::AddRow => {
                let at = match self.focus {
                    FormFocus::Row(i, _) => i + 1,
                    FormFocus::Props => self.rows.len(),
                };
                self.rows.insert(at, FormRow::default());
                self.focus = FormFocus::Row(at, Field::Key);
                self.suggestion = None;
            }
            Command::RemoveRow => {
                let at = match self.focus {
                    FormFocus::Row(i, _) => i,
                    FormFocus::Props => self.rows.len() - 1,
                };
                if self.rows.len() > 1 {
                    self.rows.remove(at);
                    self.focus = FormFocus::Row(at.min(self.rows.len() - 1), Field::Key);
                } else {
                    self.rows[0] = FormRow::default();
                    self.focus = FormFocus::Row(0, Field::Key);
                }
                self.suggestion = None;
            }
            Command::NextField => self.move_focus(1),
            Command::PrevField => self.move_focus(-1),
            Command::UndoText | Command::RedoText => {
                let undo = command == Command::UndoText;
                match self.focus {
                    FormFocus::Props if undo => self.props.undo(),
                    FormFocus::Props => self.props.redo(),
                    _ => {
                        if let Some(input) = self.focused_input() {
                            if undo {
                                input.undo();
                            } else {
                                input.redo();
                            }
                        }
                        self.suggestion = None;
                    }
                }
            }
            Command::Erase => match self.focus {
                FormFocus::Props => self.props.clear(),
                _ => {
                    if let Some(input) = self.focused_input() {
                        input.clear();
                    }
                    self.suggestion = None;
                }
            },
            Command::NextOperator | Command::PrevOperator => {
                if let FormFocus::Row(i, Field::Op) = self.focus {
                    let step = if command == Command::NextOperator {
                        1
                    } else {
                        -1
                    };
                    self.rows[i].cycle_operator(step);
                }
            }
            Command::NextSuggestion | Command::PrevSuggestion => {
                let count = self.suggestions(self.meta_index(cx)).len();
                if count > 0 {
                    let down = command == Command::NextSuggestion;
                    self.suggestion = Some(match (self.suggestion, down) {
                        (None, true) => 0,
                        (None, false) => count - 1,
                        (Some(at), true) => (at + 1).min(count - 1),
                        (Some(at), false) => at.saturating_sub(1),
                    });
                }
            }
            Command::Take => {
                let suggestions = self.suggestions(self.meta_index(cx));
                if let Some(pick) = self.suggestion.and_then(|at| suggestions.get(at)).cloned()
                    && let Some(input) = self.focused_input()
                {
                    *input = LineInput::new(pick);
                }
                self.move_focus(1);
            }
            _ => {}
        }
        Vec::new()
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        match self.focus {
            FormFocus::Props => self.props.input(key),
            FormFocus::Row(i, Field::Op) => {
                if let KeyCode::Char(c) = key.code
                    && !key.modifiers.contains(KeyModifiers::CONTROL)
                {
                    self.rows[i].type_operator(c);
                }
            }
            FormFocus::Row(..) => {
                if let Some(input) = self.focused_input()
                    && input.handle(key)
                {
                    self.suggestion = None;
                }
            }
        }
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        match self.focus {
            FormFocus::Props => self.props.paste(text),
            FormFocus::Row(i, Field::Op) => match Operator::parse(text.trim()) {
                Some(op) => self.rows[i].op = op,
                None => {
                    let names: Vec<&str> = Operator::ALL.iter().map(|o| o.as_str()).collect();
                    return vec![Action::info(format!(
                        "the operator field takes one of {}",
                        names.join(" ")
                    ))];
                }
            },
            _ => {
                if let Some(input) = self.focused_input() {
                    input.paste(text);
                    self.suggestion = None;
                }
            }
        }
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = WIDTH.min(area.width).saturating_sub(2);
        // The preview lists as many matches as the screen leaves room for (the rest are ◇ in
        // the tree), so the keys below it always show.
        let lines = self.lines(cx, usize::from(inner), PREVIEW_ROWS);
        let over = (wrapped_rows(&lines, inner) + 2).saturating_sub(usize::from(area.height));
        let mut lines = match over {
            0 => lines,
            over => self.lines(cx, usize::from(inner), PREVIEW_ROWS.saturating_sub(over)),
        };
        let footer = lines.split_off(lines.len() - FOOTER_LINES);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Selector ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}

impl SelectorForm {
    /// The form, `inner` columns wide: rows, type-ahead, props, the preview (at most `shown` of
    /// its matches) or error, then the keys ([`FOOTER_LINES`] lines).
    fn lines(&self, cx: &Cx, inner: usize, shown: usize) -> Vec<Line<'static>> {
        // The operator's meaning gets what the fields leave (the value field always shows).
        let meaning = inner.saturating_sub(ROW_FIELDS).min(MEANING);
        let dim = cx.style(Role::Dim);
        let mut lines = vec![Line::styled(
            "Objects whose meta match every row:",
            cx.style(Role::Strong),
        )];
        let meta_index = self.meta_index(cx);
        for (i, row) in self.rows.iter().enumerate() {
            let at = |f: Field| self.focus == FormFocus::Row(i, f);
            let op_style = if at(Field::Op) {
                cx.style(Role::FieldFocused)
            } else {
                cx.style(Role::Warning)
                    .add_modifier(ratatui::style::Modifier::BOLD)
            };
            let mut spans = vec![Span::styled(format!("{:>2} key ", i + 1), dim)];
            spans.extend(field(&row.key, at(Field::Key), 18, cx));
            spans.extend([
                Span::raw(" "),
                Span::styled(format!(" {} ", row.op), op_style),
                Span::styled(
                    format!(" {:<meaning$}", clip(row.op.meaning(), meaning)),
                    dim,
                ),
                Span::styled(" │ value ", dim),
            ]);
            spans.extend(field(&row.value, at(Field::Value), 18, cx));
            lines.push(Line::from(spans));
            let suggestions = if matches!(self.focus, FormFocus::Row(r, _) if r == i) {
                self.suggestions(meta_index)
            } else {
                Vec::new()
            };
            if !suggestions.is_empty() {
                let mut spans = vec![Span::styled("    ↳ ", dim)];
                for (n, s) in suggestions.iter().take(SUGGESTIONS).enumerate() {
                    let style = if self.suggestion == Some(n) {
                        cx.style(Role::Selected)
                    } else {
                        cx.style(Role::Key)
                    };
                    spans.push(Span::styled(clip(s, 20), style));
                    spans.push(Span::raw("  "));
                }
                if suggestions.len() > SUGGESTIONS {
                    spans.push(Span::styled(
                        format!("+{} more ", suggestions.len() - SUGGESTIONS),
                        dim,
                    ));
                }
                let pick = cx.keys.hint(
                    Context::FormField,
                    &[(Command::NextSuggestion, "next"), (Command::Take, "takes")],
                );
                spans.push(Span::styled(format!("({pick})"), dim));
                lines.push(Line::from(spans));
            }
        }
        lines.push(Line::raw(""));
        let props_focused = self.focus == FormFocus::Props;
        lines.push(Line::styled(
            "Props given to every match:",
            if props_focused {
                cx.style(Role::FocusBorder)
            } else {
                cx.style(Role::Strong)
            },
        ));
        lines.extend(field_lines(&self.props, props_focused, cx.theme));
        lines.push(nested_line(
            self.props.nested(),
            cx.key(Context::Form, Command::Nested),
            cx,
        ));
        lines.push(Line::raw(""));
        if self.busy() {
            lines.push(Line::styled("running…", cx.style(Role::Warning)));
        }
        if let Some(error) = &self.error {
            lines.push(Line::styled(format!("✗ {error}"), cx.style(Role::Error)));
        }
        if let Some(preview) = self.preview.value() {
            let n = preview.matches.len();
            let mut head = vec![Span::styled(
                format!("Preview: {}", words::objects_match(n)),
                cx.style(Role::Success)
                    .add_modifier(ratatui::style::Modifier::BOLD),
            )];
            if !self.preview_is_current() {
                head.push(Span::styled(
                    format!(
                        "  (the rows changed since; {} runs it again)",
                        cx.key(Context::Form, Command::Preview)
                    ),
                    cx.style(Role::Warning),
                ));
            }
            lines.push(Line::from(head));
            lines.extend(
                preview
                    .matches
                    .iter()
                    .take(shown)
                    .map(|(id, object)| typed_line(&cx.names().of_object(id, object), inner, cx)),
            );
            if n > shown {
                lines.push(Line::styled(
                    format!("  … and {} more (◇ in the tree)", n - shown),
                    dim,
                ));
            }
        }
        lines.push(Line::raw(""));
        lines.push(hint_line(
            cx.keys.hint(
                Context::Form,
                &[
                    (Command::NextField, "next field"),
                    (Command::PrevField, "previous"),
                    (Command::AddRow, "add row"),
                    (Command::RemoveRow, "remove row"),
                    (Command::Erase, "clear"),
                ],
            ),
            cx.theme,
        ));
        lines.push(hint_line(
            format!(
                "{} · {}",
                cx.keys.hint(
                    Context::FormOperator,
                    &[(Command::NextOperator, "operator, or type it")],
                ),
                cx.keys.hint(
                    Context::Form,
                    &[
                        (Command::Recall, "recall"),
                        (Command::Preview, "preview"),
                        (Command::MarkMatches, "mark the matches"),
                        (Command::Apply, "apply"),
                        (Command::Close, "close (kept)"),
                    ],
                )
            ),
            cx.theme,
        ));
        lines
    }
}

/// A one-line field padded to `width` columns, with the cursor when focused (the text scrolls
/// to keep it in view).
fn field(input: &LineInput, focused: bool, width: usize, cx: &Cx) -> Vec<Span<'static>> {
    let style = if focused {
        cx.style(Role::FieldFocused)
    } else {
        cx.style(Role::Field)
    };
    let spans = if focused {
        input_spans(input, width, cx.theme)
    } else {
        vec![Span::raw(clip(input.text(), width))]
    };
    selected_line(Line::from(spans), width, style).spans
}

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
