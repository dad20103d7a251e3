//! A subscriber's side of a stream: where it starts (the current state, what it missed, or
//! `resync`), then each event as it comes, a `resync` when it fell a whole queue behind, a
//! keep-alive comment when nothing came for a while, and the end when the server stops.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, Interval};

use super::channel::Item;
use super::frame::{EventId, Frame, KEEP_ALIVE};
use super::{AccountItem, Hub, Start};
use diagtui_model::events::{
    DocChangeEvent, DocEventKind, EVENT_CURRENT, EVENT_RESYNC, ResyncEvent, ResyncReason,
};

/// Which events of a stream a subscriber gets, and where its stream is now.
trait Filter<T>: Send + 'static {
    /// Whether the subscriber gets `item` (noting what it says of what the subscriber sees).
    fn pass(&mut self, item: &T) -> bool;
    /// The id of the stream's last event; `None` when the stream is gone.
    fn last_id(&self, hub: &Hub) -> Option<EventId>;
}

/// One subscriber of one stream.
struct Subscription<T, F> {
    hub: Arc<Hub>,
    receiver: broadcast::Receiver<Arc<T>>,
    /// Events to send before reading the queue.
    pending: VecDeque<Bytes>,
    /// Events up to this place were sent already (or are covered by a resync).
    sent_up_to: u64,
    filter: F,
    keep_alive: Interval,
    closed: watch::Receiver<bool>,
    done: bool,
}

impl<T: Item, F: Filter<T>> Subscription<T, F> {
    fn new(
        hub: &Arc<Hub>,
        receiver: broadcast::Receiver<Arc<T>>,
        filter: F,
        sent_up_to: u64,
    ) -> Subscription<T, F> {
        Subscription {
            hub: Arc::clone(hub),
            receiver,
            pending: VecDeque::new(),
            sent_up_to,
            filter,
            keep_alive: tokio::time::interval_at(Instant::now() + hub.keep_alive, hub.keep_alive),
            closed: hub.closed(),
            done: false,
        }
    }

    /// Queues a frame to send first.
    fn queue(&mut self, frame: &Frame) {
        self.sent_up_to = self.sent_up_to.max(frame.seq);
        self.pending.push_back(frame.bytes.clone());
    }

    /// Queues a `resync` with this id.
    fn queue_resync(&mut self, id: &EventId, reason: ResyncReason) {
        self.queue(&Frame::new(id, EVENT_RESYNC, &ResyncEvent { reason }));
    }

    /// The next bytes to send; `None` when the stream ends.
    async fn next(&mut self) -> Option<Bytes> {
        if let Some(bytes) = self.pending.pop_front() {
            return Some(bytes);
        }
        if self.done {
            return None;
        }
        loop {
            let woke = tokio::select! {
                biased;
                _ = self.closed.wait_for(|closed| *closed) => None,
                received = self.receiver.recv() => Some(received),
                _ = self.keep_alive.tick() => return Some(Bytes::from_static(KEEP_ALIVE)),
            };
            match woke? {
                Ok(item) => {
                    let frame = item.frame();
                    if frame.seq <= self.sent_up_to || !self.filter.pass(&item) {
                        continue;
                    }
                    self.sent_up_to = frame.seq;
                    self.done = frame.last;
                    self.keep_alive.reset();
                    return Some(frame.bytes.clone());
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let id = self.filter.last_id(&self.hub)?;
                    self.queue_resync(&id, ResyncReason::Overflow);
                    self.keep_alive.reset();
                    return self.pending.pop_front();
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }

    /// The subscription as a body's stream of chunks.
    fn into_stream(
        self,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + Send + 'static
    where
        T: Item,
    {
        futures_util::stream::unfold(self, |mut subscription| async move {
            let bytes = subscription.next().await?;
            Some((Ok(bytes), subscription))
        })
    }
}

/// Every event of a document's stream goes to its subscribers.
struct WholeDoc {
    doc_id: String,
}

impl Filter<Frame> for WholeDoc {
    fn pass(&mut self, _: &Frame) -> bool {
        true
    }

    fn last_id(&self, hub: &Hub) -> Option<EventId> {
        hub.doc_last_id(&self.doc_id)
    }
}

/// A subscription to a document's stream.
pub struct DocSubscription(Subscription<Frame, WholeDoc>);

impl DocSubscription {
    /// Subscribes to a document's stream from `start` (made with `receiver` by
    /// [`Hub::subscribe_doc`]); `last_change` is the document's `lastChange` read after, and
    /// `version` its version (when the reader may know it).
    pub fn new(
        hub: &Arc<Hub>,
        doc_id: &str,
        (receiver, start): (broadcast::Receiver<Arc<Frame>>, Start<Frame>),
        last_change: &str,
        version: Option<u64>,
    ) -> DocSubscription {
        let filter = WholeDoc {
            doc_id: doc_id.to_owned(),
        };
        let mut subscription = Subscription::new(hub, receiver, filter, 0);
        match start {
            Start::Now(id) => {
                let current = DocChangeEvent {
                    last_change: Some(last_change.to_owned()),
                    changed: Vec::new(),
                    deleted: Vec::new(),
                    document: None,
                    version,
                    objects: None,
                };
                subscription.queue(&Frame::new(&id, EVENT_CURRENT, &current));
            }
            Start::Replay(missed) => {
                for frame in missed {
                    subscription.queue(&frame);
                }
            }
            Start::Resync(id) => subscription.queue_resync(&id, ResyncReason::Backlog),
        }
        DocSubscription(subscription)
    }

    /// The subscription as a body's stream of chunks.
    pub fn into_stream(
        self,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + Send + 'static
    {
        self.0.into_stream()
    }

    /// The next bytes to send; `None` when the stream ends.
    #[cfg(test)]
    pub async fn next(&mut self) -> Option<Bytes> {
        self.0.next().await
    }
}

/// The documents an account sees, as its stream learns of them: the account stream carries
/// only events about these.
pub struct Visible {
    account_id: String,
    docs: HashSet<String>,
}

impl Visible {
    /// The account's documents as listed.
    pub fn new(account_id: &str, docs: impl IntoIterator<Item = String>) -> Visible {
        Visible {
            account_id: account_id.to_owned(),
            docs: docs.into_iter().collect(),
        }
    }

    /// Whether the account gets `item`: a document created for it or shared with it, a
    /// change to one it sees, a resync.
    fn admits(&mut self, item: &AccountItem) -> Admits {
        let Some(about) = &item.about else {
            return Admits::Yes;
        };
        let concerns_me = about.account_id.as_deref() == Some(self.account_id.as_str());
        if concerns_me && matches!(about.kind, DocEventKind::Created | DocEventKind::Shared) {
            self.docs.insert(about.doc_id.clone());
            return Admits::Yes;
        }
        let seen = if about.kind == DocEventKind::Deleted {
            self.docs.remove(&about.doc_id)
        } else {
            self.docs.contains(&about.doc_id)
        };
        match (seen, about.kind) {
            (true, _) => Admits::Yes,
            (false, DocEventKind::Deleted) => Admits::Unknown,
            (false, _) => Admits::No,
        }
    }
}

/// Whether an account stream's subscriber gets an event.
enum Admits {
    Yes,
    No,
    /// A document it does not see now was deleted: it may have seen it before.
    Unknown,
}

impl Filter<AccountItem> for Visible {
    fn pass(&mut self, item: &AccountItem) -> bool {
        matches!(self.admits(item), Admits::Yes)
    }

    fn last_id(&self, hub: &Hub) -> Option<EventId> {
        Some(hub.account_last_id())
    }
}

/// A subscription to an account's stream.
pub struct AccountSubscription(Subscription<AccountItem, Visible>);

impl AccountSubscription {
    /// Subscribes to the account's stream from `start` (made with `receiver` by
    /// [`Hub::subscribe_account`]). `visible` is the account's documents as listed after the
    /// mark; `since_mark` the events after the mark, which the list may not show.
    pub fn new(
        hub: &Arc<Hub>,
        (receiver, start): (broadcast::Receiver<Arc<AccountItem>>, Start<AccountItem>),
        mut visible: Visible,
        since_mark: &[Arc<AccountItem>],
    ) -> AccountSubscription {
        if !matches!(start, Start::Replay(_)) {
            for item in since_mark {
                visible.admits(item);
            }
        }
        let mut subscription = Subscription::new(hub, receiver, visible, 0);
        match start {
            Start::Now(id) => {
                let current = serde_json::json!({});
                subscription.queue(&Frame::new(&id, EVENT_CURRENT, &current));
            }
            Start::Replay(missed) => subscription.replay(&missed),
            Start::Resync(id) => subscription.queue_resync(&id, ResyncReason::Backlog),
        }
        AccountSubscription(subscription)
    }

    /// The subscription as a body's stream of chunks.
    pub fn into_stream(
        self,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + Send + 'static
    {
        self.0.into_stream()
    }
}

impl Subscription<AccountItem, Visible> {
    /// Queues the missed events the account gets; `resync` instead when one of them is the
    /// deletion of a document it may have seen.
    fn replay(&mut self, missed: &[Arc<AccountItem>]) {
        let mut admitted = Vec::new();
        let mut unknown = false;
        for item in missed {
            match self.filter.admits(item) {
                Admits::Yes => admitted.push(item),
                Admits::No => {}
                Admits::Unknown => unknown = true,
            }
        }
        let Some(last) = missed.last() else {
            return;
        };
        if unknown {
            let id = EventId {
                seq: last.frame().seq,
                ..self.hub.account_last_id()
            };
            self.queue_resync(&id, ResyncReason::Backlog);
        } else {
            for item in admitted {
                self.queue(item.frame());
            }
        }
        self.sent_up_to = last.frame().seq;
    }
}
