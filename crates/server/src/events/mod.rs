//! Live change events (an extension of the API): the hub turning the store's commit reports
//! ([`Store::commits`], which also carries other instances' and processes' changes) into one
//! Server-Sent Events stream per document and one for the document lists, and the
//! subscriptions reading them.
//!
//! A document's stream exists once someone subscribed to it and is forgotten (least used
//! first) only when no one listens and too many are kept. Each event is serialised once and
//! shared by every subscriber. Every subscriber's queue and every stream's backlog is bounded:
//! one too slow, or coming back with a `Last-Event-ID` older than the backlog, gets `resync`.

mod channel;
mod frame;
mod subscription;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use self::channel::{Channel, Item};
use self::frame::Frame;
use diagtui_model::events::{
    AccountEvent, DocChangeEvent, DocEventKind, EVENT_CHANGE, EVENT_OBJECTS_BYTES, EVENT_RESYNC,
    ResyncEvent, ResyncReason,
};
use diagtui_model::versions::VersionedObject;
use diagtui_store::change::{Committed, DocChange, DocEvent};
use diagtui_store::{AnyEngine, Store, StoredObject};

pub use self::frame::EventId;
pub use self::subscription::{AccountSubscription, DocSubscription, Visible};

/// The most document streams kept; beyond it, those no one listens to are forgotten, least
/// used first.
const MAX_DOC_STREAMS: usize = 4096;
/// How often, while anyone listens, the hub checks for commits by other processes on the same
/// database (which only a request would notice otherwise).
const FRESHNESS_CHECK: Duration = Duration::from_millis(250);

/// An event of the account stream, with what its subscribers filter it by.
pub struct AccountItem {
    frame: Frame,
    /// The document and what happened to it; `None` for a resync.
    about: Option<About>,
}

/// What an account event is about.
struct About {
    doc_id: String,
    kind: DocEventKind,
    /// The account it concerns by itself: a new document's owner, the account it was shared
    /// with.
    account_id: Option<String>,
}

impl Item for AccountItem {
    fn frame(&self) -> &Frame {
        &self.frame
    }
}

/// The change events of a server.
pub struct Hub {
    streams: Mutex<Streams>,
    closed: watch::Sender<bool>,
    /// Marks this run's stream generations apart from another run's.
    run: String,
    /// How often a subscriber with nothing to read gets a keep-alive comment.
    keep_alive: Duration,
    /// How many of the store's commit reports it has handled.
    handled: watch::Sender<u64>,
}

/// The streams kept.
struct Streams {
    docs: HashMap<String, Channel<Frame>>,
    account: Channel<AccountItem>,
    /// Counts uses, to forget the least used stream.
    clock: u64,
    /// Counts document streams made, for their generations.
    made: u64,
}

/// Where a new subscriber starts.
pub enum Start<T> {
    /// At the present: its first event is the current state, with this id.
    Now(EventId),
    /// After its `Last-Event-ID`: these are the events it missed.
    Replay(Vec<Arc<T>>),
    /// Its `Last-Event-ID` is out of the backlog's reach: it gets `resync` with this id.
    Resync(EventId),
}

impl<T: Item> Start<T> {
    /// Where a subscriber to `channel` coming back after `last` (if it is) starts.
    fn at(channel: &Channel<T>, last: Option<&EventId>) -> Start<T> {
        match last {
            None => Start::Now(channel.last_id()),
            Some(last) => match channel.since(last) {
                Some(missed) => Start::Replay(missed),
                None => Start::Resync(channel.last_id()),
            },
        }
    }
}

impl Hub {
    /// A hub following `store`'s commits, until [`Hub::close`], sending idle subscribers a
    /// keep-alive comment every `keep_alive`. Must be called on a tokio runtime.
    pub fn start(store: &Arc<Store<AnyEngine>>, keep_alive: Duration) -> Arc<Hub> {
        let run = format!("{:08x}", uuid::Uuid::new_v4().as_u128() as u32);
        let (reported, commits) = store.commits_counted();
        let hub = Arc::new(Hub {
            streams: Mutex::new(Streams {
                docs: HashMap::new(),
                account: Channel::new(format!("{run}a"), 0),
                clock: 0,
                made: 0,
            }),
            closed: watch::channel(false).0,
            run,
            keep_alive,
            handled: watch::channel(reported).0,
        });
        tokio::spawn(follow(
            Arc::downgrade(&hub),
            commits,
            Arc::downgrade(store),
            hub.closed.subscribe(),
        ));
        hub
    }

    /// Ends every stream (each subscriber's answer ends) and stops following the store: the
    /// server is stopping.
    pub fn close(&self) {
        let _ = self.closed.send(true);
    }

    /// Waits until the hub has handled the store's first `reported` commit reports (every
    /// commit before a subscription must be, or its stream would carry changes older than its
    /// current state). Returns at once when the hub is gone.
    pub async fn caught_up(&self, reported: u64) {
        let mut handled = self.handled.subscribe();
        let _ = handled.wait_for(|handled| *handled >= reported).await;
    }

    /// Resolves once the hub is closed.
    fn closed(&self) -> watch::Receiver<bool> {
        self.closed.subscribe()
    }

    fn lock(&self) -> MutexGuard<'_, Streams> {
        self.streams.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subscribes to a document's stream (the caller checked that the account may see it).
    pub fn subscribe_doc(
        self: &Arc<Hub>,
        doc_id: &str,
        last: Option<&EventId>,
    ) -> (broadcast::Receiver<Arc<Frame>>, Start<Frame>) {
        let mut streams = self.lock();
        let streams = &mut *streams;
        streams.clock += 1;
        if !streams.docs.contains_key(doc_id) {
            streams.forget_unused();
            streams.made += 1;
            let generation = format!("{}{:x}", self.run, streams.made);
            let channel = Channel::new(generation, streams.clock);
            streams.docs.insert(doc_id.to_owned(), channel);
        }
        let channel = streams.docs.get_mut(doc_id).expect("made above");
        channel.touched = streams.clock;
        (channel.subscribe(), Start::at(channel, last))
    }

    /// The id of the account stream's last event: the mark to take before reading the
    /// account's documents, for [`Hub::subscribe_account`].
    pub fn account_mark(&self) -> EventId {
        self.lock().account.last_id()
    }

    /// Subscribes to the account stream; also answers the events since `mark`, which the
    /// subscriber's list of documents read after the mark may not show (`None` when the
    /// backlog no longer reaches back to it).
    #[allow(clippy::type_complexity)]
    pub fn subscribe_account(
        &self,
        mark: &EventId,
        last: Option<&EventId>,
    ) -> (
        broadcast::Receiver<Arc<AccountItem>>,
        Start<AccountItem>,
        Option<Vec<Arc<AccountItem>>>,
    ) {
        let streams = self.lock();
        let account = &streams.account;
        (
            account.subscribe(),
            Start::at(account, last),
            account.since(mark),
        )
    }

    /// The id of a document stream's last event, if the stream is kept.
    fn doc_last_id(&self, doc_id: &str) -> Option<EventId> {
        self.lock().docs.get(doc_id).map(Channel::last_id)
    }

    /// The id of the account stream's last event.
    fn account_last_id(&self) -> EventId {
        self.account_mark()
    }

    /// How many event streams are open now (the API's and the live embed pages').
    pub fn subscribers(&self) -> usize {
        let streams = self.lock();
        streams.account.subscribers()
            + streams
                .docs
                .values()
                .map(Channel::subscribers)
                .sum::<usize>()
    }

    /// Whether anyone listens.
    fn listened(&self) -> bool {
        let streams = self.lock();
        streams.account.subscribers() > 0 || streams.docs.values().any(|c| c.subscribers() > 0)
    }

    /// Publishes what one commit report says.
    fn dispatch(&self, report: &Committed) {
        let mut streams = self.lock();
        if report.elsewhere {
            streams.resync_all(ResyncReason::Elsewhere);
        }
        for change in &report.docs {
            streams.publish(change);
        }
    }
}

impl Streams {
    /// Publishes one document's change to its stream (if kept) and, when the document as a
    /// whole changed, to the account stream.
    fn publish(&mut self, change: &DocChange) {
        let kind = change.event.as_ref().map(kind_of);
        if let Some(channel) = self.docs.get_mut(&change.doc_id) {
            let event = DocChangeEvent {
                last_change: change.last_change.clone(),
                changed: change.changed.iter().map(|(id, _)| id.clone()).collect(),
                deleted: change.deleted.clone(),
                document: kind,
                version: change.version,
                objects: carried_objects(&change.changed),
            };
            let frame = Frame::new(&channel.next_id(), EVENT_CHANGE, &event);
            if kind == Some(DocEventKind::Deleted) {
                channel.publish(Arc::new(frame.ending()));
                self.docs.remove(&change.doc_id);
            } else {
                channel.publish(Arc::new(frame));
            }
        }
        let (Some(event), Some(kind)) = (&change.event, kind) else {
            return;
        };
        let data = AccountEvent {
            doc_id: change.doc_id.clone(),
            last_change: change.last_change.clone(),
            document: kind,
            version: change.version,
        };
        let account_id = match event {
            DocEvent::Created { owner_id, .. } => Some(owner_id.clone()),
            DocEvent::Shared { account_id } => Some(account_id.clone()),
            _ => None,
        };
        let item = AccountItem {
            frame: Frame::new(&self.account.next_id(), EVENT_CHANGE, &data),
            about: Some(About {
                doc_id: change.doc_id.clone(),
                kind,
                account_id,
            }),
        };
        self.account.publish(Arc::new(item));
    }

    /// Tells every subscriber of every stream to reload.
    fn resync_all(&mut self, reason: ResyncReason) {
        let data = ResyncEvent { reason };
        for channel in self.docs.values_mut() {
            let frame = Frame::new(&channel.next_id(), EVENT_RESYNC, &data);
            channel.publish(Arc::new(frame));
        }
        let frame = Frame::new(&self.account.next_id(), EVENT_RESYNC, &data);
        self.account
            .publish(Arc::new(AccountItem { frame, about: None }));
    }

    /// Makes room for one more document stream: forgets those no one listens to, least used
    /// first, down to three quarters of the most kept.
    fn forget_unused(&mut self) {
        if self.docs.len() < MAX_DOC_STREAMS {
            return;
        }
        let mut unused: Vec<(u64, String)> = self
            .docs
            .iter()
            .filter(|(_, channel)| channel.subscribers() == 0)
            .map(|(id, channel)| (channel.touched, id.clone()))
            .collect();
        unused.sort_unstable();
        let excess = self.docs.len() + 1 - MAX_DOC_STREAMS * 3 / 4;
        for (_, id) in unused.into_iter().take(excess) {
            self.docs.remove(&id);
        }
    }
}

/// The changed objects' new states for a `change` event, when their JSON adds up to at most
/// [`EVENT_OBJECTS_BYTES`] (and there are any).
fn carried_objects(
    changed: &[(String, Arc<StoredObject>)],
) -> Option<BTreeMap<String, VersionedObject>> {
    let size: usize = changed
        .iter()
        .map(|(id, object)| id.len() + object.json_len() + 16)
        .sum();
    if changed.is_empty() || size > EVENT_OBJECTS_BYTES {
        return None;
    }
    changed
        .iter()
        .map(|(id, object)| {
            let data = serde_json::from_str(object.data()).ok()?;
            let carried = VersionedObject {
                kind: object.kind().to_owned(),
                data,
                version: object.version(),
            };
            Some((id.clone(), carried))
        })
        .collect()
}

/// What a store's change to a document as a whole is called on the wire.
fn kind_of(event: &DocEvent) -> DocEventKind {
    match event {
        DocEvent::Created { .. } => DocEventKind::Created,
        DocEvent::Retitled => DocEventKind::Retitled,
        DocEvent::Emptied => DocEventKind::Emptied,
        DocEvent::ContentReplaced => DocEventKind::ContentReplaced,
        DocEvent::Shared { .. } => DocEventKind::Shared,
        DocEvent::Moved { .. } => DocEventKind::Moved,
        DocEvent::Deleted => DocEventKind::Deleted,
    }
}

/// Follows the store's commit reports into the hub until the hub closes or goes, and while
/// anyone listens, checks now and then for other processes' commits. Holds neither the hub nor
/// the store, so that both go when the server does.
async fn follow(
    hub: Weak<Hub>,
    mut commits: broadcast::Receiver<Arc<Committed>>,
    store: Weak<Store<AnyEngine>>,
    mut closed: watch::Receiver<bool>,
) {
    let mut fresh = tokio::time::interval(FRESHNESS_CHECK);
    fresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = closed.wait_for(|closed| *closed) => return,
            report = commits.recv() => {
                let Some(hub) = hub.upgrade() else { return };
                let handled = match report {
                    Ok(report) => {
                        hub.dispatch(&report);
                        1
                    }
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        hub.lock().resync_all(ResyncReason::Overflow);
                        missed
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                hub.handled.send_modify(|count| *count += handled);
            }
            _ = fresh.tick() => {
                let (Some(hub), Some(store)) = (hub.upgrade(), store.upgrade()) else { return };
                if hub.listened() {
                    // Its own task: the check awaits the engine, and nothing of the select
                    // may be held across that.
                    tokio::spawn(async move {
                        if let Err(e) = store.check_fresh().await {
                            tracing::warn!(
                                "cannot check the database for other processes' commits: {e}"
                            );
                        }
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    use super::*;
    use diagtui_store::{Location, StoreOptions, initialise};

    /// A subscriber that reads nothing while more than a queue of writes commits gets
    /// `resync`, then the events after.
    #[tokio::test]
    async fn a_subscriber_a_whole_queue_behind_gets_resync() {
        let dir = tempfile::tempdir().unwrap();
        let at = Location::DataDir(dir.path().to_owned());
        let key = initialise(&at, &[]).await.unwrap().unwrap();
        let store = Arc::new(Store::open_at(&at, StoreOptions::default()).await.unwrap());
        let me = store.authenticate(&key).await.unwrap().unwrap();
        let doc = store.create_doc(&me, "Busy", None).await.unwrap();
        let hub = Hub::start(&store, Duration::from_secs(60));
        let subscribed = hub.subscribe_doc(&doc, None);
        let mut slow = DocSubscription::new(&hub, &doc, subscribed, "then", None);
        let writes = channel::QUEUE as u64 + 10;
        for _ in 0..writes {
            store.empty_doc(&me, &doc).await.unwrap();
        }
        while hub.doc_last_id(&doc).unwrap().seq < writes {
            tokio::task::yield_now().await;
        }
        let text = |bytes: Bytes| String::from_utf8(bytes.to_vec()).unwrap();
        let current = text(slow.next().await.unwrap());
        assert!(current.contains("event: current"), "{current}");
        let resync = text(slow.next().await.unwrap());
        assert!(resync.contains("event: resync"), "{resync}");
        assert!(resync.contains("overflow"), "{resync}");
        assert!(resync.contains(&format!("-{writes}\n")), "{resync}");
        store.empty_doc(&me, &doc).await.unwrap();
        let next = text(slow.next().await.unwrap());
        assert!(next.contains(&format!("-{}\n", writes + 1)), "{next}");
        hub.close();
        assert_eq!(slow.next().await, None, "closing the hub ends the streams");
    }
}
