//! The documents kept in memory: who may see each one and its objects, ready to answer. It sits
//! above the database engine and knows nothing of it: it is filled from what an engine loads,
//! written through from each commit's report, in commit order, and cleared when another process
//! or instance changed the database. It holds at most a budget of bytes, evicting the least
//! recently used documents first.
//!
//! Loads (see [`DocCache::lookup`]): a document has at most one load that requests wait for,
//! and its slot exists before the load reads the database. A commit that lands while the load
//! is under way marks the slot `written`: the load's snapshot may predate the commit, so it
//! answers the requests that were already waiting (they began before the commit was
//! acknowledged) but is never kept, and requests arriving after the commit start a new load
//! rather than waiting for that one. Each load holds a ticket, and only the load whose ticket
//! the slot holds may fill it: a load that lost its slot never puts an older state in a newer
//! one. So the cache never holds a state older than the last commit it was told of.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard};

use tokio::sync::watch;

use super::change::{DocChange, DocEvent};
use super::error::StoreResult;
use super::metrics::CacheCounters;
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
    /// Its version: its history's head (0 before its history began).
    pub doc_version: u64,
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
    /// The document's own version (its history's head, on the wire): not `version`, which
    /// counts the cache's writes.
    pub doc_version: u64,
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
    /// Being loaded by one request; others wait for it.
    Loading(Loading),
    /// Loaded.
    Ready(Arc<CachedDoc>),
}

/// What a load answers: the document, `None` when there is no such document, or why it failed.
type Loaded = StoreResult<Option<Arc<CachedDoc>>>;

/// A load under way.
struct Loading {
    /// Which load it is: only the load holding this ticket may fill or drop the slot.
    ticket: u64,
    /// A commit (or a clear) touched the document since the load began: its snapshot may be
    /// older, so it is not kept and no request arriving now waits for it.
    written: bool,
    /// Where those waiting for it read its answer (closed if the loading request went away).
    answer: watch::Receiver<Option<Loaded>>,
}

/// What a request finds for a document: see [`DocCache::lookup`].
pub enum Lookup<'a> {
    /// It is loaded.
    Ready(Arc<CachedDoc>),
    /// No usable load is under way: this request loads it and hands it in with
    /// [`Load::finish`].
    Load(Load<'a>),
    /// Another request is loading it: [`Wait::answer`] is that load's answer.
    Wait(Wait),
}

/// The one load of a document, by the request that got it from [`DocCache::lookup`]. Dropped
/// unfinished (the request went away), it frees the slot and its waiters look again.
pub struct Load<'a> {
    cache: &'a DocCache,
    doc_id: String,
    ticket: u64,
    answer: watch::Sender<Option<Loaded>>,
    finished: bool,
}

/// Waiting for another request's load of a document.
pub struct Wait(watch::Receiver<Option<Loaded>>);

impl Wait {
    /// The load's answer; `None` when the loading request went away before it had one (look
    /// again).
    pub async fn answer(mut self) -> Option<Loaded> {
        let answer = self.0.wait_for(Option::is_some).await.ok()?;
        answer.clone()
    }
}

impl Load<'_> {
    /// Hands in what the load read (`Ok(None)`: no such document) and returns what to answer:
    /// kept unless a commit wrote the document meanwhile or another load took the slot, and
    /// answered to every request waiting for this load either way.
    pub fn finish(mut self, read: StoreResult<Option<LoadedDoc>>) -> Loaded {
        self.finished = true;
        let answer = match read {
            Ok(Some(loaded)) => Ok(Some(self.cache.finish(&self.doc_id, self.ticket, loaded))),
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        self.cache.drop_slot(&self.doc_id, self.ticket);
        self.answer.send_replace(Some(answer.clone()));
        answer
    }
}

impl Drop for Load<'_> {
    fn drop(&mut self) {
        if !self.finished {
            self.cache.drop_slot(&self.doc_id, self.ticket);
        }
    }
}

/// The cache of documents.
pub struct DocCache {
    budget: usize,
    counters: CacheCounters,
    slots: RwLock<HashMap<String, Slot>>,
    used: AtomicUsize,
    clock: AtomicU64,
    versions: AtomicU64,
    /// Numbers the loads.
    tickets: AtomicU64,
}

/// Fixed bytes counted per document besides its objects.
const DOC_OVERHEAD: usize = 256;
/// Changes to at least one in this many of a document's objects are written through by a walk
/// over the document.
const WALK_SHARE: usize = 8;

impl DocCache {
    /// An empty cache holding at most `budget` bytes, counting into `counters`.
    pub fn new(budget: usize, counters: CacheCounters) -> DocCache {
        DocCache {
            budget,
            counters,
            slots: RwLock::new(HashMap::new()),
            used: AtomicUsize::new(0),
            clock: AtomicU64::new(0),
            versions: AtomicU64::new(0),
            tickets: AtomicU64::new(0),
        }
    }

    /// The cached document, or the one load of it to run or wait for. A load is waited for
    /// only while no commit has touched the document since it began.
    pub fn lookup(&self, doc_id: &str) -> Lookup<'_> {
        if let Some(Slot::Ready(doc)) = self.read_slots().get(doc_id) {
            return Lookup::Ready(self.used_now(doc));
        }
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        match slots.get(doc_id) {
            Some(Slot::Ready(doc)) => return Lookup::Ready(self.used_now(doc)),
            Some(Slot::Loading(loading)) if !loading.written => {
                return Lookup::Wait(Wait(loading.answer.clone()));
            }
            // None, or a load that a commit overtook: a new load takes the slot, and the
            // overtaken one, holding an older ticket, will neither fill nor drop it.
            _ => {}
        }
        self.counters.misses.inc();
        let ticket = self.tickets.fetch_add(1, Ordering::Relaxed);
        let (answer, waiting) = watch::channel(None);
        let loading = Loading {
            ticket,
            written: false,
            answer: waiting,
        };
        slots.insert(doc_id.to_owned(), Slot::Loading(loading));
        Lookup::Load(Load {
            cache: self,
            doc_id: doc_id.to_owned(),
            ticket,
            answer,
            finished: false,
        })
    }

    fn read_slots(&self) -> RwLockReadGuard<'_, HashMap<String, Slot>> {
        self.slots.read().unwrap_or_else(|e| e.into_inner())
    }

    /// A cached document handed out now, marked as just used.
    fn used_now(&self, doc: &Arc<CachedDoc>) -> Arc<CachedDoc> {
        self.counters.hits.inc();
        doc.last_used.store(
            self.clock.fetch_add(1, Ordering::Relaxed),
            Ordering::Relaxed,
        );
        Arc::clone(doc)
    }

    /// The version of a cached document, if it is loaded.
    pub fn version(&self, doc_id: &str) -> Option<u64> {
        match self.read_slots().get(doc_id) {
            Some(Slot::Ready(doc)) => Some(doc.read().version),
            _ => None,
        }
    }

    /// Makes a loaded document ready to answer from, and keeps it when the slot is still the
    /// load's own (`ticket`) and no commit wrote the document since the load began.
    fn finish(&self, doc_id: &str, ticket: u64, loaded: LoadedDoc) -> Arc<CachedDoc> {
        let bytes = DOC_OVERHEAD + loaded.objects.values().map(|o| o.size()).sum::<usize>();
        let doc = Arc::new(CachedDoc {
            state: RwLock::new(DocState {
                version: self.versions.fetch_add(1, Ordering::Relaxed) + 1,
                owner_id: loaded.owner_id,
                collaborators: loaded.collaborators,
                objects: loaded.objects,
                doc_version: loaded.doc_version,
                bytes,
            }),
            last_used: AtomicU64::new(self.clock.fetch_add(1, Ordering::Relaxed)),
        });
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        if let Some(Slot::Loading(loading)) = slots.get(doc_id)
            && loading.ticket == ticket
            && !loading.written
        {
            slots.insert(doc_id.to_owned(), Slot::Ready(Arc::clone(&doc)));
            self.used.fetch_add(bytes, Ordering::Relaxed);
            self.evict(&mut slots, doc_id);
        }
        doc
    }

    /// Drops the slot of the load holding `ticket` if it is still loading (not kept, failed,
    /// or gone): the next request loads again.
    fn drop_slot(&self, doc_id: &str, ticket: u64) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        if let Some(Slot::Loading(loading)) = slots.get(doc_id)
            && loading.ticket == ticket
        {
            slots.remove(doc_id);
        }
    }

    /// Writes a committed change through; the objects it replaces go to `replaced`.
    pub fn apply(&self, change: &DocChange, replaced: &mut Vec<Arc<StoredObject>>) {
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        let doc = match slots.get_mut(&change.doc_id) {
            // Not cached: the next load reads the database after this commit.
            None => return,
            Some(Slot::Loading(loading)) => {
                loading.written = true;
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
        if let Some(version) = change.version {
            state.doc_version = version;
        }
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
            Slot::Loading(loading) => {
                loading.written = true;
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
                    Slot::Loading(_) => None,
                })
                .min_by_key(|(id, doc)| (*id == keep, doc.last_used.load(Ordering::Relaxed)))
                .map(|(id, doc)| (id.clone(), doc.read().bytes));
            let Some((id, bytes)) = victim else { break };
            slots.remove(&id);
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            self.counters.evictions.inc();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::StoreError;

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
            doc_version: 0,
            bytes,
        }
    }

    fn loaded(text: &str) -> LoadedDoc {
        LoadedDoc {
            owner_id: "me".into(),
            collaborators: Vec::new(),
            objects: BTreeMap::from([("x".to_string(), object(text))]),
            doc_version: 0,
        }
    }

    fn write_x(cache: &DocCache, text: &str) {
        let mut change = DocChange::objects("d", "now".into());
        change.changed.push(("x".into(), object(text)));
        cache.apply(&change, &mut Vec::new());
    }

    /// The kept document's `x`, without starting a load.
    fn kept_x(cache: &DocCache) -> Option<String> {
        match cache.read_slots().get("d") {
            Some(Slot::Ready(doc)) => Some(doc.read().objects["x"].data().to_owned()),
            _ => None,
        }
    }

    fn load(cache: &DocCache) -> Load<'_> {
        match cache.lookup("d") {
            Lookup::Load(load) => load,
            _ => panic!("expected to load"),
        }
    }

    fn wait(cache: &DocCache) -> Wait {
        match cache.lookup("d") {
            Lookup::Wait(wait) => wait,
            _ => panic!("expected to wait"),
        }
    }

    fn x_of(answer: Loaded) -> String {
        answer.unwrap().unwrap().read().objects["x"]
            .data()
            .to_owned()
    }

    /// The interleaving of issue 20: loads A and B start, a commit lands, A finishes, C starts,
    /// and B (slower, its read from before the commit) finishes. Before, B's snapshot was kept
    /// as ready; now B waits for A (one load), and a load overtaken by a commit is never kept,
    /// whichever finishes first.
    #[tokio::test]
    async fn a_load_overtaken_by_a_commit_is_never_kept() {
        for overtaken_finishes_first in [true, false] {
            let cache = DocCache::new(1 << 20, CacheCounters::default());
            let a = load(&cache);
            let b = wait(&cache);
            write_x(&cache, "new");
            assert!(
                kept_x(&cache).is_none(),
                "a commit keeps nothing of a loading slot"
            );
            let c = if overtaken_finishes_first {
                assert_eq!(
                    x_of(a.finish(Ok(Some(loaded("old"))))),
                    "old",
                    "A's own answer"
                );
                load(&cache)
            } else {
                let c = load(&cache);
                let d = wait(&cache);
                assert_eq!(x_of(c.finish(Ok(Some(loaded("new"))))), "new");
                assert_eq!(
                    x_of(d.answer().await.unwrap()),
                    "new",
                    "D waited for C, not A"
                );
                a.finish(Ok(Some(loaded("old")))).unwrap();
                assert_eq!(kept_x(&cache).as_deref(), Some("new"), "A lost its slot");
                // Evicted, as it may be: the next request loads again.
                cache.slots.write().unwrap().remove("d");
                load(&cache)
            };
            assert_eq!(
                x_of(b.answer().await.unwrap()),
                "old",
                "B began before the commit was acknowledged: A's answer is B's"
            );
            c.finish(Ok(Some(loaded("new")))).unwrap();
            assert_eq!(kept_x(&cache).as_deref(), Some("new"));
        }
    }

    #[tokio::test]
    async fn a_load_overtaken_by_a_clear_is_not_kept_and_waiters_of_a_dropped_load_look_again() {
        let cache = DocCache::new(1 << 20, CacheCounters::default());
        let a = load(&cache);
        cache.clear();
        a.finish(Ok(Some(loaded("old")))).unwrap();
        assert!(kept_x(&cache).is_none());

        let a = load(&cache);
        let b = wait(&cache);
        drop(a);
        assert!(b.answer().await.is_none(), "the loading request went away");
        let b = load(&cache);
        let failed = b.finish(Err(StoreError::Unavailable("down".into())));
        assert!(matches!(failed, Err(StoreError::Unavailable(_))));
        let c = load(&cache);
        let d = wait(&cache);
        c.finish(Ok(None)).unwrap();
        assert!(
            matches!(d.answer().await, Some(Ok(None))),
            "no such document"
        );
        load(&cache).finish(Ok(Some(loaded("v")))).unwrap();
        assert_eq!(kept_x(&cache).as_deref(), Some("v"));
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
