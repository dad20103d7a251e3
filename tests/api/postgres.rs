//! The PostgreSQL engine's own tests: several instances serving one database as one server,
//! the database going away and coming back under a running server, `diagtui migrate`,
//! `account create --database` beside running servers, and a newer schema refused.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use diagtui::server::{LocalServer, ServerOptions};
use diagtui::store::{Location, PgOptions, Store, StoreOptions};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{BIN, Served, assert_error, send, start};
use crate::events::Stream;
use crate::pg::{Cluster, shared};

/// A bound on waiting for what must happen far sooner, against hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// A new database with one account; its URL and the account's key.
fn team_database() -> (String, String) {
    let url = shared().new_database();
    let location = Location::Postgres(PgOptions {
        url: url.clone(),
        pool_size: 2,
    });
    let key = diagtui::server::create_account(&location, "team@example.com").unwrap();
    (url, key)
}

/// `diagtui serve --database URL` on a free port.
fn serve_database(url: &str) -> Served {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--db-pool", "4"])
        .env("DIAGTUI_DATABASE_URL", url)
        .stderr(Stdio::null());
    start(command)
}

/// Kills a server (`kill -9`) and waits for it.
fn stop(mut served: Served) {
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}

/// A request with a key; the status and JSON answer.
async fn call(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let url = format!("{base}{path}");
    let req = match body {
        Some(body) => http.post(url).json(&body),
        None => http.get(url),
    };
    send(req.bearer_auth(key)).await
}

/// Two instances on one new database, and a document made through the first.
struct Two {
    key: String,
    a: Served,
    b: Served,
    http: reqwest::Client,
    doc: String,
}

async fn two_instances() -> Two {
    let (url, key) = team_database();
    let (a, b) = (serve_database(&url), serve_database(&url));
    let http = reqwest::Client::new();
    let body = Some(json!({"title": "Shared"}));
    let created = call(&http, &a.url, &key, "/api/v1/doc/create", body).await;
    let doc = created.1["docId"].as_str().unwrap().to_owned();
    Two {
        key,
        a,
        b,
        http,
        doc,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_answered_by_one_instance_is_read_by_the_other_at_once() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
    } = two_instances().await;
    let obj_path = format!("/api/v1/doc/{doc}/obj");
    let mut obj = String::new();
    for round in 0..20 {
        // Alternate the instances, so that each reads from memory what the other changed.
        let (writer, reader) = if round % 2 == 0 { (&a, &b) } else { (&b, &a) };
        if obj.is_empty() {
            let made = call(
                &http,
                &writer.url,
                &key,
                &obj_path,
                Some(json!({"type": "label", "props": {"text": "0"}})),
            )
            .await;
            obj = made.1["objId"].as_str().unwrap().to_owned();
        } else {
            let body = json!({"props": {"text": round.to_string()}});
            let path = format!("{obj_path}/{obj}");
            assert_eq!(
                call(&http, &writer.url, &key, &path, Some(body)).await.0,
                200
            );
        }
        let read = call(&http, &reader.url, &key, &format!("{obj_path}/{obj}"), None).await;
        assert_eq!(read.0, StatusCode::OK, "{}", read.1);
        assert_eq!(read.1["data"]["text"], round.to_string(), "round {round}");
        let list = call(
            &http,
            &reader.url,
            &key,
            &format!("/api/v1/doc/{doc}/obj/all"),
            None,
        )
        .await;
        assert_eq!(list.1[&obj]["data"]["text"], round.to_string());
    }
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn change_events_reach_subscribers_of_the_other_instance() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
    } = two_instances().await;
    let doc_events = format!("/api/v1/doc/{doc}/events");
    let mut on_b = Stream::open_at(&http, &b.url, &doc_events, &key, None).await;
    on_b.expect("current").await;
    let made = call(
        &http,
        &a.url,
        &key,
        &format!("/api/v1/doc/{doc}/obj"),
        Some(json!({"type": "label", "props": {"text": "from a"}})),
    )
    .await;
    let obj = made.1["objId"].as_str().unwrap().to_owned();
    // The next event is the write itself, not a resync.
    let (_, change) = on_b.expect("change").await;
    assert_eq!(change["changed"], json!([obj]), "{change}");
    let mut account_on_b = Stream::open_at(&http, &b.url, "/api/v1/events", &key, None).await;
    account_on_b.expect("current").await;
    let renamed = call(
        &http,
        &a.url,
        &key,
        "/api/v1/doc/change-title",
        Some(json!({"docId": doc, "title": "Renamed on a"})),
    )
    .await;
    assert_eq!(renamed.0, StatusCode::OK, "{}", renamed.1);
    let (_, retitled) = account_on_b.expect("change").await;
    assert_eq!(retitled["docId"], doc.as_str(), "{retitled}");
    assert_eq!(retitled["document"], "retitled", "{retitled}");
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn commit_reports_reach_the_other_instances_listeners() {
    let (url, key) = team_database();
    let open = || async {
        let at = Location::Postgres(PgOptions {
            url: url.clone(),
            pool_size: 2,
        });
        Store::open_at(&at, StoreOptions::default()).await.unwrap()
    };
    let (here, there) = (open().await, open().await);
    let mut reports = there.commits();
    let me = here.authenticate(&key).await.unwrap().unwrap();
    let doc = here.create_doc(&me, "Watched", None).await.unwrap();
    let big: serde_json::Map<String, Value> = (0..400)
        .map(|n| (format!("k{n:03}"), json!("x".repeat(40))))
        .collect();
    let obj = here
        .create_object(
            &me,
            &doc,
            "label",
            &json!({"meta": big}).as_object().unwrap().clone(),
        )
        .await
        .unwrap();
    let first = tokio::time::timeout(PATIENCE, reports.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.docs[0].doc_id, doc);
    let second = tokio::time::timeout(PATIENCE, reports.recv())
        .await
        .unwrap()
        .unwrap();
    let (id, object) = &second.docs[0].changed[0];
    assert_eq!(id, &obj);
    assert!(object.data().contains("k399"), "read from the database");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_instance_killed_mid_write_loses_no_answered_write() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
    } = two_instances().await;
    let answered = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let mut writers = Vec::new();
    for _ in 0..8 {
        let (http, base, key, doc, answered) = (
            http.clone(),
            a.url.clone(),
            key.clone(),
            doc.clone(),
            Arc::clone(&answered),
        );
        writers.push(tokio::spawn(async move {
            loop {
                let sent = http
                    .post(format!("{base}/api/v1/doc/{doc}/obj"))
                    .bearer_auth(&key)
                    .json(&json!({"type": "label", "props": {}}))
                    .send()
                    .await;
                let Ok(response) = sent else { return };
                let Ok(body) = response.json::<Value>().await else {
                    return;
                };
                match body["objId"].as_str() {
                    Some(id) => answered.lock().await.push(id.to_owned()),
                    None => return,
                }
            }
        }));
    }
    // Kill once writes are flowing.
    tokio::time::timeout(PATIENCE, async {
        while answered.lock().await.len() < 50 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap();
    stop(a);
    for writer in writers {
        writer.await.unwrap();
    }
    let all = call(
        &http,
        &b.url,
        &key,
        &format!("/api/v1/doc/{doc}/obj/all"),
        None,
    )
    .await;
    let answered = answered.lock().await;
    for id in answered.iter() {
        assert!(all.1.get(id).is_some(), "answered {id} is lost");
    }
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_database_going_away_answers_503_and_the_server_recovers() {
    let cluster = Cluster::start().expect("PostgreSQL is installed");
    cluster.psql("postgres", "CREATE DATABASE restarted");
    let location = Location::Postgres(PgOptions {
        url: cluster.url("restarted"),
        pool_size: 4,
    });
    let server = LocalServer::start_at(location, ServerOptions::default())
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let get = |path: &'static str| {
        let req = http
            .get(format!("{}{path}", server.url()))
            .bearer_auth(server.api_key());
        send(req)
    };
    assert_eq!(get("/api/v1/doc").await.0, StatusCode::OK);

    cluster.stop_server();
    let down = get("/api/v1/doc").await;
    assert_error(&down, StatusCode::SERVICE_UNAVAILABLE, "UNAVAILABLE");
    let write = send(
        http.post(format!("{}/api/v1/doc/create", server.url()))
            .bearer_auth(server.api_key())
            .json(&json!({"title": "while down"})),
    )
    .await;
    assert_error(&write, StatusCode::SERVICE_UNAVAILABLE, "UNAVAILABLE");

    cluster.start_server();
    tokio::time::timeout(PATIENCE, async {
        while get("/api/v1/doc").await.0 != StatusCode::OK {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the server recovers by itself");
    let made = send(
        http.post(format!("{}/api/v1/doc/create", server.url()))
            .bearer_auth(server.api_key())
            .json(&json!({"title": "after"})),
    )
    .await;
    assert_eq!(made.0, StatusCode::OK, "{}", made.1);
    server.shutdown().await;
    cluster.stop_server();
}

#[tokio::test(flavor = "multi_thread")]
async fn migrate_copies_a_data_dir_and_verifies_the_counts() {
    let dir = tempfile::tempdir().unwrap();
    let local = LocalServer::start(dir.path()).await.unwrap();
    let http = reqwest::Client::new();
    let key = local.api_key().to_owned();
    let docs = call(&http, local.url(), &key, "/api/v1/doc", None).await.1;
    let first = docs[0]["id"].as_str().unwrap().to_owned();
    let content = call(
        &http,
        local.url(),
        &key,
        &format!("/api/v1/doc/{first}/obj/all"),
        None,
    )
    .await
    .1;
    local.shutdown().await;

    let url = shared().new_database();
    let migrate = |force: bool| {
        let mut command = Command::new(BIN);
        command
            .args(["migrate", "--data-dir"])
            .arg(dir.path())
            .args(["--database", &url]);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    let out = migrate(false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("1 accounts") && said.contains("3 documents"),
        "{said}"
    );

    let again = migrate(false);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("--force"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(migrate(true).status.success());

    let served = serve_database(&url);
    let moved = call(
        &http,
        &served.url,
        &key,
        &format!("/api/v1/doc/{first}/obj/all"),
        None,
    )
    .await;
    assert_eq!(moved.0, StatusCode::OK, "the data dir's key works");
    assert_eq!(moved.1, content);
    stop(served);
}

#[tokio::test(flavor = "multi_thread")]
async fn account_create_works_beside_running_servers() {
    let (url, _) = team_database();
    let served = serve_database(&url);
    let out = Command::new(BIN)
        .args(["account", "create", "bob@example.com", "--database", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let http = reqwest::Client::new();
    let me = call(&http, &served.url, &key, "/api/v1/me", None).await;
    assert_eq!(me.1["email"], "bob@example.com");
    stop(served);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_database_with_a_newer_schema_is_refused() {
    let (url, _) = team_database();
    shared().psql(
        crate::common::database_name(&url),
        "UPDATE diagtui_schema SET version = 999",
    );
    let out = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--database", &url])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("newer than this build"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn failing_requests_leave_the_others_of_their_batch_in() {
    let h = crate::common::Harness::new().await;
    let doc = h.new_doc("Batched").await;
    // Requests sent together are committed together: half of them fail.
    let tasks: Vec<_> = (0..40)
        .map(|n| {
            let target = if n % 2 == 0 {
                doc.clone()
            } else {
                "missing".into()
            };
            let req = h
                .http
                .post(format!("{}/api/v1/doc/{target}/obj", h.server.url()))
                .bearer_auth(h.key())
                .json(&json!({"type": "label", "props": {"text": n.to_string()}}));
            tokio::spawn(send(req))
        })
        .collect();
    let mut made = Vec::new();
    for task in tasks {
        let (status, body) = task.await.unwrap();
        match body["objId"].as_str() {
            Some(id) => made.push(id.to_owned()),
            None => assert_eq!(status, StatusCode::NOT_FOUND, "{body}"),
        }
    }
    assert_eq!(made.len(), 20);
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(all.as_object().unwrap().len(), 20);
    for id in &made {
        assert!(all.get(id).is_some(), "{id}");
    }
}
