//! The objects pane: the open document's objects as a tree grouped by type, with readable rows,
//! a filter, create (type, then component id with type-ahead), delete, copy and `$EDITOR`.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crossterm::event::{KeyCode, KeyEvent};
use serde_json::Value;

use super::app::{App, Effect, Pane, Purpose, movement, scroll_into_view, step_index};
use super::input::{Filter, FilterKey};
use super::overlay::{ConfirmAction, Overlay};
use super::request::{Request, RequestId};
use crate::model::{Content, DiagramObject, DocSummary, ObjectType, Props};

/// One row of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeRow {
    /// A type heading: index into the groups and how many of its objects pass the filter.
    Group(usize, usize),
    /// An object: index into the objects.
    Object(usize),
}

/// The objects of one type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The type's wire name.
    pub kind: String,
    /// Indexes into the objects, in id order.
    pub members: Vec<usize>,
}

/// The objects pane's state.
#[derive(Debug, Default)]
pub struct ObjectsPane {
    /// The open document.
    pub doc: Option<DocSummary>,
    /// Whether its content is being loaded.
    pub loading: bool,
    /// Why it could not be loaded.
    pub error: Option<String>,
    content_request: Option<RequestId>,
    /// Its objects in id order.
    pub objects: Vec<(String, DiagramObject)>,
    /// The objects grouped by type, in the order of `ObjectType::ALL` then unknown types.
    pub groups: Vec<Group>,
    /// Types whose group is folded.
    pub collapsed: HashSet<String>,
    /// The filter.
    pub filter: Filter,
    /// The rows shown (only indexes: the text of a row is built when it is drawn).
    pub rows: Vec<TreeRow>,
    /// The selected row.
    pub selected: usize,
    /// The first row shown.
    pub offset: usize,
    /// An object to select once the content arrives (one just created).
    select_after_load: Option<String>,
    /// The ids of the marked objects.
    pub marks: BTreeSet<String>,
    /// Every meta key of the objects, with the values seen under it (as text): the selector
    /// form's type-ahead, kept here so that typing and drawing never scan the objects.
    pub meta_index: BTreeMap<String, BTreeSet<String>>,
}

impl ObjectsPane {
    /// The object with id `obj` (the objects are in id order).
    pub fn object(&self, obj: &str) -> Option<&DiagramObject> {
        self.index_of(obj).map(|at| &self.objects[at].1)
    }

    /// Where object `obj` is in `objects`.
    fn index_of(&self, obj: &str) -> Option<usize> {
        self.objects
            .binary_search_by(|(id, _)| id.as_str().cmp(obj))
            .ok()
    }

    /// The row showing object `obj`, if the filter and folds show it.
    pub fn row_of(&self, obj: &str) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| matches!(r, TreeRow::Object(i) if self.objects[*i].0 == obj))
    }

    /// Whether the document `doc` (an id) is the open one.
    pub fn is_open(&self, doc: &str) -> bool {
        self.doc.as_ref().is_some_and(|d| d.id == doc)
    }

    /// Starts showing `doc` (its content still to come).
    pub fn open(&mut self, doc: DocSummary) {
        *self = ObjectsPane {
            doc: Some(doc),
            collapsed: std::mem::take(&mut self.collapsed),
            ..ObjectsPane::default()
        };
    }

    /// Shows no document.
    pub fn close(&mut self) {
        *self = ObjectsPane::default();
    }

    /// Replaces the objects, keeping the selected object when it still exists.
    pub fn set_content(&mut self, content: Content) {
        let keep = self.selected_object().map(|(id, _)| id.clone());
        self.marks.retain(|id| content.contains_key(id));
        self.objects = content.into_iter().collect();
        let mut groups: Vec<Group> = ObjectType::ALL
            .iter()
            .map(|t| Group {
                kind: t.as_str().to_string(),
                members: Vec::new(),
            })
            .collect();
        for (i, (_, object)) in self.objects.iter().enumerate() {
            match groups.iter_mut().find(|g| g.kind == object.kind) {
                Some(group) => group.members.push(i),
                None => groups.push(Group {
                    kind: object.kind.clone(),
                    members: vec![i],
                }),
            }
        }
        groups.retain(|g| !g.members.is_empty());
        self.groups = groups;
        self.index_meta();
        self.rebuild(keep.as_deref());
    }

    /// Rebuilds [`ObjectsPane::meta_index`] from the objects.
    fn index_meta(&mut self) {
        self.meta_index.clear();
        let metas = self
            .objects
            .iter()
            .filter_map(|(_, o)| o.data.get("meta").and_then(Value::as_object));
        for meta in metas {
            for (key, value) in meta {
                self.meta_index
                    .entry(key.clone())
                    .or_default()
                    .insert(scalar_text(value));
            }
        }
    }

    /// Rebuilds the rows from the groups, folds and filter; selects `keep` when it shows.
    pub fn rebuild(&mut self, keep: Option<&str>) {
        let matcher = Matcher::new(self.filter.text());
        self.rows.clear();
        for (gi, group) in self.groups.iter().enumerate() {
            let shown: Vec<usize> = group
                .members
                .iter()
                .copied()
                .filter(|&i| matcher.matches(&self.objects[i].0, &self.objects[i].1))
                .collect();
            if shown.is_empty() && !matcher.is_empty() {
                continue;
            }
            self.rows.push(TreeRow::Group(gi, shown.len()));
            if !self.collapsed.contains(&group.kind) {
                self.rows.extend(shown.into_iter().map(TreeRow::Object));
            }
        }
        let found = keep.and_then(|id| self.row_of(id));
        self.selected = found
            .or_else(|| {
                self.rows
                    .iter()
                    .position(|r| matches!(r, TreeRow::Object(_)))
            })
            .unwrap_or(0)
            .min(self.rows.len().saturating_sub(1));
    }

    /// The selected object, when an object row is selected.
    pub fn selected_object(&self) -> Option<&(String, DiagramObject)> {
        match self.rows.get(self.selected) {
            Some(TreeRow::Object(i)) => self.objects.get(*i),
            _ => None,
        }
    }

    /// Scrolls so the selection shows in `rows` rows.
    pub fn keep_visible(&mut self, rows: usize) {
        self.offset = scroll_into_view(self.offset, self.selected, rows, 0)
            .min(self.rows.len().saturating_sub(1));
    }

    /// Replaces one object's data (after a save), keeping everything else.
    pub fn replace_data(&mut self, obj: &str, data: Props) {
        if let Some(at) = self.index_of(obj) {
            self.objects[at].1.data = data;
            self.index_meta();
        }
    }
}

/// The filter: words that must all match. `key=value` matches a `meta` entry; any other word
/// matches the id, the type or the row's text, ignoring case.
struct Matcher {
    words: Vec<(String, Option<String>)>,
}

impl Matcher {
    fn new(text: &str) -> Matcher {
        let words = text
            .split_whitespace()
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_lowercase())),
                None => (w.to_lowercase(), None),
            })
            .collect();
        Matcher { words }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn matches(&self, id: &str, object: &DiagramObject) -> bool {
        if self.words.is_empty() {
            return true;
        }
        let text = row_text(object).to_lowercase();
        self.words.iter().all(|(word, value)| match value {
            Some(value) => object
                .data
                .get("meta")
                .and_then(|m| m.get(word))
                .is_some_and(|v| scalar_text(v).to_lowercase() == *value),
            None => {
                id.contains(word.as_str())
                    || object.kind.contains(word.as_str())
                    || text.contains(word.as_str())
            }
        })
    }
}

/// A JSON scalar as plain text (strings without quotes).
pub fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a row says about an object: a label's text, a component's kind and name with a
/// summary of its meta, a short fact for the other types.
pub fn row_text(object: &DiagramObject) -> String {
    let data = &object.data;
    let text = |key: &str| {
        data.get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let count = |key: &str| data.get(key).and_then(Value::as_array).map_or(0, Vec::len);
    match object.kind.as_str() {
        "label" => format!("\"{}\"", text("text")),
        "component" => {
            let mut out = text("componentId");
            let name = text("name");
            if !name.is_empty() {
                out.push_str(&format!(" ({name})"));
            }
            if let Some(Value::Object(meta)) = data.get("meta")
                && !meta.is_empty()
            {
                let summary: Vec<String> = meta
                    .iter()
                    .take(3)
                    .map(|(k, v)| format!("{k}={}", scalar_text(v)))
                    .collect();
                let more = if meta.len() > 3 { " …" } else { "" };
                out.push_str(&format!(" [{}{more}]", summary.join(" ")));
            }
            out
        }
        "line-group" => format!("{} anchors, {} lines", count("anchors"), count("lines")),
        "area" => format!("{} corners {}", count("anchors"), text("fillColor")),
        "icon" => text("icon"),
        "image" => text("path"),
        "widget" => format!("{} {}", text("widgetType"), text("plotType")),
        _ => String::new(),
    }
}

impl App {
    /// (Re)loads the open document's content.
    pub(super) fn reload_content(&mut self) -> Vec<Effect> {
        let Some(doc) = self.objects.doc.as_ref().map(|d| d.id.clone()) else {
            return Vec::new();
        };
        self.objects.loading = true;
        let effect = self.request(Request::Content { doc }, Purpose::Content);
        self.objects.content_request = Some(self.last_id());
        vec![effect]
    }

    /// The content arrived: applied only when it is the last one asked for the open document.
    pub(super) fn content_loaded(&mut self, id: RequestId, content: Content) -> Vec<Effect> {
        if self.objects.content_request != Some(id) {
            tracing::debug!(id, "stale content dropped");
            return Vec::new();
        }
        self.objects.loading = false;
        self.objects.error = None;
        if let Some(doc) = &self.objects.doc {
            self.docs.counts.insert(doc.id.clone(), content.len());
        }
        self.objects.set_content(content);
        if let Some(obj) = self.objects.select_after_load.take() {
            self.objects.rebuild(Some(&obj));
        }
        self.objects.keep_visible(self.objects_rows());
        self.show_selected_object();
        Vec::new()
    }

    /// The content could not be loaded.
    pub(super) fn content_failed(&mut self, id: RequestId, message: String) {
        if self.objects.content_request == Some(id) {
            self.objects.loading = false;
            self.objects.error = Some(message.clone());
            self.fail(format!("could not load the objects: {message} (R retries)"));
        }
    }

    /// Puts the selected object in the editor unless the editor holds unsaved edits of it.
    pub(super) fn show_selected_object(&mut self) {
        let Some(doc) = self.objects.doc.as_ref().map(|d| d.id.clone()) else {
            return;
        };
        match self.objects.selected_object().cloned() {
            Some((id, object)) => {
                let same = self
                    .editor
                    .target()
                    .is_some_and(|t| t.obj == id && t.doc == doc);
                if !(same && self.editor.is_dirty()) {
                    self.editor.load(doc, id, object);
                }
            }
            None if !self.editor.is_dirty() => self.editor.close(),
            None => {}
        }
    }

    /// Moves to row `target`, asking first when that would leave unsaved edits.
    pub(super) fn objects_select(&mut self, target: usize) -> Vec<Effect> {
        let leaving = self.objects.selected_object().map(|(id, _)| id.clone());
        let arriving = match self.objects.rows.get(target) {
            Some(TreeRow::Object(i)) => Some(self.objects.objects[*i].0.clone()),
            _ => None,
        };
        if leaving != arriving && arriving.is_some() && self.has_unsaved_edits() {
            self.overlay = Some(Overlay::discard(ConfirmAction::SelectRow(target)));
            return Vec::new();
        }
        self.select_row(target);
        Vec::new()
    }

    /// Selects row `target` without asking.
    pub(super) fn select_row(&mut self, target: usize) {
        self.objects.selected = target.min(self.objects.rows.len().saturating_sub(1));
        self.objects.keep_visible(self.objects_rows());
        if matches!(
            self.objects.rows.get(self.objects.selected),
            Some(TreeRow::Object(_))
        ) {
            self.show_selected_object();
        }
    }

    /// Moves the selection by `step` rows.
    pub(super) fn objects_move(&mut self, step: isize) -> Vec<Effect> {
        let target = step_index(self.objects.selected, self.objects.rows.len(), step);
        self.objects_select(target)
    }

    /// A click on the `row`-th visible row.
    pub(super) fn objects_click(&mut self, row: usize) -> Vec<Effect> {
        let target = self.objects.offset + row;
        if target < self.objects.rows.len() {
            self.objects_select(target)
        } else {
            Vec::new()
        }
    }

    /// A key while the filter is typed.
    pub(super) fn objects_filter_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        match self.objects.filter.key(key) {
            FilterKey::Changed => self.refilter_objects(),
            FilterKey::Move(step) => return self.objects_move(step),
            FilterKey::Unchanged => {}
        }
        Vec::new()
    }

    fn refilter_objects(&mut self) {
        let keep = self.editor.target().map(|t| t.obj.clone());
        self.objects.rebuild(keep.as_deref());
        self.objects.keep_visible(self.objects_rows());
        if !self.has_unsaved_edits() {
            self.show_selected_object();
        }
    }

    /// Folds or unfolds the group of the selected row.
    fn fold(&mut self, fold: Option<bool>) {
        let gi = match self.objects.rows.get(self.objects.selected) {
            Some(TreeRow::Group(gi, _)) => *gi,
            Some(TreeRow::Object(i)) => {
                let kind = &self.objects.objects[*i].1.kind;
                match self.objects.groups.iter().position(|g| &g.kind == kind) {
                    Some(gi) => gi,
                    None => return,
                }
            }
            None => return,
        };
        let kind = self.objects.groups[gi].kind.clone();
        let folded = self.objects.collapsed.contains(&kind);
        if fold.unwrap_or(!folded) {
            self.objects.collapsed.insert(kind);
        } else {
            self.objects.collapsed.remove(&kind);
        }
        self.objects.rebuild(None);
        self.objects.selected = self
            .objects
            .rows
            .iter()
            .position(|r| matches!(r, TreeRow::Group(g, _) if *g == gi))
            .unwrap_or(0);
        self.objects.keep_visible(self.objects_rows());
    }

    /// A command key in the objects pane.
    pub(super) fn objects_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(step) = movement(key, self.objects_rows()) {
            return self.objects_move(step);
        }
        match key.code {
            KeyCode::Char('/') => self.objects.filter.start(),
            KeyCode::Char(' ') => self.toggle_mark(),
            KeyCode::Char('V') => self.mark_shown(),
            KeyCode::Char('b') => self.open_bulk_edit(),
            KeyCode::Char('w') => return self.open_selector_form(),
            KeyCode::Esc if !self.objects.marks.is_empty() => {
                let n = self.objects.marks.len();
                self.objects.marks.clear();
                self.notify(format!("cleared {n} marks"));
            }
            KeyCode::Esc if !self.objects.filter.text().is_empty() => {
                self.objects.filter.clear();
                self.refilter_objects();
            }
            KeyCode::Esc => self.focus = Pane::Docs,
            KeyCode::Left | KeyCode::Char('h') => self.fold(Some(true)),
            KeyCode::Right | KeyCode::Char('l') => self.fold(Some(false)),
            KeyCode::Enter => match self.objects.rows.get(self.objects.selected) {
                Some(TreeRow::Group(..)) => self.fold(None),
                Some(TreeRow::Object(_)) => self.focus = Pane::Props,
                None => {}
            },
            KeyCode::Char('a') if self.objects.doc.is_some() => {
                self.overlay = Some(Overlay::TypePicker { selected: 0 });
            }
            KeyCode::Char('d') if !self.objects.marks.is_empty() => {
                if let Some(doc) = self.objects.doc.clone() {
                    self.ask_delete_marked(doc);
                }
            }
            KeyCode::Char('d') => {
                if let (Some(doc), Some((id, object))) = (
                    self.objects.doc.clone(),
                    self.objects.selected_object().cloned(),
                ) {
                    let message = format!(
                        "Delete {} {id} {} from \"{}\"?",
                        object.kind,
                        row_text(&object),
                        doc.title
                    );
                    self.overlay = Some(Overlay::confirm(
                        "Delete object",
                        &message,
                        ConfirmAction::DeleteObject {
                            doc: doc.id,
                            obj: id,
                        },
                    ));
                }
            }
            KeyCode::Char('y') => {
                if let Some((id, _)) = self.objects.selected_object() {
                    let id = id.clone();
                    self.notify(format!("copied the id {id}"));
                    return vec![Effect::Copy(id)];
                }
            }
            KeyCode::Char('Y') => {
                if let Some((id, object)) = self.objects.selected_object() {
                    let json = serde_json::to_string_pretty(object).unwrap_or_default();
                    self.notify(format!("copied the JSON of {id}"));
                    return vec![Effect::Copy(json)];
                }
            }
            KeyCode::Char('e') => return self.open_external_editor(),
            _ => {}
        }
        Vec::new()
    }

    /// Creates an object of `kind` with `props` in the open document.
    pub(super) fn create_object(&mut self, kind: ObjectType, props: Props) -> Vec<Effect> {
        let Some(doc) = self.objects.doc.as_ref().map(|d| d.id.clone()) else {
            return Vec::new();
        };
        let request = Request::CreateObject {
            doc,
            kind: kind.as_str().to_string(),
            props,
        };
        vec![self.request(request, Purpose::CreateObject)]
    }

    /// An object was created: reload and select it.
    pub(super) fn object_created(&mut self, request: Request, obj: String) -> Vec<Effect> {
        let Request::CreateObject { doc, kind, .. } = request else {
            return Vec::new();
        };
        self.notify(format!("created {kind} {obj}"));
        if self.objects.is_open(&doc) {
            self.objects.select_after_load = Some(obj);
            self.reload_content()
        } else {
            Vec::new()
        }
    }

    /// Sends a confirmed object delete, removing the row at once.
    pub(super) fn delete_object(&mut self, doc: String, obj: String) -> Vec<Effect> {
        if self.editor.target().is_some_and(|t| t.obj == obj) {
            self.editor.close();
        }
        if self.objects.is_open(&doc) {
            let content: Content = self
                .objects
                .objects
                .iter()
                .filter(|(id, _)| *id != obj)
                .cloned()
                .collect();
            let selected = self.objects.selected;
            self.objects.set_content(content);
            self.objects.selected = selected.min(self.objects.rows.len().saturating_sub(1));
            self.objects.keep_visible(self.objects_rows());
            self.show_selected_object();
        }
        vec![self.request(Request::DeleteObject { doc, obj }, Purpose::DeleteObject)]
    }

    /// An object was deleted: check the tree against the server.
    pub(super) fn object_deleted(&mut self, request: Request) -> Vec<Effect> {
        if let Request::DeleteObject { obj, .. } = request {
            self.notify(format!("deleted {obj}"));
        }
        self.reload_content()
    }
}
