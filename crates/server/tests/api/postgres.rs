//! The PostgreSQL engine in this process: stores on one database seeing each other's commits,
//! a batch's failing requests, and the database going away and coming back under a running
//! server.

use std::time::Duration;

use diagtui_server::{LocalServer, ServerOptions};
use diagtui_store::{Location, PgOptions};
use diagtui_testkit::postgres::Cluster;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{assert_error, send};
use crate::team::{PATIENCE, open_store, team_database};

#[tokio::test(flavor = "multi_thread")]
async fn commit_reports_reach_the_other_instances_listeners() {
    let (url, key) = team_database();
    let (here, there) = (open_store(&url).await, open_store(&url).await);
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
        .unwrap()
        .0;
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

#[tokio::test(flavor = "multi_thread")]
async fn an_instance_keeps_its_cache_when_another_commits() {
    let (url, key) = team_database();
    let (here, there) = (open_store(&url).await, open_store(&url).await);
    let me = here.authenticate(&key).await.unwrap().unwrap();
    let doc = here.create_doc(&me, "Kept", None).await.unwrap();
    let label = |text: &str| json!({"text": text}).as_object().unwrap().clone();
    let obj = here
        .create_object(&me, &doc, "label", &label("before"))
        .await
        .unwrap()
        .0;
    there.authenticate(&key).await.unwrap().unwrap();
    assert!(there.object(&me, &doc, &obj).await.is_ok());
    let mut reports = there.commits();
    let cached = there.cached_bytes();
    assert!(cached > 0, "loaded into memory");
    here.update_object(&me, &doc, &obj, label("after"), None)
        .await
        .unwrap();
    // The next read through `there` sees the write, from memory kept and updated in place.
    there.authenticate(&key).await.unwrap().unwrap();
    let read = there.object(&me, &doc, &obj).await.unwrap();
    assert!(read.data().contains("after"), "{}", read.data());
    assert!(there.cached_bytes() > 0, "the document was not dropped");
    let report = tokio::time::timeout(PATIENCE, reports.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(!report.elsewhere, "applied, not dropped: {report:?}");
    assert_eq!(report.docs[0].changed[0].0, obj);
}

/// A batch whose first request fails still takes a value of the counter of its own. Once, on a
/// connection that had not prepared the counter's bump yet, the bump (prepared first) ran after
/// the first request's savepoint, which the pipelined savepoint had begun meanwhile: the failed
/// request took the bump back with it, the next batch took the same value, and its commit was
/// never applied to what the instance keeps (a write answered, then read back stale).
#[tokio::test(flavor = "multi_thread")]
async fn a_batch_whose_first_request_fails_still_takes_a_generation_of_its_own() {
    let (url, key) = team_database();
    let label = |text: &str| json!({"text": text}).as_object().unwrap().clone();
    let maker = open_store(&url).await;
    let me = maker.authenticate(&key).await.unwrap().unwrap();
    let doc = maker.create_doc(&me, "Counted", None).await.unwrap();
    let obj = maker
        .create_object(&me, &doc, "label", &label("before"))
        .await
        .unwrap()
        .0;
    // A new instance, none of whose connections has written yet, keeping the document.
    let fresh = open_store(&url).await;
    fresh.authenticate(&key).await.unwrap().unwrap();
    assert!(fresh.object(&me, &doc, &obj).await.is_ok());
    let failed = fresh
        .create_object(&me, "missing", "label", &label("lost"))
        .await;
    assert!(failed.is_err(), "a document that does not exist");
    fresh
        .update_object(&me, &doc, &obj, label("after"), None)
        .await
        .unwrap();
    fresh.authenticate(&key).await.unwrap().unwrap();
    let read = fresh.object(&me, &doc, &obj).await.unwrap();
    assert!(read.data().contains("after"), "{}", read.data());
}
