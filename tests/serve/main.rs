//! `diagtui serve` (and `account`) as an operator runs them: the binary as processes on a temp
//! data dir. Durability across kill -9 and restarts, signals, the metrics listener and logs,
//! privacy of what it writes, a write by the CLI beside a running server, and the open-file
//! limit. Teams of instances on PostgreSQL are `main_postgres.rs`'s. The server in
//! process is tested in its own crate (`crates/server/tests/api`), whose harness this suite
//! shares.

// The server suite's helpers, shared (`#[path]`) rather than copied; this suite uses part of them.
#[allow(dead_code)]
#[path = "../../crates/server/tests/api/answer.rs"]
mod answer;
#[allow(dead_code)]
#[path = "../../crates/server/tests/api/common.rs"]
mod common;
#[allow(dead_code)]
#[path = "../../crates/server/tests/api/stream.rs"]
mod stream;

/// Which engine the shared harness's in-process servers use: SQLite (the team tests make their
/// own PostgreSQL databases).
mod engine {
    pub const POSTGRES: bool = false;
}

mod connections;
mod durability;
mod events;
mod gone_clients;
mod metrics;
mod operations;
mod privacy;

use diagtui_testkit::Bin;

/// The diagtui binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_diagtui");

/// The diagtui binary, for the test kit's helpers.
pub fn bin() -> Bin {
    Bin::new(BIN)
}
