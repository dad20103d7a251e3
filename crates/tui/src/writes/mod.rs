//! Writes and undo: [`undo`] asks, checks and sends an undo, [`folder_undo`] the undo of a folder
//! write, [`server_undo`] finds what to undo in the server's history (then undone by `undo` as a
//! write), [`bulk`] checks and sends a selector update or a bulk edit. What they remember is in
//! `session`.
//!
//! May import `vocab` (they answer with actions, ask with `Action::Ask`, read `Cx`), `session`,
//! `requests`, `document`, `text` and `keys`; never a widget, an overlay, a pane or `app`.

pub(crate) mod bulk;
pub(crate) mod folder_undo;
pub(crate) mod server_undo;
pub(crate) mod undo;
