//! The state every handler shares: the store, the limits on request bodies, the change events,
//! whether the server is stopping and its metrics.

use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::events::Hub;
use super::metrics::Metrics;
use super::viewers::Viewers;
use diagtui_store::{AnyEngine, Store};

/// Shared handler state: one `Arc`, so that the copy every request takes of it (axum clones the
/// state for each handler call and each `State` extractor) costs one atomic addition and one
/// subtraction, whatever it holds, and the same with metrics on as off.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    /// The state of a server sharing `shared`.
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What the handlers share ([`AppState`] derefs to it).
pub struct Shared {
    /// The store, on whichever engine the server was started with.
    pub store: Arc<Store<AnyEngine>>,
    /// The limits on request bodies.
    pub bodies: BodyLimits,
    /// The change events.
    pub hub: Arc<Hub>,
    /// The base of the URLs embeds are served at, without a trailing slash.
    pub public_url: Arc<str>,
    /// The live embed pages open now.
    pub viewers: Arc<Viewers>,
    /// Set when the server is stopping (`readyz` answers 503).
    pub draining: Arc<Draining>,
    /// The metrics, when they are on (`serve --metrics-bind`).
    pub metrics: Option<Arc<Metrics>>,
}

/// The limits on request bodies.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// The largest body accepted, in bytes.
    pub max_bytes: usize,
    /// How long a body may take to arrive, once its reading starts.
    pub timeout: Duration,
}

/// Whether the server is stopping: set when a stop is asked for, before it stops accepting.
#[derive(Debug, Default)]
pub struct Draining(AtomicBool);

impl Draining {
    /// Marks the server as stopping: `readyz` answers 503 from now on.
    pub fn start(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the server is stopping.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
