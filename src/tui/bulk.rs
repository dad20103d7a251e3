//! Marked objects and what is done to them all at once: `Space` marks, `V` marks what the filter
//! shows, `Esc` clears; `b` edits one props JSON for all of them (the same diff-and-confirm step
//! as a single save, then the bulk update route), and `d` with marks deletes them all (asked).

use std::collections::{BTreeMap, BTreeSet};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Effect, Purpose};
use super::editor::Diff;
use super::objects::TreeRow;
use super::overlay::{ConfirmAction, Overlay};
use super::props_field::PropsField;
use super::request::Request;
use super::words;
use crate::model::props::merge;
use crate::model::{DocSummary, Props};

/// One marked object's part of a bulk edit.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkChange {
    /// Its id.
    pub obj: String,
    /// What changes in it.
    pub diff: Diff,
}

impl App {
    /// `Space`: marks or unmarks the selected object.
    pub(super) fn toggle_mark(&mut self) {
        if let Some((id, _)) = self.objects.selected_object() {
            let id = id.clone();
            if !self.objects.marks.remove(&id) {
                self.objects.marks.insert(id);
            }
        }
    }

    /// `V`: marks every object the tree shows under the current filter.
    pub(super) fn mark_shown(&mut self) {
        let shown: Vec<String> = self
            .objects
            .rows
            .iter()
            .filter_map(|row| match row {
                TreeRow::Object(i) => Some(self.objects.objects[*i].0.clone()),
                TreeRow::Group(..) => None,
            })
            .collect();
        let n = shown.len();
        self.objects.marks.extend(shown);
        self.notify(format!("marked {} shown", words::objects(n)));
    }

    /// `b`: opens the bulk edit of the marked objects.
    pub(super) fn open_bulk_edit(&mut self) {
        if self.objects.marks.is_empty() {
            self.fail("mark objects first (Space marks one, V marks what the filter shows)");
            return;
        }
        if self.bulk.text().trim().is_empty() {
            self.bulk = PropsField::empty_object();
        }
        self.overlay = Some(Overlay::BulkEdit);
    }

    /// A key in the bulk edit: `Ctrl-S` shows the diff, `Esc` closes, every other key types.
    pub(super) fn bulk_edit_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.overlay = Some(Overlay::BulkEdit);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => self.overlay = None,
            KeyCode::Char('s') if ctrl => self.bulk_diff(),
            _ => self.bulk.input(key),
        }
        Vec::new()
    }

    /// What the bulk edit would change in each marked object (those it changes).
    fn bulk_diff(&mut self) {
        let props = match self.bulk.props() {
            Ok(props) => props,
            Err(e) => {
                self.fail(format!("cannot apply: {e}"));
                return;
            }
        };
        let changes: Vec<BulkChange> = self
            .objects
            .objects
            .iter()
            .filter(|(id, _)| self.objects.marks.contains(id))
            .filter_map(|(id, object)| {
                let mut after = object.data.clone();
                merge(&mut after, &props);
                let diff = Diff::between(&object.data, &after);
                (!diff.changes.is_empty()).then(|| BulkChange {
                    obj: id.clone(),
                    diff,
                })
            })
            .collect();
        if changes.is_empty() {
            self.notify("nothing to change: every marked object already has these values");
            return;
        }
        self.overlay = Some(Overlay::BulkDiff(changes));
    }

    /// The bulk diff was confirmed: one bulk update with each object's changed properties.
    pub(super) fn send_bulk(&mut self, changes: Vec<BulkChange>) -> Vec<Effect> {
        let Some(doc) = self.objects.doc.as_ref().map(|d| d.id.clone()) else {
            return Vec::new();
        };
        let objects: BTreeMap<String, Props> = changes
            .into_iter()
            .map(|c| (c.obj, c.diff.props()))
            .collect();
        vec![self.request(Request::BulkUpdate { doc, objects }, Purpose::BulkUpdate)]
    }

    /// The bulk update went through.
    pub(super) fn bulk_done(&mut self, request: Request) -> Vec<Effect> {
        let Request::BulkUpdate { doc, objects } = request else {
            return Vec::new();
        };
        self.bulk = PropsField::default();
        self.notify(format!(
            "updated {}",
            words::count(objects.len(), "marked object", "marked objects")
        ));
        if self.objects.is_open(&doc) {
            self.reload_content()
        } else {
            Vec::new()
        }
    }

    /// The bulk update failed: the edit is kept and reopens.
    pub(super) fn bulk_failed(&mut self, message: &str) {
        self.fail(format!(
            "bulk update failed, your edit is kept (b reopens it): {message}"
        ));
    }

    /// `d` with marks: asks to delete them all.
    pub(super) fn ask_delete_marked(&mut self, doc: DocSummary) {
        let objs: Vec<String> = self.objects.marks.iter().cloned().collect();
        self.overlay = Some(Overlay::confirm(
            "Delete marked objects",
            &format!(
                "Delete the {} from \"{}\"? This cannot be undone.",
                words::count(objs.len(), "marked object", "marked objects"),
                doc.title
            ),
            ConfirmAction::DeleteMarked { doc: doc.id, objs },
        ));
    }

    /// Deletes the marked objects, one request each, removing them from the tree at once.
    pub(super) fn delete_marked(&mut self, doc: String, objs: Vec<String>) -> Vec<Effect> {
        let gone: BTreeSet<&str> = objs.iter().map(String::as_str).collect();
        if self
            .editor
            .target()
            .is_some_and(|t| gone.contains(t.obj.as_str()))
        {
            self.editor.close();
        }
        if self.objects.is_open(&doc) {
            let content = self
                .objects
                .objects
                .iter()
                .filter(|(id, _)| !gone.contains(id.as_str()))
                .cloned()
                .collect();
            self.objects.set_content(content);
            self.objects.keep_visible(self.objects_rows());
            self.show_selected_object();
        }
        self.objects.marks.clear();
        self.bulk_deleted = 0;
        self.bulk_delete_failures.clear();
        objs.into_iter()
            .map(|obj| {
                self.request(
                    Request::DeleteObject {
                        doc: doc.clone(),
                        obj,
                    },
                    Purpose::DeleteMarked,
                )
            })
            .collect()
    }

    /// One delete of the marked objects answered; the last one reports and reloads.
    pub(super) fn marked_deleted(&mut self, failure: Option<(String, String)>) -> Vec<Effect> {
        match failure {
            Some(failed) => self.bulk_delete_failures.push(failed),
            None => self.bulk_deleted += 1,
        }
        if self.waiting_for(&Purpose::DeleteMarked) {
            return Vec::new();
        }
        match self.bulk_delete_failures.first() {
            None => self.notify(format!("deleted {}", words::objects(self.bulk_deleted))),
            Some((obj, why)) => {
                let message = format!(
                    "deleted {}, {} failed (first: {obj}: {why})",
                    self.bulk_deleted,
                    self.bulk_delete_failures.len()
                );
                self.fail(message);
            }
        }
        self.reload_content()
    }
}
