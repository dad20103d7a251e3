//! Change events under load: `cargo bench --bench events`.
//!
//! `diagtui serve` runs as its own process (its memory read from /proc). 1,000 subscribers
//! follow one document's event stream over raw loopback connections while another client
//! updates an object in it, one write after another with a short pause. Figures: the server's
//! resident memory before and with the subscribers (idle, and its peak while the writes go
//! on), and for each write the time from sending it (and from its answer, which comes after
//! the commit) to the moment the last subscriber has read its event.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use diagtui_testkit::Bin;
use diagtui_testkit::memory;
use diagtui_testkit_server::serve::Server;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

/// Subscribers on the one document.
const SUBSCRIBERS: usize = 1000;
/// Writes while they listen.
const WRITES: usize = 200;
/// The pause between writes.
const PAUSE: Duration = Duration::from_millis(20);

/// The server process.
struct Served {
    server: Server,
    addr: String,
}

impl Served {
    fn start() -> Served {
        let server = Server::start_temp(&Bin::new(env!("CARGO_BIN_EXE_diagtui")), &[]);
        Served {
            addr: server.url.trim_start_matches("http://").to_owned(),
            server,
        }
    }

    /// A memory figure of the server process from /proc, in kB: `VmRSS` or `VmHWM`.
    fn memory(&self, field: &str) -> u64 {
        memory::memory(self.server.child.id(), field)
    }

    /// Resets the peak resident size (`VmHWM`) to the current one.
    fn reset_peak(&self) {
        memory::reset_peak(self.server.child.id());
    }
}

/// When each event was read by the last subscriber so far: nanoseconds since the start, by
/// the event's place in the stream.
struct Seen {
    start: Instant,
    last: Vec<AtomicU64>,
    counts: Vec<AtomicU64>,
}

impl Seen {
    fn note(&self, seq: usize) {
        if let (Some(last), Some(count)) = (self.last.get(seq), self.counts.get(seq)) {
            last.fetch_max(self.start.elapsed().as_nanos() as u64, Ordering::Relaxed);
            count.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// One subscriber: opens the stream, counts itself ready once it has the first event, then
/// notes each event it reads until the last write's.
async fn subscriber(
    addr: String,
    path: String,
    key: String,
    seen: Arc<Seen>,
    ready: Arc<AtomicUsize>,
) -> TcpStream {
    let mut stream = TcpStream::connect(&addr).await.expect("connect");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Accept: text/event-stream\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("request");
    let mut text = String::new();
    let mut buf = vec![0u8; 4096];
    while !text.contains("event: current") {
        let n = stream.read(&mut buf).await.expect("read");
        assert!(n > 0, "the stream ended: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    ready.fetch_add(1, Ordering::Relaxed);
    follow(stream, seen).await
}

/// Reads events until the stream ends, noting each id's place; gives the stream back.
async fn follow(mut stream: TcpStream, seen: Arc<Seen>) -> TcpStream {
    let mut buf = vec![0u8; 16384];
    let mut partial = String::new();
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return stream,
            Ok(n) => n,
        };
        partial.push_str(&String::from_utf8_lossy(&buf[..n]));
        while let Some(end) = partial.find('\n') {
            let line: String = partial.drain(..=end).collect();
            if let Some(id) = line.strip_prefix("id: ")
                && let Some(seq) = id.trim().rsplit_once('-').and_then(|(_, s)| s.parse().ok())
            {
                seen.note(seq);
                if seq == WRITES {
                    return stream;
                }
            }
        }
    }
}

/// The `p`th percentile of sorted durations.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let served = Served::start();
    let http = reqwest::Client::new();
    let (doc, obj) = served.watched_object(&http).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = served.memory("VmRSS");

    let seen = Arc::new(Seen {
        start: Instant::now(),
        last: (0..=WRITES).map(|_| AtomicU64::new(0)).collect(),
        counts: (0..=WRITES).map(|_| AtomicU64::new(0)).collect(),
    });
    let opening = Instant::now();
    let following = served.subscribe(&doc, &seen).await;
    let opened = opening.elapsed();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let subscribed = served.memory("VmRSS");
    served.reset_peak();

    let (sent_at, answered_at) = served.write_in_turn(&http, &doc, &obj, &seen).await;
    let mut streams = Vec::new();
    for follower in following {
        streams.push(follower.await.expect("a subscriber"));
    }
    let peak = served.memory("VmHWM");
    let (from_sent, from_answer) = delays(&seen, &sent_at, &answered_at);
    drop(streams);

    println!("events: {SUBSCRIBERS} subscribers on one document, {WRITES} updates");
    println!(
        "  {SUBSCRIBERS} streams opened (each to its first event) in {:.2?}",
        opened
    );
    println!(
        "  server memory: {} MiB before, {} MiB with the subscribers ({:.1} KiB each), peak {} MiB while writing",
        before / 1024,
        subscribed / 1024,
        (subscribed.saturating_sub(before)) as f64 / SUBSCRIBERS as f64,
        peak / 1024
    );
    for (name, sorted) in [
        ("write sent -> last subscriber", &from_sent),
        ("write answered -> last subscriber", &from_answer),
    ] {
        println!(
            "  {name:<36} p50 {:>9.2?}  p99 {:>9.2?}  max {:>9.2?}",
            percentile(sorted, 0.5),
            percentile(sorted, 0.99),
            sorted[sorted.len() - 1]
        );
    }
}

impl Served {
    /// POSTs `body` to `path` with the server's key.
    async fn post(&self, http: &reqwest::Client, path: &str, body: Value) -> reqwest::Response {
        http.post(format!("http://{}{path}", self.addr))
            .bearer_auth(&self.server.key)
            .json(&body)
            .send()
            .await
            .expect("sent")
    }

    /// A new document with one component: their ids.
    async fn watched_object(&self, http: &reqwest::Client) -> (String, String) {
        let created = json!({"title": "Watched"});
        let answer = self.post(http, "/api/v1/doc/create", created).await;
        let answer: Value = answer.json().await.expect("JSON");
        let doc = answer["docId"].as_str().expect("docId").to_owned();
        let component = json!({"type": "component", "props": {"componentId": "generic.server"}});
        let answer = self
            .post(http, &format!("/api/v1/doc/{doc}/obj"), component)
            .await;
        let answer: Value = answer.json().await.expect("JSON");
        let obj = answer["objId"].as_str().expect("objId").to_owned();
        (doc, obj)
    }

    /// [`SUBSCRIBERS`] streams of the document's events, each noting in `seen` what it reads;
    /// once every one has its first event.
    async fn subscribe(&self, doc: &str, seen: &Arc<Seen>) -> Vec<JoinHandle<TcpStream>> {
        let path = format!("/api/v1/doc/{doc}/events");
        let ready = Arc::new(AtomicUsize::new(0));
        let following = (0..SUBSCRIBERS)
            .map(|_| {
                tokio::spawn(subscriber(
                    self.addr.clone(),
                    path.clone(),
                    self.server.key.clone(),
                    Arc::clone(seen),
                    Arc::clone(&ready),
                ))
            })
            .collect();
        while ready.load(Ordering::Relaxed) < SUBSCRIBERS {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        following
    }

    /// [`WRITES`] updates of the object, [`PAUSE`] apart: when each was sent and answered,
    /// from `seen`'s start.
    async fn write_in_turn(
        &self,
        http: &reqwest::Client,
        doc: &str,
        obj: &str,
        seen: &Seen,
    ) -> (Vec<Duration>, Vec<Duration>) {
        let mut sent_at = Vec::new();
        let mut answered_at = Vec::new();
        let path = format!("/api/v1/doc/{doc}/obj/{obj}");
        for n in 0..WRITES {
            let sent = seen.start.elapsed();
            let answer = self
                .post(http, &path, json!({"props": {"meta": {"n": n}}}))
                .await;
            answer.error_for_status().expect("updated");
            answered_at.push(seen.start.elapsed());
            sent_at.push(sent);
            tokio::time::sleep(PAUSE).await;
        }
        (sent_at, answered_at)
    }
}

/// How long after each write was sent, and after it was answered, its event reached the last
/// subscriber (each sorted); every event reached every subscriber.
fn delays(
    seen: &Seen,
    sent_at: &[Duration],
    answered_at: &[Duration],
) -> (Vec<Duration>, Vec<Duration>) {
    let mut from_sent = Vec::new();
    let mut from_answer = Vec::new();
    for n in 0..WRITES {
        let seq = n + 1;
        let count = seen.counts[seq].load(Ordering::Relaxed) as usize;
        assert_eq!(count, SUBSCRIBERS, "event {seq} reached every subscriber");
        let last = Duration::from_nanos(seen.last[seq].load(Ordering::Relaxed));
        from_sent.push(last.saturating_sub(sent_at[n]));
        from_answer.push(last.saturating_sub(answered_at[n]));
    }
    from_sent.sort();
    from_answer.sort();
    (from_sent, from_answer)
}
