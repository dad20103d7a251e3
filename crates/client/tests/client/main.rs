//! The API client over real HTTP: every route against the local server on an ephemeral port,
//! and every error variant (including small hand-made listeners for a server that is down, one
//! that hangs and one that answers HTML).

mod errors;
mod raw_content;
mod routes;
mod versions;
mod watch;

use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_server::{LocalServer, ServerOptions};
use tempfile::TempDir;

/// The local server on an ephemeral loopback port over a fresh temp data dir, and a client of
/// its default account (the dir must outlive the server).
pub struct Local {
    /// A client with the default account's key.
    pub client: Client,
    /// The running server.
    pub server: LocalServer,
    /// The temp dir holding the data dir (`data`).
    pub dir: TempDir,
}

impl Local {
    /// Starts a fresh server with the default settings.
    pub async fn start() -> Local {
        let dir = tempfile::tempdir().expect("temp dir");
        let server = LocalServer::start_with(&dir.path().join("data"), ServerOptions::default())
            .await
            .expect("the local server starts");
        let client = client_with_key(&server, server.api_key());
        Local {
            client,
            server,
            dir,
        }
    }
}

/// A client of `server` with the key `key`.
pub fn client_with_key(server: &LocalServer, key: &str) -> Client {
    Client::new(ClientConfig::new(server.url(), ApiKey::new(key))).expect("a client")
}
