//! How many pages follow each live embed now: each open event stream holds a [`Viewer`], which
//! counts it until the stream is dropped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// The most pages that may follow one live embed at once.
pub const MAX_VIEWERS: usize = 5;

/// The live embed pages open now, by document.
#[derive(Debug, Default)]
pub struct Viewers {
    open: Mutex<HashMap<String, usize>>,
}

/// One page following a live embed; it stops counting when dropped.
#[derive(Debug)]
pub struct Viewer {
    viewers: Arc<Viewers>,
    doc_id: String,
}

impl Viewers {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many live embed pages are open now, all documents together.
    pub fn count(&self) -> usize {
        self.lock().values().sum()
    }

    /// Whether the document's live embed has as many viewers as it may.
    pub fn full(&self, doc_id: &str) -> bool {
        self.lock().get(doc_id).copied().unwrap_or(0) >= MAX_VIEWERS
    }

    /// Counts one more viewer of the document's live embed, unless it has as many as it may.
    pub fn enter(self: &Arc<Viewers>, doc_id: &str) -> Option<Viewer> {
        let mut open = self.lock();
        let count = open.entry(doc_id.to_owned()).or_default();
        if *count >= MAX_VIEWERS {
            return None;
        }
        *count += 1;
        Some(Viewer {
            viewers: Arc::clone(self),
            doc_id: doc_id.to_owned(),
        })
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let mut open = self.viewers.lock();
        if let Some(count) = open.get_mut(&self.doc_id) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.doc_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_viewer_waits_until_one_leaves() {
        let viewers = Arc::new(Viewers::default());
        let mut open: Vec<Viewer> = (0..MAX_VIEWERS)
            .map(|_| viewers.enter("d").expect("room"))
            .collect();
        assert!(viewers.full("d"));
        assert!(viewers.enter("d").is_none());
        assert!(
            viewers.enter("other").is_some(),
            "each document counts alone"
        );
        open.pop();
        assert!(!viewers.full("d"));
        assert!(viewers.enter("d").is_some());
    }
}
