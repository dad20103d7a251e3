//! `serve` as operators run it (SQLite): the metrics listener and its series, the JSON log,
//! `readyz` turning 503 first during a graceful stop, and a full disk answering 507 then
//! writing again once there is room.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_server::LocalServer;
use diagtui_testkit_server::serve::{Served, StderrLines, key_of, start_metered};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::bin;
use crate::common::{assert_error, send};
use crate::metrics::{scrape, value_of};

/// `serve --metrics-bind 127.0.0.1:0 ARGS` on `data`, its stderr to `stderr`: the server, its
/// metrics URL and its key.
fn serve_metered(data: &Path, args: &[&str], stderr: Stdio) -> (Served, String, String) {
    let mut command = bin().serve_command(data);
    command
        .args(["--metrics-bind", "127.0.0.1:0"])
        .args(args)
        .stderr(stderr);
    let (served, metrics) = start_metered(&mut command);
    let key = key_of(data);
    (served, metrics, key)
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_are_served_on_their_own_listener_by_route_template() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut served, metrics, key) = serve_metered(&data, &[], Stdio::null());
    let http = reqwest::Client::new();
    let base = &served.url;
    let (_, docs) = send(http.get(format!("{base}/api/v1/doc")).bearer_auth(&key)).await;
    let docs: Vec<String> = docs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect();
    // Each document read once from the database, the first again from memory.
    for doc in docs.iter().chain(&docs[..1]) {
        let (status, _) = send(
            http.get(format!("{base}/api/v1/doc/{doc}/obj/all"))
                .bearer_auth(&key),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let doc = &docs[0];
    let (status, created) = send(
        http.post(format!("{base}/api/v1/doc/{doc}/obj"))
            .bearer_auth(&key)
            .json(&json!({"type": "label", "props": {"text": "counted"}})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let (status, _) = send(http.get(format!("{base}/api/v1/no/such/route/{doc}"))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The public port shows no internals.
    let (status, _) = send(http.get(format!("{base}/metrics"))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let text = scrape(&http, &metrics).await;
    let all = r#"diagtui_http_requests_total{route="/api/v1/doc/{doc_id}/obj/all",method="GET",status="200"}"#;
    assert_eq!(
        value_of(&text, all),
        Some(docs.len() as f64 + 1.0),
        "{text}"
    );
    let create = r#"diagtui_http_requests_total{route="/api/v1/doc/{doc_id}/obj",method="POST",status="200"}"#;
    assert_eq!(value_of(&text, create), Some(1.0), "{text}");
    let unmatched = r#"diagtui_http_requests_total{route="unmatched",method="GET",status="404"}"#;
    assert_eq!(value_of(&text, unmatched), Some(2.0), "{text}");
    // Bounded: no id or path of a request appears.
    for doc in &docs {
        assert!(!text.contains(doc.as_str()), "{doc} in {text}");
    }
    assert!(!text.contains("no/such"), "{text}");
    let latency =
        r#"diagtui_http_request_duration_seconds_count{route="/api/v1/doc/{doc_id}/obj/all"}"#;
    assert_eq!(
        value_of(&text, latency),
        Some(docs.len() as f64 + 1.0),
        "{text}"
    );
    assert!(value_of(&text, "diagtui_write_batch_requests_count").unwrap() >= 1.0);
    assert!(value_of(&text, "diagtui_write_batch_duration_seconds_count").unwrap() >= 1.0);
    assert!(value_of(&text, "diagtui_history_versions_written_total").unwrap() >= 1.0);
    assert!(value_of(&text, "diagtui_cache_misses_total").unwrap() >= docs.len() as f64);
    assert!(value_of(&text, "diagtui_cache_hits_total").unwrap() >= 1.0);
    assert!(value_of(&text, "diagtui_cache_bytes").unwrap() > 0.0);
    assert!(value_of(&text, "diagtui_sqlite_wal_bytes").unwrap() > 0.0);
    let dir_bytes = value_of(&text, "diagtui_data_dir_bytes").unwrap();
    let db_bytes = std::fs::metadata(data.join("diagtui.db")).unwrap().len() as f64;
    assert!(dir_bytes >= db_bytes, "{dir_bytes} < {db_bytes}");
    assert_eq!(value_of(&text, "diagtui_event_streams"), Some(0.0));
    assert_eq!(value_of(&text, "diagtui_embed_viewers"), Some(0.0));
    assert_eq!(value_of(&text, "diagtui_db_pool_in_use"), Some(0.0));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        text.contains(&format!("diagtui_build_info{{version=\"{version}\"}} 1")),
        "{text}"
    );
    assert!(text.trim_end().ends_with("# EOF"), "{text}");
    // healthz and readyz there too.
    let (status, ready) = send(http.get(format!("{metrics}/readyz"))).await;
    assert_eq!(
        (status, ready),
        (StatusCode::OK, json!({"status": "ready"}))
    );
    let (status, _) = send(http.get(format!("{metrics}/healthz"))).await;
    assert_eq!(status, StatusCode::OK);
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_json_log_has_one_object_a_line_with_the_request_id_and_never_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut command = bin().serve_command(&data);
    command
        .args(["--log-format", "json"])
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped());
    let mut served = diagtui_testkit_server::serve::start(&mut command);
    let key = key_of(&data);
    let http = reqwest::Client::new();
    let url = format!("{}/api/v1/doc?key={key}", served.url);
    let answer = http
        .get(&url)
        .header("x-request-id", "op-7")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["x-request-id"], "op-7");
    // The line comes after the answer: read stderr until it shows, then stop the server.
    let lines = StderrLines::of(&mut served).until("op-7");
    served.child.kill().unwrap();
    served.child.wait().unwrap();
    assert!(!lines.iter().any(|l| l.contains(&key)), "{lines:?}");
    let entries: Vec<Value> = (lines.iter())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert!(
        entries[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("data dir "),
        "the data dir's note, as JSON too: {lines:?}"
    );
    let entry = entries.last().unwrap();
    assert_eq!(entry["status"], 200, "{entry}");
    assert!(entry["latency_us"].is_u64(), "{entry}");
    assert_eq!(entry["span"]["request_id"], "op-7", "{entry}");
    assert_eq!(entry["span"]["route"], "/api/v1/doc", "{entry}");
    assert_eq!(entry["span"]["method"], "GET", "{entry}");
    assert!(entry["span"]["account"].is_string(), "{entry}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_graceful_stop_turns_readyz_503_before_the_server_stops_accepting() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut served, metrics, _) = serve_metered(&data, &["--drain-delay", "3"], Stdio::null());
    let http = reqwest::Client::new();
    let (status, _) = send(http.get(format!("{metrics}/readyz"))).await;
    assert_eq!(status, StatusCode::OK);
    let pid = served.child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let asked = Instant::now();
    let draining = loop {
        let answer = send(http.get(format!("{metrics}/readyz"))).await;
        if answer.0 == StatusCode::SERVICE_UNAVAILABLE {
            break answer.1;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "readyz still {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        draining,
        json!({"status": "not ready", "reason": "draining"})
    );
    // Still serving meanwhile: the load balancer's in-flight and late requests are answered.
    let (status, _) = send(http.get(format!("{}/healthz", served.url))).await;
    assert_eq!(status, StatusCode::OK);
    let status = tokio::task::spawn_blocking(move || served.child.wait().unwrap())
        .await
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        asked.elapsed() >= Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}

/// A tmpfs of `size` mounted on `dir`, unmounted when dropped; `None` (with a note) when this
/// process may not mount one, except under CI, where it must.
struct SmallDisk(std::path::PathBuf);

impl SmallDisk {
    fn mount(dir: &Path, size: &str) -> Option<SmallDisk> {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if mounted {
            return Some(SmallDisk(dir.to_owned()));
        }
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must be able to mount a tmpfs (it runs as root)"
        );
        eprintln!("note: cannot mount a tmpfs (not root?): the full-disk test is skipped");
        None
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` with a ballast file until a write fails.
fn fill(ballast: &Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(ballast).unwrap();
    let chunk = vec![0u8; 64 << 10];
    while file.write_all(&chunk).is_ok() {}
    let _ = file.sync_all();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_full_disk_answers_507_and_writes_resume_once_there_is_room() {
    let dir = tempfile::tempdir().unwrap();
    let Some(_disk) = SmallDisk::mount(dir.path(), "16m") else {
        return;
    };
    let data = dir.path().join("data");
    let server = LocalServer::start(&data).await.unwrap();
    let http = reqwest::Client::new();
    let base = server.url().to_owned();
    let key = server.api_key().to_owned();
    let (_, docs) = send(http.get(format!("{base}/api/v1/doc")).bearer_auth(&key)).await;
    let doc = docs[0]["id"].as_str().unwrap().to_owned();
    let big = "x".repeat(256 << 10);
    let write = |text: &str| {
        http.post(format!("{base}/api/v1/doc/{doc}/obj"))
            .bearer_auth(&key)
            .json(&json!({"type": "label", "props": {"text": text}}))
    };
    let (status, answer) = send(write("before")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    fill(&dir.path().join("ballast"));
    // The WAL may have room left from earlier commits: write until it needs more.
    let mut full = None;
    for _ in 0..64 {
        let answer = send(write(&big)).await;
        if answer.0 != StatusCode::OK {
            full = Some(answer);
            break;
        }
    }
    let full = full.expect("a write on a full disk fails");
    let message = assert_error(
        &full,
        StatusCode::INSUFFICIENT_STORAGE,
        "INSUFFICIENT_STORAGE",
    );
    assert!(message.contains("disk is full"), "{message}");
    let (status, ready) = send(http.get(format!("{base}/readyz"))).await;
    assert_eq!(
        (status, ready),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "not ready", "reason": "disk_full"})
        )
    );
    // Reads go on.
    let (status, _) = send(
        http.get(format!("{base}/api/v1/doc/{doc}/obj/all"))
            .bearer_auth(&key),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Room again: writes resume by themselves, and readyz with them.
    std::fs::remove_file(dir.path().join("ballast")).unwrap();
    let (status, answer) = send(write("after")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, _) = send(http.get(format!("{base}/readyz"))).await;
    assert_eq!(status, StatusCode::OK);
    let (_, content) = send(
        http.get(format!("{base}/api/v1/doc/{doc}/obj/all"))
            .bearer_auth(&key),
    )
    .await;
    let texts: Vec<&str> = content
        .as_object()
        .unwrap()
        .values()
        .filter_map(|o| o["data"]["text"].as_str())
        .collect();
    assert!(
        texts.contains(&"before") && texts.contains(&"after"),
        "{texts:?}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_wal_stays_bounded_under_continuous_writes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = LocalServer::start(&data).await.unwrap();
    let http = reqwest::Client::new();
    let (base, key) = (server.url().to_owned(), server.api_key().to_owned());
    let (_, created) = send(
        http.post(format!("{base}/api/v1/doc/create"))
            .bearer_auth(&key)
            .json(&json!({"title": "Busy"})),
    )
    .await;
    let doc = created["docId"].as_str().unwrap().to_owned();
    let (_, obj) = send(
        http.post(format!("{base}/api/v1/doc/{doc}/obj"))
            .bearer_auth(&key)
            .json(&json!({"type": "label", "props": {"text": "0"}})),
    )
    .await;
    let obj = obj["objId"].as_str().unwrap().to_owned();
    let wal = data.join("diagtui.db-wal");
    // 150 updates of 200 KB each: some 60 MB through the log, the object and its history's
    // versions; without restarts the WAL holds them all.
    let mut largest = 0;
    for round in 0..150 {
        let text = format!("{round}{}", "w".repeat(200 << 10));
        let (status, answer) = send(
            http.post(format!("{base}/api/v1/doc/{doc}/obj/{obj}"))
                .bearer_auth(&key)
                .json(&json!({"props": {"text": text}})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
    }
    // Started over past 16 MiB: at most that, the frames of the interval before the restart
    // and a batch's.
    assert!(largest <= 40 << 20, "the WAL reached {largest} bytes");
    server.shutdown().await;
}

/// The series of docs/server.md's metrics table: name and type, as the page writes them.
fn documented_series() -> Vec<(String, String)> {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/server.md")).unwrap();
    let rows: Vec<(String, String)> = page
        .lines()
        .filter_map(|line| {
            let mut cells = line.strip_prefix("| `diagtui_")?.split('|');
            let name = cells.next()?.trim().trim_end_matches('`');
            let kind = cells.next()?.trim();
            Some((format!("diagtui_{name}"), kind.to_owned()))
        })
        .collect();
    assert!(
        rows.len() > 10,
        "the metrics table in docs/server.md: {rows:?}"
    );
    rows
}

#[tokio::test(flavor = "multi_thread")]
async fn the_documented_metrics_table_names_every_series_exported_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (served, metrics, key) = serve_metered(&data, &[], Stdio::null());
    let http = reqwest::Client::new();
    let (status, _) = send(
        http.get(format!("{}/api/v1/doc", served.url))
            .bearer_auth(&key),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let text = scrape(&http, &metrics).await;
    // Each family's `# TYPE name type` line; a sample's name adds `_total` to a counter's and
    // `_info` to an info's.
    let mut exported: Vec<(String, String)> = text
        .lines()
        .filter_map(|line| {
            let (name, kind) = line.strip_prefix("# TYPE ")?.split_once(' ')?;
            let suffix = match kind {
                "counter" => "_total",
                "info" => "_info",
                _ => "",
            };
            Some((format!("{name}{suffix}"), kind.to_owned()))
        })
        .collect();
    let mut documented = documented_series();
    exported.sort();
    documented.sort();
    assert_eq!(
        documented, exported,
        "docs/server.md's table against /metrics"
    );
    // And each has its samples.
    for (name, _) in &exported {
        assert!(
            text.lines()
                .any(|line| line.starts_with(name.as_str()) && !line.starts_with('#')),
            "no sample of {name} in {text}"
        );
    }
}
