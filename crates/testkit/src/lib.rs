//! What diagtui's tests and benches share (a dev-only crate of the root package's
//! `[dev-dependencies]`): the binary as a process and `diagtui serve` started by it, the local
//! server in-process with a client, throwaway PostgreSQL clusters, headless Chromium, tmux, a
//! sixel xterm on a virtual display, generated documents,
//! the soak load, an app driven through the real worker, `wrk`, and the figures the benches print.
//!
//! The binary's path is known only to the root package's tests and benches
//! (`env!("CARGO_BIN_EXE_diagtui")`): they hand it in as a [`Bin`].

pub mod bin;
pub mod chromium;
pub mod diagram;
pub mod drive;
pub mod generated;
pub mod local;
pub mod memory;
pub mod net;
pub mod pictures;
pub mod postgres;
pub mod quantiles;
pub mod serve;
pub mod soak;
pub mod timing;
pub mod tmux;
pub mod wrk;
pub mod xterm;

pub use bin::Bin;
pub use local::Local;
