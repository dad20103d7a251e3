//! The reverse proxy of docs/server.md, tested: the nginx configuration the page shows (read
//! from the page itself, so that the two cannot drift apart) in front of two `serve` instances
//! on one PostgreSQL database. nginx runs as this user in one process on loopback ports, with
//! the instances' addresses and a plain `listen` put in place of the page's. Requests pass
//! through to both instances with nginx's request id; a draining instance's 503 on `/readyz`
//! is answered by the other; with one instance gone, every request is still answered. Skipped
//! with a note when nginx is not installed, except under CI (`.ci/run` installs it).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diagtui_testkit::net::free_port;
use diagtui_testkit_server::serve::{Guard, Served, start_metered};
use reqwest::StatusCode;

use crate::BIN;
use crate::common::send;
use crate::metrics::{scrape, value_of};
use crate::team::team_database;

/// A bound on waiting for what must happen far sooner, against hanging.
const PATIENCE: Duration = Duration::from_secs(30);

/// The page that shows the configuration.
const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/server.md");

/// The nginx program, if installed.
fn nginx() -> Option<&'static str> {
    let program = ["nginx", "/usr/sbin/nginx"].into_iter().find(|program| {
        Command::new(program)
            .arg("-v")
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if program.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs nginx (.ci/run)"
        );
        eprintln!("note: nginx is not installed: the reverse proxy test is skipped");
    }
    program
}

/// The page's one ```nginx block.
fn documented_config() -> String {
    let page = std::fs::read_to_string(PAGE).unwrap();
    let mut blocks = page.split("```nginx\n").skip(1);
    let block = blocks.next().expect("an nginx block in docs/server.md");
    assert!(blocks.next().is_none(), "one nginx block in docs/server.md");
    block.split("```").next().unwrap().to_owned()
}

/// Replaces the one `from` in `text` by `to`.
fn put(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} once in:\n{text}");
    text.replace(from, to)
}

/// A whole nginx configuration around the documented one, in `dir`: one process in the
/// foreground, every file it writes in `dir`, the upstreams `a` and `b`, listening on `port`
/// in plain HTTP (the page's certificate lines dropped).
fn whole_config(dir: &std::path::Path, a: &str, b: &str, port: u16) -> String {
    let site = documented_config();
    let site = put(&site, "10.0.0.11:8737", a);
    let site = put(&site, "10.0.0.12:8737", b);
    let site = put(
        &site,
        "listen 443 ssl;",
        &format!("listen 127.0.0.1:{port};"),
    );
    let site = put(
        &site,
        "ssl_certificate     /etc/ssl/certs/diagrams.example.com.pem;",
        "",
    );
    let site = put(
        &site,
        "ssl_certificate_key /etc/ssl/private/diagrams.example.com.key;",
        "",
    );
    let d = dir.display();
    format!(
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log info;\n\
         events {{ worker_connections 64; }}\nhttp {{\n\
         access_log {d}/access.log;\n\
         client_body_temp_path {d}/body;\nproxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\nuwsgi_temp_path {d}/uwsgi;\nscgi_temp_path {d}/scgi;\n\
         {site}}}\n"
    )
}

/// `diagtui serve --database URL --metrics-bind 127.0.0.1:0 --drain-delay 60`: the server and
/// its metrics URL. A stopped instance drains for a minute: readyz 503, still answering.
fn serve_instance(url: &str) -> (Served, String) {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--db-pool", "4"])
        .args(["--metrics-bind", "127.0.0.1:0", "--drain-delay", "60"])
        .env("DIAGTUI_DATABASE_URL", url)
        .env("DIAGTUI_CONFIG", "/dev/null")
        .stderr(Stdio::null());
    start_metered(&mut command)
}

/// GET `path` through the proxy with the key: the status and the answer's request id.
async fn through(http: &reqwest::Client, proxy: &str, key: &str, path: &str) -> (u16, String) {
    let answer = http
        .get(format!("{proxy}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    let id = answer
        .headers()
        .get("x-request-id")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (answer.status().as_u16(), id)
}

/// The requests an instance counted on `route` with `status`.
async fn counted(http: &reqwest::Client, metrics: &str, route: &str, status: u16) -> f64 {
    let text = scrape(http, metrics).await;
    let series =
        format!(r#"diagtui_http_requests_total{{route="{route}",method="GET",status="{status}"}}"#);
    value_of(&text, &series).unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread")]
async fn nginx_as_documented_passes_requests_to_both_instances_and_around_a_stopped_one() {
    let Some(program) = nginx() else {
        return;
    };
    let (url, key) = team_database();
    let (a, a_metrics) = serve_instance(&url);
    let (b, b_metrics) = serve_instance(&url);
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let upstream = |served: &Served| served.url.trim_start_matches("http://").to_owned();
    let config = dir.path().join("nginx.conf");
    std::fs::write(
        &config,
        whole_config(dir.path(), &upstream(&a), &upstream(&b), port),
    )
    .unwrap();
    let _nginx = Guard::spawn(
        Command::new(program)
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("startup.log"))
            .arg("-c")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
    .expect("nginx starts");
    let proxy = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let began = Instant::now();
    while send(http.get(format!("{proxy}/healthz"))).await.0 != StatusCode::OK {
        let log = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
        assert!(began.elapsed() < PATIENCE, "nginx does not answer:\n{log}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Through to both, each answer with nginx's request id (32 hex digits).
    for _ in 0..20 {
        let (status, id) = through(&http, &proxy, &key, "/api/v1/doc").await;
        assert_eq!(status, 200);
        assert!(
            id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
            "{id:?}"
        );
    }
    let on_a = counted(&http, &a_metrics, "/api/v1/doc", 200).await;
    let on_b = counted(&http, &b_metrics, "/api/v1/doc", 200).await;
    assert!(on_a > 0.0 && on_b > 0.0, "a {on_a}, b {on_b}");
    assert_eq!(on_a + on_b, 20.0);

    // A drains (SIGTERM): its readyz answers 503, which nginx answers from B instead.
    let term = Command::new("kill")
        .args(["-TERM", &a.child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let began = Instant::now();
    while send(http.get(format!("{a_metrics}/readyz"))).await.0 != StatusCode::SERVICE_UNAVAILABLE {
        assert!(began.elapsed() < PATIENCE, "A's readyz stays 200");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for _ in 0..10 {
        let (status, _) = through(&http, &proxy, &key, "/readyz").await;
        assert_eq!(status, 200, "readyz through the proxy");
    }
    assert!(
        counted(&http, &a_metrics, "/readyz", 503).await > 0.0,
        "nginx asked A, which said 503"
    );
    assert_eq!(counted(&http, &b_metrics, "/readyz", 200).await, 10.0);

    // A gone: every request is answered by B.
    drop(a);
    let before = counted(&http, &b_metrics, "/api/v1/doc", 200).await;
    for _ in 0..10 {
        let (status, _) = through(&http, &proxy, &key, "/api/v1/doc").await;
        assert_eq!(status, 200, "with A gone");
    }
    assert_eq!(
        counted(&http, &b_metrics, "/api/v1/doc", 200).await,
        before + 10.0
    );
    drop(b);
}
