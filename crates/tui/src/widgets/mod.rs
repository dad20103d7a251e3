//! Widgets and text fields shared by the panes and overlays: [`pieces`] (boxes, lines,
//! scrolling), the text fields [`input`] (one line, filters), [`editor`] (many lines),
//! [`props_field`] (a JSON field) and their keys ([`typing`]); [`titles`] (titles cut and still
//! told apart), [`list`] (a cursor) and [`fuzzy`] (matching).
//!
//! May import `text`, `theme`, `keys` and `vocab::action::Cx` (in `pieces` only); nothing else of
//! the TUI.

pub(crate) mod editor;
pub(crate) mod fuzzy;
pub(crate) mod input;
pub(crate) mod list;
pub(crate) mod pieces;
pub(crate) mod props_field;
pub(crate) mod titles;
pub(crate) mod typing;
