//! A server's application over its store, and what runs beside it (the change events, history
//! retention, the metrics): what `serve` and the in-process local server both start.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;

use crate::options::ServerOptions;
use crate::{data_dir, events, metrics, retention, routes, state};
use diagtui_store::{AnyEngine, Location, Store};

/// A server's application and what runs beside it.
pub(crate) struct Application {
    /// The routes, as a service.
    pub app: routes::App,
    /// The change events (to close when the server stops, which ends their streams).
    pub hub: Arc<events::Hub>,
    /// The handlers' state (for the metrics listener, and to mark the server draining).
    pub state: state::AppState,
}

/// The application over a store at `at` listening at an address, with the settings' body
/// limits, CORS origins, public URL and metrics. Must be called on a tokio runtime.
pub(crate) fn application(
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
    let state = state::AppState::new(state::Shared {
        store,
        bodies: options.bodies(),
        hub: Arc::clone(&hub),
        public_url: options.public_url(listening).into(),
        viewers: Arc::default(),
        draining: Arc::default(),
        metrics,
    });
    Application {
        app: routes::app(state.clone(), &options.cors, options.events),
        hub,
        state,
    }
}

/// Opens the store a server runs on: a data dir is set up first (seeded the first time); a
/// PostgreSQL database is migrated, never seeded (`diagtui account create --database` adds
/// its accounts).
pub(crate) async fn open_store(
    at: &Location,
    options: &ServerOptions,
) -> anyhow::Result<Store<AnyEngine>> {
    if let Some(dir) = at.data_dir() {
        data_dir::prepare(dir).await?;
    }
    Store::open_at(at, options.store())
        .await
        .with_context(|| format!("cannot open {at}"))
}

/// At a graceful stop, once no request is served any more: SQLite's log copied into the
/// database file and emptied, so that the file alone holds every write (a warning if it
/// cannot be: the log then stays beside the database, which reads it at the next start).
pub(crate) async fn fold_log_at_stop(store: &Store<AnyEngine>) {
    if let Err(e) = store.fold_log().await {
        tracing::warn!("at the stop, {e}: the log stays beside the database");
    }
}
