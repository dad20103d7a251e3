//! The objects pane: the open document's objects as a tree grouped by type, with readable rows,
//! a filter, folds, marks, create (type, then componentId), delete (one, or every marked one),
//! copy and `$EDITOR`. It shows the open document that App owns and reads it through `Cx`; it
//! never changes it: marks, removals and reloads are actions.

mod on_model;
mod replies;
mod view;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::document::{Marks, Matches, ObjectModel, OpenDoc, TreeRow};
use crate::requests::api;
use crate::requests::purpose::{Answered, Outcome};
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, MarksChange, ObjectsCall};
use crate::widgets::input::Filter;
use diagtui_model::{DiagramObject, ObjectType, Props};

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::overlays::{ConnectionsView, TypePicker, WritesView};
use crate::panes::{DOCS, Filtered, OBJECTS, PROPS, TypedPane};
use crate::requests::call::Request;
use crate::session::record::{Removed, WriteKind, attached_line_groups};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::layout::{self, Column};
use crate::widgets::list::{ListCursor, Pointer};
use crate::widgets::pieces::{filter_line, load_error_lines, pane_block, selected_line};
use crate::writes::server_undo;

/// The objects pane's answers.
#[derive(Debug)]
pub enum ObjectsReply {
    /// An object created: its id.
    Create(Outcome<String>),
    /// The selected object deleted.
    Delete(Outcome<()>),
    /// One delete of the marked objects.
    DeleteMarked(Outcome<()>),
}

/// The deletes of the marked objects, while they run.
#[derive(Debug, Default)]
enum BulkDelete {
    /// None running.
    #[default]
    Idle,
    /// Waiting for these deletes; so many went through (these as they were), these failed
    /// (id, why).
    Running {
        waiting: BTreeSet<RequestId>,
        deleted: usize,
        gone: Vec<Removed>,
        failed: Vec<(String, String)>,
    },
}

/// The objects pane.
#[derive(Debug, Default)]
pub struct ObjectsPane {
    filter: Filter,
    /// Types whose group is folded (kept from one document to the next).
    folded: HashSet<String>,
    /// What the filter matched, narrowed as it is typed.
    matches: Matches,
    rows: Vec<TreeRow>,
    cursor: ListCursor,
    /// The id of the selected object, kept across reloads.
    selected: Option<String>,
    /// An object whose row stays whatever the filter (its edits are unsaved).
    pinned: Option<String>,
    /// An object to select once the content has it (one just created).
    select_after_load: Option<String>,
    bulk_delete: BulkDelete,
    /// The objects being deleted as they were, by their delete's id (for the write history).
    removing: BTreeMap<RequestId, Removed>,
    area: Rect,
}

impl ObjectsPane {
    /// Starts afresh on another document (or none); the folds stay.
    pub fn reset(&mut self) {
        *self = ObjectsPane {
            folded: std::mem::take(&mut self.folded),
            removing: std::mem::take(&mut self.removing),
            area: self.area,
            cursor: ListCursor::default(),
            ..ObjectsPane::default()
        };
        self.fit();
    }

    /// The filter's text (empty when there is none).
    pub fn filter_text(&self) -> &str {
        self.filter.text()
    }

    /// The selected object's id, if an object row is selected.
    pub fn selected_id(&self) -> Option<&str> {
        self.selected.as_deref()
    }

    /// The open document's content changed: rebuild the rows, keeping the selected object (or
    /// selecting the one just created), else the first object.
    pub fn sync(&mut self, cx: &Cx) {
        let Some(model) = cx.doc.and_then(|d| d.model()) else {
            self.rows.clear();
            self.cursor.set_len(0);
            return;
        };
        let keep = match self.select_after_load.take() {
            Some(created) if model.index_of(&created).is_some() => Some(created),
            Some(created) => {
                self.select_after_load = Some(created);
                self.selected.clone()
            }
            None => self.selected.clone(),
        };
        self.rebuild(model, keep.as_deref(), false);
    }

    /// Objects were taken out: rebuild the rows, the selection staying on its row (the next
    /// object moves up into it), as in a file manager.
    pub fn sync_after_removal(&mut self, cx: &Cx) {
        let at = self.cursor.selected();
        let kept = self.selected.clone();
        self.sync(cx);
        if let Some(model) = cx.doc.and_then(|d| d.model())
            && kept.is_some_and(|id| model.index_of(&id).is_none())
        {
            self.select(at.min(self.rows.len().saturating_sub(1)), model);
        }
    }

    /// Rebuilds the rows from the model, folds and filter (`narrow`: the filter only changed,
    /// so what it matched last may be narrowed); selects `keep` when it shows, else the first
    /// object.
    fn rebuild(&mut self, model: &ObjectModel, keep: Option<&str>, narrow: bool) {
        let last = narrow.then_some(&self.matches);
        self.matches = model.matches(self.filter.text(), last);
        if let Some(i) = self.pinned.as_deref().and_then(|p| model.index_of(p)) {
            self.matches.include(i);
        }
        self.rows = model.tree(&self.matches, &self.folded);
        self.cursor.set_len(self.rows.len());
        let target = keep
            .and_then(|id| row_of(&self.rows, model, id))
            .or_else(|| {
                self.rows
                    .iter()
                    .position(|r| matches!(r, TreeRow::Object(_)))
            })
            .unwrap_or(0);
        self.select(target, model);
    }

    /// Selects row `row` and remembers its object.
    fn select(&mut self, row: usize, model: &ObjectModel) {
        self.cursor.select(row);
        self.selected = match self.rows.get(self.cursor.selected()) {
            Some(TreeRow::Object(i)) => Some(model.id(*i).to_string()),
            _ => None,
        };
    }

    /// Moves to row `target`, asking first when that would leave unsaved edits of another
    /// object.
    fn go_to(&mut self, target: usize, cx: &Cx) -> Vec<Action> {
        let Some(model) = cx.doc.and_then(|d| d.model()) else {
            return Vec::new();
        };
        let target = target.min(self.rows.len().saturating_sub(1));
        let arriving = match self.rows.get(target) {
            Some(TreeRow::Object(i)) => Some(model.id(*i)),
            _ => None,
        };
        if let (Some(arriving), Some(edited)) = (arriving, cx.unsaved)
            && arriving != edited
        {
            return vec![ask_to_drop_edits(
                vec![Action::to_pane(ObjectsCall::SelectRow(target))],
                cx,
            )];
        }
        self.select_row(target, model)
    }

    /// Selects row `target` without asking; the properties follow (an object, or the summary
    /// of a type).
    fn select_row(&mut self, target: usize, model: &ObjectModel) -> Vec<Action> {
        self.select(target, model);
        vec![Action::ShowSelected]
    }

    /// The type whose heading is selected, and how many of its objects the tree shows.
    pub fn selected_heading<'a>(&self, model: &'a ObjectModel) -> Option<(&'a str, usize)> {
        match self.rows.get(self.cursor.selected()) {
            Some(TreeRow::Group(gi, shown)) => Some((model.groups()[*gi].kind.as_str(), *shown)),
            _ => None,
        }
    }

    /// Folds (`Some(true)`), unfolds (`Some(false)`) or toggles (`None`) the selected row's
    /// group, and selects its heading.
    fn fold(&mut self, fold: Option<bool>, model: &ObjectModel) {
        let gi = match self.rows.get(self.cursor.selected()) {
            Some(TreeRow::Group(gi, _)) => *gi,
            Some(TreeRow::Object(i)) => {
                let kind = model.kind(*i);
                match model.groups().iter().position(|g| g.kind == kind) {
                    Some(gi) => gi,
                    None => return,
                }
            }
            None => return,
        };
        let kind = model.groups()[gi].kind.clone();
        let folded = self.folded.contains(&kind);
        if fold.unwrap_or(!folded) {
            self.folded.insert(kind);
        } else {
            self.folded.remove(&kind);
        }
        self.rows = model.tree(&self.matches, &self.folded);
        self.cursor.set_len(self.rows.len());
        let heading = self
            .rows
            .iter()
            .position(|r| matches!(r, TreeRow::Group(g, _) if *g == gi))
            .unwrap_or(0);
        self.select(heading, model);
    }

    /// Keeps objects `objs` as they are now, each under the id of its delete (`ids`, in the
    /// same order), to record them once deleted.
    fn keep_removed(&mut self, objs: &[String], ids: &[RequestId], cx: &Cx) {
        let Some(model) = cx.doc.and_then(|d| d.model()) else {
            return;
        };
        for removed in Removed::capture(model, objs) {
            if let Some(at) = objs.iter().position(|o| *o == removed.obj) {
                self.removing.insert(ids[at], removed);
            }
        }
    }

    /// Shows object `obj` in the tree, clearing the filter and unfolding its type when they
    /// hide it.
    fn jump(&mut self, obj: &str, cx: &Cx) -> Vec<Action> {
        let Some(model) = cx.doc.and_then(|d| d.model()) else {
            return Vec::new();
        };
        let mut actions = vec![Action::Focus(OBJECTS)];
        self.reveal(obj, model);
        match row_of(&self.rows, model, obj) {
            Some(row) => actions.extend(self.go_to(row, cx)),
            None => actions.push(Action::error(format!(
                "{} is not in the tree ({} reloads)",
                cx.name_of(obj),
                cx.key(Context::Global, Command::Refresh)
            ))),
        }
        actions
    }

    /// Selects object `obj`, whose edits are unsaved: its row stays whatever the filter (until
    /// [`ObjectsPane::unpin`]) and its type unfolds; says whether the filter or a fold hid it.
    /// An object the document no longer has is not selected.
    pub fn hold(&mut self, obj: &str, model: &ObjectModel) -> bool {
        let hidden = row_of(&self.rows, model, obj).is_none();
        if let Some(i) = model.index_of(obj) {
            self.folded.remove(model.kind(i));
        }
        self.pinned = Some(obj.to_owned());
        self.rebuild(model, Some(obj), false);
        hidden
    }

    /// The edits are saved or dropped: the filter alone says which rows show again.
    pub fn unpin(&mut self, model: &ObjectModel) {
        if self.pinned.take().is_some() {
            let keep = self.selected.clone();
            self.rebuild(model, keep.as_deref(), false);
        }
    }

    /// Makes object `obj` a row of the tree, clearing the filter and unfolding its type when
    /// they hide it (the selection stays where it was).
    fn reveal(&mut self, obj: &str, model: &ObjectModel) {
        if row_of(&self.rows, model, obj).is_some() {
            return;
        }
        self.filter.command(Command::ClearFilter);
        self.fit();
        if let Some(i) = model.index_of(obj) {
            self.folded.remove(model.kind(i));
        }
        let keep = self.selected.clone();
        self.rebuild(model, keep.as_deref(), false);
    }

    /// Creates an object of `kind` with `props` in the open document.
    fn create(&mut self, kind: ObjectType, props: Props, cx: &Cx) -> Vec<Action> {
        let Some(doc) = cx.doc_id() else {
            return Vec::new();
        };
        let call = api::create_object(doc.to_string(), kind.as_str().to_string(), props);
        vec![Action::Send(cx.send(call, |created| {
            Answered::pane(ObjectsReply::Create(created))
        }))]
    }

    /// `Space` on a type heading: marks the objects of the type the tree shows, or unmarks them
    /// when they all are marked.
    fn mark_group(&self, marks: &Marks) -> Vec<Action> {
        let at = self.cursor.selected();
        let members: Vec<usize> = self.rows[at + 1..]
            .iter()
            .map_while(|row| match row {
                TreeRow::Object(i) => Some(*i),
                TreeRow::Group(..) => None,
            })
            .collect();
        if members.is_empty() {
            return Vec::new();
        }
        let n = words::objects(members.len());
        if members.iter().all(|&m| marks.contains(m)) {
            vec![
                Action::Marks(MarksChange::Remove(members)),
                Action::info(format!("unmarked {n}")),
            ]
        } else {
            vec![
                Action::Marks(MarksChange::Add(members)),
                Action::info(format!("marked {n}")),
            ]
        }
    }

    /// The ids of the marked objects the tree does not show (the filter or a fold hides them),
    /// in id order.
    fn hidden(&self, doc: &OpenDoc) -> Vec<String> {
        let Some(model) = doc.model() else {
            return Vec::new();
        };
        let mut shown = vec![false; model.len()];
        for row in &self.rows {
            if let TreeRow::Object(i) = row {
                shown[*i] = true;
            }
        }
        doc.marks
            .indexes()
            .filter(|&i| !shown[i])
            .map(|i| model.id(i).to_string())
            .collect()
    }
}

/// Marked objects listed in a question.
const MARKED_ROWS: usize = 6;

/// Line groups named in a delete question.
const LINE_GROUPS: usize = 6;

/// The row showing object `obj`, if the filter and folds show it.
fn row_of(rows: &[TreeRow], model: &ObjectModel, obj: &str) -> Option<usize> {
    let index = model.index_of(obj)?;
    rows.iter()
        .position(|r| matches!(r, TreeRow::Object(i) if *i == index))
}

/// The question asked before unsaved edits (of `cx.unsaved`, named) are lost; yes drops them,
/// then carries out `then`.
pub fn ask_to_drop_edits(then: Vec<Action>, cx: &Cx) -> Action {
    let mut yes = vec![Action::DropEdits];
    yes.extend(then);
    Action::Ask(
        Ask::new(
            "Unsaved edits",
            Body::Text(match cx.unsaved {
                Some(obj) => format!(
                    "The properties pane holds unsaved edits of {}. Drop them?",
                    cx.names().of(obj).described()
                ),
                None => "The properties pane holds unsaved edits. Drop them?".into(),
            }),
            vec![
                Choice::new(Command::Yes, "drop them", yes),
                Choice::new(Command::No, "keep editing", Vec::new()),
            ],
        )
        .destructive(),
    )
}

impl Filtered for ObjectsPane {
    fn filter(&mut self) -> &mut Filter {
        &mut self.filter
    }

    /// The rows shown follow the pane's height and the filter line.
    fn fit(&mut self) {
        let extra = u16::from(self.filter.shown());
        self.cursor.set_rows(layout::inner_rows(self.area, extra));
    }

    /// Filters again after the filter changed.
    fn refilter(&mut self, cx: &Cx) -> Vec<Action> {
        self.fit();
        let Some(model) = cx.doc.and_then(|d| d.model()) else {
            return Vec::new();
        };
        let keep = self.selected.clone();
        self.rebuild(model, keep.as_deref(), true);
        vec![Action::ShowSelected]
    }

    fn list_context(&self) -> Context {
        Context::Objects
    }
}

/// The version of `obj` the open document holds from the server (what a delete names as
/// `If-Match`); `None` from a server without versions.
fn server_version(cx: &Cx, obj: &str) -> Option<u64> {
    cx.doc
        .and_then(|doc| doc.model())
        .and_then(|model| model.server_version_of(obj))
}
