//! The API test suite again, on PostgreSQL: each test's server runs on a new database of a
//! throwaway cluster that this binary starts (see `diagtui_testkit::postgres`; skipped with a
//! note when PostgreSQL is not installed, except under CI). The data dir's own tests (file
//! modes, the key file, `kill -9` of a server on SQLite) stay in the SQLite run (`main.rs`);
//! `postgres.rs` has this engine's own: several instances, the database restarting, `migrate`.

mod answer;
mod common;
mod stream;
mod team;

/// Which engine the suite runs on: this binary runs it on PostgreSQL.
mod engine {
    pub const POSTGRES: bool = true;
}

mod auth;
mod connections;
mod create_diagram;
mod docs;
mod embeds;
mod errors;
mod events;
mod folders;
mod health;
mod history;
mod image;
mod limits;
mod moves;
mod objects;
mod postgres;
mod postgres_tls;
mod selectors;
mod stale;
mod versions;
mod versions_writes;
mod web;
