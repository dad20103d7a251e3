//! Writes and undo: [`record`] is the session's writes to each document (what undo needs),
//! [`undo`] asks, checks and sends an undo, [`folder_undo`] the undo of a folder write, [`server_undo`] finds what to undo in the server's
//! history (then undone by `undo` as a write), [`bulk`] checks and sends a selector update or a
//! bulk edit, [`selectors`] keeps the selectors remembered.
//!
//! May import `app::{action, component, notification}` (they answer with actions, reading
//! `Cx`), `overlays` (the questions they ask), `requests`, `document`, `widgets`, `keys`, and
//! `runtime::transfer` (the selectors are kept in a file); never `app::update` or `panes`.

pub(crate) mod bulk;
pub(crate) mod folder_undo;
pub(crate) mod server_undo;
pub(crate) mod undo;
