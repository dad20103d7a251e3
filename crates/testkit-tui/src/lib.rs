//! The TUI's app driven by messages through the real worker and a local server, for benches
//! that time the app's own work apart from the requests ([`drive`]).

pub mod drive;
