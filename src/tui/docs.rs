//! The documents pane: the list grouped by folder, its fuzzy filter, the selected document's
//! details, and the document actions (create, rename, clone, share, empty, delete).

use std::collections::HashMap;

use crossterm::event::{KeyCode, KeyEvent};

use super::app::{App, Effect, Pane, Purpose, movement, scroll_into_view, step_index};
use super::input::{Filter, FilterKey, fuzzy_match};
use super::overlay::{ConfirmAction, InputPurpose, Overlay};
use super::request::{Answer, Failure, Request, RequestId};
use crate::model::{DocDetails, DocSummary, ErrorCode, FolderList};

/// One row of the documents list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocRow {
    /// A folder heading: title and how many of its documents show.
    Folder(String, usize),
    /// A document: index into the document list.
    Doc(usize),
}

/// The documents pane's state.
#[derive(Debug, Default)]
pub struct DocsPane {
    /// Every document of the account, as listed.
    pub docs: Vec<DocSummary>,
    /// The folder list once loaded.
    pub folders: Option<FolderList>,
    /// Whether the list has arrived at least once.
    pub loaded: bool,
    /// Why the list could not be loaded.
    pub load_error: Option<String>,
    /// The filter.
    pub filter: Filter,
    /// The rows shown, after grouping and filtering.
    pub rows: Vec<DocRow>,
    /// The selected row (always a document row when there is one).
    pub selected: usize,
    /// The first row shown.
    pub offset: usize,
    /// The selected document's details, once loaded.
    pub details: Option<DocDetails>,
    /// Why the details could not be loaded.
    pub details_error: Option<String>,
    details_request: Option<RequestId>,
    /// Object counts known from opened documents.
    pub counts: HashMap<String, usize>,
}

impl DocsPane {
    /// The selected document.
    pub fn selected_doc(&self) -> Option<&DocSummary> {
        match self.rows.get(self.selected) {
            Some(DocRow::Doc(i)) => self.docs.get(*i),
            _ => None,
        }
    }

    /// Stores the folder list and regroups.
    pub fn set_folders(&mut self, folders: FolderList) {
        self.folders = Some(folders);
        self.rebuild();
    }

    /// Replaces the document list, keeping the selected document selected.
    pub fn set_docs(&mut self, docs: Vec<DocSummary>) {
        let keep = self.selected_doc().map(|d| d.id.clone());
        self.docs = docs;
        self.rebuild_keeping(keep);
    }

    /// Rebuilds the rows from the documents, folders and filter, keeping the selected document.
    pub fn rebuild(&mut self) {
        self.rebuild_keeping(self.selected_doc().map(|d| d.id.clone()));
    }

    /// Rebuilds the rows and selects the document `keep` (else the first document). The rows
    /// index into `docs`, so the id must be read before `docs` changes.
    pub fn rebuild_keeping(&mut self, keep: Option<String>) {
        let filter = self.filter.text();
        let shown: Vec<usize> = (0..self.docs.len())
            .filter(|&i| fuzzy_match(filter, &self.docs[i].title))
            .collect();
        self.rows.clear();
        match &self.folders {
            None => self.rows.extend(shown.iter().map(|&i| DocRow::Doc(i))),
            Some(folders) => {
                let mut folders: Vec<_> = folders.iter().collect();
                folders.sort_by(|a, b| (&a.1.title, a.0).cmp(&(&b.1.title, b.0)));
                let mut placed = vec![false; self.docs.len()];
                for (_, folder) in folders {
                    let inside: Vec<usize> = shown
                        .iter()
                        .copied()
                        .filter(|&i| folder.docs.contains_key(&self.docs[i].id))
                        .collect();
                    if inside.is_empty() && !filter.is_empty() {
                        continue;
                    }
                    self.rows
                        .push(DocRow::Folder(folder.title.clone(), inside.len()));
                    for i in inside {
                        placed[i] = true;
                        self.rows.push(DocRow::Doc(i));
                    }
                }
                let rest: Vec<usize> = shown.iter().copied().filter(|&i| !placed[i]).collect();
                if !rest.is_empty() {
                    self.rows
                        .push(DocRow::Folder("Shared with me".into(), rest.len()));
                    self.rows.extend(rest.into_iter().map(DocRow::Doc));
                }
            }
        }
        self.selected = keep
            .and_then(|id| {
                self.rows
                    .iter()
                    .position(|r| matches!(r, DocRow::Doc(i) if self.docs[*i].id == id))
            })
            .or_else(|| self.rows.iter().position(|r| matches!(r, DocRow::Doc(_))))
            .unwrap_or(0);
    }

    /// The document listed next to the selected one (after it, else before it).
    fn neighbour(&self) -> Option<String> {
        let doc_at = |i: usize| match self.rows.get(i) {
            Some(DocRow::Doc(d)) => Some(self.docs[*d].id.clone()),
            _ => None,
        };
        (self.selected + 1..self.rows.len())
            .find_map(doc_at)
            .or_else(|| (0..self.selected).rev().find_map(doc_at))
    }

    /// Moves the selection by `step` document rows' worth, skipping folder headings.
    fn step(&mut self, step: isize) {
        let target = step_index(self.selected, self.rows.len(), step);
        let forward = step >= 0;
        let doc_at = |i: usize| matches!(self.rows.get(i), Some(DocRow::Doc(_)));
        let found = if forward {
            (target..self.rows.len())
                .find(|&i| doc_at(i))
                .or_else(|| (0..target).rev().find(|&i| doc_at(i)))
        } else {
            (0..=target)
                .rev()
                .find(|&i| doc_at(i))
                .or_else(|| (target..self.rows.len()).find(|&i| doc_at(i)))
        };
        if let Some(i) = found {
            self.selected = i;
        }
    }

    /// Scrolls so the selection shows in `rows` rows.
    pub fn keep_visible(&mut self, rows: usize) {
        // One row of lead: the folder heading above the first document shows.
        self.offset = scroll_into_view(self.offset, self.selected, rows, 1)
            .min(self.rows.len().saturating_sub(1));
    }

    /// Applies a details answer if it is the one awaited.
    pub fn details_loaded(&mut self, id: RequestId, details: DocDetails) {
        if self.details_request == Some(id) {
            self.details = Some(details);
            self.details_error = None;
        }
    }

    /// Records a details failure if it is the one awaited.
    pub fn details_failed(&mut self, id: RequestId, message: String) {
        if self.details_request == Some(id) {
            self.details = None;
            self.details_error = Some(message);
        }
    }
}

impl App {
    /// The document list arrived.
    pub(super) fn docs_loaded(&mut self, docs: Vec<DocSummary>) -> Vec<Effect> {
        let before = self.docs.selected_doc().map(|d| d.id.clone());
        self.docs.set_docs(docs);
        self.docs.loaded = true;
        self.docs.load_error = None;
        self.docs.keep_visible(self.docs_rows());
        if self.docs.selected_doc().map(|d| &d.id) != before.as_ref() || self.docs.details.is_none()
        {
            self.request_details()
        } else {
            Vec::new()
        }
    }

    /// Asks for the selected document's details.
    pub(super) fn request_details(&mut self) -> Vec<Effect> {
        let Some(doc) = self.docs.selected_doc().map(|d| d.id.clone()) else {
            self.docs.details = None;
            return Vec::new();
        };
        if self.docs.details.as_ref().is_some_and(|d| d.id != doc) {
            self.docs.details = None;
        }
        let effect = self.request(Request::Details { doc }, Purpose::Details);
        self.docs.details_request = Some(self.last_id());
        vec![effect]
    }

    /// Moves the selection and fetches the new document's details.
    pub(super) fn docs_move(&mut self, step: isize) -> Vec<Effect> {
        let before = self.docs.selected;
        self.docs.step(step);
        self.docs.keep_visible(self.docs_rows());
        if self.docs.selected == before {
            Vec::new()
        } else {
            self.docs.details_error = None;
            self.request_details()
        }
    }

    /// A click on the `row`-th visible row.
    pub(super) fn docs_click(&mut self, row: usize) -> Vec<Effect> {
        let index = self.docs.offset + row;
        if matches!(self.docs.rows.get(index), Some(DocRow::Doc(_))) {
            let step = index as isize - self.docs.selected as isize;
            self.docs_move(step)
        } else {
            Vec::new()
        }
    }

    /// A key while the filter is typed.
    pub(super) fn docs_filter_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        match self.docs.filter.key(key) {
            FilterKey::Changed => self.refilter_docs(),
            FilterKey::Move(step) => self.docs_move(step),
            FilterKey::Unchanged => Vec::new(),
        }
    }

    /// Regroups the list after the filter changed; asks for the details when that changed the
    /// selected document.
    fn refilter_docs(&mut self) -> Vec<Effect> {
        let before = self.docs.selected_doc().map(|d| d.id.clone());
        self.docs.rebuild();
        self.docs.keep_visible(self.docs_rows());
        if self.docs.selected_doc().map(|d| &d.id) != before.as_ref() {
            self.request_details()
        } else {
            Vec::new()
        }
    }

    /// A command key in the documents pane.
    pub(super) fn docs_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(step) = movement(key, self.docs_rows()) {
            return self.docs_move(step);
        }
        if key.code == KeyCode::Char('/') {
            self.docs.filter.start();
            return Vec::new();
        }
        if key.code == KeyCode::Esc {
            self.docs.filter.clear();
            return self.refilter_docs();
        }
        if key.code == KeyCode::Char('n') {
            self.overlay = Some(Overlay::input(
                "New document",
                "Title",
                "",
                InputPurpose::NewDoc,
            ));
            return Vec::new();
        }
        let Some(doc) = self.docs.selected_doc().cloned() else {
            return Vec::new();
        };
        let title = doc.title.clone();
        self.overlay = match key.code {
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') => return self.ask_open_doc(doc),
            KeyCode::Char('r') => Some(Overlay::input(
                "Rename document",
                "Title",
                &title,
                InputPurpose::Rename(doc),
            )),
            KeyCode::Char('c') => Some(Overlay::input(
                "Clone document",
                "Title of the copy",
                &format!("{title} (copy)"),
                InputPurpose::Clone(doc),
            )),
            KeyCode::Char('s') => Some(Overlay::input(
                "Share document",
                "E-mail of an existing account",
                "",
                InputPurpose::Share(doc),
            )),
            KeyCode::Char('E') => Some(Overlay::confirm(
                "Empty document",
                &format!("Remove every object from \"{title}\"? The document itself stays."),
                ConfirmAction::EmptyDoc(doc),
            )),
            KeyCode::Char('x') => {
                self.ask_export(doc);
                return Vec::new();
            }
            KeyCode::Char('i') => {
                self.ask_import(doc);
                return Vec::new();
            }
            KeyCode::Char('D') => Some(Overlay::confirm(
                "Delete document",
                &format!("Delete \"{title}\" and all its objects? This cannot be undone."),
                ConfirmAction::DeleteDoc(doc),
            )),
            _ => return Vec::new(),
        };
        Vec::new()
    }

    /// Opens a document, asking first when the editor holds unsaved edits.
    fn ask_open_doc(&mut self, doc: DocSummary) -> Vec<Effect> {
        if self.has_unsaved_edits() {
            self.overlay = Some(Overlay::discard(ConfirmAction::OpenDoc(doc)));
            return Vec::new();
        }
        self.open_doc(doc)
    }

    /// Opens a document: the focus moves to its objects, which load.
    pub(super) fn open_doc(&mut self, doc: DocSummary) -> Vec<Effect> {
        self.focus = Pane::Objects;
        self.editor.close();
        self.objects.open(doc);
        self.reload_content()
    }

    /// Sends the request a submitted prompt asks for.
    pub(super) fn submit_input(&mut self, purpose: InputPurpose, text: String) -> Vec<Effect> {
        let text = text.trim().to_string();
        if text.is_empty() {
            self.fail("nothing was typed; nothing was done");
            return Vec::new();
        }
        let (request, action) = match purpose {
            InputPurpose::Export(doc) => return self.export_to(doc, text),
            InputPurpose::Import(doc) => return self.import_from(doc, text),
            InputPurpose::NewDoc => {
                let folder = self.docs.details.as_ref().map(|d| d.folder.id.clone());
                (
                    Request::CreateDoc {
                        title: text,
                        folder,
                    },
                    "create",
                )
            }
            InputPurpose::Rename(doc) => {
                if let Some(entry) = self.docs.docs.iter_mut().find(|d| d.id == doc.id) {
                    entry.title = text.clone();
                }
                if self.objects.is_open(&doc.id) {
                    self.objects.doc = Some(DocSummary {
                        id: doc.id.clone(),
                        title: text.clone(),
                    });
                }
                self.docs.rebuild();
                (
                    Request::RenameDoc {
                        doc: doc.id,
                        title: text,
                    },
                    "rename",
                )
            }
            InputPurpose::Clone(doc) => (
                Request::CloneDoc {
                    doc: doc.id,
                    title: text,
                },
                "clone",
            ),
            InputPurpose::Share(doc) => (
                Request::ShareDoc {
                    doc: doc.id,
                    email: text,
                },
                "share",
            ),
        };
        vec![self.request(request, Purpose::DocAction(action))]
    }

    /// Sends a confirmed empty, clearing the tree at once when the document is open.
    pub(super) fn empty_doc(&mut self, doc: DocSummary) -> Vec<Effect> {
        if self.objects.is_open(&doc.id) {
            self.objects.set_content(Default::default());
            self.editor.close();
        }
        vec![self.request(
            Request::EmptyDoc { doc: doc.id },
            Purpose::DocAction("empty"),
        )]
    }

    /// Sends a confirmed delete, removing the document from the list at once.
    pub(super) fn delete_doc(&mut self, doc: DocSummary) -> Vec<Effect> {
        // The selection moves to the deleted document's neighbour, as in a file manager.
        let next = match self.docs.selected_doc() {
            Some(selected) if selected.id == doc.id => self.docs.neighbour(),
            selected => selected.map(|d| d.id.clone()),
        };
        self.docs.docs.retain(|d| d.id != doc.id);
        self.docs.rebuild_keeping(next);
        self.docs.keep_visible(self.docs_rows());
        if self.objects.is_open(&doc.id) {
            self.objects.close();
            self.editor.close();
        }
        vec![self.request(
            Request::DeleteDoc { doc: doc.id },
            Purpose::DocAction("delete"),
        )]
    }

    /// A document action succeeded: say so and check the list against the server.
    pub(super) fn doc_action_done(
        &mut self,
        action: &'static str,
        request: Request,
        answer: Answer,
    ) -> Vec<Effect> {
        let mut effects = Vec::new();
        match (&request, answer) {
            (
                Request::CreateDoc { title, .. } | Request::CloneDoc { title, .. },
                Answer::Created(id),
            ) => {
                self.docs.docs.push(DocSummary {
                    id: id.clone(),
                    title: title.clone(),
                });
                self.docs.rebuild_keeping(Some(id));
                self.docs.keep_visible(self.docs_rows());
                self.notify(format!("{action}: \"{title}\" created"));
            }
            (Request::ShareDoc { email, .. }, _) => self.notify(format!("shared with {email}")),
            (Request::EmptyDoc { doc }, _) => {
                self.notify("document emptied");
                self.docs.counts.insert(doc.clone(), 0);
            }
            (Request::RenameDoc { title, .. }, _) => self.notify(format!("renamed to \"{title}\"")),
            (Request::DeleteDoc { .. }, _) => self.notify("document deleted"),
            _ => self.notify(format!("{action}: done")),
        }
        effects.extend(self.start());
        effects.extend(self.request_details());
        effects
    }

    /// A document action failed: say why plainly and restore the list from the server.
    pub(super) fn doc_action_failed(
        &mut self,
        action: &'static str,
        request: Request,
        failure: Failure,
    ) -> Vec<Effect> {
        match (&request, &failure.code) {
            (Request::ShareDoc { email, .. }, Some(ErrorCode::UserNotFound)) => {
                self.fail(format!(
                    "no account has the e-mail {email}; the document was not shared"
                ));
            }
            _ => self.fail(format!("{action} failed: {}", failure.message)),
        }
        let mut effects = self.start();
        if matches!(request, Request::EmptyDoc { .. }) {
            effects.extend(self.reload_content());
        }
        effects
    }
}
