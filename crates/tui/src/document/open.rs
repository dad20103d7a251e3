//! The document open in the objects pane: its summary, its content as it loads, its marks and
//! the selector preview's matches.

use crate::document::departed::Departed;
use crate::document::load::Load;
use crate::document::names::Names;
use crate::document::{Entry, Marks, ObjectModel, Past};
use crate::document::{ObjectVersions, RequestId, Versioned};
use diagtui_model::{DocSummary, Props};

/// The document open in the objects pane.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenDoc {
    /// Its id and title.
    pub summary: DocSummary,
    /// Its objects.
    pub content: Load<ObjectModel>,
    /// The marked objects, by their index in the content (changed through the methods below,
    /// which keep them on the same objects when the content changes). They are the user's:
    /// only the user's keys change them.
    pub marks: Marks,
    /// The selector preview's matches, shown in a style of their own while the selector form
    /// is open (kept on their objects like the marks; never the marks). In the past view,
    /// the objects changed since the version shown.
    pub preview: Marks,
    /// The earlier version shown instead of the content now (read-only), if any.
    pub past: Option<Past>,
    /// The last names of its components that went away: how a line group still names an end
    /// that was deleted.
    pub departed: Departed,
}

impl OpenDoc {
    /// `doc`, its content still to come.
    pub fn new(summary: DocSummary) -> OpenDoc {
        OpenDoc {
            summary,
            content: Load::Idle,
            marks: Marks::default(),
            preview: Marks::default(),
            past: None,
            departed: Departed::default(),
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.summary.id
    }

    /// Its objects, once (or while again) loaded.
    pub fn model(&self) -> Option<&ObjectModel> {
        self.content.value()
    }

    /// Takes `model` as the content if request `id` is the one awaited (says whether it was);
    /// the marks stay on the objects the new content still has.
    pub fn loaded(&mut self, id: RequestId, model: ObjectModel) -> bool {
        if !self.content.awaits(id) {
            return false;
        }
        let (marks, preview) = match self.content.value() {
            Some(old) => {
                let gone = (0..old.len())
                    .filter(|&i| old.kind(i) == "component" && model.index_of(old.id(i)).is_none());
                note_departed(&mut self.departed, old, gone);
                (
                    self.marks.carried(old, &model),
                    self.preview.carried(old, &model),
                )
            }
            None => Default::default(),
        };
        self.content.settle(id, model);
        self.marks = marks;
        self.preview = preview;
        true
    }

    /// Empties the content (the document was emptied).
    pub fn empty(&mut self) {
        self.content = Load::Loaded(ObjectModel::default());
        self.marks = Marks::default();
        self.preview = Marks::default();
    }

    /// Takes the objects `objs` out, in place (their deletes are on their way).
    pub fn remove_objects(&mut self, objs: &[String]) {
        let Some(model) = self.content.value_mut() else {
            return;
        };
        let mut keep = vec![true; model.len()];
        let mut any = false;
        for i in objs.iter().filter_map(|obj| model.index_of(obj)) {
            keep[i] = false;
            any = true;
        }
        let gone = keep
            .iter()
            .enumerate()
            .filter(|(_, k)| !**k)
            .map(|(i, _)| i);
        note_departed(&mut self.departed, model, gone);
        if any {
            model.retain(&keep);
            self.marks = self.marks.retained(&keep);
            self.preview = self.preview.retained(&keep);
        }
    }

    /// Replaces object `obj`'s data and version, in place (after a save or a re-read).
    pub fn replace_data(&mut self, obj: &str, data: Props, version: Option<u64>) {
        if let Some(model) = self.content.value_mut() {
            model.replace_data(obj, data);
            model.set_server_version(obj, version);
        }
    }

    /// Puts objects read again in place (changed, created or deleted elsewhere), with their
    /// versions: each one's data replaced, a new one added by id, one gone (`None`) taken out;
    /// the marks stay on their objects. A state older than the one kept (a read answered
    /// after a newer change event was applied) is left out.
    pub fn apply_fresh(&mut self, mut fresh: Vec<(String, Option<Versioned>)>) {
        if let Some(model) = self.model() {
            fresh.retain(|(obj, read)| {
                let incoming = read.as_ref().and_then(|r| r.version);
                match (incoming, model.server_version_of(obj)) {
                    (Some(incoming), Some(kept)) => incoming >= kept,
                    _ => true,
                }
            });
        }
        let (present, gone): (Vec<_>, Vec<_>) =
            fresh.into_iter().partition(|(_, object)| object.is_some());
        let mut gone: Vec<String> = gone.into_iter().map(|(obj, _)| obj).collect();
        // An object whose type changed (set-content again under its id) goes and comes back.
        if let Some(model) = self.model() {
            gone.extend(present.iter().filter_map(|(obj, object)| {
                let at = model.index_of(obj)?;
                let kind = &object.as_ref()?.object.kind;
                (model.kind(at) != kind).then(|| obj.clone())
            }));
        }
        self.remove_objects(&gone);
        let Some(model) = self.content.value_mut() else {
            return;
        };
        for (obj, read) in present {
            let Some(Versioned { object, version }) = read else {
                continue;
            };
            if model.index_of(&obj).is_some() {
                model.replace_data(&obj, object.data);
                model.set_server_version(&obj, version);
            } else {
                let at = model.insert(&obj, &object.kind, &object.data, version);
                self.marks = self.marks.inserted(at);
                self.preview = self.preview.inserted(at);
            }
        }
    }

    /// The ids of the marked objects, in id order.
    pub fn marked_ids(&self) -> impl Iterator<Item = &str> {
        let model = self.model();
        self.marks
            .indexes()
            .filter_map(move |i| model.map(|m| m.id(i)))
    }

    /// The ids of the marked objects and of the selector preview's matches (a marked match
    /// twice): what the map emphasises, gathered once for a frame rather than looked up for
    /// each of its objects.
    pub fn emphasised_ids(&self) -> impl Iterator<Item = &str> {
        let model = self.model();
        self.marks
            .indexes()
            .chain(self.preview.indexes())
            .filter_map(move |i| model.map(|m| m.id(i)))
    }

    /// The versions on the server of the marked objects that have one (none from a server
    /// without versions).
    pub fn marked_versions(&self) -> ObjectVersions {
        let Some(model) = self.model() else {
            return ObjectVersions::new();
        };
        (self.marks.indexes())
            .filter_map(|i| Some((model.id(i).to_owned(), model.server_version(i)?)))
            .collect()
    }

    /// The marked objects, in id order, as they are kept (JSON text): a bulk edit of 20,000
    /// reads of each what it needs and leaves no parsed copies behind.
    pub fn marked(&self) -> impl Iterator<Item = Entry<'_>> {
        let model = self.model();
        self.marks
            .indexes()
            .filter_map(move |i| Some(model?.entry(i)))
    }

    /// Marks or unmarks object `obj`.
    pub fn toggle_mark(&mut self, obj: &str) {
        if let Some(i) = self.index_of(obj) {
            let on = !self.marks.contains(i);
            self.marks.set(i, on);
        }
    }

    /// Marks (`on`) or unmarks the objects at `indexes` (indexes into [`OpenDoc::model`]).
    pub fn mark_indexes(&mut self, indexes: &[usize], on: bool) {
        let len = self.model().map_or(0, ObjectModel::len);
        for &i in indexes.iter().filter(|&&i| i < len) {
            self.marks.set(i, on);
        }
    }

    /// Marks the objects `objs` too (those it has).
    pub fn mark_ids(&mut self, objs: &[String]) {
        for i in self.marks_of(objs).indexes() {
            self.marks.set(i, true);
        }
    }

    /// Shows exactly the objects `objs` (those it has) as the selector preview's matches.
    pub fn set_preview(&mut self, objs: &[String]) {
        self.preview = self.marks_of(objs);
    }

    /// Shows no preview.
    pub fn end_preview(&mut self) {
        self.preview = Marks::default();
    }

    /// The objects `objs` (those it has) as marks. Ids in order (as a selector's answer gives
    /// them) are found in one walk along the model's.
    fn marks_of(&self, objs: &[String]) -> Marks {
        let mut marks = Marks::default();
        if let Some(model) = self.model() {
            if objs.is_sorted() {
                let mut at = 0;
                for obj in objs {
                    while at < model.len() && model.id(at) < obj.as_str() {
                        at += 1;
                    }
                    if at < model.len() && model.id(at) == obj {
                        marks.set(at, true);
                    }
                }
            } else {
                for i in objs.iter().filter_map(|obj| model.index_of(obj)) {
                    marks.set(i, true);
                }
            }
        }
        marks
    }

    /// Marks nothing.
    pub fn clear_marks(&mut self) {
        self.marks = Marks::default();
    }

    fn index_of(&self, obj: &str) -> Option<usize> {
        self.model().and_then(|m| m.index_of(obj))
    }
}

/// Notes the last names of the components at `gone` in `model` (about to go away).
fn note_departed(departed: &mut Departed, model: &ObjectModel, gone: impl Iterator<Item = usize>) {
    let names = Names::new(Some(model), None);
    for i in gone.filter(|&i| model.kind(i) == "component") {
        departed.note(model.id(i), names.at(model, i).text());
    }
}
