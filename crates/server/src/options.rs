//! The server's settings, with their defaults: body size and timeouts, connection cap and
//! timeouts, CORS origins, the memory budget of the document cache and the event streams'
//! keep-alive.

use std::net::SocketAddr;
use std::time::Duration;

use super::http::{HttpOptions, Timeouts};
use super::retention::DEFAULT_HISTORY_KEEP_DAYS;
use super::routes::Cors;
use super::state::BodyLimits;
use diagtui_store::{DEFAULT_CACHE_BYTES, StoreOptions};

/// The default request body limit: 64 MiB, room for a 100,000-object document.
pub const DEFAULT_MAX_BODY: usize = 64 * 1024 * 1024;
/// The default time a body may take to arrive.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(60);
/// The default time a request head may take to arrive.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time a connection may wait idle for its next request.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The default time between keep-alive comments on an idle event stream.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A number of days as a duration.
pub fn days(days: u32) -> Duration {
    Duration::from_secs(u64::from(days) * 24 * 3600)
}

/// How a server runs.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The largest request body accepted, in bytes.
    pub max_body: usize,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// How long a request head may take to arrive.
    pub header_timeout: Duration,
    /// How long a connection may wait idle for its next request.
    pub idle_timeout: Duration,
    /// The most connections open at once.
    pub max_connections: usize,
    /// Who may call from a web page.
    pub cors: Cors,
    /// The most bytes of documents kept in memory.
    pub cache_bytes: usize,
    /// How often an idle event stream gets a keep-alive comment.
    pub keep_alive: Duration,
    /// Whether the change event streams are served (off: answered like any unknown route, as
    /// by a server of the spec alone).
    pub events: bool,
    /// How long documents' histories keep their versions (see `retention`).
    pub history_keep: Duration,
    /// The base of the URLs embeds are served at (`https://diagrams.example.com`), for a
    /// server behind a proxy; the address it listens on when `None`.
    pub public_url: Option<String>,
    /// Whether requests are counted for `/metrics` (served on a listener of its own).
    pub metrics: bool,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            max_body: DEFAULT_MAX_BODY,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: default_max_connections(),
            cors: Cors::Off,
            cache_bytes: DEFAULT_CACHE_BYTES,
            keep_alive: DEFAULT_KEEP_ALIVE,
            events: true,
            history_keep: days(DEFAULT_HISTORY_KEEP_DAYS),
            public_url: None,
            metrics: false,
        }
    }
}

impl ServerOptions {
    /// The limits on request bodies.
    pub fn bodies(&self) -> BodyLimits {
        BodyLimits {
            max_bytes: self.max_body,
            timeout: self.body_timeout,
        }
    }

    /// How the HTTP layer treats connections.
    pub fn http(&self) -> HttpOptions {
        HttpOptions {
            timeouts: Timeouts {
                idle: self.idle_timeout,
                header: self.header_timeout,
            },
            max_connections: self.max_connections,
        }
    }

    /// The base of the embeds' URLs: the public URL without its trailing slashes, else the
    /// address the server listens on.
    pub fn public_url(&self, listening: SocketAddr) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{listening}"),
        }
    }

    /// The store's settings.
    pub fn store(&self) -> StoreOptions {
        StoreOptions {
            cache_bytes: self.cache_bytes,
        }
    }
}

/// The default connection cap: well below the process's limit on open files, which the
/// database, the listener and the runtime share with the connections.
pub fn default_max_connections() -> usize {
    let limit = open_file_limit().unwrap_or(1024);
    limit.saturating_sub(limit / 8).saturating_sub(32).max(16)
}

/// The process's (soft) limit on open files.
#[allow(unsafe_code, reason = "FFI: getrlimit")]
fn open_file_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` only writes the struct it is given, which lives on this stack.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        (read == 0).then(|| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_leaves_room_under_the_file_limit() {
        let cap = default_max_connections();
        let limit = open_file_limit().unwrap();
        assert!(cap < limit, "{cap} < {limit}");
        assert!(cap >= 16);
    }
}
