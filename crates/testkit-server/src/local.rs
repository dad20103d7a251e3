//! The local server in-process on a temp data dir, and a client of its default account.

use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_server::{LocalServer, ServerOptions};
use tempfile::TempDir;

/// The local server on an ephemeral loopback port over a fresh temp data dir, and a client of
/// its default account. The fields are public so that a test can take them apart; the dir must
/// outlive the server.
pub struct Local {
    /// A client with the default account's key.
    pub client: Client,
    /// The running server.
    pub server: LocalServer,
    /// The temp dir holding the data dir (`data`), and room for files.
    pub dir: TempDir,
}

impl Local {
    /// Starts a fresh server.
    pub async fn start() -> Local {
        Local::start_with(ServerOptions::default()).await
    }

    /// Starts a fresh server with these settings.
    pub async fn start_with(options: ServerOptions) -> Local {
        let dir = tempfile::tempdir().expect("temp dir");
        let server = LocalServer::start_with(&dir.path().join("data"), options)
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
