//! Figures for the local server, over real HTTP on loopback: `cargo bench --bench server`.
//!
//! Prints single-object GET and update latency (p50/p99) and throughput, a selector update
//! over 10,000 objects, set-content and obj/all of a 100,000-object document, and the update
//! latency in a 100-object document against a 100,000-object one.

use std::time::{Duration, Instant};

use diagtui::server::LocalServer;
use serde_json::{Map, Value, json};

/// Requests per latency sample.
const SAMPLES: usize = 2000;
/// Concurrent clients for the throughput figures.
const CLIENTS: usize = 16;

struct Bench {
    server: LocalServer,
    http: reqwest::Client,
}

impl Bench {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    async fn get(&self, path: &str) -> Value {
        let resp = self
            .http
            .get(self.url(path))
            .bearer_auth(self.server.api_key())
            .send()
            .await
            .expect("sent");
        assert!(resp.status().is_success(), "GET {path}: {}", resp.status());
        resp.json().await.expect("JSON")
    }

    async fn post(&self, path: &str, body: &Value) -> Value {
        let resp = self
            .http
            .post(self.url(path))
            .bearer_auth(self.server.api_key())
            .json(body)
            .send()
            .await
            .expect("sent");
        assert!(resp.status().is_success(), "POST {path}: {}", resp.status());
        resp.json().await.expect("JSON")
    }

    /// A document holding `n` components; returns its id and the id of one in the middle.
    async fn doc_with(&self, title: &str, n: usize) -> (String, String) {
        let doc = self
            .post("/api/v1/doc/create", &json!({"title": title}))
            .await["docId"]
            .as_str()
            .unwrap()
            .to_owned();
        let content = content(n);
        let middle = content.keys().nth(n / 2).unwrap().clone();
        self.post(
            &format!("/api/v1/doc/set-content/{doc}"),
            &Value::Object(content),
        )
        .await;
        (doc, middle)
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

/// p50 and p99 of a set of durations, in microseconds.
fn percentiles(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    (at(0.50), at(0.99))
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

/// Runs `SAMPLES` requests from `CLIENTS` concurrent clients and prints the rate.
async fn throughput(label: &str, bench: &Bench, path: String, body: Option<Value>) {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..CLIENTS {
        let http = reqwest::Client::new();
        let url = bench.url(&path);
        let key = bench.server.api_key().to_owned();
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..SAMPLES / CLIENTS {
                let req = match &body {
                    Some(body) => http.post(&url).json(body),
                    None => http.get(&url),
                };
                let resp = req.bearer_auth(&key).send().await.expect("sent");
                assert!(resp.status().is_success());
                resp.bytes().await.expect("body");
            }
        }));
    }
    for task in tasks {
        task.await.expect("client");
    }
    let rate = SAMPLES as f64 / start.elapsed().as_secs_f64();
    println!("{label:<48} {rate:>7.0} req/s with {CLIENTS} clients");
}

/// Times one operation `runs` times and prints the median.
async fn once<F, Fut>(label: &str, runs: usize, mut op: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = String>,
{
    let mut times = Vec::new();
    let mut note = String::new();
    for _ in 0..runs {
        let t = Instant::now();
        note = op().await;
        times.push(t.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2].as_secs_f64() * 1e3;
    println!("{label:<48} {median:>8.1} ms (median of {runs}) {note}");
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bench = Bench {
        server: LocalServer::start_with_limit(dir.path(), 512 << 20)
            .await
            .expect("server"),
        http: reqwest::Client::new(),
    };
    println!("diagtui local server, loopback HTTP, {SAMPLES} requests per latency figure\n");

    let (small, small_obj) = bench.doc_with("100 objects", 100).await;
    let get_path = format!("/api/v1/doc/{small}/obj/{small_obj}");
    latency("GET one object (100-object doc)", |_| async {
        bench.get(&get_path).await;
    })
    .await;
    throughput("GET one object", &bench, get_path.clone(), None).await;
    let update = |i: usize| json!({"props": {"meta": {"kind": "node", "cpu": i % 100}}});
    let small_update = latency("update one object (100-object doc)", |i| {
        let (path, body) = (get_path.clone(), update(i));
        let bench = &bench;
        async move {
            bench.post(&path, &body).await;
        }
    })
    .await;
    throughput(
        "update one object",
        &bench,
        get_path.clone(),
        Some(update(1)),
    )
    .await;

    println!();
    let (ten_k, _) = bench.doc_with("10,000 objects", 10_000).await;
    once("selector update over 10,000 objects", 5, || async {
        let answer = bench
            .post(
                &format!("/api/v1/doc/{ten_k}/obj/where"),
                &json!({"selector": ["kind", "eq", "node"], "props": {"opacity": 0.75}}),
            )
            .await;
        format!("({} updated)", answer["updatedObjectCount"])
    })
    .await;
    once(
        "selector read over 10,000 objects (1/7 match)",
        5,
        || async {
            let answer = bench
                .get(&format!(
                    "/api/v1/doc/{ten_k}/obj/where/%5B%22status%22%2C%22eq%22%2C%22down%22%5D"
                ))
                .await;
            format!("({} matched)", answer.as_object().unwrap().len())
        },
    )
    .await;

    println!();
    let big_doc = bench
        .post("/api/v1/doc/create", &json!({"title": "100,000 objects"}))
        .await["docId"]
        .as_str()
        .unwrap()
        .to_owned();
    let big_content = Value::Object(content(100_000));
    let big_body = serde_json::to_vec(&big_content).unwrap();
    let big_mid = big_content
        .as_object()
        .unwrap()
        .keys()
        .nth(50_000)
        .unwrap()
        .clone();
    once("set-content, 100,000 objects", 3, || async {
        let resp = bench
            .http
            .post(bench.url(&format!("/api/v1/doc/set-content/{big_doc}")))
            .bearer_auth(bench.server.api_key())
            .header("content-type", "application/json")
            .body(big_body.clone())
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success());
        format!("({:.1} MB body)", big_body.len() as f64 / 1e6)
    })
    .await;
    once("obj/all, 100,000 objects", 3, || async {
        let resp = bench
            .http
            .get(bench.url(&format!("/api/v1/doc/{big_doc}/obj/all")))
            .bearer_auth(bench.server.api_key())
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success());
        let bytes = resp.bytes().await.unwrap();
        format!("({:.1} MB answer)", bytes.len() as f64 / 1e6)
    })
    .await;

    println!();
    let big_path = format!("/api/v1/doc/{big_doc}/obj/{big_mid}");
    let big_update = latency("update one object (100,000-object doc)", |i| {
        let (path, body) = (big_path.clone(), update(i));
        let bench = &bench;
        async move {
            bench.post(&path, &body).await;
        }
    })
    .await;
    println!(
        "update p50 ratio, 100,000 vs 100 objects: {:.2} (p99 {:.2})",
        big_update.0 / small_update.0,
        big_update.1 / small_update.1
    );
    bench.server.shutdown().await;
}
