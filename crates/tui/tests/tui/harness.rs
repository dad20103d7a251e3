//! Drives an `App` with keys and canned answers built from `model` types, and reads what it
//! shows: the requests it makes, and the rendered screen (text, and the styles that mark the
//! selection, the focus and the rest).

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui_model::embeds::EmbedList;
use diagtui_model::{
    Content, DiagramObject, DocDetails, DocSummary, FolderEntry, FolderList, FolderRef, UserRef,
};
use diagtui_tui::document::ObjectModel;
use diagtui_tui::document::scene_cache::SceneJob;
use diagtui_tui::{Answer, App, Effect, Failure, Msg, Reply, Request, RequestId, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use serde_json::json;

/// An app plus the requests it has made and not yet had answered.
pub struct Harness {
    pub app: App,
    pub pending: Vec<(RequestId, Request)>,
    pub effects: Vec<Effect>,
    /// Every request made, in order.
    pub sent: Vec<Request>,
}

pub const DOC_A: &str = "11111111-1111-4111-8111-111111111111";
pub const DOC_B: &str = "22222222-2222-4222-8222-222222222222";
pub const DOC_C: &str = "33333333-3333-4333-8333-333333333333";

/// The size of the screen the text checks read (wide enough for every line).
const WIDE: (u16, u16) = (200, 50);

pub fn docs() -> Vec<DocSummary> {
    [
        (DOC_A, "Network overview"),
        (DOC_B, "Production cluster"),
        (DOC_C, "Shared plan"),
    ]
    .into_iter()
    .map(|(id, title)| DocSummary {
        id: id.into(),
        title: title.into(),
    })
    .collect()
}

pub fn folders() -> FolderList {
    let mut list = FolderList::new();
    list.insert(
        "f0000000-0000-4000-8000-000000000001".into(),
        FolderEntry {
            title: "My diagrams".into(),
            docs: [
                (DOC_A.to_string(), "Network overview".to_string()),
                (DOC_B.to_string(), "Production cluster".to_string()),
            ]
            .into_iter()
            .collect(),
        },
    );
    list
}

pub fn details(doc: &str) -> DocDetails {
    let title = docs()
        .into_iter()
        .find(|d| d.id == doc)
        .map(|d| d.title)
        .unwrap_or_default();
    DocDetails {
        id: doc.into(),
        title,
        created: "2024-05-01T10:00:00.000Z".into(),
        last_change: "2024-05-02T11:30:00.000Z".into(),
        user: UserRef {
            id: "u1".into(),
            email: "me@example.com".into(),
        },
        folder: FolderRef {
            id: "f0000000-0000-4000-8000-000000000001".into(),
            title: "My diagrams".into(),
        },
        // Document B's details carry the server's count (our extension); the others do not,
        // as from a server without it.
        object_count: (doc == DOC_B).then_some(12),
    }
}

pub fn object(kind: &str, data: serde_json::Value) -> DiagramObject {
    DiagramObject {
        kind: kind.into(),
        data: serde_json::from_value(data).unwrap(),
    }
}

/// The answer the worker gives to a content read: `content` as the model.
pub fn objects(content: Content) -> Answer {
    Answer::Objects(Box::new(ObjectModel::new(content)))
}

pub fn content() -> Content {
    let mut c = Content::new();
    c.insert(
        "1a-web".into(),
        object("component", json!({"componentId": "generic.server", "name": "web-1", "position": {"x": 1, "y": 2}, "meta": {"env": "prod", "status": "up"}})),
    );
    c.insert(
        "1b-db".into(),
        object(
            "component",
            json!({"componentId": "generic.database", "meta": {"env": "dev", "status": "down"}}),
        ),
    );
    c.insert(
        "1c-title".into(),
        object(
            "label",
            json!({"text": "Front end", "color": "#333333", "fontSize": 0.5}),
        ),
    );
    c.insert("1d-line".into(), object("line-group", json!({"anchors": [{"type": 0, "x": 0, "y": 0}, {"type": 0, "x": 1, "y": 1}], "lines": [[0, 1]]})));
    c
}

/// The matches of `status eq down` in [`content`].
pub fn down_only() -> Content {
    let mut c = content();
    c.retain(|id, _| id == "1b-db");
    c
}

/// Whether `r` is a selector read.
pub fn is_where(r: &Request) -> bool {
    matches!(r, Request::ObjectsWhere { .. })
}

/// Opens the selector form and fills one row `KEY eq VALUE`, then pastes `props` into the
/// props field (into the template, which they replace).
pub fn fill_form(h: &mut Harness, key: &str, value: &str, props: &str) {
    h.press("w");
    h.type_text(key);
    h.press("Tab Tab");
    h.type_text(value);
    h.press("Tab C-u");
    h.paste(props);
}

/// A small diagram for the map: an area around four components (three with a status), lines
/// with arrows between them, a title label, and one component that cannot be placed.
pub fn map_content() -> Content {
    let attached = |id: &str, index: u64| json!({"type": 1, "id": id, "index": index});
    let line = |from: serde_json::Value, to: serde_json::Value, arrow: bool| {
        let arrows = if arrow { json!({"1": true}) } else { json!({}) };
        object(
            "line-group",
            json!({"anchors": [from, to], "lines": [[0, 1]], "arrowAnchorIndices": arrows}),
        )
    };
    let component = |id: &str, name: &str, x: f64, y: f64, status: Option<&str>| {
        let mut data = json!({"componentId": id, "position": {"x": x, "y": y}});
        if !name.is_empty() {
            data["name"] = json!(name);
        }
        if let Some(status) = status {
            data["meta"] = json!({"status": status});
        }
        object("component", data)
    };
    let mut c = Content::new();
    c.insert(
        "a-net".into(),
        object(
            "area",
            json!({"anchors": [{"x": -22, "y": -12}, {"x": 22, "y": -12}, {"x": 22, "y": 12}, {"x": -22, "y": 12}], "fillColor": "#E8F1FB"}),
        ),
    );
    c.insert(
        "c-cache".into(),
        component("cache.redis", "", -12.0, 6.0, None),
    );
    c.insert(
        "c-db".into(),
        component("database.postgres", "orders-db", 10.0, 6.0, Some("down")),
    );
    c.insert(
        "c-gw".into(),
        component("network.gateway", "api-gateway", -12.0, -4.0, Some("up")),
    );
    c.insert(
        "c-orders".into(),
        component("compute.service", "orders", 10.0, -4.0, Some("degraded")),
    );
    c.insert(
        "l-1".into(),
        line(attached("c-gw", 1), attached("c-orders", 0), true),
    );
    c.insert(
        "l-2".into(),
        line(attached("c-orders", 3), attached("c-db", 0), true),
    );
    c.insert(
        "l-3".into(),
        line(attached("c-gw", 2), attached("c-cache", 1), false),
    );
    c.insert(
        "t-title".into(),
        object(
            "label",
            json!({"text": "Orders platform", "position": {"x": 0, "y": -9}}),
        ),
    );
    c.insert(
        "x-lost".into(),
        object(
            "component",
            json!({"componentId": "generic.server", "position": "nowhere"}),
        ),
    );
    c
}

/// A key from a short name: `"j"`, `"Enter"`, `"Esc"`, `"Tab"`, `"BackTab"`, `"Down"`, `"Home"`,
/// `"C-s"`, `"A-d"` (Alt-D).
pub fn key(name: &str) -> KeyEvent {
    let (code, mods) = match name {
        "Enter" => (KeyCode::Enter, KeyModifiers::NONE),
        "Esc" => (KeyCode::Esc, KeyModifiers::NONE),
        "Tab" => (KeyCode::Tab, KeyModifiers::NONE),
        "BackTab" => (KeyCode::BackTab, KeyModifiers::SHIFT),
        "Down" => (KeyCode::Down, KeyModifiers::NONE),
        "Up" => (KeyCode::Up, KeyModifiers::NONE),
        "Left" => (KeyCode::Left, KeyModifiers::NONE),
        "Right" => (KeyCode::Right, KeyModifiers::NONE),
        "End" => (KeyCode::End, KeyModifiers::NONE),
        "Home" => (KeyCode::Home, KeyModifiers::NONE),
        "Backspace" => (KeyCode::Backspace, KeyModifiers::NONE),
        "Space" => (KeyCode::Char(' '), KeyModifiers::NONE),
        other if other.starts_with("C-") && other.chars().count() == 3 => (
            KeyCode::Char(other.chars().nth(2).unwrap()),
            KeyModifiers::CONTROL,
        ),
        other if other.starts_with("A-") && other.chars().count() == 3 => (
            KeyCode::Char(other.chars().nth(2).unwrap()),
            KeyModifiers::ALT,
        ),
        other if other.chars().count() == 1 => (
            KeyCode::Char(other.chars().next().unwrap()),
            KeyModifiers::NONE,
        ),
        other => panic!("unknown key {other}"),
    };
    KeyEvent::new(code, mods)
}

impl Harness {
    /// A fresh app in local mode with its start-up requests pending.
    pub fn new() -> Harness {
        Harness::with(Setup::new("local /data/diagtui"))
    }

    /// A fresh app made from `setup`, with its start-up requests pending.
    pub fn with(setup: Setup) -> Harness {
        let mut app = App::new(setup);
        let effects = app.start();
        let mut h = Harness {
            app,
            pending: Vec::new(),
            effects: Vec::new(),
            sent: Vec::new(),
        };
        h.take(effects);
        h
    }

    /// An app with the documents, folders, account and first details loaded.
    pub fn loaded() -> Harness {
        let mut h = Harness::new();
        h.answer_all();
        h
    }

    /// An app with document A open on the map's diagram ([`map_content`]) and the map shown.
    pub fn on_map() -> Harness {
        Harness::on_map_with(Setup::new("local /data/diagtui"))
    }

    /// [`Harness::on_map`] made from `setup`.
    pub fn on_map_with(setup: Setup) -> Harness {
        let mut h = Harness::with(setup);
        h.answer_all_with(map_content());
        h.press("Enter");
        h.answer_all_with(map_content());
        h.press("m");
        // Drawn once at the size every check reads, so the map is fitted to it.
        h.screen();
        h
    }

    /// An app with document A open on `content`.
    pub fn opened_on(content: Content) -> Harness {
        let mut h = Harness::loaded();
        h.press("Enter");
        h.answer_all_with(content);
        h
    }

    /// An app with document A open and its content loaded.
    pub fn opened() -> Harness {
        Harness::opened_with(Setup::new("local /data/diagtui"))
    }

    /// An app made from `setup`, with everything loaded and document A open.
    pub fn opened_with(setup: Setup) -> Harness {
        let mut h = Harness::with(setup);
        h.answer_all();
        h.press("Enter");
        h.answer_all();
        h
    }

    fn take(&mut self, effects: Vec<Effect>) {
        self.note_requests(&effects);
        let jobs = scene_jobs(&effects);
        self.effects = effects;
        self.build_scenes(jobs);
    }

    /// Builds the scenes asked for at once, as the runner does on its threads, and hands them
    /// to the app.
    fn build_scenes(&mut self, mut jobs: Vec<SceneJob>) {
        while let Some(job) = jobs.pop() {
            let more = self.app.update(Msg::Scene(job.run()));
            self.note_requests(&more);
            jobs.extend(scene_jobs(&more));
        }
    }

    fn note_requests(&mut self, effects: &[Effect]) {
        for effect in effects {
            if let Effect::Request(id, request) = effect {
                self.pending.push((*id, request.clone()));
                self.sent.push(request.clone());
            }
        }
    }

    /// Sends one message.
    pub fn send(&mut self, msg: Msg) -> Vec<Effect> {
        let effects = self.app.update(msg);
        self.take(effects.clone());
        effects
    }

    /// Presses keys, space separated (`"j j Enter"`; `Space` is the space bar).
    pub fn press(&mut self, keys: &str) -> Vec<Effect> {
        let mut all = Vec::new();
        for name in keys.split(' ').filter(|k| !k.is_empty()) {
            all.extend(self.send(Msg::Key(key(name))));
        }
        self.effects = all.clone();
        all
    }

    /// Types text into whatever field has the keys.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.send(Msg::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )));
        }
    }

    /// Pastes text (bracketed paste).
    pub fn paste(&mut self, text: &str) -> Vec<Effect> {
        self.send(Msg::Paste(text.into()))
    }

    /// Puts `text` in the properties pane the way `$EDITOR` does: `e`, then the editor's
    /// result. The selected object (or the one in the pane) is edited.
    pub fn edit_json(&mut self, text: &str) {
        let effects = self.press("e");
        assert!(
            matches!(effects.as_slice(), [Effect::OpenEditor(_)]),
            "e did not open the editor: {effects:?}"
        );
        self.send(Msg::EditorDone(Ok(text.into())));
    }

    /// The JSON the properties pane holds, as `e` hands it to `$EDITOR` (then given back
    /// unchanged).
    pub fn json(&mut self) -> String {
        let effects = self.press("e");
        let [Effect::OpenEditor(text)] = effects.as_slice() else {
            panic!("e did not open the editor: {effects:?}")
        };
        let text = text.clone();
        self.send(Msg::EditorDone(Ok(text.clone())));
        text
    }

    /// The pending request matching `pred`, removed from the pending list.
    pub fn take_request(&mut self, pred: impl Fn(&Request) -> bool) -> (RequestId, Request) {
        let at = self
            .pending
            .iter()
            .position(|(_, r)| pred(r))
            .unwrap_or_else(|| panic!("no such request pending: {:?}", self.pending));
        self.pending.remove(at)
    }

    /// Whether a request matching `pred` is pending.
    pub fn asked(&self, pred: impl Fn(&Request) -> bool) -> bool {
        self.pending.iter().any(|(_, r)| pred(r))
    }

    /// Answers the pending read of an object's history (what `u` asks first) as a server
    /// without the history routes does: 404. Undo then takes back the session's writes.
    pub fn no_history(&mut self) {
        self.answer(
            |r| matches!(r, Request::ObjectHistory { .. }),
            Err(failure(Some(404), Some("NOT_FOUND"), "no route")),
        );
    }

    /// Answers one request.
    pub fn reply(&mut self, id: RequestId, outcome: Result<Answer, Failure>) -> Vec<Effect> {
        self.send(Msg::Api(Reply {
            id,
            latency: Duration::from_millis(12),
            outcome,
        }))
    }

    /// Answers the first pending request matching `pred`.
    pub fn answer(
        &mut self,
        pred: impl Fn(&Request) -> bool,
        outcome: Result<Answer, Failure>,
    ) -> Vec<Effect> {
        let (id, _) = self.take_request(pred);
        self.reply(id, outcome)
    }

    /// Answers every pending read with the fixture data, until none is left.
    pub fn answer_all(&mut self) {
        self.answer_all_with(content());
    }

    /// Answers every pending read, the content reads with `content`. Reads of the server's
    /// history (the last names of a line group's deleted ends) stay pending for the test.
    pub fn answer_all_with(&mut self, content: Content) {
        let history =
            |r: &Request| matches!(r, Request::ObjectHistory { .. } | Request::Version { .. });
        while let Some(at) = self.pending.iter().position(|(_, r)| !history(r)) {
            let (id, request) = self.pending.remove(at);
            let answer = match &request {
                Request::WhoAmI => Answer::Me(UserRef {
                    id: "u1".into(),
                    email: "me@example.com".into(),
                }),
                Request::ListDocs => Answer::Docs(docs()),
                Request::Folders => Answer::Folders(folders()),
                Request::Details { doc } => Answer::Details(details(doc)),
                Request::Embeds { .. } => Answer::Embeds(EmbedList {
                    success: true,
                    embeds: Vec::new(),
                }),
                Request::Content { .. } => objects(content.clone()),
                Request::GetObject { obj, .. } => Answer::Object(content[obj].clone().into()),
                other => panic!("answer_all only answers reads, got {other:?}"),
            };
            self.reply(id, Ok(answer));
        }
    }

    /// The frame at `width` × `height`.
    pub fn buffer(&mut self, width: u16, height: u16) -> Buffer {
        self.app.update(Msg::Resize(width, height));
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| view(&self.app, frame)).unwrap();
        terminal.backend().buffer().clone()
    }

    /// The frame at `width` × `height`, as text.
    pub fn render(&mut self, width: u16, height: u16) -> String {
        self.app.update(Msg::Resize(width, height));
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| view(&self.app, frame)).unwrap();
        terminal.backend().to_string()
    }

    /// The screen as text, wide enough that no line of interest is cut.
    pub fn screen(&mut self) -> String {
        self.render(WIDE.0, WIDE.1)
    }

    /// Whether the screen shows `text`.
    pub fn shows(&mut self, text: &str) -> bool {
        self.screen().contains(text)
    }

    /// Fails, showing the screen, unless it shows `text`.
    #[track_caller]
    pub fn expect(&mut self, text: &str) {
        let screen = self.screen();
        assert!(
            screen.contains(text),
            "the screen does not show {text:?}:\n{screen}"
        );
    }

    /// The status bar's text (connection, account, spinner, message), rendered wide.
    pub fn status(&mut self) -> String {
        let buffer = self.buffer(400, 12);
        row_text(&buffer, 10).trim_end().to_string()
    }

    /// The footer's text: the keys of what has the focus.
    pub fn footer(&mut self) -> String {
        let buffer = self.buffer(WIDE.0, WIDE.1);
        row_text(&buffer, WIDE.1 - 1).trim().to_string()
    }

    /// The selected row of what has the keys (drawn in reverse video), trimmed; empty when
    /// there is none.
    pub fn selected(&mut self) -> String {
        let buffer = self.buffer(WIDE.0, WIDE.1);
        for y in 0..buffer.area.height {
            let run: String = (0..buffer.area.width)
                .map(|x| &buffer[(x, y)])
                .skip_while(|c| !c.modifier.contains(Modifier::REVERSED))
                .take_while(|c| c.modifier.contains(Modifier::REVERSED))
                .map(|c| c.symbol())
                .collect();
            if run.chars().count() >= 3 {
                return run.trim().to_string();
            }
        }
        String::new()
    }

    /// The pane whose border is drawn thick (the focused one, when no overlay is open):
    /// `Documents`, `Objects`, `Properties` or `Map`; empty when none is.
    pub fn focused(&mut self) -> String {
        let screen = self.screen();
        let top = screen.lines().next().unwrap_or_default();
        match top.find('┏') {
            Some(at) => ["Documents", "Objects", "Properties", "Map"]
                .into_iter()
                .find(|name| {
                    top[at..]
                        .trim_start_matches(['┏', '━', ' ', '1', '2', '3'])
                        .starts_with(name)
                })
                .unwrap_or_default()
                .to_string(),
            None => String::new(),
        }
    }

    /// The part of the screen's line holding `text` that lies between two pane borders (one
    /// row of one pane).
    pub fn cell_with(&mut self, text: &str) -> String {
        self.line_with(text)
            .split(['│', '┃'])
            .find(|part| part.contains(text))
            .unwrap_or_default()
            .to_string()
    }

    /// The text inside the overlay box titled `title` (see [`overlay_text`]).
    pub fn overlay_text(&mut self, title: &str) -> String {
        overlay_text(&self.screen(), title)
    }

    /// The screen's line holding `text`.
    pub fn line_with(&mut self, text: &str) -> String {
        self.screen()
            .lines()
            .find(|l| l.contains(text))
            .unwrap_or_else(|| panic!("no line shows {text:?}"))
            .to_string()
    }
}

/// The text inside the overlay box titled `title` on `screen`, its wrapped lines joined by
/// spaces: what it says, whatever the width.
pub fn overlay_text(screen: &str, title: &str) -> String {
    let corner = format!("╭ {title} ");
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let Some((top, left)) = lines.iter().enumerate().find_map(|(y, l)| {
        let text: String = l.iter().collect();
        let at = text.find(&corner)?;
        Some((y, text[..at].chars().count()))
    }) else {
        return String::new();
    };
    lines[top + 1..]
        .iter()
        .take_while(|l| l.get(left) == Some(&'│'))
        .map(|l| {
            let inner: String = l[left + 1..].iter().take_while(|&&c| c != '│').collect();
            inner.trim().to_string()
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The scenes `effects` ask to build.
fn scene_jobs(effects: &[Effect]) -> Vec<SceneJob> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::BuildScene(job) => Some(SceneJob::clone(job)),
            _ => None,
        })
        .collect()
}

/// Row `y` of a buffer as text.
pub fn row_text(buffer: &Buffer, y: u16) -> String {
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

/// A frame with its styles: the text, then one letter per cell naming its style (`.` for the
/// plain one), then the legend of the letters. Two frames that look different differ here.
pub fn styled(buffer: &Buffer) -> String {
    let mut styles: Vec<String> = Vec::new();
    let mut grid = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            if cell.fg == Color::Reset && cell.bg == Color::Reset && cell.modifier.is_empty() {
                grid.push('.');
                continue;
            }
            let style = format!("fg {:?} bg {:?} {:?}", cell.fg, cell.bg, cell.modifier);
            let at = styles.iter().position(|s| *s == style).unwrap_or_else(|| {
                styles.push(style);
                styles.len() - 1
            });
            grid.push(char::from(b'a' + (at % 26) as u8));
        }
        grid.push('\n');
    }
    let legend: Vec<String> = styles
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}: {s}", char::from(b'a' + (i % 26) as u8)))
        .collect();
    let text: Vec<String> = (0..buffer.area.height)
        .map(|y| row_text(buffer, y))
        .collect();
    format!("{}\n\n{grid}\n{}\n", text.join("\n"), legend.join("\n"))
}

/// A failure as the worker reports one.
pub fn failure(status: Option<u16>, code: Option<&str>, message: &str) -> Failure {
    Failure {
        status,
        code: code.map(diagtui_model::ErrorCode::from),
        message: message.into(),
        stale: None,
    }
}

/// Shares the selected document (from the documents pane) with `email`, which the server says
/// no account has: `404 USER_NOT_FOUND` with `message`.
pub fn share_with_nobody(h: &mut Harness, email: &str, message: &str) {
    h.press("1 s");
    h.type_text(email);
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::ShareDoc { .. }),
        Err(failure(Some(404), Some("USER_NOT_FOUND"), message)),
    );
}
