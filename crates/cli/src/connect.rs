//! Connecting, for the TUI and the CLI: to the remote server the settings name, else to the local
//! server started in-process on the data dir. The composition step between `config` (which only
//! resolves settings) and `server`: neither the TUI nor the config knows the server exists.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use crate::config::{self, ConnectionArgs};
use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_server::LocalServer;

/// Where the connection goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The local server, started in-process on this data dir.
    Local {
        /// The data dir it serves.
        data_dir: PathBuf,
    },
    /// A server given by flags, environment or a profile.
    Remote {
        /// Its root URL.
        url: String,
        /// The profile it came from, if any.
        profile: Option<String>,
    },
}

/// A ready client. In local mode it also owns the in-process server, which runs while this
/// lives (it stops when this is dropped, or gracefully through [`Connection::close`]).
pub struct Connection {
    /// The client, talking HTTP in either mode.
    pub client: Client,
    /// Where it talks to.
    pub mode: Mode,
    /// The time between polls of a server without change events; zero: never poll.
    pub poll: Duration,
    server: Option<LocalServer>,
}

impl Connection {
    /// The default account's e-mail address in local mode; `None` for a remote server.
    pub fn local_email(&self) -> Option<&str> {
        self.server.as_ref().map(LocalServer::email)
    }

    /// Ends the connection; in local mode, stops the server after its in-flight requests.
    pub async fn close(self) {
        if let Some(server) = self.server {
            server.shutdown().await;
        }
    }
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("client", &self.client)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

/// Resolves the settings and connects: to the remote server they name, else to the local server
/// started on `data_dir`. Nothing is sent yet to a remote server.
pub async fn connect(args: &ConnectionArgs, data_dir: &Path) -> anyhow::Result<Connection> {
    let settings = config::settings(args)?;
    match settings.remote {
        Some((url, api_key, profile)) => {
            let client = Client::new(settings.timeouts.apply(ClientConfig::new(&url, api_key)))?;
            let url = client.base_url().to_owned();
            Ok(Connection {
                client,
                mode: Mode::Remote { url, profile },
                poll: settings.poll,
                server: None,
            })
        }
        None => {
            let server = LocalServer::start(data_dir).await.with_context(|| {
                format!("cannot start the local server on {}", data_dir.display())
            })?;
            let config = ClientConfig::new(server.url(), ApiKey::new(server.api_key()));
            let client = Client::new(settings.timeouts.apply(config))?;
            Ok(Connection {
                client,
                mode: Mode::Local {
                    data_dir: data_dir.to_owned(),
                },
                poll: settings.poll,
                server: Some(server),
            })
        }
    }
}
