//! A server for the tests above both the server and the client (the TUI's, the binary's): the
//! local server in-process on a temp data dir with a client of it ([`Local`]), or `diagtui
//! serve` as a child process ([`serve`]). The server's and the client's own tests start what they
//! need themselves, as this crate depends on both.

pub mod local;
pub mod serve;

pub use local::Local;
