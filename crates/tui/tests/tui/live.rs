//! The app driven end to end: `App::update` plus the real worker (`tui::worker::settle`) and
//! the real file jobs, against the local server on a temp data dir. No mock anywhere.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui_client::Client;
use diagtui_model::Content;
use diagtui_server::LocalServer;
use diagtui_testkit_server::Local;
use diagtui_tui::runtime::worker;
use diagtui_tui::{App, Effect, Msg, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::harness::key;

/// The app, the client and the server it talks to.
pub struct Live {
    /// The app.
    pub app: App,
    /// A client of the server (to change the document behind the app's back).
    pub client: Client,
    /// The server.
    pub server: LocalServer,
    /// The open document's id.
    pub doc: String,
    _dir: tempfile::TempDir,
}

impl Live {
    /// A server with one document titled `title` holding `content`, and an app with it open.
    pub async fn start(title: &str, content: &Content) -> Live {
        let Local {
            dir,
            server,
            client,
        } = Local::start().await;
        let doc = client.create_doc(title, None).await.unwrap();
        client.set_content(&doc, content).await.unwrap();
        let mut live = Live {
            app: App::new(Setup::new("e2e")),
            client,
            server,
            doc,
            _dir: dir,
        };
        let effects = live.app.start();
        live.run(effects).await;
        live.keys("/").await;
        live.text(title).await;
        live.keys("Enter Enter").await;
        assert!(
            live.screen()
                .contains(&format!("{title} ({})", content.len())),
            "{}",
            live.screen()
        );
        live
    }

    /// Carries out effects until none is left, through the real worker and file jobs.
    pub async fn run(&mut self, effects: Vec<Effect>) {
        worker::settle(&mut self.app, &self.client, effects).await;
    }

    /// Sends one key and carries out what follows.
    pub async fn send(&mut self, key: KeyEvent) {
        let effects = self.app.update(Msg::Key(key));
        self.run(effects).await;
    }

    /// Sends keys named as in `harness::key`, separated by spaces.
    pub async fn keys(&mut self, keys: &str) {
        for name in keys.split(' ') {
            self.send(key(name)).await;
        }
    }

    /// Types `text`, one key per character.
    pub async fn text(&mut self, text: &str) {
        for c in text.chars() {
            self.send(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
                .await;
        }
    }

    /// Pastes `text`.
    pub async fn paste(&mut self, text: &str) {
        let effects = self.app.update(Msg::Paste(text.into()));
        self.run(effects).await;
    }

    /// Sends `Ctrl` + `c`.
    pub async fn ctrl(&mut self, c: char) {
        self.send(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
            .await;
    }

    /// The open document's content as the server has it.
    pub async fn content(&self) -> Content {
        self.client.content(&self.doc).await.unwrap()
    }

    /// The screen, wide.
    pub fn screen(&mut self) -> String {
        self.app.update(Msg::Resize(200, 50));
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
        terminal.draw(|frame| view(&self.app, frame)).unwrap();
        terminal.backend().to_string()
    }
}
