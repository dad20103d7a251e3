//! Driving an app through the real worker and a server in the benchmarks: keys in, every
//! effect carried out before the next.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::client::{ApiKey, Client, ClientConfig};
use diagtui::server::LocalServer;
use diagtui::tui::runtime::worker;
use diagtui::tui::{App, Msg};

/// The local server on data dir `dir`, and a client of its account.
pub async fn local_server(dir: &Path) -> (LocalServer, Client) {
    let server = LocalServer::start(dir).await.unwrap();
    let client = Client::new(ClientConfig::new(
        server.url(),
        ApiKey::new(server.api_key()),
    ))
    .unwrap();
    (server, client)
}

/// A key press.
pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Sends `msg` and carries out every effect that follows, through the worker and the server.
pub async fn drive(app: &mut App, client: &Client, msg: Msg) {
    let effects = app.update(msg);
    worker::settle(app, client, effects).await;
}

/// Types `text`, a key press per character.
pub async fn type_text(app: &mut App, client: &Client, text: &str) {
    for c in text.chars() {
        drive(app, client, key(KeyCode::Char(c))).await;
    }
}
