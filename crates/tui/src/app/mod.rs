//! The app and its actions: [`update`] holds `App::update(msg) -> Vec<Effect>`, plain code with
//! no I/O, which routes each message to the component with the keys and carries out the
//! [`action`]s components return; [`component`] is the shape every pane and overlay has and
//! `Cx`, what it may read of the app; [`view`] draws the frame, [`layout`] places the panes,
//! [`status`] keeps the status bar's message and draws the bar; [`notification`] is a message
//! for the user; `past` is App's part of the document's history (the read-only view of a
//! version, the restore), `from_file` a new document made from a file of create-diagram entries,
//! `departed` the last names of deleted line ends read from the server's history,
//! `selection` the rule that holds the properties pane and the tree to one selection.
//!
//! `update` may import every other room: it is the top of the TUI, imported only by the runtime
//! (with `view`). `action`, `component` and `notification` are the vocabulary the components
//! speak: the panes, overlays and writes import them, so they import no pane and no overlay's
//! file but the `Overlay` list; `notification` imports nothing.

mod departed;
mod from_file;
mod past;
mod reach;
mod selection;
pub mod status;
pub(crate) mod update;
pub(crate) mod view;
