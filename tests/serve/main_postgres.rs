//! `diagtui serve` on PostgreSQL as an operator runs it: several instances serving one
//! database as one server (behind a proxy too, scraped by Prometheus), `diagtui migrate`,
//! `account create --database` beside running servers, and a newer schema refused. Each test
//! makes its database in the test binary's cluster. The server in process is tested in its own
//! crate (`crates/server/tests/api`), whose harness this suite shares.

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
#[allow(dead_code)]
#[path = "../../crates/server/tests/api/team.rs"]
mod team;

/// Which engine the shared harness's in-process servers use: PostgreSQL.
mod engine {
    pub const POSTGRES: bool = true;
}

mod metrics;
mod postgres;
mod postgres_admin;
mod proxy;
mod team_ops;

use diagtui_testkit::Bin;

/// The diagtui binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_diagtui");

/// The diagtui binary, for the test kit's helpers.
pub fn bin() -> Bin {
    Bin::new(BIN)
}
