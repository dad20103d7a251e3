//! The shape every pane and overlay has: it owns its state, handles the commands of its key
//! context (and, where it types, the keys no command is bound to), pasted text and the mouse,
//! and draws itself. It changes nothing outside itself: what else should happen it returns as
//! [`Action`]s for `App` to carry out. What it may know of the rest of the app comes in [`Cx`].

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::document::OpenDoc;
use crate::document::names::Names;
use crate::keys::{Command, Context, KeyTable};
use crate::requests::call::Request;
use crate::requests::ledger::Requests;
use crate::requests::liveness::Liveness;
use crate::requests::purpose::{Purpose, Sent};
use crate::session::record::WriteHistory;
use crate::session::selectors::SelectorHistory;
use crate::theme::{Role, Theme};
use crate::transfer::Places;
use crate::vocab::action::Action;
use diagtui_scene::Scene;
use ratatui::style::Style;

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
    /// An action sending `request` for `purpose`, under a fresh id (read it from the result to
    /// know the reply).
    pub fn send(&self, request: Request, purpose: Purpose) -> Sent {
        self.requests.prepare(request, purpose)
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
