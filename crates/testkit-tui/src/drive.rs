//! An app driven by messages through the real worker and a local server (loopback HTTP, a temp
//! data dir): every effect carried out before the next message. [`Bench`] holds one on a
//! generated document and times the app's own work (`App::update`, which runs on the input
//! loop) apart from the requests (the worker: HTTP, the server, parsing).

use std::time::{Duration, Instant};

use bytes::Bytes;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui_client::{Client, JsonBody};
use diagtui_server::{LocalServer, ServerOptions};
use diagtui_tui::document::scene_cache::BuiltScene;
use diagtui_tui::runtime::worker;
use diagtui_tui::{App, Effect, Msg, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Value;
use tempfile::TempDir;
use tokio::task::JoinHandle;

use diagtui_testkit::generated;
use diagtui_testkit_server::Local;

/// The title of the document the bench opens.
pub const TITLE: &str = "Bench";

/// The terminal the bench draws on.
const SIZE: (u16, u16) = (160, 50);

/// A key without modifiers.
pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// A character key.
pub fn char(c: char) -> Msg {
    key(KeyCode::Char(c))
}

/// A character with Ctrl.
pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Sends `msg` to `app` and carries out every effect that follows, through the worker and the
/// server.
pub async fn drive(app: &mut App, client: &Client, msg: Msg) {
    let effects = app.update(msg);
    worker::settle(app, client, effects).await;
}

/// Types `text` into `app`, a key press per character, each driven to its end.
pub async fn type_text(app: &mut App, client: &Client, text: &str) {
    for c in text.chars() {
        drive(app, client, char(c)).await;
    }
}

/// What one message cost: from the message to the last effect it led to carried out, and of
/// that the time spent in `App::update` (the input loop's share; the rest is the worker's).
#[derive(Debug, Clone, Copy, Default)]
pub struct Split {
    /// The whole of it.
    pub total: Duration,
    /// The input loop's share.
    pub on_loop: Duration,
}

/// The app, its server and a terminal to draw on.
pub struct Bench {
    /// The app.
    pub app: App,
    /// A client of the server.
    pub client: Client,
    doc: String,
    terminal: Terminal<TestBackend>,
    /// Scenes being built (the map's), each on a blocking thread as the app's runner does,
    /// taken in by the first message after they are done.
    scenes: Vec<JoinHandle<BuiltScene>>,
    server: LocalServer,
    _dir: TempDir,
}

impl Bench {
    /// A server holding a generated document of `objects` objects, and an app that lists it
    /// (not yet open).
    pub async fn new(objects: usize) -> Bench {
        let Local {
            client,
            server,
            dir,
        } = Local::start_with(ServerOptions {
            max_body: 1 << 30,
            ..ServerOptions::default()
        })
        .await;
        let doc = client.create_doc(TITLE, None).await.unwrap();
        let text = serde_json::to_vec(&Value::Object(generated::content(objects))).unwrap();
        let megabytes = text.len() as f64 / 1e6;
        let started = Instant::now();
        client
            .set_content_body(&doc, JsonBody::from_bytes(Bytes::from(text)))
            .await
            .unwrap();
        println!(
            "{objects} generated objects ({megabytes:.1} MB of compact JSON) stored in {:.2?}",
            started.elapsed()
        );
        let mut app = App::new(Setup {
            account: Some("bench@example.com".into()),
            ..Setup::new("bench")
        });
        app.update(Msg::Resize(SIZE.0, SIZE.1));
        let mut bench = Bench {
            app,
            client,
            doc,
            terminal: Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).unwrap(),
            scenes: Vec::new(),
            server,
            _dir: dir,
        };
        let effects = bench.app.start();
        bench.settle(effects).await;
        bench.send(char('/')).await;
        bench.type_text(TITLE).await;
        bench.send(key(KeyCode::Enter)).await;
        bench
    }

    /// Sends `msg` and carries out every effect that follows; times it.
    pub async fn send(&mut self, msg: Msg) -> Split {
        let (built, building) = std::mem::take(&mut self.scenes)
            .into_iter()
            .partition(|scene| scene.is_finished());
        self.scenes = building;
        self.take_scenes(built).await;
        let started = Instant::now();
        let effects = self.app.update(msg);
        let on_loop = started.elapsed();
        let mut split = self.settle(effects).await;
        split.on_loop += on_loop;
        split.total = started.elapsed();
        split
    }

    /// Waits for the scenes being built and hands them to the app, as a user who pauses for a
    /// moment would leave them to finish.
    pub async fn pause(&mut self) {
        let building = std::mem::take(&mut self.scenes);
        self.take_scenes(building).await;
    }

    /// Hands the scenes of `scenes` to the app once built, and carries out what follows.
    async fn take_scenes(&mut self, scenes: Vec<JoinHandle<BuiltScene>>) {
        for scene in scenes {
            let effects = self
                .app
                .update(Msg::Scene(scene.await.expect("a scene builds")));
            self.settle(effects).await;
        }
    }

    /// Carries out `effects` and what follows, as `worker::settle` does, timing `App::update`.
    async fn settle(&mut self, effects: Vec<Effect>) -> Split {
        let mut split = Split::default();
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(effect) = queue.pop_front() {
            let more = match effect {
                Effect::Request(id, request) => {
                    let reply = worker::reply(&self.client, id, request).await;
                    let started = Instant::now();
                    let more = self.app.update(Msg::Api(reply));
                    split.on_loop += started.elapsed();
                    more
                }
                Effect::BuildScene(job) => {
                    self.scenes
                        .push(tokio::task::spawn_blocking(move || job.run()));
                    Vec::new()
                }
                other => {
                    worker::settle(&mut self.app, &self.client, vec![other]).await;
                    Vec::new()
                }
            };
            queue.extend(more);
        }
        split
    }

    /// The document's id.
    pub fn doc_id(&self) -> String {
        self.doc.clone()
    }

    /// Types `text`, one key at a time.
    pub async fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.send(char(c)).await;
        }
    }

    /// Draws one frame; returns how long it took.
    pub fn draw(&mut self) -> Duration {
        let started = Instant::now();
        self.terminal.draw(|frame| view(&self.app, frame)).unwrap();
        started.elapsed()
    }

    /// The screen as text, as last drawn.
    pub fn screen(&self) -> String {
        self.terminal.backend().to_string()
    }

    /// Draws and returns the screen.
    pub fn drawn(&mut self) -> String {
        self.draw();
        self.screen()
    }

    /// Stops the server.
    pub async fn shutdown(self) {
        self.server.shutdown().await;
    }
}

/// Prints the mean and the worst of `times`.
pub fn report(name: &str, times: &[Duration]) {
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let worst = times.iter().max().unwrap();
    println!(
        "{name:<60} mean {mean:>10.2?}  worst {worst:>10.2?}  ({} runs)",
        times.len()
    );
}
