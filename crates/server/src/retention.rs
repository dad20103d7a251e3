//! History retention (`serve --history-keep DAYS`): at start and every hour, the store
//! compacts what every document's history holds from before the time kept into a snapshot.

use std::sync::{Arc, Weak};
use std::time::Duration;

use diagtui_store::{AnyEngine, Store};

/// How long the history keeps versions when not told: 90 days.
pub const DEFAULT_HISTORY_KEEP_DAYS: u32 = 90;
/// How often retention runs.
const EVERY: Duration = Duration::from_secs(3600);

/// Starts retention on the store for as long as the store is in use.
pub fn start(store: &Arc<Store<AnyEngine>>, keep: Duration) {
    let store: Weak<Store<AnyEngine>> = Arc::downgrade(store);
    tokio::spawn(async move {
        loop {
            let Some(store) = store.upgrade() else {
                return;
            };
            if let Err(e) = store.compact_history(keep).await {
                tracing::warn!("compacting the history failed: {e}");
            }
            drop(store);
            tokio::time::sleep(EVERY).await;
        }
    });
}
