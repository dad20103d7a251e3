//! The local API server: axum routes over the SQLite [`store`](crate::store), auth by API key,
//! the error contract, the `serve` and `account` commands and an in-process server.

mod commands;
pub mod data_dir;
mod error;
mod extract;
mod local;
mod routes;
mod samples;
mod state;

pub use commands::{AccountCommand, ServeArgs, create_account, run_account, run_serve};
pub use local::LocalServer;

/// The default request body limit: 16 MiB.
pub const DEFAULT_MAX_BODY: usize = 16 * 1024 * 1024;
