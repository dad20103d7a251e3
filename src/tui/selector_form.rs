//! The selector form (`w` in the objects pane): rows of `key operator value` (AND), a props JSON
//! field, a preview that runs the selector read and marks the matches in the tree, and an apply
//! that asks once (naming the count), runs the selector update and shows its answer with a jump
//! to each updated object. The form lives in `App::form`, so it keeps its content when it fails
//! or is closed; the selectors used are remembered in the history file.

use std::collections::{BTreeMap, BTreeSet};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Effect, Pane, Purpose, movement, step_index};
use super::history::{SavedRow, SavedSelector};
use super::input::LineInput;
use super::overlay::{ConfirmAction, Overlay};
use super::props_field::PropsField;
use super::request::Request;
use super::transfer::FileFor;
use super::words;
use crate::model::{Condition, Content, DiagramObject, Operator, Selector, SelectorUpdated};

/// A field of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The meta key.
    Key,
    /// The operator.
    Op,
    /// The value.
    Value,
}

/// Which field of the form has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormFocus {
    /// A field of the row at this index.
    Row(usize, Field),
    /// The props JSON.
    Props,
}

impl Default for FormFocus {
    fn default() -> FormFocus {
        FormFocus::Row(0, Field::Key)
    }
}

/// One `key operator value` row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormRow {
    /// The meta key.
    pub key: LineInput,
    /// The operator (`eq` to start with).
    pub op: OperatorField,
    /// The value, sent as text (the API compares type-insensitively).
    pub value: LineInput,
}

/// How many updated ids the result list shows at once (and a page moves).
pub const RESULT_ROWS: usize = 14;

/// The operator field: takes the operator's name as typed, `Left`/`Right` cycle it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorField {
    /// The operator.
    pub op: Operator,
}

impl Default for OperatorField {
    fn default() -> OperatorField {
        OperatorField { op: Operator::Eq }
    }
}

impl OperatorField {
    /// Takes a typed character. The five operators start with five different letters, so a
    /// first letter picks one and the rest of a typed name (`q` of `eq`) picks nothing and
    /// changes nothing; any other character is ignored too.
    pub fn type_char(&mut self, c: char) {
        if let Some(op) = Operator::ALL
            .into_iter()
            .find(|op| op.as_str().starts_with(c))
        {
            self.op = op;
        }
    }

    /// Moves to the next (`step` 1) or previous (`step` -1) operator, wrapping.
    pub fn cycle(&mut self, step: isize) {
        let n = Operator::ALL.len() as isize;
        let at = Operator::ALL
            .iter()
            .position(|o| *o == self.op)
            .unwrap_or(0) as isize;
        self.op = Operator::ALL[(at + step).rem_euclid(n) as usize];
    }
}

impl FormRow {
    fn condition(&self, n: usize) -> Result<Condition, String> {
        let key = self.key.text().trim();
        if key.is_empty() {
            return Err(format!("row {n}: the key is empty"));
        }
        Ok(Condition::new(key, self.op.op, self.value.text()))
    }

    fn saved(&self) -> SavedRow {
        SavedRow {
            key: self.key.text().to_string(),
            op: self.op.op.as_str().to_string(),
            value: self.value.text().to_string(),
        }
    }
}

/// What the last preview found.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// The selector it ran.
    pub selector: Selector,
    /// The matching objects, in id order.
    pub matches: Vec<(String, DiagramObject)>,
}

/// The answer of the last apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The server's answer.
    pub updated: SelectorUpdated,
    /// How many the preview had found, when there was one for this selector.
    pub expected: Option<usize>,
}

impl Applied {
    /// The sentence that says when the count differs from the preview's.
    pub fn mismatch(&self) -> Option<String> {
        let expected = self.expected?;
        let got = self.updated.updated_object_count;
        (expected != got).then(|| {
            format!(
                "the preview found {expected} but {got} were updated: the document changed meanwhile"
            )
        })
    }
}

/// The form's state.
#[derive(Debug, Clone)]
pub struct SelectorForm {
    /// The rows (all must match).
    pub rows: Vec<FormRow>,
    /// The field with the keys.
    pub focus: FormFocus,
    /// The props to merge into every match.
    pub props: PropsField,
    /// The highlighted type-ahead suggestion.
    pub suggestion: Option<usize>,
    /// The last preview.
    pub preview: Option<Preview>,
    /// The last apply's answer.
    pub applied: Option<Applied>,
    /// Why the last preview or apply failed, or what is wrong with the form.
    pub error: Option<String>,
    /// Whether a preview or apply is under way.
    pub busy: bool,
    /// The history entry last recalled.
    recall: Option<usize>,
    /// The document the form is for.
    doc: Option<String>,
}

impl Default for SelectorForm {
    fn default() -> SelectorForm {
        SelectorForm {
            rows: vec![FormRow::default()],
            focus: FormFocus::default(),
            props: PropsField::empty_object(),
            suggestion: None,
            preview: None,
            applied: None,
            error: None,
            busy: false,
            recall: None,
            doc: None,
        }
    }
}

impl SelectorForm {
    /// Starts afresh when the form was for another document.
    fn ensure_doc(&mut self, doc: &str) {
        if self.doc.as_deref() != Some(doc) {
            *self = SelectorForm {
                doc: Some(doc.to_string()),
                ..SelectorForm::default()
            };
        }
    }

    /// The selector the rows describe.
    pub fn selector(&self) -> Result<Selector, String> {
        let conditions = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| row.condition(i + 1))
            .collect::<Result<Vec<_>, _>>()?;
        Selector::all(conditions).map_err(|e| e.to_string())
    }

    /// Whether the preview shown is of the selector the rows describe now.
    pub fn preview_is_current(&self) -> bool {
        match (&self.preview, self.selector()) {
            (Some(preview), Ok(selector)) => preview.selector == selector,
            _ => false,
        }
    }

    /// The form as the history keeps it.
    pub fn saved(&self) -> SavedSelector {
        SavedSelector {
            rows: self.rows.iter().map(FormRow::saved).collect(),
            props: self.props.text(),
        }
    }

    /// Fills the form from a history entry.
    fn load_saved(&mut self, saved: &SavedSelector) {
        self.rows = saved
            .rows
            .iter()
            .map(|row| FormRow {
                key: LineInput::new(&row.key),
                op: OperatorField {
                    op: Operator::parse(&row.op).unwrap_or(Operator::Eq),
                },
                value: LineInput::new(&row.value),
            })
            .collect();
        if self.rows.is_empty() {
            self.rows.push(FormRow::default());
        }
        self.props.set_text(&saved.props);
        self.focus = FormFocus::default();
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

    /// The type-ahead for the focused field, from the open document's `meta_index`: its keys
    /// for a key, the values seen under the row's key for a value; those containing what is
    /// typed, ignoring case.
    pub fn suggestions(&self, meta_index: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        let FormFocus::Row(i, field) = self.focus else {
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
        let list: Vec<String> = found
            .into_iter()
            .filter(|s| s.to_lowercase().contains(&typed))
            .cloned()
            .collect();
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
}

impl App {
    /// `w`: opens the selector form on the open document.
    pub(super) fn open_selector_form(&mut self) -> Vec<Effect> {
        let Some(doc) = self.objects.doc.as_ref().map(|d| d.id.clone()) else {
            self.fail("open a document first");
            return Vec::new();
        };
        self.form.ensure_doc(&doc);
        self.overlay = Some(Overlay::SelectorForm);
        Vec::new()
    }

    /// A key in the selector form. Every key that is not a form command goes to the field.
    pub(super) fn selector_form_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.overlay = Some(Overlay::SelectorForm);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let form = &mut self.form;
        match key.code {
            KeyCode::Esc if form.suggestion.is_some() => form.suggestion = None,
            KeyCode::Esc => self.overlay = None,
            KeyCode::Char('p') if ctrl => return self.form_preview(false),
            KeyCode::Char('s') if ctrl => return self.form_apply(),
            KeyCode::Char('n') if ctrl => {
                let at = match form.focus {
                    FormFocus::Row(i, _) => i + 1,
                    FormFocus::Props => form.rows.len(),
                };
                form.rows.insert(at, FormRow::default());
                form.focus = FormFocus::Row(at, Field::Key);
                form.suggestion = None;
            }
            KeyCode::Char('d') if ctrl => {
                let at = match form.focus {
                    FormFocus::Row(i, _) => i,
                    FormFocus::Props => form.rows.len() - 1,
                };
                if form.rows.len() > 1 {
                    form.rows.remove(at);
                    form.focus = FormFocus::Row(at.min(form.rows.len() - 1), Field::Key);
                } else {
                    form.rows[0] = FormRow::default();
                    form.focus = FormFocus::default();
                }
                form.suggestion = None;
            }
            KeyCode::Char('r') if ctrl => self.recall_selector(),
            KeyCode::Tab => form.move_focus(1),
            KeyCode::BackTab => form.move_focus(-1),
            _ => self.form_field_key(key),
        }
        Vec::new()
    }

    /// A key for the focused field.
    fn form_field_key(&mut self, key: KeyEvent) {
        let suggestions = self.form.suggestions(&self.objects.meta_index);
        let form = &mut self.form;
        match (form.focus, key.code) {
            (FormFocus::Props, _) => form.props.input(key),
            (FormFocus::Row(i, Field::Op), code) => {
                let op = &mut form.rows[i].op;
                match code {
                    KeyCode::Left => op.cycle(-1),
                    KeyCode::Right => op.cycle(1),
                    KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                        op.type_char(c)
                    }
                    _ => {}
                }
            }
            (_, KeyCode::Down | KeyCode::Up) if !suggestions.is_empty() => {
                let step = if key.code == KeyCode::Down { 1 } else { -1 };
                form.suggestion = Some(match form.suggestion {
                    None if step > 0 => 0,
                    None => suggestions.len() - 1,
                    Some(at) => step_index(at, suggestions.len(), step),
                });
            }
            (_, KeyCode::Enter) => {
                if let Some(pick) = form.suggestion.and_then(|at| suggestions.get(at)) {
                    let pick = pick.clone();
                    if let Some(input) = form.focused_input() {
                        *input = LineInput::new(pick);
                    }
                }
                form.move_focus(1);
            }
            _ => {
                if let Some(input) = form.focused_input()
                    && input.handle(key)
                {
                    form.suggestion = None;
                }
            }
        }
    }

    /// `Ctrl-R`: puts the next older remembered selector in the form.
    fn recall_selector(&mut self) {
        let len = self.history.entries.len();
        if len == 0 {
            self.form.error = Some("no selectors remembered yet".into());
            return;
        }
        let at = self.form.recall.map_or(0, |i| (i + 1) % len);
        let saved = self.history.entries[at].clone();
        self.form.load_saved(&saved);
        self.form.recall = Some(at);
        self.form.error = None;
        self.notify(format!("recalled selector {} of {len}", at + 1));
    }

    /// The selector, or the reason it cannot be sent (shown in the form).
    fn form_selector(&mut self) -> Option<(String, Selector)> {
        let doc = self.objects.doc.as_ref().map(|d| d.id.clone())?;
        match self.form.selector() {
            Ok(selector) => Some((doc, selector)),
            Err(e) => {
                self.form.error = Some(e);
                None
            }
        }
    }

    /// `Ctrl-P` (and the first step of an apply without a current preview): the selector read.
    fn form_preview(&mut self, then_apply: bool) -> Vec<Effect> {
        if self.form.busy {
            return Vec::new();
        }
        let Some((doc, selector)) = self.form_selector() else {
            return Vec::new();
        };
        self.form.busy = true;
        self.form.error = None;
        vec![self.request(
            Request::ObjectsWhere { doc, selector },
            Purpose::Preview { then_apply },
        )]
    }

    /// `Ctrl-S`: checks the form, then asks (after a preview, to name the count).
    fn form_apply(&mut self) -> Vec<Effect> {
        if self.form.busy {
            return Vec::new();
        }
        if self.form_selector().is_none() {
            return Vec::new();
        }
        if let Err(e) = self.form.props.props() {
            self.form.error = Some(e);
            return Vec::new();
        }
        if self.form.preview_is_current() {
            self.ask_apply();
            Vec::new()
        } else {
            self.form_preview(true)
        }
    }

    /// Asks once, naming the count and the document.
    fn ask_apply(&mut self) {
        let count = self.form.preview.as_ref().map_or(0, |p| p.matches.len());
        let selector = self
            .form
            .selector()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let title = self
            .objects
            .doc
            .as_ref()
            .map(|d| d.title.clone())
            .unwrap_or_default();
        let keys: Vec<String> = self
            .form
            .props
            .props()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        self.overlay = Some(Overlay::confirm(
            "Apply the selector",
            &format!(
                "Set {} on {} of \"{title}\" matching {selector}?",
                keys.join(", "),
                words::objects(count)
            ),
            ConfirmAction::ApplySelector,
        ));
    }

    /// The apply was confirmed: the selector update.
    pub(super) fn apply_selector(&mut self) -> Vec<Effect> {
        self.overlay = Some(Overlay::SelectorForm);
        let Some((doc, selector)) = self.form_selector() else {
            return Vec::new();
        };
        let props = match self.form.props.props() {
            Ok(props) => props,
            Err(e) => {
                self.form.error = Some(e);
                return Vec::new();
            }
        };
        let expected = self
            .form
            .preview
            .as_ref()
            .filter(|p| p.selector == selector)
            .map(|p| p.matches.len());
        self.form.busy = true;
        self.form.error = None;
        vec![self.request(
            Request::UpdateWhere {
                doc,
                selector,
                props,
            },
            Purpose::ApplySelector { expected },
        )]
    }

    /// Remembers the form in the history; the effect saves the file.
    fn remember_selector(&mut self) -> Vec<Effect> {
        let saved = self.form.saved();
        self.history
            .push(saved)
            .map(|job| Effect::File(FileFor::History, job))
            .into_iter()
            .collect()
    }

    /// The preview's answer: show and mark the matches; go on to ask when applying.
    pub(super) fn preview_arrived(
        &mut self,
        request: Request,
        content: Content,
        then_apply: bool,
    ) -> Vec<Effect> {
        let Request::ObjectsWhere { doc, selector } = request else {
            return Vec::new();
        };
        self.form.busy = false;
        // A preview for a form or a document the user has left is dropped.
        if self.form.doc.as_deref() != Some(doc.as_str()) || !self.objects.is_open(&doc) {
            return Vec::new();
        }
        self.objects.marks = content.keys().cloned().collect();
        let n = content.len();
        self.form.preview = Some(Preview {
            selector,
            matches: content.into_iter().collect(),
        });
        self.notify(format!("{} (marked in the tree)", words::objects_match(n)));
        let effects = self.remember_selector();
        if then_apply
            && self.overlay == Some(Overlay::SelectorForm)
            && self.form.preview_is_current()
        {
            self.ask_apply();
        }
        effects
    }

    /// The selector update's answer: show it, with the jump list and any count mismatch.
    pub(super) fn selector_applied(
        &mut self,
        request: Request,
        updated: SelectorUpdated,
        expected: Option<usize>,
    ) -> Vec<Effect> {
        let Request::UpdateWhere { doc, .. } = request else {
            return Vec::new();
        };
        self.form.busy = false;
        let applied = Applied { updated, expected };
        let n = applied.updated.updated_object_count;
        match applied.mismatch() {
            Some(mismatch) => self.fail(format!("updated {n}; {mismatch}")),
            None => self.notify(format!("updated {}", words::objects(n))),
        }
        let mut effects = self.remember_selector();
        // The write is done either way; its marks, result list and reload belong only to the
        // document it changed, and only while that one is open.
        if self.form.doc.as_deref() == Some(doc.as_str()) && self.objects.is_open(&doc) {
            self.objects.marks = applied.updated.updated_object_ids.iter().cloned().collect();
            self.form.applied = Some(applied);
            if matches!(self.overlay, None | Some(Overlay::SelectorForm)) {
                self.overlay = Some(Overlay::SelectorResult { selected: 0 });
            }
            effects.extend(self.reload_content());
        }
        effects
    }

    /// A preview or apply failed: the form keeps everything and says why.
    pub(super) fn selector_failed(&mut self, what: &str, message: &str) {
        self.form.busy = false;
        self.form.error = Some(format!("{what} failed: {message}"));
        self.fail(format!("{what} failed, the form is kept: {message}"));
    }

    /// A key on the apply's answer: move, `Enter` jumps to the object, `w` back to the form.
    pub(super) fn selector_result_key(&mut self, key: KeyEvent, selected: usize) -> Vec<Effect> {
        let ids = self
            .form
            .applied
            .as_ref()
            .map_or(&[][..], |a| &a.updated.updated_object_ids[..]);
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => {}
            KeyCode::Char('w') => self.overlay = Some(Overlay::SelectorForm),
            KeyCode::Enter => {
                if let Some(obj) = ids.get(selected).cloned() {
                    return self.jump_to(&obj);
                }
            }
            _ => {
                let step = movement(key, RESULT_ROWS).unwrap_or(0);
                let selected = step_index(selected, ids.len(), step);
                self.overlay = Some(Overlay::SelectorResult { selected });
            }
        }
        Vec::new()
    }

    /// Shows object `obj` in the tree (clearing the filter and unfolding when they hide it).
    pub(super) fn jump_to(&mut self, obj: &str) -> Vec<Effect> {
        self.overlay = None;
        self.focus = Pane::Objects;
        if self.objects.row_of(obj).is_none() {
            self.objects.filter.clear();
            if let Some(object) = self.objects.object(obj) {
                let kind = object.kind.clone();
                self.objects.collapsed.remove(&kind);
            }
            let keep = self.objects.selected_object().map(|(id, _)| id.clone());
            self.objects.rebuild(keep.as_deref());
        }
        match self.objects.row_of(obj) {
            Some(row) => self.objects_select(row),
            None => {
                self.fail(format!("{obj} is not in the tree (R reloads)"));
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_takes_names_starts_and_cycles() {
        let mut field = OperatorField::default();
        for c in "co".chars() {
            field.type_char(c);
        }
        assert_eq!(field.op, Operator::Co);
        field.type_char('g');
        assert_eq!(field.op, Operator::Gt);
        field.type_char('x');
        assert_eq!(field.op, Operator::Gt);
        field.type_char('n');
        field.type_char('o');
        assert_eq!(field.op, Operator::No);
        field.cycle(1);
        assert_eq!(field.op, Operator::Eq);
        field.cycle(-1);
        assert_eq!(field.op, Operator::No);
    }

    #[test]
    fn rows_make_an_and_selector_and_need_keys() {
        let mut form = SelectorForm::default();
        assert_eq!(form.selector().unwrap_err(), "row 1: the key is empty");
        form.rows[0].key = LineInput::new("status");
        form.rows[0].value = LineInput::new("down");
        assert_eq!(
            form.selector().unwrap().to_string(),
            r#"["status","eq","down"]"#
        );
        form.rows.push(FormRow {
            key: LineInput::new("env"),
            op: OperatorField { op: Operator::Co },
            value: LineInput::new("pro"),
        });
        assert_eq!(
            form.selector().unwrap().to_string(),
            r#"[["status","eq","down"],["env","co","pro"]]"#
        );
    }
}
