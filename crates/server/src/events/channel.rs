//! One stream's events: their ids, a bounded backlog for subscribers coming back with a
//! `Last-Event-ID`, and a bounded queue to the subscribers listening now (a subscriber that
//! falls a whole queue behind is told to resync, never waited for).

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::broadcast;

use super::frame::{EventId, Frame};

/// How many events the queue to the subscribers holds; one further behind has to resync.
pub const QUEUE: usize = 128;
/// The most events the backlog keeps.
const BACKLOG_EVENTS: usize = 128;
/// The most bytes the backlog keeps (the newest event is kept whatever its size).
const BACKLOG_BYTES: usize = 1 << 20;

/// An event of a stream, with whatever its subscribers need to filter it.
pub trait Item: Send + Sync + 'static {
    /// The event as sent.
    fn frame(&self) -> &Frame;
}

impl Item for Frame {
    fn frame(&self) -> &Frame {
        self
    }
}

/// One stream's events.
pub struct Channel<T> {
    generation: String,
    /// The last event's place (0 before the first).
    seq: u64,
    /// The backlog holds every event after this place.
    base: u64,
    backlog: VecDeque<Arc<T>>,
    backlog_bytes: usize,
    sender: broadcast::Sender<Arc<T>>,
    /// When it was last used, on the hub's clock (for forgetting the least used).
    pub touched: u64,
}

impl<T: Item> Channel<T> {
    /// A stream with no events yet.
    pub fn new(generation: String, touched: u64) -> Channel<T> {
        Channel {
            generation,
            seq: 0,
            base: 0,
            backlog: VecDeque::new(),
            backlog_bytes: 0,
            sender: broadcast::channel(QUEUE).0,
            touched,
        }
    }

    /// The id of the last event (`SEQ` 0 before the first).
    pub fn last_id(&self) -> EventId {
        self.id(self.seq)
    }

    /// The id the next event gets.
    pub fn next_id(&self) -> EventId {
        self.id(self.seq + 1)
    }

    fn id(&self, seq: u64) -> EventId {
        EventId {
            generation: self.generation.clone(),
            seq,
        }
    }

    /// Sends an event made with [`Channel::next_id`] to the subscribers and keeps it in the
    /// backlog.
    pub fn publish(&mut self, item: Arc<T>) {
        self.seq = item.frame().seq;
        self.backlog_bytes += item.frame().len();
        self.backlog.push_back(Arc::clone(&item));
        while self.backlog.len() > BACKLOG_EVENTS
            || (self.backlog_bytes > BACKLOG_BYTES && self.backlog.len() > 1)
        {
            let dropped = self.backlog.pop_front().expect("not empty");
            self.backlog_bytes -= dropped.frame().len();
            self.base = dropped.frame().seq;
        }
        let _ = self.sender.send(item);
    }

    /// A queue of the events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<T>> {
        self.sender.subscribe()
    }

    /// How many subscribers listen.
    pub fn subscribers(&self) -> usize {
        self.sender.receiver_count()
    }

    /// The events after `last`, when the backlog reaches back to it; `None` when it does not
    /// (or `last` is of another generation, or from the future).
    pub fn since(&self, last: &EventId) -> Option<Vec<Arc<T>>> {
        let reaches = last.generation == self.generation && self.base <= last.seq;
        (reaches && last.seq <= self.seq).then(|| {
            self.backlog
                .iter()
                .filter(|item| item.frame().seq > last.seq)
                .cloned()
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn publish(channel: &mut Channel<Frame>, n: usize) {
        for _ in 0..n {
            let frame = Frame::new(&channel.next_id(), "change", &"x");
            channel.publish(Arc::new(frame));
        }
    }

    #[test]
    fn the_backlog_answers_only_as_far_back_as_it_reaches() {
        let mut channel = Channel::<Frame>::new("g".into(), 0);
        publish(&mut channel, 3);
        let seqs = |since: Option<Vec<Arc<Frame>>>| {
            since.map(|items| items.iter().map(|f| f.seq).collect::<Vec<_>>())
        };
        let at = |seq| EventId {
            generation: "g".into(),
            seq,
        };
        assert_eq!(seqs(channel.since(&at(1))), Some(vec![2, 3]));
        assert_eq!(seqs(channel.since(&at(3))), Some(vec![]));
        assert_eq!(seqs(channel.since(&at(0))), Some(vec![1, 2, 3]));
        assert_eq!(seqs(channel.since(&at(4))), None, "from the future");
        let other = EventId {
            generation: "h".into(),
            seq: 1,
        };
        assert_eq!(seqs(channel.since(&other)), None);
        publish(&mut channel, BACKLOG_EVENTS);
        assert_eq!(
            seqs(channel.since(&at(1))),
            None,
            "dropped from the backlog"
        );
        let last = BACKLOG_EVENTS as u64 + 3;
        assert_eq!(seqs(channel.since(&at(last - 1))), Some(vec![last]));
        assert_eq!(channel.last_id(), at(last));
    }
}
