//! The API client over real HTTP: every route against the local server on an ephemeral port,
//! and every error variant (including small hand-made listeners for a server that is down, one
//! that hangs and one that answers HTML).

#[path = "client/errors.rs"]
mod errors;
#[path = "common/net.rs"]
mod net;
#[path = "client/raw_content.rs"]
mod raw_content;
#[path = "client/routes.rs"]
mod routes;
#[path = "client/watch.rs"]
mod watch;

use diagtui::client::{ApiKey, Client, ClientConfig};
use diagtui::server::LocalServer;
use tempfile::TempDir;

/// The local server on an ephemeral port over a temp data dir, and a client of its default
/// account.
pub struct Fixture {
    /// The client, with the default account's key.
    pub client: Client,
    /// The running server.
    pub server: LocalServer,
    _dir: TempDir,
}

impl Fixture {
    /// Starts a fresh server.
    pub async fn start() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let server = LocalServer::start(dir.path()).await.unwrap();
        let client = client_with_key(&server, server.api_key());
        Fixture {
            client,
            server,
            _dir: dir,
        }
    }
}

/// A client of `server` with another key.
pub fn client_with_key(server: &LocalServer, key: &str) -> Client {
    Client::new(ClientConfig::new(server.url(), ApiKey::new(key))).unwrap()
}
