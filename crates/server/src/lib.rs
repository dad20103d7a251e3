//! The local API server: axum routes over the [`store`](diagtui_store), auth by API key, the
//! error contract, an HTTP layer that caps and times out connections, the `serve` and
//! `account` commands and an in-process server.

mod application;
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
mod streaming;
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
