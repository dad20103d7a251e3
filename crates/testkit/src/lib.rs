//! The tools diagtui's tests and benches share (a dev-only crate): the binary as a process,
//! throwaway PostgreSQL clusters, headless Chromium, tmux, a sixel xterm on a virtual display,
//! generated documents, the soak load, `wrk`, and the figures the benches print.
//!
//! It depends on no diagtui crate but the model and the scene, so that every crate above them
//! can use it in its own tests. A local server with a client is `diagtui-testkit-server`'s; an
//! app driven through the real worker is `diagtui-testkit-tui`'s. The binary's path is known only
//! to the root package's tests and benches (`env!("CARGO_BIN_EXE_diagtui")`): they hand it in
//! as a [`Bin`].

pub mod bin;
pub mod chromium;
pub mod diagram;
pub mod generated;
pub mod memory;
pub mod net;
pub mod pictures;
pub mod postgres;
pub mod quantiles;
pub mod soak;
pub mod timing;
pub mod tmux;
pub mod wrk;
pub mod xterm;

pub use bin::Bin;
