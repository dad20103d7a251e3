//! The terminal UI: one loop, messages in, effects out. `ARCHITECTURE.md` at the repository root
//! is the map; the rooms, each a directory whose `mod.rs` says what it holds and may import:
//!
//! - [`app`]: `App::update(msg) -> Vec<Effect>`, plain code with no I/O; the actions components
//!   return, the `Component` shape, the view, the layout, the status bar.
//! - [`panes`] and [`overlays`]: the components, each owning its state, handling its keys,
//!   drawing itself.
//! - [`document`]: the open document the components share, how objects are named, its scene.
//! - [`requests`]: the requests, what each is for, their log; loading.
//! - [`writes`]: the session's writes, undo, bulk updates, remembered selectors.
//! - [`widgets`]: drawing helpers and text fields.
//! - [`runtime`]: the terminal loop, the worker running requests on the client, following the
//!   change events, files, the clipboard.
//! - [`keys`]: the one key table (dispatch, help, footer, palette, `diagtui keys`); [`theme`]:
//!   every style by role; [`settings`]: the plain setting types the configuration fills.
//!
//! No file imports one that imports it back (`tests/no_circles.rs` checks).

pub mod app;
pub mod document;
pub mod keys;
pub(crate) mod overlays;
pub(crate) mod panes;
pub mod requests;
pub mod runtime;
pub mod session;
pub mod settings;
pub mod text;
pub mod theme;
pub mod transfer;
pub mod vocab;
pub(crate) mod widgets;
pub mod writes;

pub use app::update::{App, Effect, Msg, Setup};
pub use app::view::view;
pub use document::{RequestId, Versioned};
pub use requests::call::{Answer, Failure, Reply, Request, Stale};
pub use runtime::run::{LOG_FILE, init_log, run};
