//! The terminal UI: one loop, messages in, effects out. `ARCHITECTURE.md` at the repository root
//! is the map; in short:
//!
//! - [`app`]: `App::update(msg) -> Vec<Effect>`, plain code with no I/O. It routes each message
//!   to the component with the keys and carries out the [`action`]s components return.
//! - [`panes`] and [`overlays`]: the components ([`component::Component`]), each owning its
//!   state, handling its keys, drawing itself.
//! - [`keys`]: the one key table (dispatch, help, footer, palette, `diagtui keys`); [`theme`]:
//!   every style by role.
//! - [`document`]: the open document the components share; [`request`]/[`requests`]: the
//!   requests and their log; [`worker`]: runs them on the client; [`run`]: the terminal loop.

pub mod action;
pub mod app;
pub mod bulk_write;
pub mod clipboard;
pub mod component;
pub mod document;
pub mod editor;
pub mod follow;
pub mod fresh;
pub mod fuzzy;
pub mod history;
pub mod input;
pub mod json;
pub mod keys;
pub mod layout;
pub mod list;
pub mod liveness;
pub mod load;
pub mod names;
pub mod overlays;
pub mod panes;
pub mod props_field;
pub mod request;
pub mod requests;
pub mod run;
pub mod scene_cache;
pub mod settings;
pub mod status;
pub mod summary;
pub mod terminal;
pub mod text_view;
pub mod theme;
pub mod transfer;
pub mod typing;
pub mod undo;
pub mod view;
pub mod widgets;
pub mod words;
pub mod worker;
pub mod writes;

pub use app::{App, Effect, Msg, Setup};
pub use request::{Answer, Failure, Reply, Request, RequestId};
pub use run::{LOG_FILE, init_log, run};
pub use view::view;
