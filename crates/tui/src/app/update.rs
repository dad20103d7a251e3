//! The app: the components, the open document they share, and the one entry point that changes
//! them, `App::update(msg) -> Vec<Effect>`, plain code with no I/O. A message goes to the
//! component that has the keys (the top overlay, else the focused pane) as a command of the key
//! table or as a key to type; the component answers with actions, which App carries out here,
//! turning some into effects for the runner.

use std::collections::VecDeque;
use std::time::Duration;

use crossterm::event::{KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use crate::app::status::Bar;
use crate::app::status::Status;
use crate::document::OpenDoc;
use crate::document::RequestId;
use crate::document::picture::{DrawnPicture, Graphics, PictureJob};
use crate::document::scene_cache::{BuiltScene, SceneCache, SceneJob};
use crate::document::summary::TypeSummary;
use crate::keys::{Command, Context, KeyTable};
use crate::overlays::{BulkEdit, Entry, Help, LogView, Palette, Prompt, Question, SelectorForm};
use crate::panes::{DOCS, MAP, OBJECTS, PROPS, Panes, Shown};
use crate::requests::api;
use crate::requests::call::{Reply, Request};
use crate::requests::fresh::FreshObjects;
use crate::requests::ledger::Requests;
use crate::requests::liveness::{Follow, Live, Liveness};
use crate::requests::purpose::Answered;
use crate::session::record::WriteHistory;
use crate::session::selectors::SelectorHistory;
use crate::settings::GraphicsSetting;
use crate::theme::Theme;
use crate::transfer::{FileFor, FileJob, FileOutcome, Places};
use crate::vocab::action::{Action, Component, Cx, Overlay};
use crate::vocab::calls::Pane;
use crate::vocab::layout::{self, Arrangement, Screen};

/// Something that happened: the app's only input.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// Pasted text (bracketed paste), for the focused text field.
    Paste(String),
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
    /// A scene asked for by `Effect::BuildScene` is built.
    Scene(BuiltScene),
    /// A picture of the map's view asked for by `Effect::DrawPicture` is drawn.
    Picture(DrawnPicture),
    /// News from a change event stream.
    Live(Live),
}

/// Something the runner must do for the app.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send this request to the worker.
    Request(RequestId, Request),
    /// Drop this request if it still runs (no reply is wanted).
    Cancel(RequestId),
    /// Leave the app.
    Quit,
    /// Put this text on the clipboard (OSC 52).
    Copy(String),
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on a file holding this text.
    OpenEditor(String),
    /// Carry out this file job (`transfer::perform`) and send back `Msg::File`.
    File(FileFor, FileJob),
    /// Build this scene off the input loop (`SceneJob::run`) and send back `Msg::Scene`.
    BuildScene(Box<SceneJob>),
    /// Draw this picture of the map's view off the input loop (`PictureJob::run`, superseded
    /// by a later one) and send back `Msg::Picture` if it is drawn.
    DrawPicture(Box<PictureJob>),
    /// Follow this change event stream (`follow::Followers`), sending its news as `Msg::Live`.
    Follow(Follow),
}

/// What an app starts with.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// Where the connection goes, as the status bar shows it (`local /path` or a URL).
    pub mode: String,
    /// The account's e-mail when already known (local mode).
    pub account: Option<String>,
    /// The keys.
    pub keys: KeyTable,
    /// The looks.
    pub theme: Theme,
    /// The selectors remembered.
    pub history: SelectorHistory,
    /// The `meta` key read as a component's status on the map (`status` when empty).
    pub status_key: String,
    /// Whether and how the map shows pixels (the runner asks the terminal at start).
    pub graphics: GraphicsSetting,
    /// The time between polls of a server without change events (zero: never).
    pub poll: Duration,
    /// Where typed paths start (the working directory, `~`).
    pub places: Places,
}

impl Setup {
    /// The defaults for a connection described by `mode`.
    pub fn new(mode: impl Into<String>) -> Setup {
        Setup {
            mode: mode.into(),
            poll: diagtui_client::DEFAULT_POLL,
            ..Setup::default()
        }
    }
}

/// The whole app.
#[derive(Debug)]
pub struct App {
    pub(super) mode: String,
    pub(super) account: Option<String>,
    pub(super) keys: KeyTable,
    pub(super) theme: Theme,
    pub(super) history: SelectorHistory,
    pub(super) requests: Requests,
    /// The writes of the session, for undo.
    pub(super) writes: WriteHistory,
    /// The document open in the objects pane, shared by the components.
    pub(super) doc: Option<OpenDoc>,
    /// The panes, each found by its `Pane`.
    pub(super) panes: Panes,
    /// The pane shown in each column (the map in the properties' place while shown).
    pub(super) shown: Shown,
    /// The open document's scene.
    pub(super) scene: SceneCache,
    /// The overlays, bottom first; the last one has the keys.
    pub(super) overlays: Vec<Overlay>,
    /// The selector form and the bulk edit while closed (they keep their content).
    pub(super) kept_form: Option<Box<SelectorForm>>,
    pub(super) kept_bulk: Option<Box<BulkEdit>>,
    pub(super) focus: Pane,
    pub(super) zoomed: bool,
    /// The status bar's message.
    pub(super) status: Status,
    /// What the change events (or polls) said.
    pub(super) liveness: Liveness,
    /// Objects changed elsewhere, to read again.
    pub(super) fresh: FreshObjects,
    pub(super) size: Rect,
    pub(super) tick: u64,
    /// Where typed paths start.
    pub(super) places: Places,
}

/// The view of the app a component gets: everything but the components themselves.
macro_rules! cx {
    ($app:ident, $unsaved:expr) => {
        Cx {
            keys: &$app.keys,
            theme: &$app.theme,
            doc: $app.doc.as_ref(),
            unsaved: $unsaved,
            requests: &$app.requests,
            history: &$app.history,
            writes: &$app.writes,
            scene: $app.scene.scene(),
            liveness: &$app.liveness,
            places: &$app.places,
            now: $app.tick,
        }
    };
}
pub(super) use cx;

impl App {
    /// A fresh app.
    pub fn new(setup: Setup) -> App {
        let mut app = App {
            mode: setup.mode,
            account: setup.account,
            keys: setup.keys,
            theme: setup.theme,
            history: setup.history,
            requests: Requests::default(),
            writes: WriteHistory::default(),
            doc: None,
            panes: Panes::new(),
            shown: Shown::default(),
            scene: match setup.status_key.trim() {
                "" => SceneCache::default(),
                key => SceneCache::new(key),
            },
            overlays: Vec::new(),
            kept_form: None,
            kept_bulk: None,
            focus: DOCS,
            zoomed: false,
            status: Status::default(),
            liveness: Liveness::new(setup.poll),
            fresh: FreshObjects::default(),
            size: Rect::new(0, 0, 120, 40),
            tick: 0,
            places: setup.places,
        };
        app.arrange();
        app
    }

    /// What to do at start-up: the documents, the folders, the account; follow the account's
    /// change events.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut actions = {
            let cx = cx!(self, None);
            self.panes.docs.load(&cx)
        };
        actions.extend(self.account_request());
        let mut effects = vec![Effect::Follow(Follow::Account)];
        effects.extend(self.perform(actions));
        effects
    }

    fn account_request(&self) -> Option<Action> {
        self.account
            .is_none()
            .then(|| Action::Send(self.requests.prepare(api::who_am_i(), Answered::Account)))
    }

    /// How many requests are in flight (the runner redraws the spinner while there are).
    pub fn in_flight(&self) -> usize {
        self.requests.in_flight()
    }

    /// Where the connection goes, as the status bar shows it.
    pub fn mode(&self) -> &str {
        &self.mode
    }

    /// What the status bar shows now.
    pub(crate) fn status_bar(&self) -> Bar<'_> {
        Bar {
            mode: &self.mode,
            account: self.account.as_deref(),
            in_flight: self.requests.in_flight(),
            tick: self.tick,
            offline: self.liveness.status(self.tick),
            message: self.status.current(),
            theme: &self.theme,
            keys: &self.keys,
        }
    }

    /// Whether time passing changes the screen: the spinner while requests are in flight, an
    /// information until it fades.
    pub fn redraws_on_tick(&self) -> bool {
        self.in_flight() > 0 || self.status.fading() || self.liveness.redraws_on_tick()
    }

    /// The one entry point: applies `msg` and returns what the runner must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let acted = match &msg {
            Msg::Key(key) => key.kind != KeyEventKind::Release,
            Msg::Paste(_) => true,
            Msg::Mouse(mouse) => matches!(mouse.kind, MouseEventKind::Down(_)),
            _ => false,
        };
        if acted {
            self.status.user_acted();
        }
        let status_rows = self.status_bar().rows(self.size.width);
        let actions = match msg {
            Msg::Key(key) if key.kind == KeyEventKind::Release => Vec::new(),
            Msg::Key(key) => self.on_key(key),
            Msg::Mouse(mouse) => self.on_mouse(mouse),
            Msg::Paste(text) => self.with_focused(|c, cx| c.paste(&text, cx)),
            Msg::Resize(width, height) => {
                self.size = Rect::new(0, 0, width, height);
                self.arrange();
                Vec::new()
            }
            Msg::Tick => {
                self.tick = self.tick.wrapping_add(1);
                self.status.tick(self.tick);
                let reactions = self.liveness.tick(self.tick);
                self.react(reactions)
            }
            Msg::Live(live) => {
                let reactions = self.liveness.on_live(live, self.tick);
                self.react(reactions)
            }
            Msg::Api(reply) => self.on_reply(reply),
            Msg::EditorDone(result) => {
                let cx = cx!(self, None);
                self.panes.props.on_editor_done(result, &cx)
            }
            Msg::Scene(built) => {
                if self.scene.settle(built, self.doc.as_ref()) {
                    self.ask_departed()
                } else {
                    Vec::new()
                }
            }
            Msg::Picture(drawn) => {
                self.panes.map.settle_picture(drawn);
                Vec::new()
            }
            Msg::File(what, job, outcome) => match what {
                FileFor::Diagram { folder } => self.diagram_file_read(folder, &job, outcome),
                FileFor::Complete(typed) => match self
                    .overlays
                    .last_mut()
                    .and_then(Overlay::get_mut::<Prompt>)
                {
                    Some(prompt) => prompt.completed(&typed, outcome),
                    None => Vec::new(),
                },
                FileFor::History => {
                    if let Err(e) = outcome {
                        tracing::warn!(?e, path = %job.path().display(), "selector history not saved");
                    }
                    Vec::new()
                }
                what => self.panes.docs.on_file(what, job, outcome),
            },
        };
        let mut effects = self.perform(actions);
        let held = self.hold_selection();
        effects.extend(self.perform(held));
        if self.status_bar().rows(self.size.width) != status_rows {
            // The status bar grew or shrank: the panes' rows follow.
            self.arrange();
        }
        effects.extend(self.follow_content());
        effects
    }

    /// After every update: the scene of the open document's objects as they are now is built
    /// (or under way), the map follows the tree's selection and filter, and the picture of its
    /// view is drawn (or under way) where the terminal shows pixels.
    fn follow_content(&mut self) -> Vec<Effect> {
        let job = self.scene.wanted(self.doc.as_ref());
        let cx = cx!(self, None);
        self.panes.map.sync(
            &cx,
            self.panes.objects.selected_id(),
            self.panes.objects.filter_text(),
        );
        let picture = self
            .panes
            .map
            .picture_job(&cx, self.scene.shared(), self.shown.has(MAP));
        let scene = job.map(|job| Effect::BuildScene(Box::new(job)));
        let picture = picture.map(|job| Effect::DrawPicture(Box::new(job)));
        scene.into_iter().chain(picture).collect()
    }

    /// Shows the map's view in pixels with `graphics` from now on (`None`, as at start:
    /// braille only). The runner calls it once, after asking the terminal.
    pub fn use_graphics(&mut self, graphics: Option<Graphics>) -> Vec<Effect> {
        self.panes.map.use_graphics(graphics);
        self.follow_content()
    }

    /// The screen's layout now.
    pub(super) fn screen(&self, area: Rect) -> Screen {
        layout::screen(
            area,
            Arrangement {
                focus: Panes::column(self.focus),
                zoomed: self.zoomed,
                doc_open: self.doc.is_some(),
                status_rows: self.status_bar().rows(area.width),
            },
        )
    }

    /// Focuses `pane` (the map when it is shown in the properties' place).
    pub(super) fn focus_on(&mut self, pane: Pane) {
        self.focus = self.shown.placed(pane);
        self.arrange();
    }

    /// Shows `pane` in its column (the map in the properties' place) with the focus; or puts
    /// it away, the column's first pane shown there again, and the focus, if it had it, on the
    /// pane left of it (the map's on the objects).
    pub(super) fn show(&mut self, pane: Pane, show: bool) {
        self.shown.show(pane, show);
        if show {
            self.focus = pane;
        } else if self.focus == pane {
            self.focus = self.shown.beside(pane, -1);
        }
        self.arrange();
    }

    /// Tells every component where it is drawn (after a resize, a focus change, a zoom).
    pub(super) fn arrange(&mut self) {
        let screen = self.screen(self.size);
        for pane in Panes::ALL {
            let area = Panes::area(*pane, &screen, &self.shown);
            self.panes.get_mut(*pane).set_area(area);
        }
        for overlay in &mut self.overlays {
            overlay.component_mut().set_area(self.size);
        }
    }

    /// The key context of what has the keys.
    pub(super) fn context(&self) -> Context {
        match self.overlays.last() {
            Some(top) => top.component().context(),
            None => self.pane_context(),
        }
    }

    /// The key context of the focused pane.
    fn pane_context(&self) -> Context {
        self.panes.get(self.focus).context()
    }

    /// Runs `f` on what has the keys: the top overlay, else the focused pane.
    fn with_focused(
        &mut self,
        f: impl FnOnce(&mut dyn Component, &Cx) -> Vec<Action>,
    ) -> Vec<Action> {
        if let Some(top) = self.overlays.last_mut() {
            let cx = cx!(self, self.panes.props.unsaved());
            return f(top.component_mut(), &cx);
        }
        let unsaved = self.panes.unsaved_for(self.focus);
        let cx = cx!(self, unsaved.as_deref());
        f(self.panes.get_mut(self.focus), &cx)
    }

    fn on_key(&mut self, key: KeyEvent) -> Vec<Action> {
        let found = self
            .keys
            .lookup(self.context(), &key)
            .map(|b| (b.context, b.command));
        match found {
            Some((context, command)) => self.run(context, command),
            None => self.with_focused(|c, cx| c.key(key, cx)),
        }
    }

    /// Runs `command`, found in `context`: the app's own commands here, the others by what has
    /// the keys.
    pub(super) fn run(&mut self, context: Context, command: Command) -> Vec<Action> {
        if let Some(refusal) = self.refusal(context, command) {
            return vec![refusal];
        }
        match context {
            Context::Always | Context::Global => self.global(command),
            _ => self.with_focused(|c, cx| c.command(command, cx)),
        }
    }

    /// The commands every pane shares.
    fn global(&mut self, command: Command) -> Vec<Action> {
        match command {
            Command::ForceQuit => {
                let asking = self
                    .overlays
                    .last()
                    .and_then(Overlay::get::<Question>)
                    .is_some_and(Question::is_quit);
                if asking {
                    return vec![Action::Quit];
                }
                let mut actions: Vec<Action> =
                    self.overlays.iter().map(|_| Action::Close).collect();
                actions.push(Action::AskQuit);
                actions
            }
            Command::Quit => vec![Action::AskQuit],
            Command::Help => vec![Action::Open(Overlay::new(Help::new(
                self.pane_context(),
                &self.keys,
            )))],
            Command::Palette => vec![Action::Open(Overlay::new(Palette::new(
                self.palette_entries(),
            )))],
            Command::Log => vec![Action::Open(Overlay::new(LogView::default()))],
            Command::Refresh => {
                let mut actions = vec![Action::ClearError];
                let cx = cx!(self, None);
                actions.extend(self.panes.docs.refresh(&cx));
                actions.extend(self.account_request());
                actions.push(Action::ReloadContent);
                actions
            }
            Command::NextPane => vec![Action::Focus(self.shown.beside(self.focus, 1))],
            Command::PrevPane => vec![Action::Focus(self.shown.beside(self.focus, -1))],
            Command::FocusDocuments => vec![Action::Focus(DOCS)],
            Command::FocusObjects => vec![Action::Focus(OBJECTS)],
            Command::FocusProperties => vec![Action::Focus(PROPS)],
            Command::Zoom => {
                self.zoomed = !self.zoomed;
                self.arrange();
                Vec::new()
            }
            Command::Save => self.panes.props.begin_save(),
            Command::ToggleMap => vec![Action::Show(MAP, !self.shown.has(MAP))],
            Command::Versions => self.open_versions(),
            _ => Vec::new(),
        }
    }

    /// What the palette offers: every action of every pane and overlay, those that work here
    /// first, and every document by title.
    fn palette_entries(&self) -> Vec<Entry> {
        let here = self.pane_context().lineage();
        let mut entries: Vec<Entry> = self
            .keys
            .grouped(self.pane_context())
            .into_iter()
            .filter(|(c, _)| !matches!(c, Context::Always | Context::Move))
            .flat_map(|(_, rows)| rows)
            .filter(|b| b.command != Command::Palette)
            .map(|b| Entry::Command {
                context: b.context,
                command: b.command,
                keys: b.keys_text(),
                name: b.command.name(),
                description: b.description,
                elsewhere: (!here.contains(&b.context)).then(|| b.context.title()),
            })
            .collect();
        entries.extend(self.panes.docs.docs().iter().cloned().map(Entry::Open));
        entries
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Vec<Action> {
        if !self.overlays.is_empty() {
            return Vec::new();
        }
        let screen = self.screen(self.size);
        let at = Position::new(mouse.column, mouse.row);
        let shown = &self.shown;
        let Some(&pane) =
            (Panes::ALL.iter()).find(|p| Panes::area(**p, &screen, shown).contains(at))
        else {
            return Vec::new();
        };
        if mouse.kind == MouseEventKind::Down(MouseButton::Left) && self.focus != pane {
            self.focus = pane;
            self.arrange();
        }
        let unsaved = self.panes.unsaved_for(pane);
        let cx = cx!(self, unsaved.as_deref());
        self.panes.get_mut(pane).mouse(mouse, &cx)
    }

    /// Puts the selected object in the properties pane, unless the pane holds unsaved edits
    /// (which are never dropped without asking).
    pub(super) fn show_selected(&mut self) {
        if self.panes.props.is_dirty() {
            // The edited object as the server has it now: the banner says if it changed.
            if let (Some(doc), Some(target)) =
                (self.doc.as_ref(), self.panes.props.target().cloned())
                && let Some(model) = doc.model()
            {
                self.panes
                    .props
                    .compare_with_server(doc.id(), &target.obj, model.get(&target.obj));
            }
            return;
        }
        let Some((doc, model)) = self.doc.as_ref().and_then(|d| Some((d, d.model()?))) else {
            return self.panes.props.close();
        };
        let object = self
            .panes
            .objects
            .selected_id()
            .and_then(|id| Some((id, model.get(id)?)));
        match (object, self.panes.objects.selected_heading(model)) {
            (Some((id, object)), _) => {
                let version = model.server_version_of(id);
                self.panes.props.show(doc.id(), id, object, version);
            }
            (None, Some((kind, shown))) => self
                .panes
                .props
                .show_type(TypeSummary::of(model, kind, shown, &doc.marks)),
            (None, None) => self.panes.props.close(),
        }
    }

    /// Carries out `actions` and everything they lead to, in order (an action's follow-ups
    /// before the next action), and returns the effects for the runner.
    fn perform(&mut self, actions: Vec<Action>) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut queue: VecDeque<Action> = actions.into();
        while let Some(action) = queue.pop_front() {
            let more = self.carry_out(action, &mut effects);
            for next in more.into_iter().rev() {
                queue.push_front(next);
            }
        }
        effects
    }
}
