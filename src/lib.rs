//! diagtui: a terminal diagram manager for the Diagram Document REST API, with a bundled local
//! server. This package is the binary (`main.rs`) and what only it needs: the command line
//! (`cli`), the config file (`config`) and choosing or starting a server (`connect`). The layers
//! are crates of their own (`ARCHITECTURE.md` maps them); they are re-exported here under their
//! layer's name, so that tests and benches reach everything through one path.

pub mod cli;
pub mod config;
pub mod connect;

pub use diagtui_client as client;
pub use diagtui_model as model;
pub use diagtui_model::private_files;
pub use diagtui_scene as scene;
pub use diagtui_scene::render;
pub use diagtui_server as server;
pub use diagtui_server::signals;
pub use diagtui_store as store;
pub use diagtui_tui as tui;
