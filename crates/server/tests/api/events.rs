//! The change event streams (our extension): a document's, the account's. Read over real HTTP
//! with the client's SSE parser.

use std::time::Duration;

use diagtui_client::SseItem;
use diagtui_server::ServerOptions;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Harness, assert_error};
use crate::stream::Stream;

/// Longer than anything here should take: a hung stream fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(30);

/// The place of an event id: ids grow within a stream.
fn seq(id: &str) -> u64 {
    id.rsplit_once('-').unwrap().1.parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_document_stream_has_one_event_per_write_request_in_commit_order() {
    let h = Harness::new().await;
    let doc = h.new_doc("Watched").await;
    let a = h.new_component(&doc, json!({"tier": "web"})).await;
    let b = h.new_component(&doc, json!({"tier": "web"})).await;
    let mut stream = Stream::doc(&h, &doc, None).await;
    let (first, current) = stream.expect("current").await;
    let details = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(current["lastChange"], details["lastChange"]);
    assert_eq!(current["changed"], json!([]));

    let c = h.new_obj(&doc, "label", json!({"text": "c"})).await;
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{a}"),
        json!({"props": {"meta": {"tier": "db"}}}),
    )
    .await;
    h.post_ok(
        &format!("/api/v1/doc/{doc}"),
        json!({"objects": {a.clone(): {"meta": {"n": 1}}, b.clone(): {"meta": {"n": 2}}}}),
    )
    .await;
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/where"),
        json!({"selector": ["n", "eq", 2], "props": {"meta": {"tier": "app"}}}),
    )
    .await;
    h.post_ok(&format!("/api/v1/doc/{doc}/obj/{c}/delete"), json!({}))
        .await;
    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": doc, "title": "Renamed"}),
    )
    .await;

    let mut ids = vec![first];
    let mut events = Vec::new();
    for _ in 0..6 {
        let (id, data) = stream.expect("change").await;
        ids.push(id);
        events.push(data);
    }
    let changed: Vec<&Value> = events.iter().map(|e| &e["changed"]).collect();
    assert_eq!(
        changed,
        [
            &json!([c]),
            &json!([a]),
            &json!([a, b]),
            &json!([b]),
            &json!([]),
            &json!([])
        ],
        "one event per request, the bulk and the selector update each as one"
    );
    assert_eq!(events[4]["deleted"], json!([c]));
    assert_eq!(events[5]["document"], "retitled");
    assert!(events[..5].iter().all(|e| e["document"].is_null()));
    let seqs: Vec<u64> = ids.iter().map(|id| seq(id)).collect();
    assert!(seqs.windows(2).all(|w| w[0] + 1 == w[1]), "{ids:?}");
    let details = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(events[5]["lastChange"], details["lastChange"]);

    h.post_ok("/api/v1/doc/empty", json!({"docId": doc})).await;
    h.post_ok(&format!("/api/v1/doc/set-content/{doc}"), json!({}))
        .await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": doc})).await;
    assert_eq!(stream.expect("change").await.1["document"], "emptied");
    assert_eq!(
        stream.expect("change").await.1["document"],
        "content-replaced"
    );
    let (_, deleted) = stream.expect("change").await;
    assert_eq!(deleted["document"], "deleted");
    assert!(deleted["lastChange"].is_null());
    stream.ends().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn streams_are_scoped_like_every_route() {
    let h = Harness::new().await;
    let bob = diagtui_server::create_account(h.server.location(), "bob@example.com").unwrap();
    let mine = h.new_doc("Mine").await;
    let path = format!("/api/v1/doc/{mine}/events");
    let (status, body) = h.call(reqwest::Method::GET, &path, Some(&bob), None).await;
    assert_error(&(status, body), StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    let answer = h.call(reqwest::Method::GET, &path, None, None).await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    let answer = h
        .call(reqwest::Method::GET, "/api/v1/events", None, None)
        .await;
    assert_error(&answer, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");

    let mut bobs = Stream::open(&h, "/api/v1/events", &bob, None).await;
    bobs.expect("current").await;
    let mut mine_all = Stream::open(&h, "/api/v1/events", &h.key(), None).await;
    mine_all.expect("current").await;

    let hidden = h.new_doc("Not Bob's").await;
    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": hidden, "title": "Still not Bob's"}),
    )
    .await;
    h.post_ok(
        "/api/v1/doc/add-collaborator",
        json!({"docId": mine, "email": "bob@example.com"}),
    )
    .await;
    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": mine, "title": "Ours"}),
    )
    .await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": hidden}))
        .await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": mine}))
        .await;

    let mut seen = Vec::new();
    for _ in 0..3 {
        let (_, event) = bobs.expect("change").await;
        seen.push((event["docId"].clone(), event["document"].clone()));
    }
    assert_eq!(
        seen,
        [
            (json!(mine), json!("shared")),
            (json!(mine), json!("retitled")),
            (json!(mine), json!("deleted")),
        ],
        "Bob sees his shared document only"
    );
    let mut own = Vec::new();
    for _ in 0..6 {
        let (_, event) = mine_all.expect("change").await;
        own.push(event["document"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        own,
        [
            "created", "retitled", "shared", "retitled", "deleted", "deleted"
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_subscriber_coming_back_gets_what_it_missed_or_resync() {
    let h = Harness::new().await;
    let doc = h.new_doc("Resumed").await;
    let mut stream = Stream::doc(&h, &doc, None).await;
    stream.expect("current").await;
    let first = h.new_obj(&doc, "label", json!({})).await;
    let (seen, _) = stream.expect("change").await;
    drop(stream);
    let second = h.new_obj(&doc, "label", json!({})).await;
    let third = h.new_obj(&doc, "label", json!({})).await;

    let mut back = Stream::doc(&h, &doc, Some(&seen)).await;
    let (id, missed) = back.expect("change").await;
    assert_eq!(
        missed["changed"],
        json!([second]),
        "no current when resuming"
    );
    assert_eq!(seq(&id), seq(&seen) + 1);
    assert_eq!(back.expect("change").await.1["changed"], json!([third]));
    let (last, _) = {
        h.post_ok(&format!("/api/v1/doc/{doc}/obj/{first}/delete"), json!({}))
            .await;
        back.expect("change").await
    };
    drop(back);

    let mut foreign = Stream::doc(&h, &doc, Some("elsewhere-3")).await;
    let (id, resync) = foreign.expect("resync").await;
    assert_eq!(resync["reason"], "backlog");
    assert_eq!(id, last, "a resync carries the stream's last id");

    for n in 0..140 {
        h.new_obj(&doc, "label", json!({"text": format!("{n}")}))
            .await;
    }
    let mut late = Stream::doc(&h, &doc, Some(&last)).await;
    let (_, resync) = late.expect("resync").await;
    assert_eq!(resync["reason"], "backlog", "the backlog is bounded");
    h.new_obj(&doc, "label", json!({})).await;
    assert_eq!(late.expect("change").await.1["deleted"], json!([]));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_account_stream_resumes_and_resyncs_when_a_deletion_cannot_be_placed() {
    let h = Harness::new().await;
    let mut stream = Stream::open(&h, "/api/v1/events", &h.key(), None).await;
    let (mark, _) = stream.expect("current").await;
    drop(stream);
    let doc = h.new_doc("While away").await;
    let mut back = Stream::open(&h, "/api/v1/events", &h.key(), Some(&mark)).await;
    let (seen, created) = back.expect("change").await;
    assert_eq!(created["docId"], doc.as_str());
    drop(back);
    let gone = h.new_doc("Gone while away").await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": gone}))
        .await;
    let mut again = Stream::open(&h, "/api/v1/events", &h.key(), Some(&seen)).await;
    let (created, _) = again.expect("change").await;
    let (_, deleted) = again.expect("change").await;
    assert_eq!(deleted["document"], "deleted", "its creation was seen");
    drop(again);
    let before = h.new_doc("Deleted unseen").await;
    let mut stream = Stream::open(&h, "/api/v1/events", &h.key(), None).await;
    let (current, _) = stream.expect("current").await;
    assert!(seq(&current) > seq(&created));
    drop(stream);
    h.post_ok("/api/v1/doc/delete", json!({"docId": before}))
        .await;
    let mut unsure = Stream::open(&h, "/api/v1/events", &h.key(), Some(&created)).await;
    let (_, resync) = unsure.expect("resync").await;
    assert_eq!(resync["reason"], "backlog");
}

#[tokio::test(flavor = "multi_thread")]
async fn streams_outlive_the_idle_timeout_keep_alive_and_end_when_the_server_stops() {
    let h = Harness::with(ServerOptions {
        idle_timeout: Duration::from_millis(100),
        keep_alive: Duration::from_millis(200),
        ..ServerOptions::default()
    })
    .await;
    let doc = h.new_doc("Long").await;
    let mut stream = Stream::doc(&h, &doc, None).await;
    stream.expect("current").await;
    let comment = stream.item().await.unwrap();
    assert_eq!(comment, SseItem::Comment("keep-alive".into()));
    // Well past the idle timeout, the stream still carries events.
    assert_eq!(
        stream.item().await.unwrap(),
        SseItem::Comment("keep-alive".into())
    );
    h.new_obj(&doc, "label", json!({})).await;
    stream.expect("change").await;
    let Harness { server, dir, .. } = h;
    tokio::time::timeout(PATIENCE, server.shutdown())
        .await
        .expect("the server stops with a stream open");
    stream.ends().await;
    drop(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn streams_at_the_connection_cap_make_room_for_requests() {
    let h = Harness::with(ServerOptions {
        max_connections: 2,
        ..ServerOptions::default()
    })
    .await;
    let doc = h.new_doc("Capped").await;
    let mut first = Stream::doc(&h, &doc, None).await;
    first.expect("current").await;
    let mut second = Stream::doc(&h, &doc, None).await;
    second.expect("current").await;
    let list = tokio::time::timeout(PATIENCE, h.get("/api/v1/doc"))
        .await
        .expect("a request gets through");
    assert_eq!(list.0, StatusCode::OK);
    // The one streaming the longest made room (both may have started in the same millisecond).
    let ended = tokio::select! {
        item = first.item() => item,
        item = second.item() => item,
    };
    assert!(ended.is_none(), "a stream made room: {ended:?}");
}
