//! The local server against the ceiling, side by side: `cargo bench --bench ceiling` (or
//! `scripts/ceiling.sh`, which installs `wrk` first).
//!
//! The ceiling is a bare axum handler that answers a constant body (this program, started
//! again as that server). It and `diagtui serve` run pinned to core 0 (`taskset`), the load
//! generator (`wrk`, one thread, 32 keep-alive connections) pinned to core 1. Runs alternate
//! between the two servers, GET and POST, several rounds; the medians and their ratio are
//! printed. Other work on the machine slows both servers alike within a round, so the ratio
//! holds better than the rates.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

use diagtui_testkit::wrk::{self, Wrk};
use diagtui_testkit_server::serve::{Guard, Served, start};
use serde_json::{Value, json};

/// Set in the environment of the copy of this program that serves as the ceiling.
const CEILING_ENV: &str = "DIAGTUI_CEILING_SERVER";
/// Rounds of the four runs.
const ROUNDS: usize = 3;
/// The core the servers run on.
const SERVER_CORE: &str = "0";
/// The load generator: one thread, 32 keep-alive connections, 5 s runs, on the other core.
const LOAD: Wrk = Wrk {
    core: "1",
    connections: 32,
    seconds: 5,
};

/// The constant answer: about the size of one small component's.
const CONSTANT: &str = r#"{"type":"component","data":{"componentId":"computation.aws-ec2","position":{"x":1,"y":2},"rotation":0,"opacity":1,"meta":{"kind":"node","status":"up","cpu":42}}}"#;

fn main() {
    if let Ok(addr) = std::env::var(CEILING_ENV) {
        serve_ceiling(&addr);
        return;
    }
    if let Some(tool) = wrk::missing() {
        eprintln!(
            "ceiling: `{tool}` is missing; scripts/ceiling.sh installs it (apt-get install wrk)"
        );
        std::process::exit(1);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let this = std::env::current_exe().expect("this program");
    let ceiling = Server::start(&this, &[], Some((CEILING_ENV, "127.0.0.1:0")));
    let data = dir.path().join("data");
    let args = ["serve", "--bind", "127.0.0.1:0", "--data-dir"].map(OsStr::new);
    let served = Server::start(
        Path::new(env!("CARGO_BIN_EXE_diagtui")),
        &[&args[..], &[data.as_os_str()]].concat(),
        None,
    );
    let key = std::fs::read_to_string(data.join("api-key"))
        .expect("key file")
        .trim()
        .to_owned();
    let object_path = one_object(&served.url, &key);
    let update = json!({"props": {"meta": {"kind": "node", "status": "up", "cpu": 42}}});
    let post_script = dir.path().join("post.lua");
    std::fs::write(&post_script, wrk::post_script(&update.to_string())).expect("script");

    println!(
        "ceiling: {} connections, {} s per run, {ROUNDS} rounds; servers on core {SERVER_CORE}, \
         wrk on core {}\n",
        LOAD.connections, LOAD.seconds, LOAD.core
    );
    let runs = [
        ("GET one object", None),
        ("durable update of one object", Some(post_script.as_path())),
    ];
    let mut rates = vec![(Vec::new(), Vec::new()); runs.len()];
    for round in 1..=ROUNDS {
        for (i, (label, script)) in runs.iter().enumerate() {
            let bare = LOAD
                .run(&format!("{}{object_path}", ceiling.url), &key, *script)
                .rate;
            let ours = LOAD
                .run(&format!("{}{object_path}", served.url), &key, *script)
                .rate;
            println!(
                "round {round}  {label:<30} ceiling {bare:>9.0}/s   diagtui serve {ours:>9.0}/s   {:.2}x",
                ours / bare
            );
            rates[i].0.push(bare);
            rates[i].1.push(ours);
        }
    }
    println!();
    for ((label, _), (bare, ours)) in runs.iter().zip(rates) {
        let ratios: Vec<f64> = ours.iter().zip(&bare).map(|(o, b)| o / b).collect();
        println!(
            "{label:<30} ceiling {:>9.0}/s   diagtui serve {:>9.0}/s   ratio {:.2}x (median of {ROUNDS})",
            median(bare),
            median(ours),
            median(ratios)
        );
    }
}

/// Serves the constant answer to every GET and POST, as a bare axum application would.
fn serve_ceiling(addr: &str) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let answer = || async {
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                CONSTANT,
            )
        };
        let app = axum::Router::new().route("/{*path}", axum::routing::get(answer).post(answer));
        let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
        println!(
            "listening on http://{}",
            listener.local_addr().expect("address")
        );
        axum::serve(listener, app).await.expect("serve");
    });
}

/// A server process pinned to the server core, and its URL; killed on drop.
struct Server {
    _child: Guard,
    url: String,
}

impl Server {
    /// Starts `program ARGS` (with `env` set, `RUST_LOG` unset, stderr dropped) pinned to the
    /// server core and reads its `listening on URL` line.
    fn start(program: &Path, args: &[&OsStr], env: Option<(&str, &str)>) -> Server {
        let mut command = Command::new("taskset");
        command.args(["-c", SERVER_CORE]).arg(program).args(args);
        if let Some((name, value)) = env {
            command.env(name, value);
        }
        let Served { child, url } = start(command.stderr(Stdio::null()));
        Server { _child: child, url }
    }
}

/// Makes a document holding one small component; returns the object's path.
fn one_object(url: &str, key: &str) -> String {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let post = |path: String, body: Value| {
            let req = http
                .post(format!("{url}{path}"))
                .bearer_auth(key)
                .json(&body);
            async move {
                let answer: Value = req.send().await.expect("sent").json().await.expect("JSON");
                assert_eq!(answer["success"], true, "{answer}");
                answer
            }
        };
        let doc = post("/api/v1/doc/create".into(), json!({"title": "ceiling"})).await;
        let doc = doc["docId"].as_str().expect("docId").to_owned();
        let props = json!({"componentId": "computation.aws-ec2",
                           "meta": {"kind": "node", "status": "up", "cpu": 42}});
        let obj = post(
            format!("/api/v1/doc/{doc}/obj"),
            json!({"type": "component", "props": props}),
        )
        .await;
        format!(
            "/api/v1/doc/{doc}/obj/{}",
            obj["objId"].as_str().expect("objId")
        )
    })
}

/// The median of some figures.
fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    figures[figures.len() / 2]
}
