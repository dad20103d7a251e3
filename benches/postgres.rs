//! The two engines side by side: `cargo bench --bench postgres`. `diagtui serve` runs twice as
//! its own process, once on a data dir's SQLite and once on PostgreSQL (a throwaway cluster
//! with the server's default, durable settings: fsync on, synchronous commit), and the same
//! requests go to both, interleaved, so that what else the machine does weighs on both alike:
//! the latency of one GET and one update of an object in a 100-object document (sequential,
//! p50/p99), and their throughput with 32 connections. The load generator runs in this
//! process, on the same cores as the servers and the database.

#[path = "../tests/common/postgres.rs"]
#[allow(dead_code)]
mod pg;
#[path = "common/quantiles.rs"]
mod quantiles;
#[path = "common/serve.rs"]
mod serve;

use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quantiles::percentiles;
use serde_json::{Value, json};
use serve::start_listening;

/// Requests per latency figure.
const SAMPLES: usize = 2000;
/// Connections of the throughput runs.
const CONNECTIONS: usize = 32;
/// How long each throughput run lasts.
const RUN: Duration = Duration::from_secs(3);
/// Rounds of the interleaved measurements.
const ROUNDS: usize = 2;

/// A server under measurement, with a 100-object document and one of its objects.
struct Target {
    name: &'static str,
    child: Child,
    url: String,
    key: String,
    object: String,
}

impl Target {
    /// Starts `serve` with these arguments and fills a document through it.
    async fn start(name: &'static str, args: &[&str], key: String) -> Target {
        let (child, url) = start_listening(
            Command::new(env!("CARGO_BIN_EXE_diagtui"))
                .args(["serve", "--bind", "127.0.0.1:0"])
                .args(args),
        );
        let http = reqwest::Client::new();
        let post = |path: String, body: Value| {
            let req = http
                .post(format!("{url}{path}"))
                .bearer_auth(&key)
                .json(&body);
            async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        let doc = post("/api/v1/doc/create".into(), json!({"title": "bench"})).await["docId"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut object = String::new();
        for n in 0..100 {
            let made = post(
                format!("/api/v1/doc/{doc}/obj"),
                json!({"type": "component",
                       "props": {"componentId": "generic.server", "meta": {"n": n}}}),
            )
            .await;
            object = made["objId"]
                .as_str()
                .unwrap_or_else(|| panic!("{name}: {made}"))
                .to_owned();
        }
        Target {
            name,
            child,
            url: format!("{url}/api/v1/doc/{doc}/obj/{object}"),
            key,
            object,
        }
    }

    /// One GET (`update` false) or update of the object.
    async fn request(&self, http: &reqwest::Client, update: bool, n: usize) {
        let req = if update {
            http.post(&self.url)
                .json(&json!({"props": {"meta": {"cpu": n % 100}}}))
        } else {
            http.get(&self.url)
        };
        let resp = req.bearer_auth(&self.key).send().await.expect("sent");
        assert!(
            resp.status().is_success(),
            "{}: {}",
            self.object,
            resp.status()
        );
        resp.bytes().await.expect("body");
    }

    /// p50 and p99 of sequential requests, in µs.
    async fn latency(&self, update: bool) -> (f64, f64) {
        let http = reqwest::Client::new();
        let mut times = Vec::with_capacity(SAMPLES);
        for n in 0..SAMPLES {
            let start = Instant::now();
            self.request(&http, update, n).await;
            times.push(start.elapsed());
        }
        percentiles(times)
    }

    /// Requests per second over [`CONNECTIONS`] connections.
    async fn throughput(self: &Arc<Self>, update: bool) -> f64 {
        let done = Arc::new(AtomicUsize::new(0));
        let until = Instant::now() + RUN;
        let tasks: Vec<_> = (0..CONNECTIONS)
            .map(|_| {
                let (target, done) = (Arc::clone(self), Arc::clone(&done));
                tokio::spawn(async move {
                    let http = reqwest::Client::new();
                    while Instant::now() < until {
                        target
                            .request(&http, update, done.load(Ordering::Relaxed))
                            .await;
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        let start = Instant::now();
        for task in tasks {
            task.await.unwrap();
        }
        done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
    }
}

#[tokio::main]
async fn main() {
    let Some(cluster) = pg::Cluster::start_with("-c max_connections=100") else {
        println!("no PostgreSQL server binary (pg_ctl) found: nothing to compare");
        return;
    };
    cluster.psql("postgres", "CREATE DATABASE bench");
    let url = cluster.url("bench");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let account = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_diagtui"))
            .args(["account", "create", "bench@example.com"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let sqlite_key = account(&["--data-dir", &data]);
    let pg_key = account(&["--database", &url]);
    let targets = [
        Arc::new(Target::start("SQLite", &["--data-dir", &data], sqlite_key).await),
        Arc::new(Target::start("PostgreSQL", &["--database", &url], pg_key).await),
    ];
    println!(
        "one object of a 100-object document; latency over {SAMPLES} sequential requests, \
         throughput over {CONNECTIONS} connections for {}s; {ROUNDS} interleaved rounds\n",
        RUN.as_secs()
    );
    for round in 1..=ROUNDS {
        for (update, what) in [(false, "GET"), (true, "update")] {
            let mut rates = Vec::new();
            for target in &targets {
                let (p50, p99) = target.latency(update).await;
                let rate = target.throughput(update).await;
                rates.push(rate);
                println!(
                    "round {round} {what:<7} {:<11} p50 {p50:>6.0} µs  p99 {p99:>6.0} µs  \
                     {rate:>7.0} req/s",
                    target.name
                );
            }
            println!(
                "round {round} {what:<7} PostgreSQL / SQLite throughput: {:.2}",
                rates[1] / rates[0]
            );
        }
    }
    for target in targets {
        let mut target = Arc::into_inner(target).expect("the runs are over");
        let _ = target.child.kill();
        let _ = target.child.wait();
    }
    cluster.stop_server();
}
