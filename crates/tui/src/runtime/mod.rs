//! The runtime: what touches the world outside `App::update`. [`run`] owns the terminal loop
//! ([`terminal`]: raw mode and its restoring), [`worker`] runs the requests on the client,
//! [`follow`] follows the change event streams and [`liveness`] keeps what they said,
//! [`transfer`] reads and writes files (export, import, backups), [`clipboard`] copies,
//! [`graphics`] asks the terminal at start whether it shows pictures, [`memory`] what the app asks
//! of the allocator.
//!
//! May import `app` (the loop drives it), `requests`, `document` and the client; `liveness` and
//! `transfer` are also read by `App`, so they import only `app::notification` of it (and
//! `settings`: the poll interval).

pub(crate) mod clipboard;
pub mod follow;
pub mod graphics;
pub mod memory;
pub(crate) mod run;
pub(crate) mod terminal;
pub mod worker;
