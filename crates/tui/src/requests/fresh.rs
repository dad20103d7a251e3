//! The open document's objects changed elsewhere, read again a few at a time instead of the
//! whole content: the ids waiting to be read and the one read under way. One read at a time,
//! so that answers are put in place in the order they were read; ids named while a read (or a
//! whole reload) is under way wait for the next one.

use std::collections::BTreeSet;

use crate::document::RequestId;
use crate::requests::liveness::REFETCH_AT_MOST;

/// The objects to read again, and the read under way.
#[derive(Debug, Clone, Default)]
pub struct FreshObjects {
    waiting: BTreeSet<String>,
    reading: Option<RequestId>,
}

impl FreshObjects {
    /// Objects `objs` changed elsewhere. False when so many wait that reading the whole
    /// content is quicker (then nothing waits any more: the caller reloads).
    pub fn want(&mut self, objs: Vec<String>) -> bool {
        self.waiting.extend(objs);
        if self.waiting.len() > REFETCH_AT_MOST {
            self.waiting.clear();
            return false;
        }
        true
    }

    /// The ids to read now, if any wait and no read is under way; `ready` says whether the
    /// content is there to take them (not loading). Call [`FreshObjects::reading`] with the
    /// request that reads them.
    pub fn take(&mut self, ready: bool) -> Option<Vec<String>> {
        if !ready || self.reading.is_some() || self.waiting.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.waiting).into_iter().collect())
    }

    /// Request `id` reads the ids last taken.
    pub fn reading(&mut self, id: RequestId) {
        self.reading = Some(id);
    }

    /// Request `id` was answered: whether it is the read under way (else its answer is stale).
    pub fn answered(&mut self, id: RequestId) -> bool {
        let ours = self.reading == Some(id);
        if ours {
            self.reading = None;
        }
        ours
    }

    /// The whole content is read again (or another document opened): it covers every change so
    /// far, so nothing waits, and the read under way is forgotten.
    pub fn reset(&mut self) {
        *self = FreshObjects::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_read_at_a_time_and_what_comes_meanwhile_waits() {
        let mut fresh = FreshObjects::default();
        assert!(fresh.want(ids(&["b", "a", "b"])));
        assert_eq!(fresh.take(false), None, "not while the content loads");
        assert_eq!(fresh.take(true), Some(ids(&["a", "b"])));
        fresh.reading(7);
        assert!(fresh.want(ids(&["c"])));
        assert_eq!(fresh.take(true), None, "a read is under way");
        assert!(!fresh.answered(6));
        assert!(fresh.answered(7));
        assert_eq!(fresh.take(true), Some(ids(&["c"])));
        assert_eq!(fresh.take(true), None);
    }

    #[test]
    fn too_many_or_a_reload_leave_nothing_waiting() {
        let mut fresh = FreshObjects::default();
        let many: Vec<String> = (0..=REFETCH_AT_MOST).map(|i| format!("o{i}")).collect();
        assert!(!fresh.want(many));
        assert_eq!(fresh.take(true), None);
        fresh.want(ids(&["a"]));
        fresh.take(true);
        fresh.reading(3);
        fresh.want(ids(&["b"]));
        fresh.reset();
        assert!(!fresh.answered(3), "a read from before the reload is stale");
        assert_eq!(fresh.take(true), None);
    }
}
