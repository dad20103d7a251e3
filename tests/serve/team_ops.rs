//! A team on real parts: PostgreSQL, two `serve` instances with their metrics listeners and
//! Prometheus (Debian's `prometheus`) scraping both from a scrape config written here. Checked
//! through Prometheus' own HTTP API: both targets up, the request counters risen; then the
//! database stops, and an instance's `readyz` turns 503 while `healthz` stays 200. Skipped with
//! a note when Prometheus is not installed, except under CI.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_testkit::net::free_port;
use diagtui_testkit::postgres::Cluster;
use diagtui_testkit_server::serve::{Guard, Served, start_metered};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::BIN;
use crate::common::send;

/// A bound on waiting for what must happen far sooner, against hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// The Prometheus server program, if installed.
fn prometheus() -> Option<String> {
    let found = Command::new("prometheus")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some("prometheus".into());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI installs prometheus (.ci/run)"
    );
    eprintln!("note: prometheus is not installed: the team metrics test is skipped");
    None
}

/// `diagtui serve --database URL --metrics-bind 127.0.0.1:0`: the server and its metrics URL.
fn serve_metered(url: &str) -> (Served, String) {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--db-pool", "4"])
        .args(["--metrics-bind", "127.0.0.1:0"])
        .env("DIAGTUI_DATABASE_URL", url)
        .stderr(Stdio::null());
    start_metered(&mut command)
}

/// A PromQL query's result vector, through Prometheus' HTTP API.
async fn query(http: &reqwest::Client, prometheus: &str, promql: &str) -> Vec<Value> {
    let promql = percent_encoding::utf8_percent_encode(promql, percent_encoding::NON_ALPHANUMERIC);
    let answer = http
        .get(format!("{prometheus}/api/v1/query?query={promql}"))
        .send()
        .await;
    let Ok(answer) = answer else {
        return Vec::new();
    };
    let body: Value = answer.json().await.unwrap_or_default();
    body["data"]["result"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Each series' `instance` label and value.
fn by_instance(result: &[Value]) -> Vec<(String, f64)> {
    let mut found: Vec<(String, f64)> = result
        .iter()
        .map(|series| {
            let instance = series["metric"]["instance"].as_str().unwrap().to_owned();
            let value = series["value"][1].as_str().unwrap().parse().unwrap();
            (instance, value)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Waits until `promql` gives, by instance, what `wanted` accepts; returns it.
async fn wait_for(
    http: &reqwest::Client,
    prometheus: &str,
    promql: &str,
    wanted: impl Fn(&[(String, f64)]) -> bool,
) -> Vec<(String, f64)> {
    let began = Instant::now();
    loop {
        let found = by_instance(&query(http, prometheus, promql).await);
        if wanted(&found) {
            return found;
        }
        assert!(began.elapsed() < PATIENCE, "{promql}: {found:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn prometheus_scrapes_a_team_and_readyz_follows_the_database() {
    let Some(program) = prometheus() else {
        return;
    };
    let cluster = Cluster::start().expect("PostgreSQL is installed");
    let url = cluster.new_database();
    let (one, one_metrics) = serve_metered(&url);
    let (two, two_metrics) = serve_metered(&url);
    let targets: Vec<String> = [&one_metrics, &two_metrics]
        .iter()
        .map(|m| m.trim_start_matches("http://").to_owned())
        .collect();

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("prometheus.yml");
    let scrape = json!({
        "global": {"scrape_interval": "1s", "scrape_timeout": "900ms"},
        "scrape_configs": [{"job_name": "diagtui", "static_configs": [{"targets": targets}]}],
    });
    // YAML is a superset of JSON.
    std::fs::write(&config, scrape.to_string()).unwrap();
    let port = free_port();
    let _prometheus = Guard::spawn(
        Command::new(program)
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("tsdb").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
    .expect("prometheus starts");
    let prometheus = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();

    let mut wanted_targets = targets.clone();
    wanted_targets.sort();
    let up = wait_for(&http, &prometheus, "up", |found| {
        found.len() == 2 && found.iter().all(|(_, v)| *v == 1.0)
    })
    .await;
    assert_eq!(
        up.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>(),
        wanted_targets
    );

    // Requests to each instance (without a key: 401, counted all the same).
    for base in [&one.url, &two.url] {
        for _ in 0..5 {
            let (status, _) = send(http.get(format!("{base}/api/v1/doc"))).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
    }
    let counted =
        r#"sum by (instance) (diagtui_http_requests_total{route="/api/v1/doc",status="401"})"#;
    wait_for(&http, &prometheus, counted, |found| {
        found.len() == 2 && found.iter().all(|(_, v)| *v >= 5.0)
    })
    .await;

    // The database stops: readyz turns 503, healthz stays 200.
    cluster.stop_server();
    let began = Instant::now();
    let reason = loop {
        let (status, body) = send(http.get(format!("{one_metrics}/readyz"))).await;
        if status == StatusCode::SERVICE_UNAVAILABLE {
            break body["reason"].clone();
        }
        assert!(began.elapsed() < PATIENCE, "readyz stays {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(reason, "database");
    let (status, _) = send(http.get(format!("{one_metrics}/healthz"))).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(http.get(format!("{}/healthz", one.url))).await;
    assert_eq!(status, StatusCode::OK);
    // Prometheus still scrapes it: alive, if not ready.
    wait_for(&http, &prometheus, "up", |found| {
        found.len() == 2 && found.iter().all(|(_, v)| *v == 1.0)
    })
    .await;

    // Back: ready again by itself.
    cluster.start_server();
    let began = Instant::now();
    loop {
        let (status, _) = send(http.get(format!("{one_metrics}/readyz"))).await;
        if status == StatusCode::OK {
            break;
        }
        assert!(began.elapsed() < PATIENCE, "readyz stays {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
