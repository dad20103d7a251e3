//! The app, the orchestrator: [`update`] holds `App::update(msg) -> Vec<Effect>`, plain code with
//! no I/O, which routes each message to the component with the keys and carries out the actions
//! components return (`vocab::action`); [`view`] draws the frame, [`status`] keeps the status
//! bar's message and draws the bar; `past` is App's part of the document's history (the
//! read-only view of a version, the restore), `from_file` a new document made from a file of
//! create-diagram entries, `departed` the last names of deleted line ends read from the server's
//! history, `selection` the rule that holds the properties pane and the tree to one selection.
//!
//! May import every room but the runtime: only the runtime imports it.

mod carry;
mod departed;
mod from_file;
mod open_doc;
mod past;
mod reach;
mod replies;
mod selection;
mod selector;
pub mod status;
pub(crate) mod update;
pub(crate) mod view;
