//! The API client over real HTTP: every route against the local server on an ephemeral port,
//! and every error variant (including small hand-made listeners for a server that is down, one
//! that hangs and one that answers HTML).

mod errors;
mod raw_content;
mod routes;
mod versions;
mod watch;

use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_server::LocalServer;
use tempfile::TempDir;

/// A fresh local server (its data dir `data` in `dir`, which must outlive it) and `client`, a
/// client of its default account. Not `diagtui-testkit-server`'s `Local`: that crate depends on
/// the client, and a dev-dependency must not come back round to the crate it tests.
pub struct Local {
    pub client: Client,
    pub server: LocalServer,
    pub dir: TempDir,
}

impl Local {
    /// Starts one.
    pub async fn start() -> Local {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        let server = LocalServer::start(&data).await.expect("the server starts");
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
