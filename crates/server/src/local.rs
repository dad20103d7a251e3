//! The API server running inside this process, for the TUI, the CLI and tests.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::application::{application, fold_log_at_stop, open_store};
use super::options::ServerOptions;
use super::{data_dir, http};
use diagtui_store::{self as store, DEFAULT_EMAIL, Location};

/// An API server running inside this process, on 127.0.0.1 with an ephemeral port unless
/// told otherwise.
pub struct LocalServer {
    url: String,
    api_key: String,
    location: Location,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl LocalServer {
    /// Opens (initialising and seeding if new) the data dir and serves it on the current
    /// tokio runtime.
    pub async fn start(data_dir: &Path) -> anyhow::Result<LocalServer> {
        LocalServer::start_with(data_dir, ServerOptions::default()).await
    }

    /// Like [`LocalServer::start`], with a request body limit other than the default.
    pub async fn start_with_limit(data_dir: &Path, max_body: usize) -> anyhow::Result<LocalServer> {
        let options = ServerOptions {
            max_body,
            ..ServerOptions::default()
        };
        LocalServer::start_with(data_dir, options).await
    }

    /// Like [`LocalServer::start`], with settings of its own.
    pub async fn start_with(
        data_dir: &Path,
        options: ServerOptions,
    ) -> anyhow::Result<LocalServer> {
        LocalServer::start_at(Location::DataDir(data_dir.to_owned()), options).await
    }

    /// Serves a data dir or a PostgreSQL database, seeded like a new data dir when it has no
    /// account yet, on a free loopback port. On PostgreSQL, the default account gets a new key
    /// when the database was set up before (there is no key file to read it from).
    pub async fn start_at(
        location: Location,
        options: ServerOptions,
    ) -> anyhow::Result<LocalServer> {
        let any_port = SocketAddr::from(([127, 0, 0, 1], 0));
        LocalServer::start_on(location, any_port, options).await
    }

    /// Like [`LocalServer::start_at`], listening on `addr` (a server started again on the port
    /// of one stopped, say).
    pub async fn start_on(
        location: Location,
        addr: SocketAddr,
        options: ServerOptions,
    ) -> anyhow::Result<LocalServer> {
        let (store, api_key) = match location.data_dir() {
            Some(dir) => {
                if let Some(warning) = data_dir::looseness_warning(dir) {
                    tracing::warn!("{warning}");
                }
                let store = open_store(&location, &options).await?;
                (store, data_dir::default_key(dir).await?)
            }
            None => {
                let key = match data_dir::seed(&location).await? {
                    Some(key) => key,
                    None => store::rotate_key(&location, DEFAULT_EMAIL).await?,
                };
                (open_store(&location, &options).await?, key)
            }
        };
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let listening = listener.local_addr()?;
        let url = format!("http://{listening}");
        let running = application(Arc::new(store), &location, &options, listening);
        let (stop, stopped) = oneshot::channel::<()>();
        let hub = running.hub;
        let store = Arc::clone(&running.state.store);
        let served = http::serve(listener, running.app, options.http(), async move {
            let _ = stopped.await;
            hub.close();
        });
        let task = tokio::spawn(async move {
            served.await;
            fold_log_at_stop(&store).await;
        });
        Ok(LocalServer {
            url,
            api_key,
            location,
            stop: Some(stop),
            task: Some(task),
        })
    }

    /// The base URL, `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The data dir's default account key.
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    /// The default account's e-mail address.
    pub fn email(&self) -> &str {
        DEFAULT_EMAIL
    }

    /// The data dir or database it serves.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Stops accepting connections, lets in-flight requests finish and waits for the server
    /// (which then copies SQLite's log into the database file).
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
