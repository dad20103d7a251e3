//! What components ask of the app and the shape they have. A component never changes another
//! component; it returns [`Action`]s, and `App` carries them out (sending requests, opening
//! overlays, asking questions, telling the other components what changed). [`Component`] is the
//! shape every pane and overlay has and [`Cx`] what it may read of the app; an [`Overlay`] is a
//! component drawn over the panes; [`Ask`] is a question, its answers each holding the actions
//! it takes. These types name each other (an action opens an overlay, an overlay is a component,
//! a component returns actions), so they share this file.

use std::any::Any;
use std::fmt;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::document::OpenDoc;
use crate::document::names::Names;

use crate::keys::{Command, Context, KeyTable};
use crate::requests::api::Call;
use crate::requests::ledger::Requests;
use crate::requests::liveness::Liveness;
use crate::requests::purpose::{Answered, BulkOwner, Outcome, Sent};
use crate::session::record::{UndoneMark, WriteHistory, WriteKind};
use crate::session::selectors::{SavedSelector, SelectorHistory};
use crate::text::notification::Notification;
use crate::theme::{Role, Theme};
use crate::transfer::{FileFor, FileJob, Places};
use crate::vocab::calls::{Applied, Body, BulkCall, MarksChange, Pane};
use diagtui_model::{DocSummary, Props};
use diagtui_scene::Scene;

/// Something a component asks App to do.
#[derive(Debug)]
pub enum Action {
    /// Send this request (App logs it and tracks it until its reply).
    Send(Sent),
    /// Say this in the status bar.
    Notify(Notification),
    /// Take an error off the status bar (a retry is under way).
    ClearError,
    /// Give this pane the focus.
    Focus(Pane),
    /// Open this overlay on top.
    Open(Overlay),
    /// Ask this question: App opens it on top as the question overlay, and carries out the
    /// actions of the answer given.
    Ask(Ask),
    /// Close the overlay on top (the selector form and the bulk edit keep their content).
    Close,
    /// Leave the app.
    Quit,
    /// Leave, asking first when the properties pane holds unsaved edits.
    AskQuit,
    /// Put this text on the clipboard.
    Copy(String),
    /// Hand this text to `$VISUAL`/`$EDITOR`.
    ExternalEditor(String),
    /// Carry out this file job.
    File(FileFor, FileJob),
    /// Open this document (asking first when that would drop unsaved edits).
    OpenDoc(DocSummary),
    /// Drop the properties pane's unsaved edits (the user said so).
    DropEdits,
    /// The objects pane selected an object: the properties pane shows it.
    ShowSelected,
    /// Show this pane in its column (the map in the properties' place), with the focus, or put
    /// it away (the focus, if it had it, to the column on its left: the map's to the objects).
    Show(Pane, bool),
    /// `e`: edit the selected object in `$EDITOR`.
    ExternalEdit,
    /// Read the open document's content again.
    ReloadContent,
    /// A write of this app's to the open document succeeded: read its content again to show
    /// it, unless the document's change events are followed (the write comes back as an event
    /// and is shown from it, as anyone else's: one reload, not two).
    ReloadAfterWrite,
    /// `Esc` while the document opens: stop reading its content and close it.
    CancelOpen,
    /// A document got a new title.
    DocRetitled {
        /// The document.
        doc: String,
        /// Its title.
        title: String,
    },
    /// A document is being emptied.
    DocEmptied(String),
    /// A document is being deleted.
    DocDeleted(String),
    /// A document's content was replaced (an import).
    ContentReplaced(String),
    /// Change the open document's marks.
    Marks(MarksChange),
    /// Take these objects out of the open document at once (their delete is on its way).
    RemoveObjects {
        /// The document.
        doc: String,
        /// The objects.
        objs: Vec<String>,
    },
    /// An object's data as the server now has it.
    ObjectData {
        /// The document.
        doc: String,
        /// The object.
        obj: String,
        /// Its data.
        data: Props,
        /// Its version on the server (`None`: the server gives none).
        version: Option<u64>,
    },
    /// `w`: open the selector form on the open document.
    OpenForm,
    /// `b`: open the bulk edit of the marked objects; these marked ones the tree hides.
    OpenBulkEdit(Vec<String>),
    /// Show the selector update's answer in place of the form.
    ShowSelectorResult(Applied),
    /// Remember this selector in the history.
    Remember(SavedSelector),
    /// Run `command` of `context` as the palette picked it: where it works, its pane focused
    /// first, or a message saying where it works and what it needs.
    Run(Context, Command),
    /// For the pane whose calls have this call's type (`DocsCall`, `ObjectsCall`, ...):
    /// `Action::to_pane(call)`.
    ToPane(PaneCall),
    /// The selector apply was confirmed.
    ApplySelector,
    /// The selector apply was refused (the matches changed since the preview): preview
    /// again, then ask to apply.
    PreviewSelectorAgain,
    /// An answer to a bulk change's question, for its owner.
    Bulk(BulkOwner, BulkCall),
    /// A write to this document's objects was answered (its details are read again once the
    /// last such write is answered).
    Written(String),
    /// A write went through: keep it in the session's write history (for undo).
    Record {
        /// The document written to.
        doc: String,
        /// What the write did.
        kind: WriteKind,
    },
    /// An undo went through: mark what it put back in the write history.
    Undone(UndoneMark),
    /// The user chose to undo write `id` (a server's version it was made of is listed in the
    /// write history from now on).
    Undoing(u64),
    /// Undo a version of the server's history: keep it in the write history (as the write
    /// `kind` to `doc`), then undo it as any write (asks first).
    UndoVersion {
        /// The document.
        doc: String,
        /// The version.
        version: u64,
        /// The one object whose part is undone (`None`: all of the version).
        obj: Option<String>,
        /// What undoing it takes.
        kind: WriteKind,
    },
    /// The server keeps no history (a history route answered 404): say so once, then undo the
    /// newest write of this session to object `obj` of `doc`.
    NoServerHistory {
        /// The document.
        doc: String,
        /// The object.
        obj: String,
    },
    /// Show the open document as it was at this version, read-only (`None`: as it is now).
    ShowVersion(Option<u64>),
    /// `r` in the history: ask whether to restore the open document to this version (after
    /// reading how many objects that changes).
    AskRestore(u64),
}

/// A call App forwards to the pane whose calls have its type.
pub struct PaneCall(pub Box<dyn Any>);

impl fmt::Debug for PaneCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PaneCall")
    }
}

impl Action {
    /// `call` for the pane whose calls have its type.
    pub fn to_pane(call: impl Any) -> Action {
        Action::ToPane(PaneCall(Box::new(call)))
    }

    /// An information for the status bar.
    pub fn info(text: impl Into<String>) -> Action {
        Action::Notify(Notification::info(text))
    }

    /// An error for the status bar.
    pub fn error(text: impl Into<String>) -> Action {
        Action::Notify(Notification::error(text))
    }
}

/// One answer: the command that gives it, what the answers line calls it, and what it does.
#[derive(Debug)]
pub struct Choice {
    /// The command that gives it.
    pub(crate) command: Command,
    /// What the answers line calls it.
    pub(crate) label: String,
    /// What it does.
    pub(crate) actions: Vec<Action>,
}

impl Choice {
    /// An answer shown as `keys: label`.
    pub fn new(command: Command, label: &str, actions: Vec<Action>) -> Choice {
        Choice {
            command,
            label: label.to_string(),
            actions,
        }
    }
}

/// A question: its title, its body, its answers, the key context they are read in and the answer
/// `Enter` takes at first.
#[derive(Debug)]
pub struct Ask {
    /// The box's title.
    pub(crate) title: String,
    /// What it shows above its answers.
    pub(crate) body: Body,
    /// Its answers.
    pub(crate) choices: Vec<Choice>,
    /// The key context its answers are read in.
    pub(crate) context: Context,
    /// The answer `Enter` takes (an index into `choices`).
    pub(crate) highlighted: usize,
}

impl Ask {
    /// A question answered with the keys of the `confirm` context, its first answer
    /// highlighted.
    pub fn new(title: &str, body: Body, choices: Vec<Choice>) -> Ask {
        Ask {
            title: title.to_string(),
            body,
            choices,
            context: Context::Confirm,
            highlighted: 0,
        }
    }

    /// The same question answered with the keys of `context`.
    pub fn in_context(self, context: Context) -> Ask {
        Ask { context, ..self }
    }

    /// The same question as a destructive one (it deletes, empties, drops edits, overwrites or
    /// writes to more than one object): its safe answer (no, cancel) is highlighted, so
    /// `Enter` leaves everything as it is and only the yes key, or moving to yes, goes ahead.
    pub fn destructive(self) -> Ask {
        let safe = self
            .choices
            .iter()
            .position(|c| matches!(c.command, Command::No | Command::Cancel))
            .unwrap_or(self.choices.len().saturating_sub(1));
        Ask {
            highlighted: safe,
            ..self
        }
    }

    /// The same question, destructive when `destructive` is (see [`Ask::destructive`]).
    pub fn destructive_if(self, destructive: bool) -> Ask {
        if destructive {
            self.destructive()
        } else {
            self
        }
    }
}

/// What a component may read of the app while it handles input or draws.
pub struct Cx<'a> {
    /// The key table (to name keys in hints and messages).
    pub keys: &'a KeyTable,
    /// The looks.
    pub theme: &'a Theme,
    /// The open document: its content and marks.
    pub doc: Option<&'a OpenDoc>,
    /// The object whose unsaved edits the properties pane holds, if any.
    pub unsaved: Option<&'a str>,
    /// The requests of the session (ids for new ones, the log).
    pub requests: &'a Requests,
    /// The selectors remembered.
    pub history: &'a SelectorHistory,
    /// The writes of the session (for undo).
    pub writes: &'a WriteHistory,
    /// The open document's scene (what the map draws, what connects to what), once built.
    pub scene: Option<&'a Scene>,
    /// What the change events said (which objects changed a moment ago).
    pub liveness: &'a Liveness,
    /// Where typed paths start (the working directory, `~`).
    pub places: &'a Places,
    /// The app's tick now.
    pub now: u64,
}

impl<'a> Cx<'a> {
    /// A request making `call`, under a fresh id (read it from the result to know the reply),
    /// whose answer becomes the reply `then` makes of it.
    pub fn send<A: 'static>(
        &self,
        call: Call<A>,
        then: impl FnOnce(Outcome<A>) -> Answered + Send + 'static,
    ) -> Sent {
        self.requests.prepare(call, then)
    }

    /// The first key of `command` in `context`, as shown (`R`).
    pub fn key(&self, context: Context, command: Command) -> String {
        self.keys.key(context, command)
    }

    /// The style of `role`.
    pub fn style(&self, role: Role) -> Style {
        self.theme.of(role)
    }

    /// Whether `id` (an object of the open document, or a document) changed elsewhere a
    /// moment ago.
    pub fn recently_changed(&self, id: &str) -> bool {
        self.liveness.recently_changed(id, self.now)
    }

    /// Names the open document's objects (`cx.names().of(id)`: the tree's row, a question's
    /// words, a message's title).
    pub fn names(&self) -> Names<'a> {
        let names = Names::new(self.doc.and_then(OpenDoc::model), self.scene);
        match self.doc {
            Some(doc) => names.with_departed(&doc.departed),
            None => names,
        }
    }

    /// How a message names object `id` of the open document: its title (`CDN`), else its id.
    pub fn name_of(&self, id: &str) -> String {
        self.names().text(id)
    }

    /// The open document's id.
    pub fn doc_id(&self) -> Option<&str> {
        self.doc.map(OpenDoc::id)
    }

    /// What a paste where no text field has the keys says: which key opens the field that
    /// would take it (`command` of `context`, for `what`).
    pub fn paste_elsewhere(&self, context: Context, command: Command, what: &str) -> Vec<Action> {
        vec![Action::info(format!(
            "paste goes into a text field: {} starts {what}",
            self.key(context, command)
        ))]
    }
}

/// A pane or an overlay.
pub trait Component {
    /// The key context its keys are looked up in now (it may change with its state: a list
    /// while its filter is typed, the properties pane in edit mode).
    fn context(&self) -> Context;

    /// Carries out a command of its context (or one it inherits that is not the app's).
    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action>;

    /// A key no command is bound to: a component with a text field types it.
    fn key(&mut self, _key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        Vec::new()
    }

    /// Pasted text (bracketed paste), as one edit of the focused text field.
    fn paste(&mut self, _text: &str, _cx: &Cx) -> Vec<Action> {
        vec![Action::info("nothing here takes pasted text")]
    }

    /// A mouse event inside its area.
    fn mouse(&mut self, _mouse: MouseEvent, _cx: &Cx) -> Vec<Action> {
        Vec::new()
    }

    /// Where it is drawn now: a pane's rectangle, an overlay's screen (page sizes and clicks
    /// follow it).
    fn set_area(&mut self, _area: Rect) {}

    /// Draws it into `area`; `focused` when it has the keys.
    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool);
}

/// A component that can be shown over the panes: any component that can be printed.
pub trait Overlaid: Component + Any + fmt::Debug {}

impl<T: Component + Any + fmt::Debug> Overlaid for T {}

/// An overlay: a component drawn over the panes.
pub struct Overlay(Box<dyn Overlaid>);

impl Overlay {
    /// `component` as an overlay.
    pub fn new(component: impl Overlaid) -> Overlay {
        Overlay(Box::new(component))
    }

    /// A boxed component as an overlay (the box kept).
    pub fn boxed<T: Overlaid>(component: Box<T>) -> Overlay {
        Overlay(component)
    }

    /// It, as a component.
    pub fn component(&self) -> &dyn Component {
        &*self.0
    }

    /// It, as a component to change.
    pub fn component_mut(&mut self) -> &mut dyn Component {
        &mut *self.0
    }

    /// The component inside, when it is a `T`.
    pub fn get<T: Overlaid>(&self) -> Option<&T> {
        let any: &dyn Any = &*self.0;
        any.downcast_ref()
    }

    /// The component inside, to change, when it is a `T`.
    pub fn get_mut<T: Overlaid>(&mut self) -> Option<&mut T> {
        let any: &mut dyn Any = &mut *self.0;
        any.downcast_mut()
    }

    /// Whether the component inside is a `T`.
    pub fn is<T: Overlaid>(&self) -> bool {
        self.get::<T>().is_some()
    }

    /// The component inside, when it is a `T`; else the overlay back.
    pub fn take<T: Overlaid>(self) -> Result<Box<T>, Overlay> {
        if !self.is::<T>() {
            return Err(self);
        }
        let any: Box<dyn Any> = self.0;
        Ok(any.downcast().expect("checked to be a T"))
    }
}

impl fmt::Debug for Overlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
