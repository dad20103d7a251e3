//! Integration tests of the local API server over real HTTP: the server runs on an ephemeral
//! loopback port with a temporary data dir, and the tests talk to it with reqwest.

#[path = "api/common.rs"]
mod common;
#[path = "common/postgres.rs"]
#[allow(dead_code)]
mod pg;

/// Which engine the suite runs on: this binary runs it on SQLite.
mod engine {
    pub const POSTGRES: bool = false;
}

#[path = "api/auth.rs"]
mod auth;
#[path = "api/connections.rs"]
mod connections;
#[path = "api/docs.rs"]
mod docs;
#[path = "api/durability.rs"]
mod durability;
#[path = "api/errors.rs"]
mod errors;
#[path = "api/events.rs"]
mod events;
#[path = "api/folders.rs"]
mod folders;
#[path = "api/image.rs"]
mod image;
#[path = "api/limits.rs"]
mod limits;
#[path = "api/objects.rs"]
mod objects;
#[path = "common/pictures.rs"]
mod pictures;
#[path = "api/privacy.rs"]
mod privacy;
#[path = "api/selectors.rs"]
mod selectors;
#[path = "common/soak.rs"]
mod soak;
#[path = "api/stale.rs"]
mod stale;
#[path = "api/web.rs"]
mod web;
