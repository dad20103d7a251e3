//! Integration tests of the local API server over real HTTP: the server runs on an ephemeral
//! loopback port with a temporary data dir, and the tests talk to it with reqwest. The same
//! suite runs on PostgreSQL from `main_postgres.rs`.

mod answer;
mod common;
mod stream;

/// Which engine the suite runs on: this binary runs it on SQLite.
mod engine {
    pub const POSTGRES: bool = false;
}

mod auth;
mod browser;
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
mod selectors;
mod stale;
mod versions;
mod versions_writes;
mod web;
