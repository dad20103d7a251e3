//! The API test suite again, on PostgreSQL: each test's server runs on a new database of a
//! throwaway cluster that this binary starts (see `common/postgres.rs`; skipped with a note when
//! PostgreSQL is not installed, except under CI). The data dir's own tests (file modes, the key
//! file, `kill -9` of a server on SQLite) stay in the SQLite run; `api/postgres.rs` has this
//! engine's own: several instances, the database restarting, `migrate`.

// The data dir's helpers (`serve`, the temp dir) serve the SQLite run's tests only.
#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;
#[path = "common/postgres.rs"]
mod pg;

/// Which engine the suite runs on: this binary runs it on PostgreSQL.
mod engine {
    pub const POSTGRES: bool = true;
}

#[path = "api/auth.rs"]
mod auth;
#[path = "api/connections.rs"]
mod connections;
#[path = "api/docs.rs"]
mod docs;
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
#[path = "api/postgres.rs"]
mod postgres;
#[path = "api/postgres_tls.rs"]
mod postgres_tls;
#[path = "api/selectors.rs"]
mod selectors;
#[path = "common/soak.rs"]
mod soak;
#[path = "api/stale.rs"]
mod stale;
#[path = "api/web.rs"]
mod web;
