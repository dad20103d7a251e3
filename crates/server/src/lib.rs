//! The local API server: axum routes over the [`store`](diagtui_store), auth by API key, the
//! error contract, an HTTP layer that caps and times out connections, the `serve` and
//! `account` commands and an in-process server.

mod commands;
pub mod data_dir;
mod error;
mod events;
mod extract;
mod http;
mod local;
mod metrics;
mod options;
mod retention;
mod routes;
mod samples;
pub mod signals;
mod state;
mod viewers;

pub use commands::{
    AccountCommand, LogFormat, MigrateArgs, ServeArgs, create_account, public_url, run_account,
    run_migrate, run_serve,
};
pub use http::MAX_HEAD_BYTES;
pub use local::LocalServer;
pub use options::{DEFAULT_MAX_BODY, ServerOptions, default_max_connections};
pub use retention::DEFAULT_HISTORY_KEEP_DAYS;
pub use routes::Cors;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;

use diagtui_store::{AnyEngine, Location, Store};

/// A server's application and what runs beside it.
struct Application {
    /// The routes, as a service.
    app: routes::App,
    /// The change events (to close when the server stops, which ends their streams).
    hub: Arc<events::Hub>,
    /// The handlers' state (for the metrics listener, and to mark the server draining).
    state: state::AppState,
}

/// The application over a store at `at` listening at an address, with the settings' body
/// limits, CORS origins, public URL and metrics. Must be called on a tokio runtime.
fn application(
    store: Arc<Store<AnyEngine>>,
    at: &Location,
    options: &ServerOptions,
    listening: SocketAddr,
) -> Application {
    let hub = events::Hub::start(&store, options.keep_alive);
    retention::start(&store, options.history_keep);
    let metrics = options
        .metrics
        .then(|| Arc::new(metrics::Metrics::new(&store, at.data_dir())));
    let state = state::AppState {
        store,
        bodies: options.bodies(),
        hub: Arc::clone(&hub),
        public_url: options.public_url(listening).into(),
        viewers: Arc::default(),
        draining: Arc::default(),
        metrics,
    };
    Application {
        app: routes::app(state.clone(), &options.cors, options.events),
        hub,
        state,
    }
}

/// Opens the store a server runs on: a data dir is set up first (seeded the first time); a
/// PostgreSQL database is migrated, never seeded (`diagtui account create --database` adds
/// its accounts).
async fn open_store(at: &Location, options: &ServerOptions) -> anyhow::Result<Store<AnyEngine>> {
    if let Some(dir) = at.data_dir() {
        data_dir::prepare(dir).await?;
    }
    Store::open_at(at, options.store())
        .await
        .with_context(|| format!("cannot open {at}"))
}
