//! The terminal UI: one loop, messages in, effects out. `ARCHITECTURE.md` at the repository root
//! is the map; the rooms, each a directory whose `mod.rs` says what it holds and may import,
//! from the top down (a room imports only rooms below it; `tests/no_circles.rs` checks that no
//! two files and no two folders import each other):
//!
//! - [`runtime`]: the terminal loop, the worker running requests on the client, following the
//!   change events, the clipboard, what the terminal shows.
//! - [`app`]: `App::update(msg) -> Vec<Effect>`, plain code with no I/O: the orchestrator that
//!   routes each message and carries out the actions; the view, the status bar.
//! - [`panes`] and [`overlays`]: the components, each owning its state, handling its keys,
//!   drawing itself.
//! - [`writes`]: how a write goes out and comes back: undo, bulk updates (they ask through
//!   actions and import no widget or overlay).
//! - [`widgets`]: drawing helpers and text fields.
//! - [`vocab`]: the vocabulary the components speak: the actions, the `Component` shape and
//!   `Cx`, an overlay as App holds it, a question, the screen's layout.
//! - [`session`]: what the session remembers: its writes (for undo), the selectors.
//! - [`requests`]: the requests, what each is for, their log; what the change events said.
//! - [`document`]: the open document the components share, how objects are named, its scene,
//!   what is loading.
//! - [`text`]: a message for the user, counted nouns, columns, JSON's check, diff and colours.
//! - [`keys`]: the one key table (dispatch, help, footer, palette, `diagtui keys`); [`theme`]:
//!   every style by role; [`settings`]: the TUI's tables of the config file, as written;
//!   [`configured`]: what they make of the defaults, and the setup the TUI starts with;
//!   [`transfer`]: files (export, import, backups).

pub mod app;
pub mod configured;
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
pub use configured::Configured;
pub use document::{RequestId, Versioned};
pub use requests::call::{Answer, Failure, Reply, Request, Stale};
pub use runtime::run::{LOG_FILE, init_log, run};
