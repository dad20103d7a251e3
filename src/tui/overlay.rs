//! Overlays drawn over the panes: help, the request log, confirmations, prompts, the save diff,
//! the save conflict, the pickers for a new object's type and component id, and the bulk work
//! (selector form and its answer, bulk edit and its diff, import report). While one is open it
//! takes every key.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent};

use super::app::{App, Effect, Pane, movement, step_index};
use super::bulk::BulkChange;
use super::editor::Diff;
use super::input::{LineInput, fuzzy_match};
use super::transfer::{FileFor, FileJob};
use crate::model::{ContentReport, DiagramObject, DocSummary, ObjectType, Props};

/// The component-id catalogue shipped in `assets/`.
const CATALOGUE: &str = include_str!("../../assets/component-ids.txt");

/// The catalogue ids matching `query`: those containing it first, then fuzzy matches.
pub fn component_ids(query: &str) -> Vec<&'static str> {
    let query = query.trim().to_lowercase();
    let ids = CATALOGUE.lines().map(str::trim).filter(|l| !l.is_empty());
    let (mut near, mut far): (Vec<_>, Vec<_>) = ids
        .filter(|id| fuzzy_match(&query, id))
        .partition(|id| id.contains(query.as_str()));
    near.sort_by_key(|id| (id.find(query.as_str()), id.len()));
    far.sort_by_key(|id| id.len());
    near.extend(far);
    near
}

/// What a prompt's text is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputPurpose {
    /// The title of a new document.
    NewDoc,
    /// A document's new title.
    Rename(DocSummary),
    /// The title of a document's clone.
    Clone(DocSummary),
    /// The e-mail to share a document with.
    Share(DocSummary),
    /// The file to export a document to.
    Export(DocSummary),
    /// The file to import into a document.
    Import(DocSummary),
}

/// What a confirmation does when accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfirmAction {
    /// Quit (losing edits).
    Quit,
    /// Empty a document.
    EmptyDoc(DocSummary),
    /// Delete a document.
    DeleteDoc(DocSummary),
    /// Delete an object.
    DeleteObject {
        /// Its document.
        doc: String,
        /// Its id.
        obj: String,
    },
    /// Open another document (losing edits).
    OpenDoc(DocSummary),
    /// Select another row of the tree (losing edits).
    SelectRow(usize),
    /// Run the selector form's update.
    ApplySelector,
    /// Delete the marked objects.
    DeleteMarked {
        /// Their document.
        doc: String,
        /// Their ids.
        objs: Vec<String>,
    },
    /// Replace an existing file with an export.
    OverwriteExport {
        /// The document exported.
        doc: DocSummary,
        /// The write that found the file there.
        job: FileJob,
    },
}

/// An overlay.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// Every key for the pane that had the focus.
    Help(Pane),
    /// The request log, scrolled.
    Log {
        /// First entry shown, counted from the newest.
        scroll: usize,
    },
    /// A yes/no question.
    Confirm {
        /// Title.
        title: String,
        /// The question, naming what it acts on.
        message: String,
        /// What yes does.
        action: ConfirmAction,
    },
    /// A one-line prompt.
    Input {
        /// Title.
        title: String,
        /// What to type.
        prompt: String,
        /// The text.
        input: LineInput,
        /// What it is for.
        purpose: InputPurpose,
    },
    /// What a save will change; yes sends it.
    SaveDiff(Diff),
    /// The object changed on the server since it was opened: overwrite or reload.
    Conflict(DiagramObject),
    /// The type of a new object.
    TypePicker {
        /// Index into `ObjectType::ALL`.
        selected: usize,
    },
    /// The component id of a new component, with type-ahead.
    ComponentPicker {
        /// What was typed.
        query: LineInput,
        /// Index into the matches.
        selected: usize,
    },
    /// The selector form (its state is `App::form`).
    SelectorForm,
    /// The selector update's answer, with a jump to each updated object.
    SelectorResult {
        /// Index into the updated ids.
        selected: usize,
    },
    /// The bulk edit of the marked objects (its text is `App::bulk`).
    BulkEdit,
    /// What the bulk edit changes in each marked object; yes sends it.
    BulkDiff(Vec<BulkChange>),
    /// What an import file holds and what is wrong in it; yes replaces the content.
    ImportReport {
        /// The document to replace the content of.
        doc: DocSummary,
        /// The file read.
        path: PathBuf,
        /// The check, or why the file is refused.
        report: Result<ContentReport, String>,
    },
}

impl Overlay {
    /// A confirmation.
    pub fn confirm(title: &str, message: &str, action: ConfirmAction) -> Overlay {
        Overlay::Confirm {
            title: title.into(),
            message: message.into(),
            action,
        }
    }

    /// The question asked before unsaved edits are lost by `action`.
    pub fn discard(action: ConfirmAction) -> Overlay {
        Overlay::confirm(
            "Unsaved edits",
            "The properties pane holds unsaved edits. Drop them?",
            action,
        )
    }

    /// A prompt prefilled with `text`.
    pub fn input(title: &str, prompt: &str, text: &str, purpose: InputPurpose) -> Overlay {
        Overlay::Input {
            title: title.into(),
            prompt: prompt.into(),
            input: LineInput::new(text),
            purpose,
        }
    }
}

impl App {
    /// A key while an overlay is open.
    pub(super) fn overlay_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(overlay) = self.overlay.take() else {
            return Vec::new();
        };
        let yes = matches!(key.code, KeyCode::Enter | KeyCode::Char('y'));
        let no = matches!(key.code, KeyCode::Esc | KeyCode::Char('n'));
        match overlay {
            Overlay::Help(_) => {}
            Overlay::Log { scroll } => {
                if !matches!(key.code, KeyCode::Esc | KeyCode::Char('q' | 'L')) {
                    let step = movement(key, 10).unwrap_or(0);
                    let scroll = step_index(scroll, self.log.len(), step);
                    self.overlay = Some(Overlay::Log { scroll });
                }
            }
            Overlay::Confirm { action, .. } if yes => return self.confirmed(action),
            overlay @ Overlay::Confirm { .. } if !no => self.overlay = Some(overlay),
            Overlay::Confirm { action, .. } => self.declined(action),
            Overlay::Input { purpose, input, .. } if key.code == KeyCode::Enter => {
                return self.submit_input(purpose, input.text().to_string());
            }
            Overlay::Input { .. } if key.code == KeyCode::Esc => {}
            Overlay::Input {
                title,
                prompt,
                mut input,
                purpose,
            } => {
                input.handle(key);
                self.overlay = Some(Overlay::Input {
                    title,
                    prompt,
                    input,
                    purpose,
                });
            }
            Overlay::SaveDiff(diff) if yes => return self.confirm_save(diff),
            overlay @ Overlay::SaveDiff(_) if !no => self.overlay = Some(overlay),
            Overlay::SaveDiff(_) => self.notify("save cancelled; the edit is kept"),
            Overlay::Conflict(_) if key.code == KeyCode::Char('o') => return self.send_save(),
            Overlay::Conflict(object) if key.code == KeyCode::Char('r') => {
                self.reload_after_conflict(object)
            }
            Overlay::Conflict(_) if key.code == KeyCode::Esc => {
                self.cancel_save();
                self.notify("save cancelled; the edit is kept");
            }
            overlay @ Overlay::Conflict(_) => self.overlay = Some(overlay),
            Overlay::TypePicker { selected } => return self.type_picker_key(key, selected),
            Overlay::ComponentPicker { query, selected } => {
                return self.component_picker_key(key, query, selected);
            }
            Overlay::SelectorForm => return self.selector_form_key(key),
            Overlay::SelectorResult { selected } => return self.selector_result_key(key, selected),
            Overlay::BulkEdit => return self.bulk_edit_key(key),
            Overlay::BulkDiff(changes) if yes => return self.send_bulk(changes),
            overlay @ Overlay::BulkDiff(_) if !no => self.overlay = Some(overlay),
            Overlay::BulkDiff(_) => self.overlay = Some(Overlay::BulkEdit),
            Overlay::ImportReport { doc, report, .. } if yes || no => {
                return self.import_report_key(doc, report, yes);
            }
            overlay @ Overlay::ImportReport { .. } => self.overlay = Some(overlay),
        }
        Vec::new()
    }

    fn confirmed(&mut self, action: ConfirmAction) -> Vec<Effect> {
        match action {
            ConfirmAction::Quit => vec![Effect::Quit],
            ConfirmAction::EmptyDoc(doc) => self.empty_doc(doc),
            ConfirmAction::DeleteDoc(doc) => self.delete_doc(doc),
            ConfirmAction::DeleteObject { doc, obj } => self.delete_object(doc, obj),
            ConfirmAction::OpenDoc(doc) => {
                self.editor.close();
                self.open_doc(doc)
            }
            ConfirmAction::SelectRow(row) => {
                self.editor.close();
                self.select_row(row);
                Vec::new()
            }
            ConfirmAction::ApplySelector => self.apply_selector(),
            ConfirmAction::DeleteMarked { doc, objs } => self.delete_marked(doc, objs),
            ConfirmAction::OverwriteExport { doc, job } => match job {
                FileJob::Write { path, text, .. } => vec![Effect::File(
                    FileFor::Export(doc),
                    FileJob::Write {
                        path,
                        text,
                        overwrite: true,
                    },
                )],
                FileJob::Read(_) => Vec::new(),
            },
        }
    }

    /// A confirmation was declined: back to where it was asked from.
    fn declined(&mut self, action: ConfirmAction) {
        match action {
            ConfirmAction::ApplySelector => self.overlay = Some(Overlay::SelectorForm),
            ConfirmAction::OverwriteExport { .. } => {
                self.notify("export cancelled; the file is as it was")
            }
            _ => {}
        }
    }

    fn type_picker_key(&mut self, key: KeyEvent, selected: usize) -> Vec<Effect> {
        if key.code == KeyCode::Esc {
            return Vec::new();
        }
        if key.code == KeyCode::Enter {
            let kind = ObjectType::ALL[selected];
            if kind == ObjectType::Component {
                self.overlay = Some(Overlay::ComponentPicker {
                    query: LineInput::default(),
                    selected: 0,
                });
                return Vec::new();
            }
            return self.create_object(kind, Props::new());
        }
        let step = movement(key, ObjectType::ALL.len()).unwrap_or(0);
        let selected = step_index(selected, ObjectType::ALL.len(), step);
        self.overlay = Some(Overlay::TypePicker { selected });
        Vec::new()
    }

    fn component_picker_key(
        &mut self,
        key: KeyEvent,
        mut query: LineInput,
        selected: usize,
    ) -> Vec<Effect> {
        let matches = component_ids(query.text());
        let selected = match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Enter => {
                let Some(id) = matches.get(selected) else {
                    self.overlay = Some(Overlay::ComponentPicker { query, selected });
                    return Vec::new();
                };
                let mut props = Props::new();
                props.insert("componentId".into(), (*id).into());
                return self.create_object(ObjectType::Component, props);
            }
            KeyCode::Down => step_index(selected, matches.len(), 1),
            KeyCode::Up => step_index(selected, matches.len(), -1),
            _ => {
                if query.handle(key) {
                    0
                } else {
                    selected
                }
            }
        };
        self.overlay = Some(Overlay::ComponentPicker { query, selected });
        Vec::new()
    }
}
