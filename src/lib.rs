//! diagtui: a terminal diagram manager for the Diagram Document REST API, with a bundled local
//! server. See DESIGN.md in the shared folder for the layering: `model` at the bottom, `store`
//! and `server` for the local API, `client` for the typed HTTP client; `scene` (pure, on `model`)
//! turns a document into drawable shapes, and `render` (on `scene`) draws them as SVG and PNG.

pub mod cli;
pub mod client;
pub mod config;
pub mod model;
pub mod render;
pub mod scene;
pub mod server;
pub mod store;
pub mod tui;
