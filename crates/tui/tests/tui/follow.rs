//! The TUI follows the server's changes: `App::update` with the real worker, the real
//! followers of the change event streams (`tui::follow`) and the local server. A change made
//! through the client shows without a key press; the server stopped and started again on the
//! same port is found again and what changed meanwhile shows; a server without the streams is
//! polled.

use std::net::SocketAddr;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_server::{LocalServer, ServerOptions};
use diagtui_store::Location;
use diagtui_testkit_server::Local;
use diagtui_tui::requests::call::Request;
use diagtui_tui::requests::liveness::Live;
use diagtui_tui::runtime::follow::Followers;
use diagtui_tui::runtime::worker;
use diagtui_tui::{App, Effect, Msg, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use tokio::sync::mpsc;

use crate::harness::key;

/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(30);

/// The app with its worker and followers, the client and the server.
struct Following {
    app: App,
    client: Client,
    server: Option<LocalServer>,
    followers: Followers,
    news: mpsc::UnboundedReceiver<Live>,
    doc: String,
    label: String,
    dir: tempfile::TempDir,
    /// How many times the app read the whole content so far.
    content_reads: usize,
    /// While set, what the app asks to follow waits here (a stream slow to start).
    held: Option<Vec<diagtui_tui::requests::liveness::Follow>>,
}

impl Following {
    /// A server (with these settings) holding a document "Followed" with one label, and the
    /// app with it open.
    async fn start(options: ServerOptions, setup: Setup) -> Following {
        Following::start_holding(options, setup, false).await
    }

    /// [`Following::start`]; with `hold_streams`, the streams start only at
    /// [`Following::release_streams`].
    async fn start_holding(options: ServerOptions, setup: Setup, hold_streams: bool) -> Following {
        let Local {
            dir,
            server,
            client,
        } = Local::start_with(options).await;
        let doc = client.create_doc("Followed", None).await.unwrap();
        let props = json!({"text": "before"}).as_object().unwrap().clone();
        let label = client.create_object(&doc, "label", &props).await.unwrap();
        let (sender, news) = mpsc::unbounded_channel();
        let mut following = Following {
            app: App::new(setup),
            followers: Followers::new(client.clone(), sender),
            client,
            server: Some(server),
            news,
            doc,
            label,
            dir,
            content_reads: 0,
            held: hold_streams.then(Vec::new),
        };
        let effects = following.app.start();
        following.run(effects).await;
        for name in [
            "/", "F", "o", "l", "l", "o", "w", "e", "d", "Enter", "Enter",
        ] {
            let effects = following.app.update(Msg::Key(key_named(name)));
            following.run(effects).await;
        }
        following.expect("before").await;
        following
    }

    /// Carries out effects: follows what the app asks, the rest through the real worker.
    async fn run(&mut self, effects: Vec<Effect>) {
        let mut rest = Vec::new();
        for effect in effects {
            match effect {
                Effect::Follow(what) => match self.held.as_mut() {
                    Some(held) => held.push(what),
                    None => self.followers.follow(what),
                },
                other => {
                    if matches!(other, Effect::Request(_, Request::Content { .. })) {
                        self.content_reads += 1;
                    }
                    rest.push(other);
                }
            }
        }
        // The effects that follow go through `run` again, to be counted and followed.
        for effect in rest {
            let more = worker::settle_one(&mut self.app, &self.client, effect).await;
            Box::pin(self.run(more)).await;
        }
    }

    /// Starts the streams held back.
    fn release_streams(&mut self) {
        for what in self.held.take().unwrap_or_default() {
            self.followers.follow(what);
        }
    }

    /// Feeds the app the streams' news (no key, no tick) until the screen shows `text`.
    async fn expect(&mut self, text: &str) {
        self.news_until(|screen| screen.contains(text)).await;
    }

    /// Feeds the app the streams' news until the screen satisfies `done`.
    async fn news_until(&mut self, done: impl Fn(&str) -> bool) {
        while !done(&self.screen()) {
            let news = tokio::time::timeout(PATIENCE, self.news.recv())
                .await
                .unwrap_or_else(|_| panic!("no news in time; the screen:\n{}", self.screen()))
                .expect("the followers run");
            let effects = self.app.update(Msg::Live(news));
            self.run(effects).await;
        }
    }

    /// Feeds the app ticks (and their effects) until the screen shows `text`.
    async fn tick_until(&mut self, text: &str) {
        let mut ticks = 0;
        while !self.screen().contains(text) {
            ticks += 1;
            assert!(ticks < 1000, "not after {ticks} ticks:\n{}", self.screen());
            let effects = self.app.update(Msg::Tick);
            self.run(effects).await;
        }
    }

    /// Starts editing the label (the properties pane) and types into it.
    async fn edit_the_label(&mut self) {
        for name in ["Enter", "Down", "i"] {
            let effects = self.app.update(Msg::Key(key(name)));
            self.run(effects).await;
        }
        let effects = self.app.update(Msg::Paste("\"mine\": 1, ".into()));
        self.run(effects).await;
    }

    /// Changes the label's text through the client.
    async fn retext(&self, text: &str) {
        let props = json!({"text": text}).as_object().unwrap().clone();
        self.client
            .update_object(&self.doc, &self.label, &props)
            .await
            .unwrap();
    }

    fn screen(&mut self) -> String {
        self.app.update(Msg::Resize(160, 30));
        let mut terminal = Terminal::new(TestBackend::new(160, 30)).unwrap();
        terminal.draw(|frame| view(&self.app, frame)).unwrap();
        terminal.backend().to_string()
    }
}

/// A key by name, a single character typed as itself.
fn key_named(name: &str) -> KeyEvent {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c != '/' => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
        _ => key(name),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_change_made_through_the_client_shows_without_a_key_press() {
    let mut following = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    following.retext("after").await;
    following.expect("after").await;
    let screen = following.screen();
    assert!(
        screen.contains("↻ after"),
        "marked as just changed:\n{screen}"
    );
    assert!(!screen.contains("before"), "{screen}");
    let props = json!({"text": "a new one"}).as_object().unwrap().clone();
    following
        .client
        .create_object(&following.doc, "label", &props)
        .await
        .unwrap();
    following.expect("a new one").await;
    following
        .client
        .rename_doc(&following.doc, "Followed, renamed")
        .await
        .unwrap();
    following.expect("Objects · Followed, renamed").await;
    // The list (filtered to "Followed" since it was opened) counts every document.
    let other = following.client.create_doc("Another", None).await.unwrap();
    following.expect("Documents (5)").await;
    following.client.delete_doc(&other).await.unwrap();
    following.expect("Documents (4)").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_few_changed_objects_are_read_alone_and_marks_and_selection_stay() {
    let mut following = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    let effects = following.app.update(Msg::Key(key("Space")));
    following.run(effects).await;
    following.expect("1 marked").await;
    let reads = following.content_reads;
    assert_eq!(reads, 1, "the open read the content");
    let selected = format!("[VIEW] label {}", following.label);
    assert!(following.screen().contains(&selected));

    // New objects land before and after the marked, selected one (ids are random).
    let mut created = Vec::new();
    for n in 0..6 {
        let props = json!({"text": format!("new {n}")})
            .as_object()
            .unwrap()
            .clone();
        let obj = following
            .client
            .create_object(&following.doc, "label", &props)
            .await
            .unwrap();
        created.push(obj);
    }
    following.expect("new 5").await;
    following.retext("after").await;
    following.expect("● after").await;
    for obj in &created[..3] {
        following
            .client
            .delete_object(&following.doc, obj)
            .await
            .unwrap();
    }
    following
        .news_until(|screen| !screen.contains("new 2 "))
        .await;
    let screen = following.screen();
    assert!(screen.contains("label (4)"), "{screen}");
    assert!(screen.contains("1 marked"), "{screen}");
    assert!(
        screen.contains("● after"),
        "the mark stays on its object:\n{screen}"
    );
    assert!(screen.contains(&selected), "the selection stays:\n{screen}");
    assert!(!screen.contains("new 0 ") && screen.contains("new 5 "));
    assert_eq!(
        following.content_reads, reads,
        "only the changed objects were read"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_change_between_the_contents_read_and_the_streams_start_is_not_missed() {
    let mut following =
        Following::start_holding(ServerOptions::default(), Setup::new("e2e"), true).await;
    following.retext("between").await;
    following.release_streams();
    following.expect("between").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_stopped_and_started_again_on_the_same_port_is_found_again() {
    let mut following = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    let server = following.server.take().unwrap();
    let addr: SocketAddr = server.url().trim_start_matches("http://").parse().unwrap();
    server.shutdown().await;
    following.expect("offline").await;
    let screen = following.screen();
    assert!(screen.contains("next try in"), "{screen}");

    // Meanwhile another server on the same data dir changes the document.
    let data = following.dir.path().join("data");
    let other = LocalServer::start(&data).await.unwrap();
    let client = Client::new(ClientConfig::new(other.url(), ApiKey::new(other.api_key()))).unwrap();
    let props = json!({"text": "changed while away"})
        .as_object()
        .unwrap()
        .clone();
    client
        .update_object(&following.doc, &following.label, &props)
        .await
        .unwrap();
    other.shutdown().await;

    let again = LocalServer::start_on(
        Location::DataDir(data.clone()),
        addr,
        ServerOptions::default(),
    )
    .await
    .unwrap();
    following.server = Some(again);
    following.expect("changed while away").await;
    following
        .news_until(|screen| !screen.contains("offline"))
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_without_change_events_is_polled() {
    let options = ServerOptions {
        events: false,
        ..ServerOptions::default()
    };
    let setup = Setup {
        poll: Duration::from_millis(120),
        ..Setup::new("e2e")
    };
    let mut following = Following::start(options, setup).await;
    following.expect("polled every").await;
    // The first poll notes where the document stands.
    for _ in 0..3 {
        let effects = following.app.update(Msg::Tick);
        following.run(effects).await;
    }
    following.retext("seen by a poll").await;
    following.tick_until("seen by a poll").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_edited_object_changed_or_deleted_elsewhere_gets_the_banner() {
    let mut following = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    following.edit_the_label().await;
    assert!(
        following.screen().contains("[EDIT] ●"),
        "{}",
        following.screen()
    );

    following.retext("theirs").await;
    following.expect("changed on the server").await;
    let screen = following.screen();
    assert!(screen.contains("[EDIT] ●"), "the edit is kept:\n{screen}");
    assert!(
        screen.contains("↻ theirs"),
        "the row shows the server's:\n{screen}"
    );
    // In edit mode the banner names chords that cannot be typed, and they work there.
    assert!(
        screen.contains("Alt-D diff · Alt-R reload"),
        "the edit mode's keys:\n{screen}"
    );
    let effects = following.app.update(Msg::Key(key("A-d")));
    following.run(effects).await;
    let screen = following.screen();
    assert!(
        screen.contains("against the object's version on the server"),
        "{screen}"
    );
    assert!(screen.contains("mine"), "{screen}");
    let effects = following.app.update(Msg::Key(key("Esc")));
    following.run(effects).await;
    let screen = following.screen();
    assert!(
        screen.contains("[EDIT] ●") && screen.contains("\"mine\": 1, ") && !screen.contains("1, d"),
        "still editing, nothing typed into the JSON:\n{screen}"
    );
    // In view mode, the letters.
    let effects = following.app.update(Msg::Key(key("Esc")));
    following.run(effects).await;
    assert!(following.screen().contains("D diff · r reload"));
    for name in ["D", "Esc", "K"] {
        let effects = following.app.update(Msg::Key(key(name)));
        following.run(effects).await;
    }
    assert!(!following.screen().contains("changed on the server"));

    following
        .client
        .delete_object(&following.doc, &following.label)
        .await
        .unwrap();
    following.expect("deleted on the server").await;
    let effects = following.app.update(Msg::Key(key("C")));
    following.run(effects).await;
    following.expect("created it again").await;
    let content = following.client.content(&following.doc).await.unwrap();
    assert_eq!(content.len(), 1);
    let again = content.values().next().unwrap();
    assert_eq!(again.data["mine"], 1, "{again:?}");
    assert_eq!(again.data["text"], "before", "{again:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_open_document_deleted_elsewhere_closes_unless_an_edit_is_unsaved() {
    let mut following = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    following.edit_the_label().await;
    following.client.delete_doc(&following.doc).await.unwrap();
    following.expect("your unsaved edit stays").await;
    assert!(
        following.screen().contains("[EDIT] ●"),
        "{}",
        following.screen()
    );

    let mut clean = Following::start(ServerOptions::default(), Setup::new("e2e")).await;
    clean.client.delete_doc(&clean.doc).await.unwrap();
    clean.expect("deleted elsewhere").await;
    assert!(
        clean.screen().contains("open a document"),
        "{}",
        clean.screen()
    );
}
