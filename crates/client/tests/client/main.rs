//! The API client over real HTTP: every route against the local server on an ephemeral port,
//! and every error variant (including small hand-made listeners for a server that is down, one
//! that hangs and one that answers HTML).

mod errors;
mod raw_content;
mod routes;
mod versions;
mod watch;
