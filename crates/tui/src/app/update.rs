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
use crate::document::load::Load;
use crate::document::picture::{DrawnPicture, Graphics, PictureJob};
use crate::document::scene_cache::{BuiltScene, SceneCache, SceneJob};
use crate::document::summary::TypeSummary;
use crate::document::{ObjectModel, OpenDoc};
use crate::document::{RequestId, Versioned};
use crate::keys::{Command, Context, KeyTable};
use crate::overlays::{
    BulkEdit, Entry, Help, LogView, Palette, Prompt, Question, SelectorForm, SelectorResult,
};
use crate::panes::{DocsPane, MapPane, ObjectsPane, PropsPane, ask_to_drop_edits};
use crate::requests::call::{Answer, Failure, Reply, Request};
use crate::requests::fresh::FreshObjects;
use crate::requests::ledger::Requests;
use crate::requests::liveness::{Follow, Live, Liveness, Reaction};
use crate::requests::purpose::{BulkOwner, Purpose};
use crate::session::record::WriteHistory;
use crate::session::selectors::SelectorHistory;
use crate::settings::GraphicsSetting;
use crate::text::notification::{Level, Notification};
use crate::theme::Theme;
use crate::transfer::{FileFor, FileJob, FileOutcome, Places};
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, BulkCall, MarksChange, Pane};
use crate::vocab::layout::{self, Arrangement, Screen};
use crate::writes::{server_undo, undo};

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
            poll: crate::settings::DEFAULT_POLL,
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
    pub(super) docs: DocsPane,
    pub(super) objects: ObjectsPane,
    pub(super) props: PropsPane,
    pub(super) map: MapPane,
    /// Whether the map is shown (in the properties' place).
    pub(super) map_open: bool,
    /// The open document's scene.
    pub(super) scene: SceneCache,
    /// The overlays, bottom first; the last one has the keys.
    pub(super) overlays: Vec<Overlay>,
    /// The selector form and the bulk edit while closed (they keep their content).
    kept_form: Option<Box<SelectorForm>>,
    kept_bulk: Option<Box<BulkEdit>>,
    pub(super) focus: Pane,
    pub(super) zoomed: bool,
    /// The status bar's message.
    pub(super) status: Status,
    /// What the change events (or polls) said.
    pub(super) liveness: Liveness,
    /// Objects changed elsewhere, to read again.
    fresh: FreshObjects,
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
            docs: DocsPane::new(),
            objects: ObjectsPane::default(),
            props: PropsPane::default(),
            map: MapPane::default(),
            map_open: false,
            scene: match setup.status_key.trim() {
                "" => SceneCache::default(),
                key => SceneCache::new(key),
            },
            overlays: Vec::new(),
            kept_form: None,
            kept_bulk: None,
            focus: Pane::Docs,
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
            self.docs.load(&cx)
        };
        actions.extend(self.account_request());
        let mut effects = vec![Effect::Follow(Follow::Account)];
        effects.extend(self.perform(actions));
        effects
    }

    fn account_request(&self) -> Option<Action> {
        self.account
            .is_none()
            .then(|| Action::Send(self.requests.prepare(Request::WhoAmI, Purpose::Account)))
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
                self.props.on_editor_done(result, &cx)
            }
            Msg::Scene(built) => {
                if self.scene.settle(built, self.doc.as_ref()) {
                    self.ask_departed()
                } else {
                    Vec::new()
                }
            }
            Msg::Picture(drawn) => {
                self.map.settle_picture(drawn);
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
                what => self.docs.on_file(what, job, outcome),
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
        self.map
            .sync(&cx, self.objects.selected_id(), self.objects.filter_text());
        let picture = self
            .map
            .picture_job(&cx, self.scene.shared(), self.map_open);
        let scene = job.map(|job| Effect::BuildScene(Box::new(job)));
        let picture = picture.map(|job| Effect::DrawPicture(Box::new(job)));
        scene.into_iter().chain(picture).collect()
    }

    /// Shows the map's view in pixels with `graphics` from now on (`None`, as at start:
    /// braille only). The runner calls it once, after asking the terminal.
    pub fn use_graphics(&mut self, graphics: Option<Graphics>) -> Vec<Effect> {
        self.map.use_graphics(graphics);
        self.follow_content()
    }

    /// The screen's layout now.
    pub(super) fn screen(&self, area: Rect) -> Screen {
        layout::screen(
            area,
            Arrangement {
                focus: self.focus,
                zoomed: self.zoomed,
                doc_open: self.doc.is_some(),
                map: self.map_open,
                status_rows: self.status_bar().rows(area.width),
            },
        )
    }

    /// Focuses `pane` (the map when it is shown in the properties' place).
    pub(super) fn focus_on(&mut self, pane: Pane) {
        self.focus = self.placed(pane);
        self.arrange();
    }

    /// Shows the map in the properties' place (focused), or puts it away.
    pub(super) fn show_map(&mut self, show: bool) {
        self.map_open = show;
        if show {
            self.focus = Pane::Map;
        } else if self.focus == Pane::Map {
            self.focus = Pane::Objects;
        }
        self.arrange();
    }

    /// Tells every component where it is drawn (after a resize, a focus change, a zoom).
    fn arrange(&mut self) {
        let screen = self.screen(self.size);
        self.docs.set_area(screen.docs);
        self.objects.set_area(screen.objects);
        self.props.set_area(screen.props);
        self.map.set_area(screen.map);
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
        match self.focus {
            Pane::Docs => self.docs.context(),
            Pane::Objects => self.objects.context(),
            Pane::Props => self.props.context(),
            Pane::Map => self.map.context(),
        }
    }

    /// The pane shown where `pane` would be: the map takes the properties' place while shown.
    fn placed(&self, pane: Pane) -> Pane {
        match pane {
            Pane::Props | Pane::Map if self.map_open => Pane::Map,
            Pane::Map => Pane::Props,
            other => other,
        }
    }

    /// Runs `f` on what has the keys: the top overlay, else the focused pane.
    fn with_focused(
        &mut self,
        f: impl FnOnce(&mut dyn Component, &Cx) -> Vec<Action>,
    ) -> Vec<Action> {
        if let Some(top) = self.overlays.last_mut() {
            let cx = cx!(self, self.props.unsaved());
            return f(top.component_mut(), &cx);
        }
        match self.focus {
            Pane::Docs => {
                let cx = cx!(self, self.props.unsaved());
                f(&mut self.docs, &cx)
            }
            Pane::Objects => {
                let cx = cx!(self, self.props.unsaved());
                f(&mut self.objects, &cx)
            }
            Pane::Props => {
                let cx = cx!(self, None);
                f(&mut self.props, &cx)
            }
            Pane::Map => {
                let cx = cx!(self, self.props.unsaved());
                f(&mut self.map, &cx)
            }
        }
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
                actions.extend(self.docs.refresh(&cx));
                actions.extend(self.account_request());
                actions.push(Action::ReloadContent);
                actions
            }
            Command::NextPane => vec![Action::Focus(self.focus.next())],
            Command::PrevPane => vec![Action::Focus(self.focus.prev())],
            Command::FocusDocuments => vec![Action::Focus(Pane::Docs)],
            Command::FocusObjects => vec![Action::Focus(Pane::Objects)],
            Command::FocusProperties => vec![Action::Focus(Pane::Props)],
            Command::Zoom => {
                self.zoomed = !self.zoomed;
                self.arrange();
                Vec::new()
            }
            Command::Save => self.props.begin_save(),
            Command::ToggleMap => vec![Action::ShowMap(!self.map_open)],
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
        entries.extend(self.docs.docs().iter().cloned().map(Entry::Open));
        entries
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Vec<Action> {
        if !self.overlays.is_empty() {
            return Vec::new();
        }
        let screen = self.screen(self.size);
        let at = Position::new(mouse.column, mouse.row);
        let Some(pane) = [Pane::Docs, Pane::Objects, Pane::Props, Pane::Map]
            .into_iter()
            .find(|p| screen.pane(*p).contains(at))
        else {
            return Vec::new();
        };
        if mouse.kind == MouseEventKind::Down(MouseButton::Left) && self.focus != pane {
            self.focus = pane;
            self.arrange();
        }
        match pane {
            Pane::Docs => {
                let cx = cx!(self, self.props.unsaved());
                self.docs.mouse(mouse, &cx)
            }
            Pane::Objects => {
                let cx = cx!(self, self.props.unsaved());
                self.objects.mouse(mouse, &cx)
            }
            Pane::Props => {
                let cx = cx!(self, None);
                self.props.mouse(mouse, &cx)
            }
            Pane::Map => {
                let cx = cx!(self, self.props.unsaved());
                self.map.mouse(mouse, &cx)
            }
        }
    }

    fn on_reply(&mut self, reply: Reply) -> Vec<Action> {
        let Some(flight) = self.requests.answered(&reply) else {
            tracing::debug!(id = reply.id, "reply for nothing in flight dropped");
            return Vec::new();
        };
        tracing::debug!(id = reply.id, purpose = ?flight.purpose, ok = reply.outcome.is_ok(), "reply");
        let written = flight.request.written_doc().map(str::to_owned);
        let mut actions = self.route(flight.purpose, reply.id, flight.request, reply.outcome);
        if let Some(doc) = written {
            actions.push(Action::Written(doc));
        }
        actions
    }

    /// Hands an answer to the component whose request it was.
    fn route(
        &mut self,
        purpose: Purpose,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
    ) -> Vec<Action> {
        let shown_form = self
            .overlays
            .last()
            .is_some_and(Overlay::is::<SelectorForm>);
        match purpose {
            Purpose::Account => match outcome {
                Ok(Answer::Me(user)) => {
                    self.account = Some(user.email);
                    Vec::new()
                }
                Ok(answer) => vec![Action::unexpected(&Purpose::Account, &answer)],
                Err(failure) => vec![Action::error(format!(
                    "could not read the account: {}",
                    failure.message
                ))],
            },
            Purpose::Content => self.content_answered(id, outcome),
            Purpose::Fresh => self.fresh_answered(id, request, outcome),
            Purpose::Poll => {
                let Request::Details { doc } = request else {
                    return Vec::new();
                };
                let answer = match outcome {
                    Ok(Answer::Details(details)) => Ok(details.last_change),
                    Ok(answer) => return vec![Action::unexpected(&Purpose::Poll, &answer)],
                    Err(failure) => Err(failure.message),
                };
                let reactions = self.liveness.polled(&doc, answer);
                self.react(reactions)
            }
            Purpose::Docs(work) => {
                let cx = cx!(self, self.props.unsaved());
                let actions = self.docs.on_reply(work, id, request, outcome, &cx);
                self.retitle_open_doc();
                actions
            }
            Purpose::Objects(work) => {
                let cx = cx!(self, self.props.unsaved());
                self.objects.on_reply(work, id, request, outcome, &cx)
            }
            Purpose::Props(work) => {
                let cx = cx!(self, None);
                self.props.on_reply(work, id, request, outcome, &cx)
            }
            Purpose::Form(work) => {
                let cx = cx!(self, self.props.unsaved());
                let form = find_form(&mut self.overlays, &mut self.kept_form);
                match form {
                    Some(form) => form.on_reply(work, id, request, outcome, &cx, shown_form),
                    None => Vec::new(),
                }
            }
            Purpose::Bulk(BulkOwner::Form, work) => {
                let cx = cx!(self, self.props.unsaved());
                match find_form(&mut self.overlays, &mut self.kept_form) {
                    Some(form) => form.on_bulk_reply(work, id, outcome, &cx),
                    None => Vec::new(),
                }
            }
            Purpose::Bulk(BulkOwner::BulkEdit, work) => {
                let cx = cx!(self, self.props.unsaved());
                let bulk = find_bulk(&mut self.overlays, &mut self.kept_bulk);
                bulk.on_reply(work, id, outcome, &cx)
            }
            Purpose::Undo(work) => {
                let cx = cx!(self, self.props.unsaved());
                undo::on_reply(work, request, outcome, &cx)
            }
            Purpose::Versions(work) => self.versions_answered(work, id, request, outcome),
            Purpose::FromFile(work) => self.file_diagram_answered(work, request, outcome),
            Purpose::Departed(obj) => self.departed_answered(&obj, request, outcome),
            Purpose::ServerUndo(work) => {
                if outcome.is_ok() {
                    self.writes.set_server_keeps(true);
                }
                let cx = cx!(self, self.props.unsaved());
                server_undo::on_reply(work, request, outcome, &cx)
            }
        }
    }

    /// The open document's content arrived (or failed): applied only when it is the one awaited.
    fn content_answered(&mut self, id: RequestId, outcome: Result<Answer, Failure>) -> Vec<Action> {
        let Some(doc) = self.doc.as_mut() else {
            return Vec::new();
        };
        match outcome {
            Ok(Answer::Objects(model)) => {
                let n = model.len();
                if !doc.loaded(id, *model) {
                    tracing::debug!(id, "stale content dropped");
                    return Vec::new();
                }
                if doc.past.is_none() {
                    self.docs.set_count(&doc.summary.id, n);
                }
                let cx = cx!(self, None);
                self.objects.sync(&cx);
                self.show_selected();
                // Changed while the content was on its way: read those again now.
                self.read_fresh()
            }
            Ok(answer) => vec![Action::unexpected(&Purpose::Content, &answer)],
            Err(failure) => {
                if doc.content.fail(id, failure.message.clone()) {
                    let cx = cx!(self, None);
                    self.objects.sync(&cx);
                    vec![Action::error(format!(
                        "could not load the objects: {} ({} retries)",
                        failure.message,
                        self.keys.key(Context::Global, Command::Refresh)
                    ))]
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The open document's title as the document list has it now (retitled here or elsewhere).
    fn retitle_open_doc(&mut self) {
        if let Some(open) = self.doc.as_mut()
            && let Some(listed) = self.docs.docs().iter().find(|d| d.id == open.id())
            && listed.title != open.summary.title
        {
            open.summary.title.clone_from(&listed.title);
        }
    }

    /// Reads the open document's objects changed elsewhere that wait, when its content is
    /// there to take them and no such read is under way.
    fn read_fresh(&mut self) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return Vec::new();
        };
        let ready = doc.model().is_some() && !doc.content.is_loading();
        let Some(objs) = self.fresh.take(ready) else {
            return Vec::new();
        };
        let doc = doc.id().to_owned();
        let sent = self
            .requests
            .prepare(Request::GetObjects { doc, objs }, Purpose::Fresh);
        self.fresh.reading(sent.id);
        vec![Action::Send(sent)]
    }

    /// Objects changed elsewhere, read again: put in place (the selection, the marks and the
    /// filter stay), then the next ones that wait are read.
    fn fresh_answered(
        &mut self,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
    ) -> Vec<Action> {
        if !self.fresh.answered(id) {
            return Vec::new();
        }
        let Request::GetObjects { doc, .. } = request else {
            return Vec::new();
        };
        if self.doc.as_ref().is_none_or(|d| d.id() != doc) {
            return Vec::new();
        }
        match outcome {
            Ok(Answer::Fresh(objects)) => self.take_fresh(objects),
            Ok(answer) => vec![Action::unexpected(&Purpose::Fresh, &answer)],
            // Read them with the rest: the reload says what went wrong, if it goes wrong too.
            Err(_) => vec![Action::ReloadContent],
        }
    }

    /// Objects of the open document as the server has them now (read again, or given by a
    /// change event), with their versions, put in place: the selection, the marks and the
    /// filter stay; then the next ones that wait are read.
    fn take_fresh(&mut self, objects: Vec<(String, Option<Versioned>)>) -> Vec<Action> {
        let Some(open) = self.doc.as_mut() else {
            return Vec::new();
        };
        open.apply_fresh(objects);
        let n = open.model().map_or(0, ObjectModel::len);
        let doc = open.id().to_owned();
        self.docs.set_count(&doc, n);
        let cx = cx!(self, None);
        self.objects.sync_after_removal(&cx);
        self.show_selected();
        self.read_fresh()
    }

    /// Objects `objs` of the open document changed elsewhere: read them again (or the whole
    /// content, when many wait).
    fn refetch(&mut self, objs: Vec<String>) -> Vec<Action> {
        if self.fresh.want(objs) {
            self.read_fresh()
        } else {
            vec![Action::ReloadContent]
        }
    }

    /// Carries out what news from the server means: reloads in place (unsaved edits stay, see
    /// `show_selected`), polls, notes.
    fn react(&mut self, reactions: Vec<Reaction>) -> Vec<Action> {
        let mut actions = Vec::new();
        for reaction in reactions {
            match reaction {
                // The past view shows a version that does not change: now is read on leaving it.
                Reaction::ReloadDoc | Reaction::Refetch(_) | Reaction::Apply(_)
                    if self.past().is_some() => {}
                Reaction::ReloadDoc => actions.push(Action::ReloadContent),
                Reaction::Refetch(objs) => actions.extend(self.refetch(objs)),
                Reaction::Apply(objects) => {
                    let ready = self
                        .doc
                        .as_ref()
                        .is_some_and(|d| d.model().is_some() && !d.content.is_loading());
                    if ready {
                        actions.extend(self.take_fresh(objects));
                    } else {
                        // The content on its way may be older than the event: read them after.
                        actions
                            .extend(self.refetch(objects.into_iter().map(|(id, _)| id).collect()));
                    }
                }
                Reaction::ReloadList => {
                    let cx = cx!(self, self.props.unsaved());
                    actions.extend(self.docs.refresh(&cx));
                }
                Reaction::DocGone(_) if self.props.is_dirty() => {
                    actions.push(Action::Notify(Notification::warning(format!(
                        "the open document was deleted elsewhere; your unsaved edit stays \
                         until you leave it ({} takes it to $EDITOR)",
                        self.keys.key(Context::Properties, Command::ExternalEdit)
                    ))));
                }
                Reaction::DocGone(doc) => {
                    actions.push(Action::DocDeleted(doc));
                    actions.push(Action::Notify(Notification::warning(
                        "the open document was deleted elsewhere",
                    )));
                }
                Reaction::Poll(doc) => actions.push(Action::Send(
                    self.requests
                        .prepare(Request::Details { doc }, Purpose::Poll),
                )),
                Reaction::Note(note) => actions.push(Action::Notify(note)),
                Reaction::LastChange(doc, at) => self.docs.heard_change(&doc, at),
            }
        }
        actions
    }

    /// Puts the selected object in the properties pane, unless the pane holds unsaved edits
    /// (which are never dropped without asking).
    pub(super) fn show_selected(&mut self) {
        if self.props.is_dirty() {
            // The edited object as the server has it now: the banner says if it changed.
            if let (Some(doc), Some(target)) = (self.doc.as_ref(), self.props.target().cloned())
                && let Some(model) = doc.model()
            {
                self.props
                    .compare_with_server(doc.id(), &target.obj, model.get(&target.obj));
            }
            return;
        }
        let Some((doc, model)) = self.doc.as_ref().and_then(|d| Some((d, d.model()?))) else {
            return self.props.close();
        };
        let object = self
            .objects
            .selected_id()
            .and_then(|id| Some((id, model.get(id)?)));
        match (object, self.objects.selected_heading(model)) {
            (Some((id, object)), _) => {
                let version = model.server_version_of(id);
                self.props.show(doc.id(), id, object, version);
            }
            (None, Some((kind, shown))) => self
                .props
                .show_type(TypeSummary::of(model, kind, shown, &doc.marks)),
            (None, None) => self.props.close(),
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

    /// Opens `overlay` on top, sized to the screen.
    fn open(&mut self, mut overlay: Overlay) {
        overlay.component_mut().set_area(self.size);
        self.overlays.push(overlay);
    }

    /// Carries out one action; returns the actions it leads to.
    fn carry_out(&mut self, action: Action, effects: &mut Vec<Effect>) -> Vec<Action> {
        match action {
            Action::Send(sent) => {
                tracing::debug!(id = sent.id, request = ?sent.request, "request");
                self.requests.register(&sent);
                effects.push(Effect::Request(sent.id, sent.request));
            }
            Action::Notify(notification) => {
                if notification.level == Level::Error {
                    tracing::warn!(message = %notification.text, "error shown");
                }
                self.requests.note(notification.clone());
                self.status.show(notification, self.tick);
            }
            Action::ClearError => self.status.clear_error(),
            Action::Focus(pane) => self.focus_on(pane),
            Action::ShowMap(show) => self.show_map(show),
            Action::Open(overlay) => self.open(overlay),
            Action::Ask(ask) => self.open(Overlay::new(Question::from(ask))),
            Action::Close => match self.overlays.pop().map(Overlay::take::<SelectorForm>) {
                Some(Ok(mut form)) => {
                    // Closing the form ends its preview; the marks stay the user's.
                    form.end_preview();
                    self.kept_form = Some(form);
                    if let Some(doc) = self.doc.as_mut() {
                        doc.end_preview();
                    }
                }
                Some(Err(other)) => {
                    if let Ok(bulk) = other.take::<BulkEdit>() {
                        self.kept_bulk = Some(bulk);
                    }
                }
                None => {}
            },
            Action::Quit => effects.push(Effect::Quit),
            Action::AskQuit => {
                if !self.props.is_dirty() {
                    return vec![Action::Quit];
                }
                return vec![Action::Ask(
                    Ask::new(
                        "Quit",
                        Body::Text(
                            "Quit and lose the unsaved edits in the properties pane?".into(),
                        ),
                        vec![
                            Choice::new(Command::Yes, "quit", vec![Action::Quit]),
                            Choice::new(Command::No, "stay", Vec::new()),
                        ],
                    )
                    .destructive(),
                )];
            }
            Action::Copy(text) => effects.push(Effect::Copy(text)),
            Action::ExternalEditor(text) => effects.push(Effect::OpenEditor(text)),
            Action::File(what, job) => effects.push(Effect::File(what, job)),
            Action::OpenDoc(doc) => {
                if self.props.is_dirty() {
                    let cx = cx!(self, self.props.unsaved());
                    return vec![ask_to_drop_edits(vec![Action::OpenDoc(doc)], &cx)];
                }
                let known = self.docs.last_change_of(&doc.id);
                effects.push(Effect::Follow(self.liveness.opened(Some(&doc.id), known)));
                self.doc = Some(OpenDoc::new(doc));
                self.objects.reset();
                self.props.close();
                self.focus = Pane::Objects;
                self.arrange();
                return vec![Action::ReloadContent];
            }
            Action::DropEdits => self.props.close(),
            Action::ShowSelected => self.show_selected(),
            Action::ExternalEdit => {
                if self.props.target().is_none() {
                    self.show_selected();
                }
                return self.props.external_edit();
            }
            Action::ReloadAfterWrite => {
                if !self.liveness.follows_open_doc() {
                    return vec![Action::ReloadContent];
                }
            }
            Action::ReloadContent => {
                self.fresh.reset();
                if let Some(id) = self.doc.as_ref().map(|d| d.id().to_owned()) {
                    let request = self.content_request(&id);
                    let sent = self.requests.prepare(request, Purpose::Content);
                    let doc = self.doc.as_mut().expect("the open document");
                    doc.content.start(sent.id);
                    return vec![Action::Send(sent)];
                }
            }
            Action::CancelOpen => {
                let opening = self.doc.as_ref().and_then(|doc| match doc.content {
                    Load::Loading { id, last: None } => Some((id, doc.summary.title.clone())),
                    _ => None,
                });
                if let Some((id, title)) = opening {
                    self.requests.cancel(id);
                    effects.push(Effect::Cancel(id));
                    effects.push(Effect::Follow(self.liveness.opened(None, None)));
                    self.doc = None;
                    self.objects.reset();
                    self.props.close();
                    self.focus = Pane::Docs;
                    self.arrange();
                    return vec![Action::info(format!("stopped opening \"{title}\""))];
                }
            }
            Action::DocRetitled { doc, title } => {
                if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
                    open.summary.title = title;
                }
            }
            Action::DocEmptied(doc) => {
                if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
                    open.empty();
                    self.props.close();
                    let cx = cx!(self, None);
                    self.objects.sync(&cx);
                }
            }
            Action::DocDeleted(doc) => {
                if self.doc.as_ref().is_some_and(|d| d.id() == doc) {
                    effects.push(Effect::Follow(self.liveness.opened(None, None)));
                    self.doc = None;
                    self.objects.reset();
                    self.props.close();
                    self.arrange();
                }
            }
            Action::ContentReplaced(doc) => {
                if self.doc.as_ref().is_some_and(|d| d.id() == doc) {
                    if !self.props.is_dirty() {
                        self.props.close();
                    }
                    return vec![Action::ReloadContent];
                }
            }
            Action::Marks(change) => {
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
                if self.props.shows_type() {
                    self.show_selected();
                }
            }
            Action::RemoveObjects { doc, objs } => {
                self.props.drop_removed(&doc, &objs);
                if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
                    open.remove_objects(&objs);
                    let cx = cx!(self, None);
                    self.objects.sync_after_removal(&cx);
                    self.show_selected();
                }
            }
            Action::ObjectData {
                doc,
                obj,
                data,
                version,
            } => {
                if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
                    open.replace_data(&obj, data, version);
                    let cx = cx!(self, None);
                    self.objects.sync(&cx);
                }
            }
            Action::Written(doc) => {
                if !self.requests.writing(&doc) {
                    let mut actions = self.relist_versions(&doc);
                    // A followed document's write comes back as an event, which says its
                    // `lastChange` (and the count is the model's): nothing to read.
                    let heard = self.liveness.follows_open_doc()
                        && self.doc.as_ref().is_some_and(|d| d.id() == doc);
                    if !heard {
                        let cx = cx!(self, self.props.unsaved());
                        actions.extend(self.docs.refresh_details_of(&doc, &cx));
                    }
                    return actions;
                }
            }
            Action::OpenForm => {
                if let Some(doc) = self.doc.as_ref() {
                    let form = self
                        .kept_form
                        .take()
                        .filter(|f| f.doc() == doc.id())
                        .unwrap_or_else(|| Box::new(SelectorForm::new(doc.id())));
                    return vec![Action::Open(Overlay::boxed(form))];
                }
            }
            Action::OpenBulkEdit(hidden) => {
                let mut bulk = self.kept_bulk.take().unwrap_or_default();
                bulk.set_hidden(hidden);
                return vec![Action::Open(Overlay::boxed(bulk))];
            }
            Action::ShowSelectorResult(applied) => {
                let mut actions = Vec::new();
                match self.overlays.last() {
                    Some(top) if top.is::<SelectorForm>() => actions.push(Action::Close),
                    None => {}
                    Some(_) => return Vec::new(),
                }
                actions.push(Action::Open(Overlay::new(SelectorResult::new(applied))));
                return actions;
            }
            Action::Remember(saved) => {
                if let Some(job) = self.history.push(saved) {
                    effects.push(Effect::File(FileFor::History, job));
                }
            }
            Action::Run(context, command) => return self.run_anywhere(context, command),
            Action::Docs(call) => {
                let cx = cx!(self, self.props.unsaved());
                return self.docs.call(call, &cx);
            }
            Action::Objects(call) => {
                let cx = cx!(self, self.props.unsaved());
                return self.objects.call(call, &cx);
            }
            Action::Props(call) => {
                let cx = cx!(self, None);
                return self.props.call(call, &cx);
            }
            Action::Record { doc, kind } => {
                self.writes.record(doc, kind);
            }
            Action::Undone(mark) => self.writes.mark(mark),
            Action::UndoVersion {
                doc,
                version,
                obj,
                kind,
            } => {
                let id = self.writes.of_version(doc, version, obj, kind);
                let cx = cx!(self, self.props.unsaved());
                return undo::ask_write(id, &cx);
            }
            Action::NoServerHistory { doc, obj } => {
                self.writes.set_server_keeps(false);
                let cx = cx!(self, self.props.unsaved());
                let mut actions = vec![Action::Notify(Notification::warning(
                    "this server keeps no history of the documents: undo takes back this session's writes only",
                ))];
                actions.extend(undo::ask_object(&doc, &obj, &cx));
                return actions;
            }
            Action::ShowVersion(version) => return self.show_version(version),
            Action::AskRestore(version) => return self.ask_restore(version),
            Action::ApplySelector => {
                let cx = cx!(self, self.props.unsaved());
                if let Some(form) = find_form(&mut self.overlays, &mut self.kept_form) {
                    return form.apply_confirmed(&cx);
                }
            }
            Action::PreviewSelectorAgain => {
                let cx = cx!(self, self.props.unsaved());
                if let Some(form) = find_form(&mut self.overlays, &mut self.kept_form) {
                    return form.apply(&cx);
                }
            }
            Action::Bulk(owner, call) => {
                // The bulk edit closes (its text kept) once its change is under way.
                let closes = owner == BulkOwner::BulkEdit
                    && call == BulkCall::Confirm
                    && self.overlays.last().is_some_and(Overlay::is::<BulkEdit>);
                let cx = cx!(self, self.props.unsaved());
                let mut actions = match owner {
                    BulkOwner::Form => find_form(&mut self.overlays, &mut self.kept_form)
                        .map(|form| form.bulk_call(call, &cx))
                        .unwrap_or_default(),
                    BulkOwner::BulkEdit => {
                        find_bulk(&mut self.overlays, &mut self.kept_bulk).call(call, &cx)
                    }
                };
                if closes {
                    actions.insert(0, Action::Close);
                }
                return actions;
            }
        }
        Vec::new()
    }
}

/// The selector form, open (anywhere in the stack) or kept aside.
fn find_form<'a>(
    overlays: &'a mut [Overlay],
    kept: &'a mut Option<Box<SelectorForm>>,
) -> Option<&'a mut SelectorForm> {
    let open = overlays
        .iter_mut()
        .find_map(Overlay::get_mut::<SelectorForm>);
    match open {
        Some(form) => Some(form),
        None => kept.as_deref_mut(),
    }
}

/// The bulk edit, open or kept aside (a fresh one if there was none).
fn find_bulk<'a>(
    overlays: &'a mut [Overlay],
    kept: &'a mut Option<Box<BulkEdit>>,
) -> &'a mut BulkEdit {
    let open = overlays.iter_mut().find_map(Overlay::get_mut::<BulkEdit>);
    match open {
        Some(bulk) => bulk,
        None => kept.get_or_insert_with(Box::default),
    }
}
