//! What running `diagtui serve` as a service costs: `cargo bench --bench operations [-- PART...]`
//! with PART one of `metrics`, `conditional`, `scrape`, `soak` (all four when none is named).
//!
//! - `metrics`: what `--metrics-bind` costs. `DIAGTUI_OPS_PROCESSES` (default 3) `serve`
//!   processes with metrics on and as many without, each on its own data dir, pinned to core
//!   0; `wrk` (one thread, 32 connections) on core 1; GET and update of one object, an on and
//!   an off server interleaved run by run (A B A B), round k on the k-th pair in turn, rounds
//!   set by `DIAGTUI_OPS_ROUNDS` (default 5); the rates, the servers' own CPU per request (from
//!   /proc) and the ratios on/off printed. Then as many rounds head to head: both servers of a
//!   pair loaded at once, sharing the core, which other load on the machine disturbs less. Then
//!   the same with each server without metrics against the next one: the control, what the
//!   method reads between identical servers in the same run. Needs `wrk`
//!   (`scripts/ceiling.sh` installs it).
//! - `conditional`: what `If-Match` costs an update (issue 33). Two `serve` processes of the
//!   same build on their own data dirs, loaded as in `metrics`, one with plain updates, the other
//!   with the same updates sent with `If-Match: *` (every one checked by the writer against the
//!   object's stored version, and every one passing, so that the two write alike); interleaved
//!   runs, then head to head; the ratio If-Match/plain printed. Needs `wrk`.
//! - `scrape`: `/metrics` with 10,000 documents of 10 objects cached: the time to answer.
//! - `soak`: `DIAGTUI_SOAK_UPDATES` (default 1,000,000) single-object updates at full rate (32
//!   connections) on a 500-object document. The WAL's size sampled every 100 ms; the update
//!   latency overall and of the updates in flight while a checkpoint ran, the writer's (which
//!   writes wait for) apart from the checkpointer's (the server logs each checkpoint with its
//!   duration at debug level); the disk used per update; then `kill -9`
//!   and the time until a new `serve` on the data dir answers `/readyz` 200.

use std::path::{Path, PathBuf};
use std::process::{ChildStderr, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use diagtui_testkit::quantiles::percentiles;
use diagtui_testkit::wrk::{self, Wrk};
use diagtui_testkit::{Bin, generated};
use diagtui_testkit_server::serve::{Served, key_of, start, start_metered};
use serde_json::{Value, json};

mod compare;

use compare::{Side, compare};

/// The median of some figures (0 for none).
fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    figures.get(figures.len() / 2).copied().unwrap_or(0.0)
}

/// The core the servers of the `metrics` part run on.
const SERVER_CORE: &str = "0";
/// The load of the `metrics` part: one thread, 32 keep-alive connections, 4 s runs.
const LOAD: Wrk = Wrk {
    core: "1",
    connections: 32,
    seconds: 4,
};
/// Documents cached for the `scrape` part.
const SCRAPE_DOCS: usize = 10_000;
/// Scrapes timed.
const SCRAPES: usize = 500;
/// Objects of the soak's document.
const SOAK_OBJECTS: usize = 500;
/// Requests the soak keeps in flight.
const SOAK_CLIENTS: usize = 32;
/// How often the soak samples the WAL's size.
const WAL_SAMPLE: Duration = Duration::from_millis(100);

fn bin() -> Bin {
    Bin::new(env!("CARGO_BIN_EXE_diagtui"))
}

/// A number from the environment, else `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map(|v| v.replace(['_', ','], "").parse().expect(name))
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| named.is_empty() || named.iter().any(|n| n == part);
    if wanted("metrics") {
        metrics_cost().await;
    }
    if wanted("conditional") {
        conditional_cost().await;
    }
    if wanted("scrape") {
        scrape_time().await;
    }
    if wanted("soak") {
        soak().await;
    }
}

/// A `serve` to load: the process, its metrics URL if on, its key and one object's URL.
struct Target {
    served: Served,
    metrics: Option<String>,
    key: String,
    object: String,
}

impl Target {
    /// `serve` pinned to the server core on the data dir `name` in `dir`, metrics on or off,
    /// with a document holding one component.
    async fn start(dir: &Path, name: &str, metered: bool) -> Target {
        let data = dir.join(name);
        let mut command = Command::new("taskset");
        command
            .args(["-c", SERVER_CORE])
            .arg(bin().path())
            .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .env("DIAGTUI_CONFIG", "/dev/null")
            .stderr(Stdio::null());
        let (served, metrics) = if metered {
            command.args(["--metrics-bind", "127.0.0.1:0"]);
            let (served, metrics) = start_metered(&mut command);
            (served, Some(metrics))
        } else {
            (start(&mut command), None)
        };
        let key = key_of(&data);
        let http = reqwest::Client::new();
        let doc = post(
            &http,
            &served.url,
            &key,
            "/api/v1/doc/create",
            json!({"title": "ops"}),
        )
        .await["docId"]
            .as_str()
            .expect("docId")
            .to_owned();
        let props =
            json!({"componentId": "computation.aws-ec2", "meta": {"kind": "node", "cpu": 0}});
        let made = post(
            &http,
            &served.url,
            &key,
            &format!("/api/v1/doc/{doc}/obj"),
            json!({"type": "component", "props": props}),
        )
        .await;
        let object = format!(
            "{}/api/v1/doc/{doc}/obj/{}",
            served.url,
            made["objId"].as_str().expect("objId")
        );
        Target {
            served,
            metrics,
            key,
            object,
        }
    }

    /// The server's CPU time so far (user and system), in seconds.
    #[allow(unsafe_code, reason = "FFI: sysconf")]
    fn cpu(&self) -> f64 {
        let pid = self.served.child.id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
        // The fields after the command's closing parenthesis; utime and stime are 14 and 15.
        let fields: Vec<&str> = stat[stat.rfind(')').expect("stat") + 2..]
            .split(' ')
            .collect();
        let ticks: u64 =
            fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
        // SAFETY: sysconf only reads a system setting.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        ticks as f64 / per_second as f64
    }

    /// One wrk run: its rate and the server's CPU per request in µs.
    fn measure(&self, script: Option<&Path>) -> (f64, f64) {
        let before = self.cpu();
        let run = LOAD.run(&self.object, &self.key, script);
        let cpu = self.cpu() - before;
        (run.rate, cpu * 1e6 / run.requests as f64)
    }
}

/// POSTs `body` to `path`; the JSON answer, which must be a success.
async fn post(http: &reqwest::Client, base: &str, key: &str, path: &str, body: Value) -> Value {
    let answer = http
        .post(format!("{base}{path}"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .expect("sent");
    let status = answer.status();
    let body: Value = answer.json().await.expect("JSON");
    assert!(status.is_success(), "POST {path}: {status} {body}");
    body
}

/// A wrk script updating the object with a new value every request (so that every update
/// writes), sending `headers` too.
fn update_script(path: &Path, headers: &str) {
    std::fs::write(
        path,
        format!(
            "counter = 0\nwrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\n\
             {headers}request = function()\n  counter = counter + 1\n  return wrk.format(nil, nil, nil, \
             '{{\"props\":{{\"meta\":{{\"kind\":\"node\",\"cpu\":' .. counter .. '}}}}}}')\nend\n"
        ),
    )
    .expect("script");
}

/// GET and update throughput and CPU per request with metrics on against off.
async fn metrics_cost() {
    if let Some(tool) = wrk::missing() {
        println!("metrics: `{tool}` is missing (scripts/ceiling.sh installs wrk): skipped\n");
        return;
    }
    let rounds = setting("DIAGTUI_OPS_ROUNDS", 5);
    let processes = setting("DIAGTUI_OPS_PROCESSES", 3).max(2);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut offs = Vec::new();
    let mut ons = Vec::new();
    for k in 0..processes {
        offs.push(Target::start(dir.path(), &format!("off{k}"), false).await);
        ons.push(Target::start(dir.path(), &format!("on{k}"), true).await);
    }
    let script = dir.path().join("update.lua");
    update_script(&script, "");
    println!(
        "metrics: {processes} serve processes with --metrics-bind (on) and {processes} without \
         (off) on core {SERVER_CORE}, round k on the k-th pair (in turn), wrk with {} \
         connections on core {}, {} s runs, {rounds} rounds interleaved",
        LOAD.connections, LOAD.core, LOAD.seconds
    );
    for (label, script) in [
        ("GET one object", None),
        ("update one object", Some(script.as_path())),
    ] {
        let side = |name, target| Side {
            name,
            target,
            script,
        };
        let metered: Vec<_> = (offs.iter().zip(&ons))
            .map(|(off, on)| (side("off", off), side("on", on)))
            .collect();
        compare(label, &metered, rounds);
        // The control: each server without metrics against the next one.
        let control: Vec<_> = (0..processes)
            .map(|k| {
                let next = &offs[(k + 1) % processes];
                (side("off", &offs[k]), side("off again", next))
            })
            .collect();
        compare(&format!("{label}, control"), &control, rounds);
    }
    let mut counted = 0.0;
    for on in &ons {
        let metrics = on.metrics.as_deref().expect("metrics on");
        let text = reqwest::get(format!("{metrics}/metrics"))
            .await
            .expect("scraped")
            .text()
            .await
            .expect("text");
        counted += text
            .lines()
            .filter(|l| l.starts_with("diagtui_http_requests_total{"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>();
    }
    println!("  (the metered servers counted {counted:.0} requests)\n");
}

/// Update throughput and CPU per request with `If-Match` against without.
async fn conditional_cost() {
    if let Some(tool) = wrk::missing() {
        println!("conditional: `{tool}` is missing (scripts/ceiling.sh installs wrk): skipped\n");
        return;
    }
    let rounds = setting("DIAGTUI_OPS_ROUNDS", 5);
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = Target::start(dir.path(), "plain", false).await;
    let checked = Target::start(dir.path(), "checked", false).await;
    let (plain_script, checked_script) =
        (dir.path().join("plain.lua"), dir.path().join("checked.lua"));
    update_script(&plain_script, "");
    update_script(&checked_script, "wrk.headers[\"If-Match\"] = \"*\"\n");
    println!(
        "conditional: two serve processes on core {SERVER_CORE}, updates without (plain) and with \
         If-Match: * (If-Match), wrk with {} connections on core {}, {} s runs, {rounds} rounds \
         interleaved",
        LOAD.connections, LOAD.core, LOAD.seconds
    );
    let a = Side {
        name: "plain",
        target: &plain,
        script: Some(&plain_script),
    };
    let b = Side {
        name: "If-Match",
        target: &checked,
        script: Some(&checked_script),
    };
    compare("update one object", &[(a, b)], rounds);
    println!();
}

/// `/metrics` answered with [`SCRAPE_DOCS`] documents cached.
async fn scrape_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let mut command = bin().serve_command(&data);
    command
        .args(["--metrics-bind", "127.0.0.1:0"])
        .stderr(Stdio::null());
    let (served, metrics) = start_metered(&mut command);
    let key = key_of(&data);
    let http = reqwest::Client::new();
    let content = Value::Object(generated::content(10));
    // The documents, made and filled 16 at a time, then each read once.
    let next = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..16)
        .map(|_| {
            let (http, base, key) = (http.clone(), served.url.clone(), key.clone());
            let (next, content) = (Arc::clone(&next), content.clone());
            tokio::spawn(async move {
                while next.fetch_add(1, Ordering::Relaxed) < SCRAPE_DOCS as u64 {
                    let made = post(
                        &http,
                        &base,
                        &key,
                        "/api/v1/doc/create",
                        json!({"title": "d"}),
                    )
                    .await;
                    let doc = made["docId"].as_str().expect("docId");
                    post(
                        &http,
                        &base,
                        &key,
                        &format!("/api/v1/doc/set-content/{doc}"),
                        content.clone(),
                    )
                    .await;
                    let read = http
                        .get(format!("{base}/api/v1/doc/{doc}/obj/all"))
                        .bearer_auth(&key)
                        .send()
                        .await
                        .expect("sent");
                    assert!(read.status().is_success());
                }
            })
        })
        .collect();
    for worker in workers {
        worker.await.expect("worker");
    }
    let scrape = || async {
        let answer = http
            .get(format!("{metrics}/metrics"))
            .send()
            .await
            .expect("scraped");
        assert!(answer.status().is_success());
        answer.text().await.expect("text")
    };
    let text = scrape().await;
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{name} in {text}"))
    };
    assert_eq!(value("diagtui_cache_evictions_total"), 0.0, "all kept");
    let mut times = Vec::with_capacity(SCRAPES);
    for _ in 0..SCRAPES {
        let began = Instant::now();
        scrape().await;
        times.push(began.elapsed());
    }
    let slowest = times.iter().max().expect("times").as_secs_f64() * 1e3;
    let (p50, p99) = percentiles(times);
    println!(
        "scrape: /metrics with {SCRAPE_DOCS} documents cached ({:.1} MB, none evicted), {} series \
         lines, {} bytes: p50 {:.2} ms, p99 {:.2} ms, slowest {slowest:.2} ms ({SCRAPES} scrapes)\n",
        value("diagtui_cache_bytes") / 1e6,
        text.lines().filter(|l| !l.starts_with('#')).count(),
        text.len(),
        p50 / 1e3,
        p99 / 1e3,
    );
    drop(served);
}

/// A checkpoint the server logged: when it ran, relative to the soak's start, in µs.
#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    /// Run by the writer between its batches (writes wait for it), else by the checkpointer.
    on_writer: bool,
    /// Frames it left uncopied (a reader on an older snapshot): the log cannot start over.
    left: i64,
    start: i64,
    end: i64,
}

/// Reads the server's JSON log until it ends: the checkpoints, placed relative to `zero`.
fn checkpoints(stderr: ChildStderr, zero: SystemTime) -> Vec<Checkpoint> {
    use std::io::BufRead;
    let zero = time::OffsetDateTime::from(zero);
    let mut found = Vec::new();
    for line in std::io::BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        let Ok(entry) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if entry["message"] != "checkpoint" {
            continue;
        }
        let at = entry["timestamp"].as_str().expect("timestamp");
        let at = time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
            .expect("an RFC 3339 timestamp");
        let end = i64::try_from((at - zero).whole_microseconds()).expect("µs");
        let micros = entry["micros"].as_i64().expect("micros");
        found.push(Checkpoint {
            on_writer: entry["on"] == "writer",
            left: entry["left"].as_i64().unwrap_or(0),
            start: end - micros,
            end,
        });
    }
    found
}

/// An answered update: when it was sent (µs from the start) and how long it took (µs).
#[derive(Clone, Copy)]
struct Answered {
    sent: i64,
    took: i64,
}

/// Whether `update` was in flight during one of `windows` (disjoint, sorted by start).
fn overlaps(update: &Answered, windows: &[Checkpoint]) -> bool {
    let end = update.sent + update.took;
    let before = windows.partition_point(|w| w.start < end);
    before > 0 && windows[before - 1].end > update.sent
}

/// p50, p99 and the slowest of some latencies in µs, as text in ms.
fn latency(took: impl Iterator<Item = i64>) -> String {
    let times: Vec<Duration> = took.map(|t| Duration::from_micros(t as u64)).collect();
    if times.is_empty() {
        return "none".into();
    }
    let slowest = times.iter().max().expect("times").as_secs_f64() * 1e3;
    let count = times.len();
    let (p50, p99) = percentiles(times);
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, slowest {slowest:.1} ms ({count} updates)",
        p50 / 1e3,
        p99 / 1e3
    )
}

/// The bytes of the files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .expect("data dir")
        .filter_map(|e| e.ok()?.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// The soak: updates at full rate, the WAL sampled, checkpoints' latency, a restart after
/// `kill -9`.
async fn soak() {
    let updates = setting("DIAGTUI_SOAK_UPDATES", 1_000_000) as u64;
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let mut command = bin().serve_command(&data);
    command
        .args(["--log-format", "json"])
        .env("RUST_LOG", "warn,diagtui_store::sqlite::checkpointer=debug")
        .stderr(Stdio::piped());
    let mut served = start(&mut command);
    let key = key_of(&data);
    let http = reqwest::Client::new();
    let objects = soak_document(&http, &served.url, &key).await;
    let db = data.join("diagtui.db");
    let wal = data.join("diagtui.db-wal");
    let db_before = std::fs::metadata(&db).expect("database").len();

    let zero = (SystemTime::now(), Instant::now());
    let log = served.child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || checkpoints(log, zero.0));
    let done = Arc::new(AtomicU64::new(0));
    let sampler = tokio::spawn(sample_wal(wal.clone(), updates, Arc::clone(&done), zero.1));
    let answered = update_at_full_rate(&http, &key, objects, updates, done, zero.1).await;
    let seconds = zero.1.elapsed().as_secs_f64();
    let samples = sampler.await.expect("sampler");
    let wal_at_kill = std::fs::metadata(&wal).map_or(0, |m| m.len());

    served.child.kill().expect("killed");
    served.child.wait().expect("reaped");
    let windows = reader.join().expect("log reader");
    let (listening, ready) = restart_until_ready(&http, &data).await;
    let db_after = std::fs::metadata(&db).expect("database").len();

    let mib = |bytes: u64| bytes as f64 / (1 << 20) as f64;
    let largest = samples.iter().max().copied().unwrap_or(0);
    println!(
        "soak: {updates} single-object updates, {SOAK_CLIENTS} connections, a {SOAK_OBJECTS}-object \
         document: {seconds:.0} s, {:.0} updates/s",
        updates as f64 / seconds
    );
    println!(
        "  WAL: largest {:.1} MiB over {} samples every {} ms ({} over 64 MB); {:.1} MiB at the kill",
        mib(largest),
        samples.len(),
        WAL_SAMPLE.as_millis(),
        samples.iter().filter(|&&s| s > 64_000_000).count(),
        mib(wal_at_kill)
    );
    report_checkpoints(&windows, &answered);
    println!(
        "  disk: the database grew {:.1} MiB ({:.0} bytes per update, history included); data dir \
         {:.1} MiB after a graceful stop",
        mib(db_after - db_before),
        (db_after - db_before) as f64 / updates as f64,
        mib(dir_bytes(&data))
    );
    println!(
        "  after kill -9: listening in {:.0} ms, /readyz 200 in {:.0} ms",
        listening.as_secs_f64() * 1e3,
        ready.as_secs_f64() * 1e3
    );
}

/// The soak's document, made on the server at `base`: the URLs of its components (each update
/// adds or changes a property of one's meta).
async fn soak_document(http: &reqwest::Client, base: &str, key: &str) -> Vec<String> {
    let created = post(
        http,
        base,
        key,
        "/api/v1/doc/create",
        json!({"title": "soak"}),
    )
    .await;
    let doc = created["docId"].as_str().expect("docId").to_owned();
    let content = generated::content(SOAK_OBJECTS);
    let objects = content
        .iter()
        .filter(|(_, o)| o["type"] == "component")
        .map(|(id, _)| format!("{base}/api/v1/doc/{doc}/obj/{id}"))
        .collect();
    let path = format!("/api/v1/doc/set-content/{doc}");
    post(http, base, key, &path, Value::Object(content)).await;
    objects
}

/// The WAL's size every [`WAL_SAMPLE`] until `updates` are `done`, with a line on stderr every
/// 30 s.
async fn sample_wal(wal: PathBuf, updates: u64, done: Arc<AtomicU64>, zero: Instant) -> Vec<u64> {
    let mut samples = Vec::new();
    let mut last_note = Instant::now();
    while done.load(Ordering::Relaxed) < updates {
        samples.push(std::fs::metadata(&wal).map_or(0, |m| m.len()));
        if last_note.elapsed() > Duration::from_secs(30) {
            last_note = Instant::now();
            let so_far = done.load(Ordering::Relaxed);
            let rate = so_far as f64 / zero.elapsed().as_secs_f64();
            let largest = samples.iter().max().copied().unwrap_or(0);
            eprintln!(
                "  soak: {so_far} updates, {rate:.0}/s, largest WAL {:.1} MiB",
                largest as f64 / (1 << 20) as f64
            );
        }
        tokio::time::sleep(WAL_SAMPLE).await;
    }
    samples
}

/// `updates` single-object updates round `objects`, [`SOAK_CLIENTS`] in flight, each counted
/// in `done` once answered; when each was sent (from `zero`) and how long it took.
async fn update_at_full_rate(
    http: &reqwest::Client,
    key: &str,
    objects: Vec<String>,
    updates: u64,
    done: Arc<AtomicU64>,
    zero: Instant,
) -> Vec<Answered> {
    let objects = Arc::new(objects);
    let next = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..SOAK_CLIENTS)
        .map(|_| {
            let (http, key, objects) = (http.clone(), key.to_owned(), Arc::clone(&objects));
            let (next, done) = (Arc::clone(&next), Arc::clone(&done));
            tokio::spawn(async move {
                let mut answered = Vec::new();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= updates {
                        return answered;
                    }
                    let url = &objects[n as usize % objects.len()];
                    let sent = Instant::now();
                    let answer = http
                        .post(url)
                        .bearer_auth(&key)
                        .json(&json!({"props": {"meta": {"seq": n}}}))
                        .send()
                        .await
                        .expect("sent");
                    let status = answer.status();
                    answer.bytes().await.expect("answer");
                    assert!(status.is_success(), "update {n}: {status}");
                    answered.push(Answered {
                        sent: (sent - zero).as_micros() as i64,
                        took: sent.elapsed().as_micros() as i64,
                    });
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let mut answered = Vec::with_capacity(updates as usize);
    for client in clients {
        answered.extend(client.await.expect("client"));
    }
    answered
}

/// After a `kill -9`: a new server on `data` until it is ready (how long until it listened and
/// until `/readyz` answered 200), then a graceful stop, which copies the whole log into the
/// database (its size then is what the updates left).
#[allow(unsafe_code, reason = "FFI: kill")]
async fn restart_until_ready(http: &reqwest::Client, data: &Path) -> (Duration, Duration) {
    let restarted = Instant::now();
    let mut command = bin().serve_command(data);
    let mut again = start(command.stderr(Stdio::null()));
    let listening = restarted.elapsed();
    loop {
        let ready = http.get(format!("{}/readyz", again.url)).send().await;
        if ready.is_ok_and(|r| r.status().is_success()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let ready = restarted.elapsed();
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(again.child.id() as i32, libc::SIGTERM) };
    assert!(again.child.wait().expect("stopped").success());
    (listening, ready)
}

/// The checkpoints' times (the writer's, which writes wait for, and the checkpointer's) and
/// the latency of the updates in flight during each kind.
fn report_checkpoints(windows: &[Checkpoint], answered: &[Answered]) {
    let (finishes, passive): (Vec<Checkpoint>, Vec<Checkpoint>) =
        windows.iter().partition(|w| w.on_writer);
    let held: Vec<i64> = finishes.iter().map(|w| w.end - w.start).collect();
    let p99_held = if held.is_empty() {
        0.0
    } else {
        percentiles(
            held.iter()
                .map(|&h| Duration::from_micros(h as u64))
                .collect(),
        )
        .1 / 1e3
    };
    let passive_ms = passive.iter().map(|w| (w.end - w.start) as f64 / 1e3);
    println!(
        "  checkpoints: {} on the checkpointer (median {:.1} ms), {} finished by the writer \
         (median {:.1} ms, p99 {p99_held:.1} ms, longest {:.1} ms; {} left frames to a reader)",
        passive.len(),
        median(passive_ms.collect()),
        finishes.len(),
        median(held.iter().map(|&h| h as f64 / 1e3).collect()),
        held.iter().max().copied().unwrap_or(0) as f64 / 1e3,
        finishes.iter().filter(|w| w.left > 0).count(),
    );
    let during = |windows: &[Checkpoint]| {
        let caught = answered.iter().filter(|a| overlaps(a, windows));
        latency(caught.map(|a| a.took))
    };
    println!(
        "  update latency, all:                        {}",
        latency(answered.iter().map(|a| a.took))
    );
    println!(
        "  update latency, during the writer's checkpoints: {}",
        during(&finishes)
    );
    println!(
        "  update latency, during the checkpointer's:     {}",
        during(&passive)
    );
}
