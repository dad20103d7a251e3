//! All of the app's state and the one entry point that changes it: `App::update(msg)`, plain
//! code with no I/O, returning the effects for the runner to carry out. The panes' own update
//! code lives next door (`docs`, `objects`, `editor`, `overlay`), as `impl App` blocks.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};
use ratatui::layout::{Position, Rect};

use super::docs::DocsPane;
use super::editor::Editor;
use super::history::SelectorHistory;
use super::layout;
use super::objects::ObjectsPane;
use super::overlay::{ConfirmAction, Overlay};
use super::props_field::PropsField;
use super::request::{Answer, Failure, Reply, Request, RequestId};
use super::selector_form::SelectorForm;
use super::transfer::{FileFor, FileJob, FileOutcome};
use crate::model::DocSummary;

/// Something that happened: the app's only input.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal's new size (columns, rows).
    Resize(u16, u16),
    /// Time passed (animates the spinner).
    Tick,
    /// A request's answer.
    Api(Reply),
    /// `$EDITOR` exited: the file's text, or why it could not be run.
    EditorDone(Result<String, String>),
    /// A file job finished: what it was for, the job, and its outcome.
    File(FileFor, FileJob, FileOutcome),
}

/// Something the runner must do for the app.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send this request to the worker.
    Request(RequestId, Request),
    /// Leave the app.
    Quit,
    /// Put this text on the clipboard (OSC 52).
    Copy(String),
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on a file holding this text.
    OpenEditor(String),
    /// Carry out this file job (`transfer::perform`) and send back `Msg::File`.
    File(FileFor, FileJob),
}

/// Which pane has the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The documents list.
    Docs,
    /// The object tree.
    Objects,
    /// The JSON editor.
    Props,
}

impl Pane {
    fn next(self) -> Pane {
        match self {
            Pane::Docs => Pane::Objects,
            Pane::Objects => Pane::Props,
            Pane::Props => Pane::Docs,
        }
    }

    fn prev(self) -> Pane {
        self.next().next()
    }
}

/// What a request in flight is for, so its answer lands in the right place.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// Fill in the status bar's account.
    Account,
    /// Refresh the document list.
    DocList,
    /// Refresh the folder list.
    FolderList,
    /// Show the selected document's details.
    Details,
    /// Load the open document's objects.
    Content,
    /// Re-read the edited object before saving.
    PreSave,
    /// Re-read an object after a write, to check it against the server.
    Reread,
    /// The update that saves the editor.
    Save,
    /// The update that undoes the last save.
    Undo,
    /// A document action; its name for messages.
    DocAction(&'static str),
    /// Create an object.
    CreateObject,
    /// Delete an object.
    DeleteObject,
    /// The selector form's preview (the selector read); `then_apply` when an apply waits on it.
    Preview {
        /// Whether to ask to apply once it arrives.
        then_apply: bool,
    },
    /// The selector form's apply (the selector update).
    ApplySelector {
        /// How many objects the preview of this selector found, if there was one.
        expected: Option<usize>,
    },
    /// The bulk update of the marked objects.
    BulkUpdate,
    /// One delete of the marked objects.
    DeleteMarked,
    /// Read the content to export it to a file.
    Export {
        /// The document.
        doc: DocSummary,
        /// The file.
        path: PathBuf,
    },
    /// Set-content from an imported file.
    Import(DocSummary),
}

/// One line of the request log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// HTTP method.
    pub method: &'static str,
    /// Path (the key never appears in it).
    pub path: String,
    /// Status: `None` while in flight, `Some(200)` for a success, the error status else
    /// (`Some(0)` when no answer came at all).
    pub status: Option<u16>,
    /// Latency once answered.
    pub latency: Option<Duration>,
    /// The error text when it failed.
    pub error: Option<String>,
}

/// A request in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct InFlight {
    /// What it was.
    pub request: Request,
    /// What its answer is for.
    pub purpose: Purpose,
    /// Its line in the request log.
    pub log_index: usize,
}

/// The whole state of the app.
#[derive(Debug)]
pub struct App {
    /// Where the connection goes, as the status bar shows it (`local /path` or a URL).
    pub mode: String,
    /// The account's e-mail once known.
    pub account: Option<String>,
    /// The focused pane.
    pub focus: Pane,
    /// The documents pane.
    pub docs: DocsPane,
    /// The objects pane.
    pub objects: ObjectsPane,
    /// The properties pane.
    pub editor: Editor,
    /// The overlay on top, if any.
    pub overlay: Option<Overlay>,
    /// Requests in flight by id.
    pub in_flight: BTreeMap<RequestId, InFlight>,
    /// Every request of the session.
    pub log: Vec<LogEntry>,
    /// The last error, shown in the status bar until the next success note.
    pub last_error: Option<String>,
    /// The last note (what just happened).
    pub note: Option<String>,
    /// The terminal size.
    pub size: Rect,
    /// Spinner frame.
    pub tick: u64,
    /// The selector form (kept while closed, so it keeps its content).
    pub form: SelectorForm,
    /// The selectors used last.
    pub history: SelectorHistory,
    /// The props JSON of the bulk edit.
    pub bulk: PropsField,
    /// Deletes of marked objects that succeeded, while they run.
    pub(super) bulk_deleted: usize,
    /// Deletes of marked objects that failed (id, why), while they run.
    pub(super) bulk_delete_failures: Vec<(String, String)>,
    next_id: RequestId,
}

impl App {
    /// A fresh app for a connection described by `mode`, with `account` when already known.
    pub fn new(mode: impl Into<String>, account: Option<String>) -> App {
        App {
            mode: mode.into(),
            account,
            focus: Pane::Docs,
            docs: DocsPane::default(),
            objects: ObjectsPane::default(),
            editor: Editor::default(),
            overlay: None,
            in_flight: BTreeMap::new(),
            log: Vec::new(),
            last_error: None,
            note: None,
            size: Rect::new(0, 0, 120, 40),
            tick: 0,
            form: SelectorForm::default(),
            history: SelectorHistory::default(),
            bulk: PropsField::default(),
            bulk_deleted: 0,
            bulk_delete_failures: Vec::new(),
            next_id: 1,
        }
    }

    /// The requests to make at start-up (and on `R`): the account, the documents, the folders.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = vec![
            self.request(Request::ListDocs, Purpose::DocList),
            self.request(Request::Folders, Purpose::FolderList),
        ];
        if self.account.is_none() {
            effects.push(self.request(Request::WhoAmI, Purpose::Account));
        }
        effects
    }

    /// Registers a request in flight and returns the effect that sends it.
    pub(super) fn request(&mut self, request: Request, purpose: Purpose) -> Effect {
        let id = self.next_id;
        self.next_id += 1;
        let (method, path) = request.route();
        self.log.push(LogEntry {
            method,
            path,
            status: None,
            latency: None,
            error: None,
        });
        self.in_flight.insert(
            id,
            InFlight {
                request: request.clone(),
                purpose,
                log_index: self.log.len() - 1,
            },
        );
        Effect::Request(id, request)
    }

    /// The id given to the last request made.
    pub(super) fn last_id(&self) -> RequestId {
        self.next_id - 1
    }

    /// Whether any request of this purpose is in flight.
    pub fn waiting_for(&self, purpose: &Purpose) -> bool {
        self.in_flight.values().any(|f| &f.purpose == purpose)
    }

    /// Records an error for the status bar.
    pub(super) fn fail(&mut self, message: impl Into<String>) {
        let message = message.into();
        tracing::warn!(%message, "error shown");
        self.last_error = Some(message);
    }

    /// Records what just happened, clearing the last error.
    pub(super) fn notify(&mut self, message: impl Into<String>) {
        self.note = Some(message.into());
        self.last_error = None;
    }

    /// Whether the editor holds edits that were not saved.
    pub fn has_unsaved_edits(&self) -> bool {
        self.editor.is_dirty()
    }

    /// The one entry point: applies `msg` and returns what the runner must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Key(key) if key.kind != KeyEventKind::Release => self.on_key(key),
            Msg::Key(_) => Vec::new(),
            Msg::Mouse(mouse) => self.on_mouse(mouse),
            Msg::Resize(width, height) => {
                self.size = Rect::new(0, 0, width, height);
                self.objects.keep_visible(self.objects_rows());
                self.docs.keep_visible(self.docs_rows());
                Vec::new()
            }
            Msg::Tick => {
                self.tick = self.tick.wrapping_add(1);
                Vec::new()
            }
            Msg::Api(reply) => self.on_reply(reply),
            Msg::EditorDone(result) => self.on_editor_done(result),
            Msg::File(what, job, outcome) => self.on_file(what, job, outcome),
        }
    }

    /// Rows the documents list shows.
    pub(super) fn docs_rows(&self) -> usize {
        let docs = layout::screen(self.size).docs;
        let extra = u16::from(self.docs.filter.shown()) + layout::details_height(docs);
        layout::inner_rows(docs, extra)
    }

    /// Rows the object tree shows.
    pub(super) fn objects_rows(&self) -> usize {
        let extra = u16::from(self.objects.filter.shown());
        layout::inner_rows(layout::screen(self.size).objects, extra)
    }

    fn on_reply(&mut self, reply: Reply) -> Vec<Effect> {
        let Some(flight) = self.in_flight.remove(&reply.id) else {
            tracing::debug!(id = reply.id, "reply for nothing in flight dropped");
            return Vec::new();
        };
        let entry = &mut self.log[flight.log_index];
        entry.latency = Some(reply.latency);
        match &reply.outcome {
            Ok(_) => entry.status = Some(200),
            Err(failure) => {
                entry.status = Some(failure.status.unwrap_or(0));
                entry.error = Some(failure.message.clone());
            }
        }
        tracing::debug!(id = reply.id, purpose = ?flight.purpose, ok = reply.outcome.is_ok(), "reply");
        let written = flight.request.written_doc().map(str::to_owned);
        let mut effects = match reply.outcome {
            Ok(answer) => self.on_answer(reply.id, flight, answer),
            Err(failure) => self.on_failure(reply.id, flight, failure),
        };
        if let Some(doc) = written {
            effects.extend(self.refresh_details_after_writes(&doc));
        }
        effects
    }

    /// Once the last object write to `doc` has answered, reads the details again when `doc` is
    /// the selected document, so its last change and object count stay true.
    fn refresh_details_after_writes(&mut self, doc: &str) -> Vec<Effect> {
        let selected = self.docs.selected_doc().is_some_and(|d| d.id == doc);
        let writing = self
            .in_flight
            .values()
            .any(|f| f.request.written_doc() == Some(doc));
        if selected && !writing {
            self.request_details()
        } else {
            Vec::new()
        }
    }

    fn on_answer(&mut self, id: RequestId, flight: InFlight, answer: Answer) -> Vec<Effect> {
        match (flight.purpose, answer) {
            (Purpose::Account, Answer::Me(user)) => {
                self.account = Some(user.email);
                Vec::new()
            }
            (Purpose::DocList, Answer::Docs(docs)) => self.docs_loaded(docs),
            (Purpose::FolderList, Answer::Folders(folders)) => {
                self.docs.set_folders(folders);
                self.docs.keep_visible(self.docs_rows());
                Vec::new()
            }
            (Purpose::Details, Answer::Details(details)) => {
                self.docs.details_loaded(id, details);
                Vec::new()
            }
            (Purpose::Content, Answer::Content(content)) => self.content_loaded(id, content),
            (Purpose::PreSave, Answer::Object(object)) => self.presave_read(flight.request, object),
            (Purpose::Reread, Answer::Object(object)) => {
                self.object_reread(flight.request, object);
                Vec::new()
            }
            (Purpose::Save, Answer::Done) => self.saved(flight.request),
            (Purpose::Undo, Answer::Done) => self.undone(flight.request),
            (Purpose::DocAction(action), answer) => {
                self.doc_action_done(action, flight.request, answer)
            }
            (Purpose::CreateObject, Answer::Created(obj)) => {
                self.object_created(flight.request, obj)
            }
            (Purpose::DeleteObject, Answer::Done) => self.object_deleted(flight.request),
            (Purpose::Preview { then_apply }, Answer::Content(content)) => {
                self.preview_arrived(flight.request, content, then_apply)
            }
            (Purpose::ApplySelector { expected }, Answer::Updated(updated)) => {
                self.selector_applied(flight.request, updated, expected)
            }
            (Purpose::BulkUpdate, Answer::Done) => self.bulk_done(flight.request),
            (Purpose::DeleteMarked, Answer::Done) => self.marked_deleted(None),
            (Purpose::Export { doc, path }, Answer::Content(content)) => {
                self.export_content(doc, path, &content)
            }
            (Purpose::Import(doc), Answer::Done) => self.imported(doc, flight.request),
            (purpose, answer) => {
                self.fail(format!("unexpected answer {answer:?} for {purpose:?}"));
                Vec::new()
            }
        }
    }

    fn on_failure(&mut self, id: RequestId, flight: InFlight, failure: Failure) -> Vec<Effect> {
        let message = failure.message.clone();
        match flight.purpose {
            Purpose::Account => self.fail(format!("could not read the account: {message}")),
            Purpose::DocList => {
                self.docs.load_error = Some(message.clone());
                self.fail(format!("could not list documents: {message} (R retries)"));
            }
            Purpose::FolderList => self.fail(format!("could not list folders: {message}")),
            Purpose::Details => self.docs.details_failed(id, message),
            Purpose::Content => self.content_failed(id, message),
            Purpose::PreSave | Purpose::Save => {
                self.cancel_save();
                self.fail(format!("save failed, your edit is kept: {message}"));
            }
            Purpose::Reread => self.fail(format!("could not re-read the object: {message}")),
            Purpose::Undo => self.fail(format!("undo failed: {message}")),
            Purpose::DocAction(action) => {
                return self.doc_action_failed(action, flight.request, failure);
            }
            Purpose::CreateObject => self.fail(format!("could not create the object: {message}")),
            Purpose::DeleteObject => {
                self.fail(format!("could not delete the object: {message}"));
                return self.reload_content();
            }
            Purpose::Preview { .. } => self.selector_failed("preview", &message),
            Purpose::ApplySelector { .. } => self.selector_failed("apply", &message),
            Purpose::BulkUpdate => self.bulk_failed(&message),
            Purpose::DeleteMarked => {
                let obj = match flight.request {
                    Request::DeleteObject { obj, .. } => obj,
                    _ => String::new(),
                };
                return self.marked_deleted(Some((obj, message)));
            }
            Purpose::Export { doc, .. } => self.fail(format!(
                "could not read \"{}\" to export it: {message}",
                doc.title
            )),
            Purpose::Import(doc) => self.fail(format!(
                "import into \"{}\" failed; its content is as it was: {message}",
                doc.title
            )),
        }
        Vec::new()
    }

    fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        // Ctrl-C quits from anywhere, overlays included; a second one answers the question
        // about unsaved edits.
        if ctrl && key.code == KeyCode::Char('c') {
            if let Some(Overlay::Confirm {
                action: ConfirmAction::Quit,
                ..
            }) = self.overlay
            {
                return vec![Effect::Quit];
            }
            self.overlay = None;
            return self.ask_quit();
        }
        if self.overlay.is_some() {
            return self.overlay_key(key);
        }
        if ctrl && key.code == KeyCode::Char('s') {
            return self.begin_save();
        }
        // Text fields take every key first.
        let typing = match self.focus {
            Pane::Docs => self.docs.filter.editing(),
            Pane::Objects => self.objects.filter.editing(),
            Pane::Props => self.editor.is_editing(),
        };
        if typing {
            return match self.focus {
                Pane::Docs => self.docs_filter_key(key),
                Pane::Objects => self.objects_filter_key(key),
                Pane::Props => self.editor_edit_key(key),
            };
        }
        match key.code {
            KeyCode::Char('q') => return self.ask_quit(),
            KeyCode::Char('?') => {
                self.overlay = Some(Overlay::Help(self.focus));
                return Vec::new();
            }
            KeyCode::Char('L') => {
                self.overlay = Some(Overlay::Log { scroll: 0 });
                return Vec::new();
            }
            KeyCode::Char('R') => return self.refresh(),
            KeyCode::Tab => {
                self.focus = self.focus.next();
                return Vec::new();
            }
            KeyCode::BackTab => {
                self.focus = self.focus.prev();
                return Vec::new();
            }
            KeyCode::Char('1') => {
                self.focus = Pane::Docs;
                return Vec::new();
            }
            KeyCode::Char('2') => {
                self.focus = Pane::Objects;
                return Vec::new();
            }
            KeyCode::Char('3') => {
                self.focus = Pane::Props;
                return Vec::new();
            }
            _ => {}
        }
        match self.focus {
            Pane::Docs => self.docs_key(key),
            Pane::Objects => self.objects_key(key),
            Pane::Props => self.editor_view_key(key),
        }
    }

    /// `q`: quits, asking first when there are unsaved edits.
    fn ask_quit(&mut self) -> Vec<Effect> {
        if self.has_unsaved_edits() {
            self.overlay = Some(Overlay::confirm(
                "Quit",
                "Quit and lose the unsaved edits in the properties pane?",
                ConfirmAction::Quit,
            ));
            Vec::new()
        } else {
            vec![Effect::Quit]
        }
    }

    /// `R`: reloads the lists, the details and the open document.
    fn refresh(&mut self) -> Vec<Effect> {
        self.last_error = None;
        self.docs.load_error = None;
        let mut effects = self.start();
        effects.extend(self.request_details());
        effects.extend(self.reload_content());
        effects
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Vec<Effect> {
        use crossterm::event::{MouseButton, MouseEventKind};
        if self.overlay.is_some() {
            return Vec::new();
        }
        let screen = layout::screen(self.size);
        let inside = |rect: Rect| rect.contains(Position::new(mouse.column, mouse.row));
        let pane = if inside(screen.docs) {
            Pane::Docs
        } else if inside(screen.objects) {
            Pane::Objects
        } else if inside(screen.props) {
            Pane::Props
        } else {
            return Vec::new();
        };
        let step = match mouse.kind {
            MouseEventKind::ScrollDown => 3,
            MouseEventKind::ScrollUp => -3,
            MouseEventKind::Down(MouseButton::Left) => {
                self.focus = pane;
                let top = match pane {
                    Pane::Docs => screen.docs.y + 1 + u16::from(self.docs.filter.shown()),
                    Pane::Objects => screen.objects.y + 1 + u16::from(self.objects.filter.shown()),
                    Pane::Props => return Vec::new(),
                };
                let Some(row) = mouse.row.checked_sub(top) else {
                    return Vec::new();
                };
                return match pane {
                    Pane::Docs => self.docs_click(row as usize),
                    _ => self.objects_click(row as usize),
                };
            }
            _ => return Vec::new(),
        };
        match pane {
            Pane::Docs => self.docs_move(step),
            Pane::Objects => self.objects_move(step),
            Pane::Props => {
                self.editor.scroll_by(step);
                Vec::new()
            }
        }
    }
}

/// Moves a selection of `len` rows by `step`, clamped.
pub(super) fn step_index(selected: usize, len: usize, step: isize) -> usize {
    if len == 0 {
        return 0;
    }
    (selected as isize + step).clamp(0, len as isize - 1) as usize
}

/// The first row to show so that row `selected` shows among `rows` rows starting at `offset`,
/// scrolling as little as possible; `lead` more rows stay visible above it when scrolling up
/// (a heading, say).
pub(super) fn scroll_into_view(offset: usize, selected: usize, rows: usize, lead: usize) -> usize {
    let rows = rows.max(1);
    if selected < offset {
        selected.saturating_sub(lead)
    } else if selected >= offset + rows {
        selected + 1 - rows
    } else {
        offset
    }
}

/// The step for a movement key, if it is one (`j`/`k`, arrows, pages, ends).
pub(super) fn movement(key: KeyEvent, page: usize) -> Option<isize> {
    let page = page.max(1) as isize;
    Some(match key.code {
        KeyCode::Down | KeyCode::Char('j') => 1,
        KeyCode::Up | KeyCode::Char('k') => -1,
        KeyCode::PageDown => page,
        KeyCode::PageUp => -page,
        KeyCode::Home | KeyCode::Char('g') => isize::MIN / 2,
        KeyCode::End | KeyCode::Char('G') => isize::MAX / 2,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolling_moves_as_little_as_needed() {
        // Visible rows 10..15: inside stays, below scrolls down to end on it, above scrolls up.
        assert_eq!(scroll_into_view(10, 12, 5, 0), 10);
        assert_eq!(scroll_into_view(10, 17, 5, 0), 13);
        assert_eq!(scroll_into_view(10, 4, 5, 0), 4);
        assert_eq!(scroll_into_view(10, 4, 5, 1), 3, "one row of lead above");
        assert_eq!(scroll_into_view(0, 0, 5, 1), 0);
        assert_eq!(
            scroll_into_view(0, 3, 0, 0),
            3,
            "no room still shows the row"
        );
    }

    #[test]
    fn steps_stay_inside_the_list() {
        assert_eq!(step_index(2, 5, 10), 4);
        assert_eq!(step_index(2, 5, -10), 0);
        assert_eq!(step_index(0, 0, 1), 0);
    }
}
