//! The objects pane: the open document's objects as a tree grouped by type, with readable rows,
//! a filter, folds, marks, create (type, then componentId), delete (one, or every marked one),
//! copy and `$EDITOR`. It shows the open document that App owns and reads it through `Cx`; it
//! never changes it: marks, removals and reloads are actions.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::document::{Marks, Matches, ObjectModel, OpenDoc, TreeRow};
use crate::requests::purpose::{ObjectsWork, Purpose};
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, MarksChange, ObjectsCall, Pane};
use crate::widgets::input::Filter;
use diagtui_model::{DiagramObject, ObjectType, Props};

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::overlays::{ConnectionsView, TypePicker, WritesView};
use crate::panes::Filtered;
use crate::requests::call::{Answer, Failure, Request};
use crate::session::record::{Removed, WriteKind, attached_line_groups};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::layout;
use crate::widgets::list::{ListCursor, Pointer};
use crate::widgets::pieces::{filter_line, load_error_lines, pane_block, selected_line};
use crate::writes::server_undo;

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
                vec![Action::Objects(ObjectsCall::SelectRow(target))],
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

    /// A call App forwards.
    pub fn call(&mut self, call: ObjectsCall, cx: &Cx) -> Vec<Action> {
        match call {
            ObjectsCall::SelectRow(row) => match cx.doc.and_then(|d| d.model()) {
                Some(model) => self.select_row(row, model),
                None => Vec::new(),
            },
            ObjectsCall::Create(kind, props) => self.create(kind, props, cx),
            ObjectsCall::Delete { doc, obj } => {
                let sent = cx.send(
                    Request::DeleteObject {
                        doc: doc.clone(),
                        obj: obj.clone(),
                        if_match: server_version(cx, &obj),
                    },
                    Purpose::Objects(ObjectsWork::Delete),
                );
                self.keep_removed(std::slice::from_ref(&obj), &[sent.id], cx);
                vec![
                    Action::RemoveObjects {
                        doc,
                        objs: vec![obj],
                    },
                    Action::Send(sent),
                ]
            }
            ObjectsCall::DeleteMarked { doc, objs } => {
                let sends: Vec<_> = objs
                    .iter()
                    .map(|obj| {
                        cx.send(
                            Request::DeleteObject {
                                doc: doc.clone(),
                                obj: obj.clone(),
                                if_match: server_version(cx, obj),
                            },
                            Purpose::Objects(ObjectsWork::DeleteMarked),
                        )
                    })
                    .collect();
                let ids: Vec<RequestId> = sends.iter().map(|s| s.id).collect();
                self.keep_removed(&objs, &ids, cx);
                self.bulk_delete = BulkDelete::Running {
                    waiting: ids.into_iter().collect(),
                    deleted: 0,
                    gone: Vec::new(),
                    failed: Vec::new(),
                };
                let mut actions = vec![
                    Action::RemoveObjects { doc, objs },
                    Action::Marks(MarksChange::Clear),
                ];
                actions.extend(sends.into_iter().map(Action::Send));
                actions
            }
            ObjectsCall::Jump(obj) => self.jump(&obj, cx),
        }
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
        let mut actions = vec![Action::Focus(Pane::Objects)];
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
        let request = Request::CreateObject {
            doc: doc.to_string(),
            kind: kind.as_str().to_string(),
            props,
        };
        vec![Action::Send(
            cx.send(request, Purpose::Objects(ObjectsWork::Create)),
        )]
    }

    /// The answer to one of its requests.
    pub fn on_reply(
        &mut self,
        work: ObjectsWork,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        match (work, outcome) {
            (ObjectsWork::Create, Ok(Answer::Created(obj))) => {
                let Request::CreateObject { doc, kind, props } = request else {
                    return Vec::new();
                };
                let object = DiagramObject { kind, data: props };
                let name = cx.names().of_object(&obj, &object).described();
                let mut actions = vec![Action::info(format!("created {name}"))];
                if cx.doc_id() == Some(doc.as_str()) {
                    let shown = cx.doc.and_then(|d| d.model()?.index_of(&obj)).is_some();
                    self.select_after_load = Some(obj);
                    if shown {
                        // Its change event came first and put it in already.
                        self.sync(cx);
                    }
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            (ObjectsWork::Create, Err(failure)) => vec![Action::error(format!(
                "could not create the object: {}",
                failure.message
            ))],
            (ObjectsWork::Delete, Ok(_)) => {
                let mut actions = Vec::new();
                if let Request::DeleteObject { doc, obj, .. } = request {
                    let removed = self.removing.remove(&id);
                    let name = match &removed {
                        Some(r) => cx.names().of_object(&r.obj, &r.object).described(),
                        None => obj,
                    };
                    actions.extend(removed.map(|r| Action::Record {
                        doc,
                        kind: WriteKind::Delete(vec![r]),
                    }));
                    actions.push(Action::info(format!(
                        "deleted {name} ({} undoes)",
                        cx.key(Context::Objects, Command::History)
                    )));
                }
                actions.push(Action::ReloadAfterWrite);
                actions
            }
            (ObjectsWork::Delete, Err(failure)) => {
                self.removing.remove(&id);
                let message = match failure.stale {
                    Some(_) => "deleted nothing: the object changed since it was read (another \
                                client wrote it); the document is read again, look and delete \
                                again"
                        .to_owned(),
                    None => format!("could not delete the object: {}", failure.message),
                };
                vec![Action::error(message), Action::ReloadContent]
            }
            (ObjectsWork::DeleteMarked, outcome) => {
                let Request::DeleteObject { doc, obj, .. } = request else {
                    return Vec::new();
                };
                let failed = outcome.err().map(|failure| (obj, failure.message));
                self.marked_deleted(id, &doc, failed, cx)
            }
            (work, Ok(answer)) => vec![Action::unexpected(&work, &answer)],
        }
    }

    /// One delete of the marked objects answered; the last one reports and reloads.
    fn marked_deleted(
        &mut self,
        id: RequestId,
        doc: &str,
        failure: Option<(String, String)>,
        cx: &Cx,
    ) -> Vec<Action> {
        let removed = self.removing.remove(&id);
        let BulkDelete::Running {
            waiting,
            deleted,
            gone,
            failed,
        } = &mut self.bulk_delete
        else {
            return Vec::new();
        };
        if !waiting.remove(&id) {
            return Vec::new();
        }
        match failure {
            Some(failure) => failed.push(failure),
            None => {
                *deleted += 1;
                gone.extend(removed);
            }
        }
        if !waiting.is_empty() {
            return Vec::new();
        }
        let undo = cx.key(Context::Objects, Command::History);
        let report = match failed.first() {
            None => Action::info(format!(
                "deleted {} ({undo} undoes)",
                words::objects(*deleted)
            )),
            Some((obj, why)) => Action::error(format!(
                "deleted {deleted}, {} failed (first: {}: {why})",
                failed.len(),
                cx.name_of(obj)
            )),
        };
        let mut actions = Vec::new();
        if !gone.is_empty() {
            actions.push(Action::Record {
                doc: doc.to_string(),
                kind: WriteKind::Delete(std::mem::take(gone)),
            });
        }
        self.bulk_delete = BulkDelete::Idle;
        actions.extend([report, Action::ReloadAfterWrite]);
        actions
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

    /// A command that needs the open document's objects.
    fn on_model(&mut self, command: Command, model: &ObjectModel, cx: &Cx) -> Vec<Action> {
        let selected = match self.rows.get(self.cursor.selected()) {
            Some(TreeRow::Object(i)) => Some(*i),
            _ => None,
        };
        match command {
            Command::Activate => match self.rows.get(self.cursor.selected()) {
                Some(TreeRow::Group(..)) => {
                    self.fold(None, model);
                    Vec::new()
                }
                Some(TreeRow::Object(_)) => vec![Action::Focus(Pane::Props)],
                None => Vec::new(),
            },
            Command::Fold | Command::Unfold => {
                self.fold(Some(command == Command::Fold), model);
                Vec::new()
            }
            Command::Mark => match (selected, cx.doc) {
                (Some(i), _) => {
                    // Marked, it moves on to the next row (a run of rows marks key after key),
                    // unless that would ask to drop unsaved edits: then it stays.
                    let mut actions =
                        vec![Action::Marks(MarksChange::Toggle(model.id(i).to_string()))];
                    if cx.unsaved.is_none() {
                        actions.extend(self.go_to(self.cursor.target(1), cx));
                    }
                    actions
                }
                (None, Some(doc)) => self.mark_group(&doc.marks),
                (None, None) => Vec::new(),
            },
            Command::MarkShown => {
                let shown: Vec<usize> = self
                    .rows
                    .iter()
                    .filter_map(|row| match row {
                        TreeRow::Object(i) => Some(*i),
                        TreeRow::Group(..) => None,
                    })
                    .collect();
                let note = format!("marked {} shown", words::objects(shown.len()));
                vec![Action::Marks(MarksChange::Add(shown)), Action::info(note)]
            }
            Command::Delete => match (cx.doc, selected) {
                (Some(open), _) if !open.marks.is_empty() => {
                    let doc = open.summary.clone();
                    let objs: Vec<String> = open.marked_ids().map(String::from).collect();
                    let hidden = self.hidden(open);
                    let text = format!(
                        "Delete the {} from \"{}\"?",
                        words::count(objs.len(), "marked object", "marked objects"),
                        doc.title,
                    );
                    let mut undo = format!(
                        "{} in the objects creates them again, with new ids.",
                        cx.key(Context::Objects, Command::History)
                    );
                    if let Some(note) = attached_note(model, &objs, cx) {
                        undo = format!("{note} {undo}");
                    }
                    vec![ask(
                        "Delete marked objects",
                        marked_rows(text, &objs, &hidden, model, undo, cx),
                        "delete them",
                        Action::Objects(ObjectsCall::DeleteMarked { doc: doc.id, objs }),
                    )]
                }
                (Some(open), Some(i)) => {
                    let (doc, id) = (open.summary.clone(), model.id(i));
                    let name = cx.names().at(model, i);
                    let mut message =
                        format!("Delete {} ({id}) from \"{}\"?", name.described(), doc.title);
                    if let Some(note) = attached_note(model, &[id.to_string()], cx) {
                        message = format!("{message} {note}");
                    }
                    vec![ask(
                        "Delete object",
                        Body::Text(message),
                        "delete it",
                        Action::Objects(ObjectsCall::Delete {
                            doc: doc.id,
                            obj: id.to_string(),
                        }),
                    )]
                }
                _ => Vec::new(),
            },
            Command::Undo => match (cx.doc_id(), selected) {
                (Some(doc), Some(i)) => server_undo::ask_object(doc, model.id(i), cx),
                _ => vec![Action::info("select an object to undo a write to it")],
            },
            Command::CopyId => selected
                .map(|i| model.id(i))
                .map(|id| {
                    vec![
                        Action::Copy(id.to_string()),
                        Action::info(format!("copied the id of {}: {id}", cx.name_of(id))),
                    ]
                })
                .unwrap_or_default(),
            Command::CopyJson => selected
                .map(|i| model.at(i))
                .map(|(id, object)| {
                    let json = serde_json::to_string_pretty(object).unwrap_or_default();
                    vec![
                        Action::Copy(json),
                        Action::info(format!("copied the JSON of {}", cx.name_of(id))),
                    ]
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}

/// Marked objects listed in a question.
const MARKED_ROWS: usize = 6;

/// `text`, then the first marked objects `objs` by their rows, those `hidden` first and marked
/// `hidden`, then how many the filter or a fold hides, then `last`.
fn marked_rows(
    text: String,
    objs: &[String],
    hidden: &[String],
    model: &ObjectModel,
    last: String,
    cx: &Cx,
) -> Body {
    let shown = objs.iter().filter(|o| !hidden.contains(o));
    let rows: Vec<String> = hidden
        .iter()
        .map(|o| (o, "hidden "))
        .chain(shown.map(|o| (o, "       ")))
        .take(MARKED_ROWS)
        .filter_map(|(o, note)| {
            let name = cx.names().at(model, model.index_of(o)?);
            Some(format!("{note}{}", name.words()))
        })
        .collect();
    let hides = match hidden.len() {
        0 => String::new(),
        1 => "1 of them is hidden by the filter or a folded type. ".to_string(),
        n => format!("{n} of them are hidden by the filter or a folded type. "),
    };
    Body::Listed {
        text,
        more: objs.len().saturating_sub(rows.len()),
        rows,
        after: Some(format!("{hides}{last}")),
    }
}

/// Line groups named in a delete question.
const LINE_GROUPS: usize = 6;

/// What a delete question says of the line groups attached to `objs` (and not deleted with
/// them): the first few by their ends and ids, and what becomes of them.
fn attached_note(model: &ObjectModel, objs: &[String], cx: &Cx) -> Option<String> {
    let deleted: BTreeSet<&str> = objs.iter().map(String::as_str).collect();
    let attached = attached_line_groups(model, objs);
    let groups: BTreeSet<&str> = attached
        .values()
        .flatten()
        .map(String::as_str)
        .filter(|lg| !deleted.contains(lg))
        .collect();
    if groups.is_empty() {
        return None;
    }
    let names = cx.names();
    let named: Vec<String> = groups
        .iter()
        .take(LINE_GROUPS)
        .map(|&lg| format!("{} ({lg})", names.text(lg)))
        .collect();
    let more = match groups.len().saturating_sub(LINE_GROUPS) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!(
        "{} attached to {}: {}{more}. They stay, naming the deleted ids; {} undoes the delete and points them at the new ones.",
        words::count(groups.len(), "line group is", "line groups are"),
        if objs.len() == 1 { "it" } else { "them" },
        named.join(", "),
        cx.key(Context::Objects, Command::History)
    ))
}

/// The row showing object `obj`, if the filter and folds show it.
fn row_of(rows: &[TreeRow], model: &ObjectModel, obj: &str) -> Option<usize> {
    let index = model.index_of(obj)?;
    rows.iter()
        .position(|r| matches!(r, TreeRow::Object(i) if *i == index))
}

/// A yes/no question whose yes carries out `yes`.
fn ask(title: &str, body: Body, yes_label: &str, yes: Action) -> Action {
    Action::Ask(
        Ask::new(
            title,
            body,
            vec![
                Choice::new(Command::Yes, yes_label, vec![yes]),
                Choice::new(Command::No, "no", Vec::new()),
            ],
        )
        .destructive(),
    )
}

/// A row changed elsewhere a moment ago: marked `↻` (unless marked by the user) and its text in
/// the changed style.
fn changed_line(mut line: Line<'static>, marked: bool, cx: &Cx) -> Line<'static> {
    let style = cx.style(Role::Changed);
    for (i, span) in line.spans.iter_mut().enumerate() {
        if i == 0 && !marked {
            *span = Span::styled("↻ ", style);
        } else if i == 1 {
            span.style = style;
        }
    }
    line
}

/// A row of the selector preview's matches: its mark `◇` (`◈` when the user marked it too)
/// and its text in the preview's style; the user's marks are left as they are.
fn previewed_line(mut line: Line<'static>, marked: bool, cx: &Cx) -> Line<'static> {
    let style = cx.style(Role::Previewed);
    for (i, span) in line.spans.iter_mut().enumerate() {
        if i == 0 {
            *span = Span::styled(if marked { "◈ " } else { "◇ " }, style);
        } else if i == 1 {
            span.style = span.style.patch(style);
        }
    }
    line
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

impl Component for ObjectsPane {
    fn context(&self) -> Context {
        if self.filter.typing() {
            Context::Filter
        } else {
            Context::Objects
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            let target = self.cursor.target(step);
            return self.go_to(target, cx);
        }
        if let Some(actions) = self.filter_command(command, cx) {
            return actions;
        }
        match command {
            Command::Back
                if cx
                    .doc
                    .is_some_and(|d| d.model().is_none() && d.content.is_loading()) =>
            {
                vec![Action::CancelOpen]
            }
            Command::Back => match cx.doc.map(|d| d.marks.len()) {
                Some(n) if n > 0 => vec![
                    Action::Marks(MarksChange::Clear),
                    Action::info(format!("cleared {n} marks")),
                ],
                _ if !self.filter.text().is_empty() => {
                    self.filter.command(Command::ClearFilter);
                    self.refilter(cx)
                }
                _ => vec![Action::Focus(Pane::Docs)],
            },
            Command::Add if cx.doc.is_some() => {
                vec![Action::Open(Overlay::new(TypePicker::default()))]
            }
            Command::Selector if cx.doc.is_some() => vec![Action::OpenForm],
            Command::Selector => vec![Action::error("open a document first")],
            Command::BulkEdit => match cx.doc {
                Some(doc) if !doc.marks.is_empty() => {
                    vec![Action::OpenBulkEdit(self.hidden(doc))]
                }
                _ => vec![Action::error(format!(
                    "mark objects first ({} marks one, {} marks what the filter shows)",
                    cx.key(Context::Objects, Command::Mark),
                    cx.key(Context::Objects, Command::MarkShown)
                ))],
            },
            Command::ExternalEdit => vec![Action::ExternalEdit],
            Command::Connections => match cx.scene {
                Some(scene) => ConnectionsView::open(self.selected_id(), scene, Pane::Objects),
                None => vec![Action::info("the connections are still being worked out")],
            },
            Command::History => match cx.doc_id() {
                Some(doc) => vec![Action::Open(Overlay::new(WritesView::new(doc)))],
                None => vec![Action::error("open a document first")],
            },
            _ => match cx.doc.and_then(|d| d.model()) {
                Some(model) => self.on_model(command, model, cx),
                None => Vec::new(),
            },
        }
    }

    fn key(&mut self, key: KeyEvent, cx: &Cx) -> Vec<Action> {
        self.filter_key(key, cx)
    }

    fn paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        self.filter_paste(text, cx)
    }

    fn mouse(&mut self, mouse: MouseEvent, cx: &Cx) -> Vec<Action> {
        let header = u16::from(self.filter.shown());
        match self.cursor.pointer(&mouse, self.area, header) {
            Some(Pointer::Wheel(step)) => self.go_to(self.cursor.target(step), cx),
            Some(Pointer::Click(row)) => self.go_to(row, cx),
            None => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let model = cx.doc.and_then(|d| d.model());
        let count = model.map_or(0, ObjectModel::len);
        let title = match cx.doc {
            Some(doc) if let Some(past) = doc.past => format!(
                " 2 Objects · {} · {} ({count}){} ",
                past.title(),
                doc.summary.title,
                past.changed_note()
            ),
            Some(doc) if !doc.marks.is_empty() => format!(
                " 2 Objects · {} marked · {} ({count}) ",
                doc.marks.len(),
                doc.summary.title,
            ),
            Some(doc) => format!(" 2 Objects · {} ({count}) ", doc.summary.title),
            None => " 2 Objects ".to_string(),
        };
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [filter_area, list_area] = Layout::vertical([
            Constraint::Length(u16::from(self.filter.shown())),
            Constraint::Min(0),
        ])
        .areas(inner);
        if self.filter.shown() {
            frame.render_widget(
                Paragraph::new(filter_line(
                    &self.filter,
                    usize::from(filter_area.width),
                    cx.theme,
                )),
                filter_area,
            );
        }
        let dim = cx.style(Role::Dim);
        let lines: Vec<Line> = match (cx.doc, model) {
            (None, _) => vec![Line::styled(
                format!(
                    "open a document ({} in the documents pane)",
                    cx.key(Context::Documents, Command::Open)
                ),
                dim,
            )],
            (Some(doc), None) => match doc.content.error() {
                Some(error) => load_error_lines("the objects", error, cx),
                None => vec![Line::styled(
                    format!(
                        "loading… ({} stops)",
                        cx.key(Context::Objects, Command::Back)
                    ),
                    dim,
                )],
            },
            (Some(_), Some(_)) if self.rows.is_empty() && self.filter.text().is_empty() => {
                vec![Line::styled(
                    format!(
                        "no objects ({} adds one)",
                        cx.key(Context::Objects, Command::Add)
                    ),
                    dim,
                )]
            }
            (Some(_), Some(_)) if self.rows.is_empty() => {
                vec![Line::styled("nothing matches the filter", dim)]
            }
            (Some(doc), Some(model)) => {
                let width = usize::from(list_area.width);
                let names = cx.names();
                let selected = if focused {
                    cx.style(Role::Selected)
                } else {
                    cx.style(Role::SelectedUnfocused)
                };
                self.cursor
                    .visible()
                    .map(|i| {
                        let line = match self.rows[i] {
                            TreeRow::Group(g, shown) => {
                                let group = &model.groups()[g];
                                let arrow = if self.folded.contains(&group.kind) {
                                    "▸"
                                } else {
                                    "▾"
                                };
                                let count = if shown == group.members.len() {
                                    shown.to_string()
                                } else {
                                    format!("{shown}/{}", group.members.len())
                                };
                                Line::styled(
                                    clip(&format!("{arrow} {} ({count})", group.kind), width),
                                    cx.style(Role::Heading),
                                )
                            }
                            TreeRow::Object(o) => {
                                let id = model.id(o);
                                let marked = doc.marks.contains(o);
                                let mut line = names.at(model, o).row(width, marked, cx.theme);
                                if doc.preview.contains(o) {
                                    line = previewed_line(line, marked, cx);
                                }
                                if cx.recently_changed(id) {
                                    changed_line(line, marked, cx)
                                } else {
                                    line
                                }
                            }
                        };
                        if i == self.cursor.selected() {
                            selected_line(line, width, selected)
                        } else {
                            line
                        }
                    })
                    .collect()
            }
        };
        // Placeholders wrap; rows are cut to the width already.
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
    }
}

/// The version of `obj` the open document holds from the server (what a delete names as
/// `If-Match`); `None` from a server without versions.
fn server_version(cx: &Cx, obj: &str) -> Option<u64> {
    cx.doc
        .and_then(|doc| doc.model())
        .and_then(|model| model.server_version_of(obj))
}
