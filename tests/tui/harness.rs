//! Drives an `App` with keys and canned answers built from `model` types, and renders it.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::client::{ApiKey, Client, ClientConfig};
use diagtui::model::{
    Content, DiagramObject, DocDetails, DocSummary, FolderEntry, FolderList, FolderRef, UserRef,
};
use diagtui::server::LocalServer;
use diagtui::tui::{Answer, App, Effect, Failure, Msg, Reply, Request, RequestId, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

/// An app plus the requests it has made and not yet had answered.
pub struct Harness {
    pub app: App,
    pub pending: Vec<(RequestId, Request)>,
    pub effects: Vec<Effect>,
}

pub const DOC_A: &str = "11111111-1111-4111-8111-111111111111";
pub const DOC_B: &str = "22222222-2222-4222-8222-222222222222";
pub const DOC_C: &str = "33333333-3333-4333-8333-333333333333";

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

/// A key from a short name: `"j"`, `"Enter"`, `"Esc"`, `"Tab"`, `"BackTab"`, `"Down"`, `"C-s"`.
pub fn key(name: &str) -> KeyEvent {
    let (code, mods) = match name {
        "Enter" => (KeyCode::Enter, KeyModifiers::NONE),
        "Esc" => (KeyCode::Esc, KeyModifiers::NONE),
        "Tab" => (KeyCode::Tab, KeyModifiers::NONE),
        "BackTab" => (KeyCode::BackTab, KeyModifiers::SHIFT),
        "Down" => (KeyCode::Down, KeyModifiers::NONE),
        "Up" => (KeyCode::Up, KeyModifiers::NONE),
        "Left" => (KeyCode::Left, KeyModifiers::NONE),
        "End" => (KeyCode::End, KeyModifiers::NONE),
        "Backspace" => (KeyCode::Backspace, KeyModifiers::NONE),
        "C-s" => (KeyCode::Char('s'), KeyModifiers::CONTROL),
        "C-c" => (KeyCode::Char('c'), KeyModifiers::CONTROL),
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
        let mut app = App::new("local /data/diagtui", None);
        let effects = app.start();
        let mut h = Harness {
            app,
            pending: Vec::new(),
            effects: Vec::new(),
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

    /// An app with document A open and its content loaded.
    pub fn opened() -> Harness {
        let mut h = Harness::loaded();
        h.press("Enter");
        h.answer_all();
        h
    }

    fn take(&mut self, effects: Vec<Effect>) {
        for effect in &effects {
            if let Effect::Request(id, request) = effect {
                self.pending.push((*id, request.clone()));
            }
        }
        self.effects = effects;
    }

    /// Sends one message.
    pub fn send(&mut self, msg: Msg) -> Vec<Effect> {
        let effects = self.app.update(msg);
        self.take(effects.clone());
        effects
    }

    /// Presses keys, space separated (`"j j Enter"`); a lone space is written `" "`.
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

    /// The pending request matching `pred`, removed from the pending list.
    pub fn take_request(&mut self, pred: impl Fn(&Request) -> bool) -> (RequestId, Request) {
        let at = self
            .pending
            .iter()
            .position(|(_, r)| pred(r))
            .unwrap_or_else(|| panic!("no such request pending: {:?}", self.pending));
        self.pending.remove(at)
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
        while let Some((id, request)) = self.pending.first().cloned() {
            self.pending.remove(0);
            let answer = match &request {
                Request::WhoAmI => Answer::Me(UserRef {
                    id: "u1".into(),
                    email: "me@example.com".into(),
                }),
                Request::ListDocs => Answer::Docs(docs()),
                Request::Folders => Answer::Folders(folders()),
                Request::Details { doc } => Answer::Details(details(doc)),
                Request::Content { .. } => Answer::Content(content()),
                Request::GetObject { obj, .. } => Answer::Object(content()[obj].clone()),
                other => panic!("answer_all only answers reads, got {other:?}"),
            };
            self.reply(id, Ok(answer));
        }
    }

    /// The frame at `width` × `height`, as text.
    pub fn render(&mut self, width: u16, height: u16) -> String {
        self.app.update(Msg::Resize(width, height));
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| view(&self.app, frame)).unwrap();
        terminal.backend().to_string()
    }
}

/// A failure as the worker reports one.
pub fn failure(status: Option<u16>, code: Option<&str>, message: &str) -> Failure {
    Failure {
        status,
        code: code.map(diagtui::model::ErrorCode::from),
        message: message.into(),
    }
}

/// The local server on a fresh temp data dir, and a client of its default account. The
/// temp dir must outlive the server.
pub async fn live_server() -> (tempfile::TempDir, LocalServer, Client) {
    let dir = tempfile::tempdir().unwrap();
    let server = LocalServer::start(&dir.path().join("data")).await.unwrap();
    let client = Client::new(ClientConfig::new(
        server.url(),
        ApiKey::new(server.api_key()),
    ))
    .unwrap();
    (dir, server, client)
}
