//! The terminal UI: one loop, messages in, effects out (see DESIGN.md).
//!
//! - [`app`]: all state and `App::update(msg) -> Vec<Effect>`, plain code with no I/O;
//!   the panes' update code sits in [`docs`], [`objects`], [`editor`] and [`overlay`]; the bulk
//!   work in [`selector_form`], [`bulk`], [`transfer`] (export/import) and [`history`].
//! - [`view`]: `view(&App, &mut Frame)`, which only reads state.
//! - [`request`]: the app's requests and replies; the worker maps them to the client.

pub mod app;
pub mod bulk;
pub mod clipboard;
pub mod docs;
pub mod editor;
pub mod history;
pub mod input;
pub mod keys;
pub mod layout;
pub mod objects;
pub mod overlay;
pub mod props_field;
pub mod request;
pub mod run;
pub mod selector_form;
pub mod terminal;
pub mod transfer;
pub mod view;
pub mod words;
pub mod worker;

pub use app::{App, Effect, Msg, Pane};
pub use request::{Answer, Failure, Reply, Request, RequestId};
pub use run::{main, run};
pub use view::view;
