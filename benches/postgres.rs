//! The two engines side by side: `cargo bench --bench postgres`. `diagtui serve` runs twice as
//! its own process, once on a data dir's SQLite and once on PostgreSQL (a throwaway cluster
//! with the server's default, durable settings: fsync on, synchronous commit), and the same
//! requests go to both, interleaved, so that what else the machine does weighs on both alike:
//! the latency of one GET and one update of an object in a 100-object document (sequential,
//! p50/p99), and their throughput with 32 connections. Then a team: two instances on the
//! PostgreSQL database and a 1,000-object document, 16 connections reading one object through
//! instance B, idle and while one connection updates another object through instance A (B
//! applies A's commits to its cache), as fast as it can and paced at 420 writes a second; and
//! the control, the same paced writes through an instance C of another database, which B has
//! nothing to do with (`cargo bench --bench postgres -- team` runs these alone). The load
//! generator runs in this process, on the same cores as the servers and the database.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use diagtui_testkit::postgres as pg;
use diagtui_testkit::quantiles::percentiles;
use diagtui_testkit_server::serve::{Guard, Served, start};
use serde_json::{Value, json};

/// Requests per latency figure.
const SAMPLES: usize = 2000;
/// Connections of the throughput runs.
const CONNECTIONS: usize = 32;
/// How long each throughput run lasts.
const RUN: Duration = Duration::from_secs(3);
/// Rounds of the interleaved measurements.
const ROUNDS: usize = 2;
/// Connections reading through instance B in the team runs.
const TEAM_READERS: usize = 16;
/// Objects of the team runs' document.
const TEAM_OBJECTS: usize = 1000;
/// The paced team run's writes a second: the rate at which issue 20 measured a team.
const TEAM_WRITE_RATE: u32 = 420;

/// A server under measurement, with a 100-object document and one of its objects.
struct Target {
    name: &'static str,
    child: Guard,
    /// The object's URL.
    url: String,
    key: String,
}

impl Target {
    /// Starts `serve` with these arguments and fills a document through it.
    async fn start(name: &'static str, args: &[&str], key: String) -> Target {
        let Served { child, url } = start(
            Command::new(env!("CARGO_BIN_EXE_diagtui"))
                .args(["serve", "--bind", "127.0.0.1:0"])
                .args(args)
                .stderr(Stdio::null()),
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
        }
    }

    /// One GET (`update` false) or update of the object.
    async fn request(&self, http: &reqwest::Client, update: bool, n: usize) {
        request(http, &self.url, &self.key, update.then(|| update_body(n))).await;
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
        let start = Instant::now();
        let done = hammer(&self.url, &self.key, update, CONNECTIONS, start + RUN).await;
        done as f64 / start.elapsed().as_secs_f64()
    }
}

/// The body of the `n`th update of an object.
fn update_body(n: usize) -> Value {
    json!({"props": {"meta": {"cpu": n % 100}}})
}

/// One GET of `url`, or POST of `body`; it must succeed.
async fn request(http: &reqwest::Client, url: &str, key: &str, body: Option<Value>) {
    let req = match body {
        Some(body) => http.post(url).json(&body),
        None => http.get(url),
    };
    let resp = req.bearer_auth(key).send().await.expect("sent");
    assert!(resp.status().is_success(), "{url}: {}", resp.status());
    resp.bytes().await.expect("body");
}

/// How many GETs (`update` false) or updates of the object at `url` `connections`
/// connections complete until `until`.
async fn hammer(url: &str, key: &str, update: bool, connections: usize, until: Instant) -> usize {
    let done = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let (url, key, done) = (url.to_owned(), key.to_owned(), Arc::clone(&done));
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                while Instant::now() < until {
                    let n = done.load(Ordering::Relaxed);
                    request(&http, &url, &key, update.then(|| update_body(n))).await;
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    done.load(Ordering::Relaxed)
}

/// Updates of the object at `url`, one connection, at `rate` a second until `until`; how
/// many completed.
async fn paced(url: &str, key: &str, rate: u32, until: Instant) -> usize {
    let http = reqwest::Client::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1) / rate);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut done = 0;
    while Instant::now() < until {
        tick.tick().await;
        request(&http, url, key, Some(update_body(done))).await;
        done += 1;
    }
    done
}

/// `diagtui serve` on the PostgreSQL database at `url`: the process and its address.
fn serve_database(url: &str) -> (Guard, String) {
    let Served {
        child,
        url: listening,
    } = start(
        Command::new(env!("CARGO_BIN_EXE_diagtui"))
            .args(["serve", "--bind", "127.0.0.1:0", "--database", url])
            .stderr(Stdio::null()),
    );
    (child, listening)
}

/// A new document of [`TEAM_OBJECTS`] objects (`obj0000`, ...) through the server at `base`;
/// its URL.
async fn team_document(http: &reqwest::Client, base: &str, key: &str) -> String {
    let created: Value = http
        .post(format!("{base}/api/v1/doc/create"))
        .bearer_auth(key)
        .json(&json!({"title": "team"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let doc = created["docId"].as_str().unwrap().to_owned();
    let content: serde_json::Map<String, Value> = (0..TEAM_OBJECTS)
        .map(|n| {
            let object = json!({"type": "component",
                                "data": {"componentId": "generic.server", "meta": {"n": n}}});
            (format!("obj{n:04}"), object)
        })
        .collect();
    let set = format!("{base}/api/v1/doc/set-content/{doc}");
    request(http, &set, key, Some(Value::Object(content))).await;
    format!("{base}/api/v1/doc/{doc}")
}

/// A PostgreSQL database and an account's key in it.
struct Database {
    url: String,
    key: String,
}

/// The team's instances: A and B on the team's database, C on the other, each with a new
/// document; the URLs of the object read through B, of the one written through A, and of the
/// one written through C.
struct Instances {
    a: Guard,
    b: Guard,
    c: Guard,
    read: String,
    written: String,
    elsewhere: String,
}

impl Instances {
    /// Starts the three instances and fills their documents.
    async fn start(team: &Database, other: &Database) -> Instances {
        let ((a, a_url), (b, b_url)) = (serve_database(&team.url), serve_database(&team.url));
        let (c, c_url) = serve_database(&other.url);
        let http = reqwest::Client::new();
        let doc = team_document(&http, &a_url, &team.key).await;
        let elsewhere = team_document(&http, &c_url, &other.key).await;
        Instances {
            a,
            b,
            c,
            read: format!("{}/obj/obj0000", doc.replace(&a_url, &b_url)),
            written: format!("{doc}/obj/obj0001"),
            elsewhere: format!("{elsewhere}/obj/obj0001"),
        }
    }

    /// Stops the three instances.
    fn stop(mut self) {
        for child in [&mut self.a, &mut self.b, &mut self.c] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Two instances on the `team` database: reads of one object through B, idle and while A
/// takes updates of another object of the same document. Then the control: the same paced
/// writes through an instance C of the `other` database (same cluster, same machine), which B
/// has nothing to do with; what B loses then is the machine's share of the writes, not the
/// team's.
async fn team(team: &Database, other: &Database) {
    let key = &team.key;
    let instances = Instances::start(team, other).await;
    let (read, written, elsewhere) = (&instances.read, &instances.written, &instances.elsewhere);
    println!(
        "\nteam: two instances, a {TEAM_OBJECTS}-object document, {TEAM_READERS} connections \
         reading one object through B for {}s, idle and while one connection updates another \
         object through A (as fast as it can, then paced), or, paced, an object of another \
         database through an instance C (the control)",
        RUN.as_secs()
    );
    for round in 1..=ROUNDS {
        let start = Instant::now();
        let idle = hammer(read, key, false, TEAM_READERS, start + RUN).await;
        let idle = idle as f64 / start.elapsed().as_secs_f64();
        let start = Instant::now();
        let until = start + RUN;
        let (reads, writes) = tokio::join!(
            hammer(read, key, false, TEAM_READERS, until),
            hammer(written, key, true, 1, until)
        );
        let seconds = start.elapsed().as_secs_f64();
        let (busy, writes) = (reads as f64 / seconds, writes as f64 / seconds);
        println!(
            "round {round} team reads through B: idle {idle:>7.0}/s, while A writes \
             {busy:>7.0}/s ({:.2}x) at {writes:.0} writes/s (as fast as it can)",
            busy / idle
        );
        let mut paced_ratios = Vec::new();
        for (writer, url, writer_key) in [("A", written, key), ("C", elsewhere, &other.key)] {
            let start = Instant::now();
            let until = start + RUN;
            let (reads, writes) = tokio::join!(
                hammer(read, key, false, TEAM_READERS, until),
                paced(url, writer_key, TEAM_WRITE_RATE, until)
            );
            let seconds = start.elapsed().as_secs_f64();
            let (busy, writes) = (reads as f64 / seconds, writes as f64 / seconds);
            paced_ratios.push(busy / idle);
            println!(
                "round {round} team reads through B: idle {idle:>7.0}/s, while {writer} writes \
                 {busy:>7.0}/s ({:.2}x) at {writes:.0} writes/s (paced{})",
                busy / idle,
                if writer == "C" {
                    ", another database: the control"
                } else {
                    ""
                }
            );
        }
        println!(
            "round {round} team paced ratio / control ratio: {:.2}",
            paced_ratios[0] / paced_ratios[1]
        );
    }
    instances.stop();
}

/// The cores this process may run on.
#[allow(unsafe_code, reason = "FFI: sched_getaffinity")]
fn allowed_cores() -> Vec<usize> {
    // SAFETY: `cpu_set_t` is plain data, filled in by the call.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
        set
    };
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&core| {
            // SAFETY: `CPU_ISSET` only reads the set, and `core` is below `CPU_SETSIZE`.
            unsafe { libc::CPU_ISSET(core, &set) }
        })
        .collect()
}

/// Pins thread `tid` (0: the calling thread) to `cores`; a thread gone meanwhile is of no
/// matter.
#[allow(unsafe_code, reason = "FFI: sched_setaffinity")]
fn pin_thread(tid: libc::pid_t, cores: &[usize]) {
    // SAFETY: `cpu_set_t` is plain data, filled in here and read by the call.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &core in cores {
            libc::CPU_SET(core, &mut set);
        }
        libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// Pins every thread of process `pid` to `cores` (threads started later inherit it).
fn pin_process(pid: u32, cores: &[usize]) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for task in tasks.flatten() {
        if let Ok(tid) = task.file_name().to_string_lossy().parse() {
            pin_thread(tid, cores);
        }
    }
}

/// The parent of process `pid`.
fn parent(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Pins the cluster's server processes to `cores`: the postmaster, whose later backends inherit
/// it, and the processes it runs.
fn pin_cluster(cluster: &pg::Cluster, cores: &[usize]) {
    let backend: u32 = cluster
        .query("postgres", "SELECT pg_backend_pid()")
        .trim()
        .parse()
        .unwrap();
    let postmaster = parent(backend).expect("the backend's postmaster");
    pin_process(postmaster, cores);
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>()
            && parent(pid) == Some(postmaster)
        {
            pin_process(pid, cores);
        }
    }
}

/// GETs of `url` over [`TEAM_READERS`] connections until `until`, from a thread of their own
/// on `cores`: how many completed.
fn read_on(
    cores: Vec<usize>,
    url: String,
    key: String,
    until: Instant,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        pin_thread(0, &cores);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(hammer(&url, &key, false, TEAM_READERS, until))
    })
}

/// The team again with B apart, as instances on machines of their own are: B and the load
/// generator's readers on the last core, A, C, PostgreSQL and the writes on the others. The
/// cluster stays so pinned: this runs last.
async fn team_apart(cluster: &pg::Cluster, team: &Database, other: &Database) {
    let cores = allowed_cores();
    let Some((&own, rest)) = cores.split_last().filter(|(_, rest)| !rest.is_empty()) else {
        println!("\nteam apart: fewer than two cores, skipped");
        return;
    };
    let rest = rest.to_vec();
    pin_cluster(cluster, &rest);
    pin_process(std::process::id(), &rest);
    let key = &team.key;
    let instances = Instances::start(team, other).await;
    pin_process(instances.a.id(), &rest);
    pin_process(instances.c.id(), &rest);
    pin_process(instances.b.id(), &[own]);
    let (read, written, elsewhere) = (&instances.read, &instances.written, &instances.elsewhere);
    println!(
        "\nteam apart: B and the {TEAM_READERS} reading connections on core {own}, A, C, \
         PostgreSQL and the writes on cores {rest:?}; paced writes through A, then through C \
         (the control)"
    );
    for round in 1..=ROUNDS {
        let start = Instant::now();
        let idle = read_on(vec![own], read.clone(), key.clone(), start + RUN);
        let idle = idle.join().unwrap() as f64 / start.elapsed().as_secs_f64();
        for (writer, url, writer_key) in [("A", written, key), ("C", elsewhere, &other.key)] {
            let start = Instant::now();
            let until = start + RUN;
            let reads = read_on(vec![own], read.clone(), key.clone(), until);
            let writes = paced(url, writer_key, TEAM_WRITE_RATE, until).await;
            let reads = reads.join().unwrap();
            let seconds = start.elapsed().as_secs_f64();
            let (busy, writes) = (reads as f64 / seconds, writes as f64 / seconds);
            println!(
                "round {round} team apart, reads through B: idle {idle:>7.0}/s, while {writer} \
                 writes {busy:>7.0}/s ({:.2}x) at {writes:.0} writes/s (paced{})",
                busy / idle,
                if writer == "C" {
                    ", another database: the control"
                } else {
                    ""
                }
            );
        }
    }
    pin_process(std::process::id(), &cores);
    instances.stop();
}

/// Whether the command line asks for the team runs alone (`cargo bench --bench postgres --
/// team`).
fn only_team() -> bool {
    std::env::args().skip(1).any(|arg| arg == "team")
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
    let team_db = Database {
        url: url.clone(),
        key: pg_key.clone(),
    };
    cluster.psql("postgres", "CREATE DATABASE other");
    let other_url = cluster.url("other");
    let other_db = Database {
        key: account(&["--database", &other_url]),
        url: other_url,
    };
    if only_team() {
        team(&team_db, &other_db).await;
        team_apart(&cluster, &team_db, &other_db).await;
        cluster.stop_server();
        return;
    }
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
    team(&team_db, &other_db).await;
    team_apart(&cluster, &team_db, &other_db).await;
    cluster.stop_server();
}
