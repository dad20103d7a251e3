//! The actions on the open document: opening one (asking first when that drops unsaved edits),
//! reading its content again, and what other components say changed in it (a title, its
//! marks, objects removed or read again, a write answered).

use crate::app::update::{App, Effect, cx};
use crate::document::OpenDoc;
use crate::document::load::Load;
use crate::panes::{DOCS, OBJECTS, ask_to_drop_edits};
use crate::requests::purpose::Answered;
use crate::vocab::action::{Action, Cx};
use crate::vocab::calls::MarksChange;
use diagtui_model::{DocSummary, Props};

impl App {
    /// Opens `doc` (asking first when that would drop unsaved edits), then reads its content.
    pub(super) fn open_doc(&mut self, doc: DocSummary, effects: &mut Vec<Effect>) -> Vec<Action> {
        if self.panes.props.is_dirty() {
            let cx = cx!(self, self.panes.props.unsaved());
            return vec![ask_to_drop_edits(vec![Action::OpenDoc(doc)], &cx)];
        }
        let known = self.panes.docs.last_change_of(&doc.id);
        effects.push(Effect::Follow(self.liveness.opened(Some(&doc.id), known)));
        self.doc = Some(OpenDoc::new(doc));
        self.panes.objects.reset();
        self.panes.props.close();
        self.focus = OBJECTS;
        self.arrange();
        vec![Action::ReloadContent]
    }

    /// `Esc` while the document opens: stops reading its content and closes it.
    pub(super) fn cancel_open(&mut self, effects: &mut Vec<Effect>) -> Vec<Action> {
        let opening = self.doc.as_ref().and_then(|doc| match doc.content {
            Load::Loading { id, last: None } => Some((id, doc.summary.title.clone())),
            _ => None,
        });
        let Some((id, title)) = opening else {
            return Vec::new();
        };
        self.requests.cancel(id);
        effects.push(Effect::Cancel(id));
        effects.push(Effect::Follow(self.liveness.opened(None, None)));
        self.doc = None;
        self.panes.objects.reset();
        self.panes.props.close();
        self.focus = DOCS;
        self.arrange();
        vec![Action::info(format!("stopped opening \"{title}\""))]
    }

    /// `e`: edits the selected object in `$EDITOR`.
    pub(super) fn external_edit(&mut self) -> Vec<Action> {
        if self.panes.props.target().is_none() {
            self.show_selected();
        }
        self.panes.props.external_edit()
    }

    /// After a write: reads the content again unless the change events bring the write back.
    pub(super) fn reload_after_write(&mut self) -> Vec<Action> {
        if self.liveness.follows_open_doc() {
            return Vec::new();
        }
        vec![Action::ReloadContent]
    }

    /// Reads the open document's content again.
    pub(super) fn reload_content(&mut self) -> Vec<Action> {
        self.fresh.reset();
        let Some(id) = self.doc.as_ref().map(|d| d.id().to_owned()) else {
            return Vec::new();
        };
        let call = self.content_call(&id);
        let sent = self.requests.prepare(call, Answered::Content);
        let doc = self.doc.as_mut().expect("the open document");
        doc.content.start(sent.id);
        vec![Action::Send(sent)]
    }

    /// Document `doc` got a new title.
    pub(super) fn doc_retitled(&mut self, doc: &str, title: String) {
        if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
            open.summary.title = title;
        }
    }

    /// Document `doc` is being emptied.
    pub(super) fn doc_emptied(&mut self, doc: &str) {
        if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
            open.empty();
            self.panes.props.close();
            let cx = cx!(self, None);
            self.panes.objects.sync(&cx);
        }
    }

    /// Document `doc` is being deleted: closed if it is open.
    pub(super) fn doc_deleted(&mut self, doc: &str, effects: &mut Vec<Effect>) {
        if self.doc.as_ref().is_some_and(|d| d.id() == doc) {
            effects.push(Effect::Follow(self.liveness.opened(None, None)));
            self.doc = None;
            self.panes.objects.reset();
            self.panes.props.close();
            self.arrange();
        }
    }

    /// Document `doc`'s content was replaced (an import): read again if it is open.
    pub(super) fn content_replaced(&mut self, doc: &str) -> Vec<Action> {
        if self.doc.as_ref().is_none_or(|d| d.id() != doc) {
            return Vec::new();
        }
        if !self.panes.props.is_dirty() {
            self.panes.props.close();
        }
        vec![Action::ReloadContent]
    }

    /// Changes the open document's marks.
    pub(super) fn change_marks(&mut self, change: MarksChange) {
        if let Some(doc) = self.doc.as_mut() {
            match change {
                MarksChange::Toggle(id) => doc.toggle_mark(&id),
                MarksChange::Add(indexes) => doc.mark_indexes(&indexes, true),
                MarksChange::Remove(indexes) => doc.mark_indexes(&indexes, false),
                MarksChange::AddIds(ids) => doc.mark_ids(&ids),
                MarksChange::Clear => doc.clear_marks(),
                MarksChange::Preview(ids) => doc.set_preview(&ids),
            }
        }
        if self.panes.props.shows_type() {
            self.show_selected();
        }
    }

    /// Takes `objs` out of document `doc` at once (their delete is on its way).
    pub(super) fn remove_objects(&mut self, doc: &str, objs: &[String]) {
        self.panes.props.drop_removed(doc, objs);
        if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
            open.remove_objects(objs);
            let cx = cx!(self, None);
            self.panes.objects.sync_after_removal(&cx);
            self.show_selected();
        }
    }

    /// Object `obj` of `doc` as the server now has it.
    pub(super) fn object_data(&mut self, doc: &str, obj: &str, data: Props, version: Option<u64>) {
        if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
            open.replace_data(obj, data, version);
            let cx = cx!(self, None);
            self.panes.objects.sync(&cx);
        }
    }

    /// A write to `doc`'s objects was answered: once the last is, its details are read again.
    pub(super) fn written(&mut self, doc: &str) -> Vec<Action> {
        if self.requests.writing(doc) {
            return Vec::new();
        }
        let mut actions = self.relist_versions(doc);
        // A followed document's write comes back as an event, which says its `lastChange` (and
        // the count is the model's): nothing to read.
        let heard =
            self.liveness.follows_open_doc() && self.doc.as_ref().is_some_and(|d| d.id() == doc);
        if !heard {
            let cx = cx!(self, self.panes.props.unsaved());
            actions.extend(self.panes.docs.refresh_details_of(doc, &cx));
        }
        actions
    }
}
