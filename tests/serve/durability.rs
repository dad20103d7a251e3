//! Persistence and concurrency: restart, `kill -9`, SIGTERM, 32 concurrent writers, and
//! `account create` against a running server's data dir.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use diagtui_server::LocalServer;
use diagtui_testkit_server::serve::{Served, key_of, serve};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::common::Harness;
use crate::{BIN, bin};

async fn post(http: &reqwest::Client, url: &str, key: &str, body: Value) -> reqwest::Result<Value> {
    http.post(url)
        .bearer_auth(key)
        .json(&body)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await
}

/// A new document titled `title` on the server at `base`: its id.
async fn new_doc(http: &reqwest::Client, base: &str, key: &str, title: &str) -> String {
    let url = format!("{base}/api/v1/doc/create");
    let created = post(http, &url, key, json!({"title": title}))
        .await
        .unwrap();
    created["docId"].as_str().unwrap().to_owned()
}

/// Every object of `doc` on the server at `base`, by id.
async fn objects_of(http: &reqwest::Client, base: &str, key: &str, doc: &str) -> Value {
    let url = format!("{base}/api/v1/doc/{doc}/obj/all");
    let answer = http.get(url).bearer_auth(key).send().await.unwrap();
    answer.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn data_survives_a_restart() {
    let h = Harness::new().await;
    let doc = h.new_doc("Persistent").await;
    let obj = h.new_component(&doc, json!({"status": "up"})).await;
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{obj}"),
        json!({"props": {"opacity": 0.75}}),
    )
    .await;
    let content = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let details = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    let key = h.key();
    let Harness { server, dir, .. } = h;
    server.shutdown().await;

    let again = LocalServer::start(dir.path()).await.unwrap();
    assert_eq!(again.api_key(), key, "the key file is reused");
    let http = reqwest::Client::new();
    let get = |path: String| {
        let req = http.get(format!("{}{path}", again.url())).bearer_auth(&key);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    assert_eq!(get(format!("/api/v1/doc/{doc}/obj/all")).await, content);
    assert_eq!(get(format!("/api/v1/doc/{doc}")).await, details);
    let list = get("/api/v1/doc".into()).await;
    assert_eq!(
        list.as_array().unwrap().len(),
        4,
        "three samples, seeded once, and ours"
    );
    again.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lost_key_file_gets_a_new_key() {
    let dir = tempfile::tempdir().unwrap();
    let first = LocalServer::start(dir.path()).await.unwrap();
    let old = first.api_key().to_owned();
    first.shutdown().await;
    std::fs::remove_file(dir.path().join("api-key")).unwrap();
    let second = LocalServer::start(dir.path()).await.unwrap();
    assert_ne!(second.api_key(), old);
    assert_eq!(key_of(dir.path()), second.api_key());
    let status = reqwest::Client::new()
        .get(format!("{}/api/v1/doc", second.url()))
        .bearer_auth(&old)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the old key no longer works"
    );
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn thirty_two_concurrent_clients_lose_no_update() {
    const CLIENTS: usize = 32;
    const ROUNDS: usize = 15;
    let h = Harness::new().await;
    let doc = h.new_doc("Concurrent").await;
    let mut ids = Vec::new();
    for i in 0..CLIENTS {
        ids.push(h.new_component(&doc, json!({"client": i, "n": 0})).await);
    }
    // Besides its own object, every client also sets a property of its own on one shared
    // object: each update reads, merges and writes that object, so a race would lose some.
    let shared = h.new_obj(&doc, "label", json!({})).await;
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let http = reqwest::Client::new();
        let url = format!("{}/api/v1/doc/{doc}/obj/{id}", h.server.url());
        let shared_url = format!("{}/api/v1/doc/{doc}/obj/{shared}", h.server.url());
        let bulk = format!("{}/api/v1/doc/{doc}", h.server.url());
        let key = h.key();
        let id = id.clone();
        let shared = shared.clone();
        tasks.push(tokio::spawn(async move {
            for n in 1..=ROUNDS {
                let meta = json!({"client": i, "n": n});
                let mine = format!("p{i}");
                if n % 3 == 0 {
                    let objects = json!({"objects": {&id: {"meta": meta}, &shared: {&mine: n}}});
                    post(&http, &bulk, &key, objects).await.unwrap();
                } else {
                    post(&http, &url, &key, json!({"props": {"meta": meta}}))
                        .await
                        .unwrap();
                    post(&http, &shared_url, &key, json!({"props": {&mine: n}}))
                        .await
                        .unwrap();
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(
            all[id]["data"]["meta"],
            json!({"client": i, "n": ROUNDS}),
            "client {i}"
        );
        assert_eq!(all[&shared]["data"][format!("p{i}")], ROUNDS, "client {i}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_answered_write_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&bin(), dir.path());
    let key = key_of(dir.path());
    let http = reqwest::Client::new();
    let doc = new_doc(&http, &served.url, &key, "Crash").await;
    let answered = Arc::new(Mutex::new(Vec::<String>::new()));
    let count = Arc::new(AtomicUsize::new(0));
    let mut writers = Vec::new();
    for w in 0..8 {
        let (http, key, answered, count) =
            (http.clone(), key.clone(), answered.clone(), count.clone());
        let url = format!("{}/api/v1/doc/{doc}/obj", served.url);
        writers.push(tokio::spawn(async move {
            for n in 0.. {
                let body = json!({"type": "label", "props": {"text": format!("{w}-{n}")}});
                match post(&http, &url, &key, body).await {
                    Ok(answer) => {
                        assert_eq!(answer["success"], true);
                        answered
                            .lock()
                            .await
                            .push(answer["objId"].as_str().unwrap().to_owned());
                        count.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(_) => break,
                }
            }
        }));
    }
    while count.load(Ordering::SeqCst) < 200 {
        tokio::task::yield_now().await;
    }
    served.child.kill().unwrap();
    served.child.wait().unwrap();
    for writer in writers {
        writer.await.unwrap();
    }
    let answered = answered.lock().await.clone();
    assert!(answered.len() >= 200);

    let mut after = serve(&bin(), dir.path());
    let content = objects_of(&http, &after.url, &key, &doc).await;
    for id in &answered {
        assert!(content.get(id).is_some(), "answered create {id} was lost");
    }
    after.child.kill().unwrap();
    after.child.wait().unwrap();
}

/// Stops `served` with SIGTERM; it must exit with success.
fn stop_gracefully(served: &mut Served) {
    let pid = served.child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let status = served.child.wait().unwrap();
    assert!(status.success(), "exit status {status}");
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_shuts_down_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&bin(), dir.path());
    stop_gracefully(&mut served);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_graceful_stop_leaves_every_write_in_the_database_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&bin(), dir.path());
    let key = key_of(dir.path());
    let http = reqwest::Client::new();
    let doc = new_doc(&http, &served.url, &key, "Folded").await;
    let mut made = Vec::new();
    for n in 0..200 {
        let body = json!({"type": "label", "props": {"text": format!("{n}")}});
        let url = format!("{}/api/v1/doc/{doc}/obj", served.url);
        let answer = post(&http, &url, &key, body).await.unwrap();
        made.push(answer["objId"].as_str().unwrap().to_owned());
    }
    let wal = dir.path().join("diagtui.db-wal");
    assert!(
        wal.metadata().unwrap().len() > 0,
        "the writes went to the log"
    );
    stop_gracefully(&mut served);
    assert_eq!(
        wal.metadata().map_or(0, |m| m.len()),
        0,
        "the log is emptied into the database at the stop"
    );
    // The database file alone, as a backup taken after the stop would copy it.
    let copy = tempfile::tempdir().unwrap();
    for file in ["diagtui.db", "api-key"] {
        std::fs::copy(dir.path().join(file), copy.path().join(file)).unwrap();
    }
    let mut again = serve(&bin(), copy.path());
    let content = objects_of(&http, &again.url, &key, &doc).await;
    for id in &made {
        assert!(content.get(id).is_some(), "{id} is in the database file");
    }
    again.child.kill().unwrap();
    again.child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn account_create_works_while_a_server_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&bin(), dir.path());
    let run = |email: &str| {
        Command::new(BIN)
            .args(["account", "create", email, "--data-dir"])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = run("dave@example.com");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let key = stdout.trim_end_matches('\n');
    assert!(
        !key.is_empty() && !key.contains(char::is_whitespace),
        "only the key: {stdout:?}"
    );
    let me: Value = reqwest::Client::new()
        .get(format!("{}/api/v1/me?key={key}", served.url))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        me["email"], "dave@example.com",
        "the running server accepts it at once"
    );

    let via_env = Command::new(BIN)
        .args(["account", "create", "erin@example.com"])
        .env("DIAGTUI_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(
        via_env.status.success(),
        "DIAGTUI_DATA_DIR names the data dir"
    );
    let erin = String::from_utf8(via_env.stdout).unwrap();
    let status = reqwest::Client::new()
        .get(format!("{}/api/v1/doc", served.url))
        .bearer_auth(erin.trim())
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, StatusCode::OK);

    let dup = run("dave@example.com");
    assert_eq!(dup.status.code(), Some(1));
    assert!(dup.stdout.is_empty());
    let stderr = String::from_utf8(dup.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("already exists"), "{stderr}");
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}
