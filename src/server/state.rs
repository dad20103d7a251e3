//! The state every handler shares: the store, reached off the async worker threads.

use std::sync::Arc;

use super::error::ApiError;
use crate::store::{Store, StoreResult};

/// Shared handler state.
#[derive(Clone)]
pub struct AppState {
    store: Arc<Store>,
}

impl AppState {
    /// State over a store.
    pub fn new(store: Arc<Store>) -> AppState {
        AppState { store }
    }

    /// Runs a blocking store operation on tokio's blocking pool and awaits it.
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Store) -> StoreResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::from)
    }
}
