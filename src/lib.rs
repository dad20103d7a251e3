//! diagtui: a terminal diagram manager for the Diagram Document REST API, with a bundled local
//! server. `ARCHITECTURE.md` at the repository root maps the layers: `model` at the bottom,
//! `store` and `server` for the local API, `client` for the typed HTTP client, `scene` (pure, on
//! `model`) turning a document into drawable shapes and `render` (on `scene`) drawing them as SVG
//! and PNG, `cli` and `tui` on top, composed by `main.rs`.

pub mod cli;
pub mod client;
pub mod config;
pub mod connect;
pub mod model;
pub mod private_files;
pub mod render;
pub mod scene;
pub mod server;
pub mod signals;
pub mod store;
pub mod tui;
