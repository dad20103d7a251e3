//! Figures for the local server, over real HTTP on loopback: `cargo bench --bench server`.
//!
//! `diagtui serve` runs as its own process, so that its memory can be read from /proc: the
//! resident size given back after a 16 MB upload, and the peak while a 36 MB one is stored.
//! Then: single-object GET and update latency (p50/p99), selector read and update over 10,000
//! objects, set-content and obj/all of a 100,000-object document, and the update latency in a
//! 100-object document against a 100,000-object one. Throughput against the ceiling is
//! `benches/ceiling.rs`.

use std::time::{Duration, Instant};

use diagtui_testkit::Bin;
use diagtui_testkit::memory;
use diagtui_testkit::quantiles::percentiles;
use diagtui_testkit_server::serve::Server;
use serde_json::{Map, Value, json};

/// Requests per latency sample.
const SAMPLES: usize = 2000;

/// `diagtui serve` on a temp data dir, with a client.
struct Served {
    server: Server,
    http: reqwest::Client,
}

impl Served {
    fn start() -> Served {
        let bin = Bin::new(env!("CARGO_BIN_EXE_diagtui"));
        Served {
            server: Server::start_temp(&bin, &["--max-body", "134217728"]),
            http: reqwest::Client::new(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url)
    }

    async fn get(&self, path: &str) -> bytes::Bytes {
        let resp = self
            .http
            .get(self.url(path))
            .bearer_auth(&self.server.key)
            .send()
            .await
            .expect("sent");
        assert!(resp.status().is_success(), "GET {path}: {}", resp.status());
        resp.bytes().await.expect("body")
    }

    async fn post_bytes(&self, path: &str, body: Vec<u8>) -> Value {
        let resp = self
            .http
            .post(self.url(path))
            .bearer_auth(&self.server.key)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("sent");
        assert!(resp.status().is_success(), "POST {path}: {}", resp.status());
        resp.json().await.expect("JSON")
    }

    async fn post(&self, path: &str, body: &Value) -> Value {
        self.post_bytes(path, serde_json::to_vec(body).expect("JSON"))
            .await
    }

    async fn new_doc(&self, title: &str) -> String {
        self.post("/api/v1/doc/create", &json!({"title": title}))
            .await["docId"]
            .as_str()
            .expect("docId")
            .to_owned()
    }

    /// A document holding `n` components; returns its id and the id of one in the middle.
    async fn doc_with(&self, title: &str, n: usize) -> (String, String) {
        let doc = self.new_doc(title).await;
        let content = content(n);
        let middle = content.keys().nth(n / 2).expect("an object").clone();
        self.post(
            &format!("/api/v1/doc/set-content/{doc}"),
            &Value::Object(content),
        )
        .await;
        (doc, middle)
    }

    /// A memory figure of the server process from /proc, in kB: `VmRSS` or `VmHWM`.
    fn memory(&self, field: &str) -> u64 {
        memory::memory(self.server.child.id(), field)
    }

    /// Resets the peak resident size (`VmHWM`) to the current one.
    fn reset_peak(&self) {
        memory::reset_peak(self.server.child.id());
    }

    /// The resident size once it has stopped shrinking (the writer gives memory back just
    /// after answering).
    async fn settled_rss(&self) -> u64 {
        let mut last = self.memory("VmRSS");
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.memory("VmRSS");
            if now >= last {
                return now;
            }
            last = now;
        }
    }
}

/// `n` components with meta, ids in the documented shape.
fn content(n: usize) -> Map<String, Value> {
    (0..n)
        .map(|i| {
            let id = format!("{i:09}-bench{:04}", i % 10_000);
            let data = json!({
                "componentId": "computation.aws-ec2",
                "position": {"x": (i % 100) as f64 - 50.0, "y": (i / 100 % 100) as f64 - 50.0},
                "rotation": 0, "opacity": 1, "showMetaData": false, "showMetaDataKeys": true,
                "metaDataFontSize": 0.25, "metaDataRotation": 0, "metaDataTextAlign": "center",
                "meta": {"kind": "node", "status": if i % 7 == 0 {"down"} else {"up"},
                         "region": "eu-west-1", "instanceId": format!("i-{i:016x}"), "cpu": i % 100}
            });
            (id, json!({"type": "component", "data": data}))
        })
        .collect()
}

/// Runs `op` `SAMPLES` times one after another and prints latency and sequential rate.
async fn latency<F, Fut>(label: &str, mut op: F) -> (f64, f64)
where
    F: FnMut(usize) -> Fut,
    Fut: Future<Output = ()>,
{
    let mut times = Vec::with_capacity(SAMPLES);
    let start = Instant::now();
    for i in 0..SAMPLES {
        let t = Instant::now();
        op(i).await;
        times.push(t.elapsed());
    }
    let rate = SAMPLES as f64 / start.elapsed().as_secs_f64();
    let (p50, p99) = percentiles(times);
    println!("{label:<48} p50 {p50:>8.0} µs   p99 {p99:>8.0} µs   {rate:>7.0} req/s sequential");
    (p50, p99)
}

/// Times one operation `runs` times and prints the median.
async fn once<F, Fut>(label: &str, runs: usize, mut op: F)
where
    F: FnMut(usize) -> Fut,
    Fut: Future<Output = String>,
{
    let mut times = Vec::new();
    let mut note = String::new();
    for run in 0..runs {
        let t = Instant::now();
        note = op(run).await;
        times.push(t.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2].as_secs_f64() * 1e3;
    println!("{label:<48} {median:>8.1} ms (median of {runs}) {note}");
}

/// Megabytes of a figure in kB.
fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

#[tokio::main]
async fn main() {
    println!("diagtui serve as a process, loopback HTTP, {SAMPLES} requests per latency figure\n");
    memory_given_back().await;

    let served = Served::start();
    println!();
    let small_path = one_object_of_a_small_document(&served).await;
    println!();
    selectors_over_ten_thousand(&served).await;
    println!();
    let big_path = a_hundred_thousand_objects(&served).await;
    println!();
    updates_alternating(&served, &small_path, &big_path).await;
}

/// An update of one object's meta, another for each `i`.
fn meta_update(i: usize) -> Value {
    json!({"props": {"meta": {"kind": "node", "cpu": i % 100}}})
}

/// GET and update one object of a 100-object document; the object's path.
async fn one_object_of_a_small_document(served: &Served) -> String {
    let (small, small_obj) = served.doc_with("100 objects", 100).await;
    let get_path = format!("/api/v1/doc/{small}/obj/{small_obj}");
    latency("GET one object (100-object doc)", |_| async {
        served.get(&get_path).await;
    })
    .await;
    latency("update one object (100-object doc)", |i| {
        let (path, body) = (get_path.clone(), meta_update(i));
        async move {
            served.post(&path, &body).await;
        }
    })
    .await;
    get_path
}

/// A selector read and a selector update over a 10,000-object document.
async fn selectors_over_ten_thousand(served: &Served) {
    let (ten_k, _) = served.doc_with("10,000 objects", 10_000).await;
    once(
        "selector read over 10,000 objects (1/7 match)",
        7,
        |_| async {
            let answer = served
                .get(&format!(
                    "/api/v1/doc/{ten_k}/obj/where/%5B%22status%22%2C%22eq%22%2C%22down%22%5D"
                ))
                .await;
            // Counted without parsing, so that the figure is the server's: each object's
            // answer starts with its type.
            let matched = answer
                .windows(b"{\"type\":".len())
                .filter(|w| *w == b"{\"type\":")
                .count();
            format!("({matched} matched)")
        },
    )
    .await;
    once("selector update over 10,000 objects", 7, |run| {
        // Each run sets another value, so that every run writes every object.
        let opacity = [0.75, 0.5][run % 2];
        let ten_k = &ten_k;
        async move {
            let answer = served
                .post(
                    &format!("/api/v1/doc/{ten_k}/obj/where"),
                    &json!({"selector": ["kind", "eq", "node"], "props": {"opacity": opacity}}),
                )
                .await;
            format!("({} updated)", answer["updatedObjectCount"])
        }
    })
    .await;
}

/// set-content of 100,000 objects (with its peak memory) and obj/all of them; the path of an
/// object in the middle.
async fn a_hundred_thousand_objects(served: &Served) -> String {
    let big_doc = served.new_doc("100,000 objects").await;
    let big_content = content(100_000);
    let big_mid = big_content.keys().nth(50_000).expect("an object").clone();
    let big_body = serde_json::to_vec(&big_content).expect("JSON");
    drop(big_content);
    let peak = std::cell::Cell::new(0);
    once("set-content, 100,000 objects", 3, |_| async {
        let before = served.memory("VmRSS");
        served.reset_peak();
        served
            .post_bytes(
                &format!("/api/v1/doc/set-content/{big_doc}"),
                big_body.clone(),
            )
            .await;
        peak.set(
            peak.get()
                .max(served.memory("VmHWM").saturating_sub(before)),
        );
        format!("({:.1} MB body)", big_body.len() as f64 / 1e6)
    })
    .await;
    let peak = peak.get();
    println!(
        "{:<48} {:>8.1} MB over the resident size before it: {:.2}x the body",
        "  peak memory of set-content",
        mb(peak),
        (peak * 1024) as f64 / big_body.len() as f64
    );
    once("obj/all, 100,000 objects", 5, |_| async {
        let bytes = served.get(&format!("/api/v1/doc/{big_doc}/obj/all")).await;
        format!("({:.1} MB answer)", bytes.len() as f64 / 1e6)
    })
    .await;
    format!("/api/v1/doc/{big_doc}/obj/{big_mid}")
}

/// Updates of one object of the small and of the big document, in turn, so that what else
/// the machine does (a checkpoint after the uploads, other programs) weighs on both alike.
async fn updates_alternating(served: &Served, small_path: &str, big_path: &str) {
    let mut times = [Vec::with_capacity(SAMPLES), Vec::with_capacity(SAMPLES)];
    for i in 0..SAMPLES {
        for (path, times) in [small_path, big_path].into_iter().zip(&mut times) {
            let t = Instant::now();
            served.post(path, &meta_update(i)).await;
            times.push(t.elapsed());
        }
    }
    let [small, big] = times.map(percentiles);
    for (label, (p50, p99)) in [("100", small), ("100,000", big)] {
        let label = format!("update one object ({label}-object doc), alternating");
        println!("{label:<48} p50 {p50:>8.0} µs   p99 {p99:>8.0} µs");
    }
    println!(
        "update p50 ratio, 100,000 vs 100 objects: {:.2} (p99 {:.2})",
        big.0 / small.0,
        big.1 / small.1
    );
}

/// The resident size of an idle server, after a 16 MB upload, and after it settled.
async fn memory_given_back() {
    let served = Served::start();
    served.get("/api/v1/doc").await;
    let idle = served.settled_rss().await;
    let doc = served.new_doc("16 MB").await;
    let body = serde_json::to_vec(&content(45_000)).expect("JSON");
    served.reset_peak();
    served
        .post_bytes(&format!("/api/v1/doc/set-content/{doc}"), body.clone())
        .await;
    let peak = served.memory("VmHWM");
    let after = served.settled_rss().await;
    println!(
        "{:<48} idle {:.1} MB, peak {:.1} MB, then {:.1} MB: {:.2}x the idle size",
        format!("memory, {:.1} MB upload", body.len() as f64 / 1e6),
        mb(idle),
        mb(peak),
        mb(after),
        after as f64 / idle as f64
    );
}
