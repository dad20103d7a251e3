//! The runtime: what touches the world outside `App::update`, the top of the TUI. [`run`] owns
//! the terminal loop ([`terminal`]: raw mode and its restoring), [`worker`] runs the requests on
//! the client, [`follow`] follows the change event streams, [`clipboard`] copies, [`graphics`]
//! asks the terminal at start whether it shows pictures, [`memory`] what the app asks of the
//! allocator.
//!
//! May import every room (the loop drives `app`) and the client; no room imports it.

pub(crate) mod clipboard;
pub mod follow;
pub mod graphics;
pub mod memory;
pub(crate) mod run;
pub(crate) mod terminal;
pub mod worker;
