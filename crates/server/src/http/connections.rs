//! The open connections: each one's phase (idle, reading a request head, busy with a request)
//! and since when, the cap on how many may be open, and choosing which idle one to close when a
//! new connection needs room.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// Waiting for the next request after an answer.
const IDLE: u8 = 0;
/// A request head is arriving (or a new connection has sent nothing yet).
const HEAD: u8 = 1;
/// A request is being answered.
const BUSY: u8 = 2;
/// Told to close.
const CLOSING: u8 = 3;
/// Sending a long-lived answer (an event stream).
const STREAMING: u8 = 4;

/// What a connection is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the next request after an answer.
    Idle,
    /// A request head is arriving (or a new connection has sent nothing yet).
    Head,
    /// A request is being answered.
    Busy,
    /// Told to close.
    Closing,
    /// Sending a long-lived answer (an event stream): no timeout, and closed to make room
    /// when no connection is idle (its subscriber reconnects and resumes).
    Streaming,
}

/// One connection's shared state.
#[derive(Debug)]
pub struct Connection {
    phase: AtomicU8,
    /// Milliseconds since the registry's start at which the phase began.
    since: AtomicU64,
    /// Told to close (to make room for a new connection).
    close: Notify,
    /// An answer said the connection closes after it (a request refused before it was read
    /// whole, say).
    closing_answer: AtomicBool,
    start: Instant,
}

impl Connection {
    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn enter(&self, phase: u8) {
        self.since.store(self.now(), Ordering::Relaxed);
        self.phase.store(phase, Ordering::Release);
    }

    /// What it is doing.
    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Acquire) {
            IDLE => Phase::Idle,
            HEAD => Phase::Head,
            BUSY => Phase::Busy,
            STREAMING => Phase::Streaming,
            _ => Phase::Closing,
        }
    }

    /// Bytes arrived: an idle connection starts reading a request head.
    pub fn bytes_arrived(&self) {
        if self.phase.load(Ordering::Relaxed) == IDLE {
            self.enter(HEAD);
        }
    }

    /// A request head was read and handed to the application. (A busy connection has no
    /// timeout and is never closed to make room, so when it became busy does not matter.)
    pub fn request_started(&self) {
        self.phase.store(BUSY, Ordering::Release);
    }

    /// The answer started is a long-lived stream.
    pub fn streaming_started(&self) {
        self.enter(STREAMING);
    }

    /// An answer saying that the connection closes after it is being written.
    pub fn closing_answer_sent(&self) {
        self.closing_answer.store(true, Ordering::Relaxed);
    }

    /// Whether an answer said that the connection closes after it: the client may still be
    /// sending the request it refused.
    pub fn sent_closing_answer(&self) -> bool {
        self.closing_answer.load(Ordering::Relaxed)
    }

    /// The connection is being closed (drained first, see `linger`): not one to close to make
    /// room.
    pub fn draining(&self) {
        self.enter(CLOSING);
    }

    /// The answer was written (or given up): the connection waits for the next request.
    pub fn request_finished(&self) {
        self.enter(IDLE);
    }

    /// How long until its idle or head timeout passes (`None` while busy); zero when passed.
    pub fn time_left(&self, timeouts: &Timeouts) -> Option<Duration> {
        let limit = match self.phase() {
            Phase::Idle => timeouts.idle,
            Phase::Head => timeouts.header,
            Phase::Busy | Phase::Closing | Phase::Streaming => return None,
        };
        let spent = Duration::from_millis(self.now() - self.since.load(Ordering::Relaxed));
        Some(limit.saturating_sub(spent))
    }

    /// Resolves when the connection is told to close.
    pub async fn closing(&self) {
        self.close.notified().await;
    }
}

/// How long a connection may stay in each phase.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// Idle between requests (keep-alive).
    pub idle: Duration,
    /// From a request's first byte (or the connection's opening) to the end of its head.
    pub header: Duration,
}

/// The open connections, at most a cap of them.
pub struct Registry {
    cap: usize,
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
    count: AtomicUsize,
    closed: Notify,
    start: Instant,
}

/// A connection's place in the registry; leaving it (dropping) removes the connection.
pub struct Registered {
    id: u64,
    connection: Arc<Connection>,
    registry: Arc<Registry>,
}

impl Registered {
    /// The connection's shared state.
    pub fn connection(&self) -> &Arc<Connection> {
        &self.connection
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut open = self.registry.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&self.id);
        self.registry.count.fetch_sub(1, Ordering::AcqRel);
        drop(open);
        self.registry.closed.notify_waiters();
    }
}

impl Registry {
    /// A registry allowing `cap` connections at once.
    pub fn new(cap: usize) -> Arc<Registry> {
        Arc::new(Registry {
            cap: cap.max(1),
            open: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            count: AtomicUsize::new(0),
            closed: Notify::new(),
            start: Instant::now(),
        })
    }

    /// Waits until a new connection may be opened: at the cap, the connection idle (or
    /// reading a head) the longest is told to close, else the one streaming the longest; when
    /// every one is busy, waits for one to close.
    pub async fn make_room(&self) {
        loop {
            let closed = self.closed.notified();
            if self.count.load(Ordering::Acquire) < self.cap || self.close_longest_idle() {
                return;
            }
            closed.await;
        }
    }

    /// Tells the connection idle the longest (else the one streaming the longest) to close;
    /// whether there was one.
    fn close_longest_idle(&self) -> bool {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let longest = |phases: &[Phase]| {
            open.values()
                .filter(|c| phases.contains(&c.phase()))
                .min_by_key(|c| c.since.load(Ordering::Relaxed))
        };
        let victim = longest(&[Phase::Idle, Phase::Head]).or_else(|| longest(&[Phase::Streaming]));
        match victim {
            Some(victim) => {
                victim.phase.store(CLOSING, Ordering::Release);
                victim.close.notify_one();
                true
            }
            None => false,
        }
    }

    /// Registers a new connection, reading its first request head.
    pub fn register(self: &Arc<Registry>) -> Registered {
        let connection = Arc::new(Connection {
            phase: AtomicU8::new(HEAD),
            since: AtomicU64::new(self.start.elapsed().as_millis() as u64),
            close: Notify::new(),
            closing_answer: AtomicBool::new(false),
            start: self.start,
        });
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Arc::clone(&connection));
        self.count.fetch_add(1, Ordering::AcqRel);
        Registered {
            id,
            connection,
            registry: Arc::clone(self),
        }
    }

    /// How many connections are open.
    pub fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Waits until every connection has closed.
    pub async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            if self.count() == 0 {
                return;
            }
            closed.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_the_cap_the_longest_idle_connection_is_told_to_close() {
        let registry = Registry::new(2);
        let first = registry.register();
        let second = registry.register();
        first.connection().request_started();
        second.connection().request_started();
        second.connection().request_finished();
        let told = {
            let second = Arc::clone(second.connection());
            tokio::spawn(async move { second.closing().await })
        };
        registry.make_room().await;
        told.await.unwrap();
        assert_eq!(second.connection().phase(), Phase::Closing);
        assert_eq!(
            registry.count(),
            2,
            "room is made by closing, not by forgetting"
        );
        drop(second);
        assert_eq!(registry.count(), 1);
        drop(first);
        registry.all_closed().await;
    }

    #[tokio::test]
    async fn a_stream_is_closed_to_make_room_only_when_no_connection_is_idle() {
        let registry = Registry::new(2);
        let stream = registry.register();
        let idle = registry.register();
        stream.connection().request_started();
        stream.connection().streaming_started();
        idle.connection().request_started();
        idle.connection().request_finished();
        registry.make_room().await;
        assert_eq!(idle.connection().phase(), Phase::Closing);
        assert_eq!(stream.connection().phase(), Phase::Streaming);
        drop(idle);
        let busy = registry.register();
        busy.connection().request_started();
        registry.make_room().await;
        assert_eq!(stream.connection().phase(), Phase::Closing);
        assert_eq!(busy.connection().phase(), Phase::Busy);
    }

    #[test]
    fn each_phase_has_its_timeout() {
        let registry = Registry::new(1);
        let registered = registry.register();
        let connection = registered.connection();
        let timeouts = Timeouts {
            idle: Duration::from_secs(60),
            header: Duration::from_secs(10),
        };
        assert!(connection.time_left(&timeouts).unwrap() <= timeouts.header);
        connection.request_started();
        assert_eq!(connection.time_left(&timeouts), None);
        connection.request_finished();
        assert!(connection.time_left(&timeouts).unwrap() > timeouts.header);
        connection.bytes_arrived();
        assert_eq!(connection.phase(), Phase::Head);
    }
}
