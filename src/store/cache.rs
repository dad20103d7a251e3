//! The documents kept in memory: who may see each one and its objects, ready to answer. It sits
//! above the database engine and knows nothing of it: it is filled from what an engine loads,
//! written through from each commit's report, in commit order, and cleared when another process
//! or instance changed the database. It holds at most a budget of bytes, evicting the least
//! recently used documents first.
//!
//! A document being loaded has a slot that a commit marks, so that a load which raced a write
//! is used once but never kept: the cache never holds a state older than the last commit.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard};

use super::change::{DocChange, DocEvent};
use super::object::StoredObject;

/// A document as loaded from the database.
#[derive(Debug)]
pub struct LoadedDoc {
    /// The owning account's id.
    pub owner_id: String,
    /// The ids of the accounts it is shared with.
    pub collaborators: Vec<String>,
    /// Its objects, by id.
    pub objects: BTreeMap<String, Arc<StoredObject>>,
}

/// A cached document's state.
#[derive(Debug)]
pub struct DocState {
    /// Changes with every commit that writes the document; never reused, also across loads.
    pub version: u64,
    /// The owning account's id.
    pub owner_id: String,
    /// The accounts it is shared with.
    pub collaborators: Vec<String>,
    /// Its objects, by id.
    pub objects: BTreeMap<String, Arc<StoredObject>>,
    /// About how many bytes it holds.
    bytes: usize,
}

impl DocState {
    /// Whether the account may see the document.
    pub fn visible_to(&self, account_id: &str) -> bool {
        self.owner_id == account_id || self.collaborators.iter().any(|c| c == account_id)
    }

    /// About how many bytes it holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Puts created or updated objects in; the objects they replace go to `replaced`. Changes
    /// to a large share of the objects, in id order as reports list them, are put in by one
    /// walk over the document rather than a lookup each.
    fn write_objects(
        &mut self,
        changed: &[(String, Arc<StoredObject>)],
        replaced: &mut Vec<Arc<StoredObject>>,
    ) {
        let mut looked_up = Vec::new();
        let mut changes = changed.iter().peekable();
        if changed.len() * WALK_SHARE >= self.objects.len() {
            for (id, slot) in &mut self.objects {
                if changes.peek().is_none() {
                    break;
                }
                while let Some(change) = changes.next_if(|(changed, _)| changed <= id) {
                    if change.0 == *id {
                        swap_in(&mut self.bytes, slot, &change.1, replaced);
                    } else {
                        looked_up.push(change);
                    }
                }
            }
        }
        // New objects, and any the walk passed by.
        for (id, object) in looked_up.into_iter().chain(changes) {
            match self.objects.get_mut(id) {
                Some(slot) => swap_in(&mut self.bytes, slot, object, replaced),
                None => {
                    self.bytes += object.size();
                    self.objects.insert(id.clone(), Arc::clone(object));
                }
            }
        }
    }
}

/// Puts `object` in `slot`, counting the bytes; the object it replaces goes to `replaced`.
fn swap_in(
    bytes: &mut usize,
    slot: &mut Arc<StoredObject>,
    object: &Arc<StoredObject>,
    replaced: &mut Vec<Arc<StoredObject>>,
) {
    *bytes += object.size();
    let old = std::mem::replace(slot, Arc::clone(object));
    *bytes -= old.size();
    replaced.push(old);
}

/// A cached document.
#[derive(Debug)]
pub struct CachedDoc {
    state: RwLock<DocState>,
    last_used: AtomicU64,
}

impl CachedDoc {
    /// Its state, for reading.
    pub fn read(&self) -> RwLockReadGuard<'_, DocState> {
        self.state.read().unwrap_or_else(|e| e.into_inner())
    }
}

/// A document's place in the cache.
enum Slot {
    /// Being loaded; `written` once a commit touched it meanwhile.
    Loading { written: bool },
    /// Loaded.
    Ready(Arc<CachedDoc>),
}

/// The cache of documents.
pub struct DocCache {
    budget: usize,
    slots: RwLock<HashMap<String, Slot>>,
    used: AtomicUsize,
    clock: AtomicU64,
    versions: AtomicU64,
}

/// Fixed bytes counted per document besides its objects.
const DOC_OVERHEAD: usize = 256;
/// Changes to at least one in this many of a document's objects are written through by a walk
/// over the document.
const WALK_SHARE: usize = 8;

impl DocCache {
    /// An empty cache holding at most `budget` bytes.
    pub fn new(budget: usize) -> DocCache {
        DocCache {
            budget,
            slots: RwLock::new(HashMap::new()),
            used: AtomicUsize::new(0),
            clock: AtomicU64::new(0),
            versions: AtomicU64::new(0),
        }
    }

    /// The cached document, if it is loaded.
    pub fn get(&self, doc_id: &str) -> Option<Arc<CachedDoc>> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        match slots.get(doc_id) {
            Some(Slot::Ready(doc)) => {
                doc.last_used.store(
                    self.clock.fetch_add(1, Ordering::Relaxed),
                    Ordering::Relaxed,
                );
                Some(Arc::clone(doc))
            }
            _ => None,
        }
    }

    /// The version of a cached document, if it is loaded.
    pub fn version(&self, doc_id: &str) -> Option<u64> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        match slots.get(doc_id) {
            Some(Slot::Ready(doc)) => Some(doc.read().version),
            _ => None,
        }
    }

    /// Marks a document as being loaded, unless it is loaded or loading already.
    pub fn start_load(&self, doc_id: &str) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        slots
            .entry(doc_id.to_owned())
            .or_insert(Slot::Loading { written: false });
    }

    /// Ends a load started with [`DocCache::start_load`]: keeps the document unless a commit
    /// wrote it meanwhile, and returns what to answer from. `None` (no such document) only
    /// clears the slot.
    pub fn finish_load(&self, doc_id: &str, loaded: Option<LoadedDoc>) -> Option<Arc<CachedDoc>> {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        let Some(loaded) = loaded else {
            if let Some(Slot::Loading { .. }) = slots.get(doc_id) {
                slots.remove(doc_id);
            }
            return None;
        };
        let bytes = DOC_OVERHEAD + loaded.objects.values().map(|o| o.size()).sum::<usize>();
        let doc = Arc::new(CachedDoc {
            state: RwLock::new(DocState {
                version: self.versions.fetch_add(1, Ordering::Relaxed) + 1,
                owner_id: loaded.owner_id,
                collaborators: loaded.collaborators,
                objects: loaded.objects,
                bytes,
            }),
            last_used: AtomicU64::new(self.clock.fetch_add(1, Ordering::Relaxed)),
        });
        match slots.get(doc_id) {
            Some(Slot::Ready(kept)) => return Some(Arc::clone(kept)),
            Some(Slot::Loading { written: false }) => {
                slots.insert(doc_id.to_owned(), Slot::Ready(Arc::clone(&doc)));
                self.used.fetch_add(bytes, Ordering::Relaxed);
                self.evict(&mut slots, doc_id);
            }
            Some(Slot::Loading { written: true }) => {
                slots.remove(doc_id);
            }
            None => {}
        }
        Some(doc)
    }

    /// Drops a loading slot whose load failed.
    pub fn abandon_load(&self, doc_id: &str) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        if let Some(Slot::Loading { .. }) = slots.get(doc_id) {
            slots.remove(doc_id);
        }
    }

    /// Writes a committed change through; the objects it replaces go to `replaced`.
    pub fn apply(&self, change: &DocChange, replaced: &mut Vec<Arc<StoredObject>>) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        let doc = match slots.get_mut(&change.doc_id) {
            None => return,
            Some(Slot::Loading { written }) => {
                *written = true;
                return;
            }
            Some(Slot::Ready(doc)) => Arc::clone(doc),
        };
        if matches!(
            change.event,
            Some(DocEvent::Deleted | DocEvent::ContentReplaced)
        ) {
            // Replaced content is loaded again when it is next read rather than kept from the
            // upload, so that a large upload leaves no large copy behind.
            slots.remove(&change.doc_id);
            self.used.fetch_sub(doc.read().bytes, Ordering::Relaxed);
            return;
        }
        let mut state = doc.state.write().unwrap_or_else(|e| e.into_inner());
        let before = state.bytes;
        state.version = self.versions.fetch_add(1, Ordering::Relaxed) + 1;
        match &change.event {
            Some(DocEvent::Emptied) => {
                replaced.extend(std::mem::take(&mut state.objects).into_values());
                state.bytes = DOC_OVERHEAD;
            }
            Some(DocEvent::Shared { account_id }) if !state.collaborators.contains(account_id) => {
                state.collaborators.push(account_id.clone());
            }
            _ => {}
        }
        for id in &change.deleted {
            if let Some(gone) = state.objects.remove(id) {
                state.bytes -= gone.size();
                replaced.push(gone);
            }
        }
        state.write_objects(&change.changed, replaced);
        let after = state.bytes;
        drop(state);
        self.used.fetch_add(after, Ordering::Relaxed);
        self.used.fetch_sub(before, Ordering::Relaxed);
        if after > before {
            self.evict(&mut slots, &change.doc_id);
        }
    }

    /// Forgets everything: another process or instance changed the database.
    pub fn clear(&self) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        slots.retain(|_, slot| match slot {
            Slot::Loading { written } => {
                *written = true;
                true
            }
            Slot::Ready(_) => false,
        });
        self.used.store(0, Ordering::Relaxed);
    }

    /// About how many bytes the cache holds.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Evicts the least recently used documents until the cache is within its budget. `keep`
    /// (the document just loaded or written) goes last.
    fn evict(&self, slots: &mut HashMap<String, Slot>, keep: &str) {
        while self.used.load(Ordering::Relaxed) > self.budget {
            let victim = slots
                .iter()
                .filter_map(|(id, slot)| match slot {
                    Slot::Ready(doc) => Some((id, doc)),
                    Slot::Loading { .. } => None,
                })
                .min_by_key(|(id, doc)| (*id == keep, doc.last_used.load(Ordering::Relaxed)))
                .map(|(id, doc)| (id.clone(), doc.read().bytes));
            let Some((id, bytes)) = victim else { break };
            slots.remove(&id);
            self.used.fetch_sub(bytes, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> Arc<StoredObject> {
        Arc::new(StoredObject::new(Arc::from("label"), text))
    }

    fn state(ids: &[&str]) -> DocState {
        let objects: BTreeMap<String, Arc<StoredObject>> = ids
            .iter()
            .map(|id| (id.to_string(), object("{}")))
            .collect();
        let bytes = objects.values().map(|o| o.size()).sum();
        DocState {
            version: 1,
            owner_id: "me".into(),
            collaborators: Vec::new(),
            objects,
            bytes,
        }
    }

    #[test]
    fn a_walk_and_lookups_write_the_same_objects() {
        let ids = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        // In id order with a new one among them (walked), and the same out of order (looked up
        // where the walk passed them by), and few of them (looked up).
        let many: Vec<_> = ["a", "c", "cc", "d", "j", "k"]
            .iter()
            .map(|id| (id.to_string(), object(&format!(r#"{{"id":"{id}"}}"#))))
            .collect();
        let mut shuffled = many.clone();
        shuffled.reverse();
        for changed in [many.clone(), shuffled, many[..1].to_vec()] {
            let mut state = state(&ids);
            let mut replaced = Vec::new();
            state.write_objects(&changed, &mut replaced);
            let expected = changed.iter().filter(|(id, _)| id.len() == 1 && id != "k");
            assert_eq!(replaced.len(), expected.count(), "{changed:?}");
            for (id, object) in &changed {
                assert!(Arc::ptr_eq(&state.objects[id], object), "{id}");
            }
            let bytes: usize = state.objects.values().map(|o| o.size()).sum();
            assert_eq!(state.bytes, bytes);
        }
    }
}
