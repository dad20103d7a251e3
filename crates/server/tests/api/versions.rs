//! Conditional writes and versions (issue 33, our extension): `ETag`, `If-Match`,
//! `If-None-Match`, `X-Document-Version`, `?versions=true`, `ifVersions` and the 412 answer, over
//! HTTP, on both engines. Clients are interleaved by the order of their requests (both read,
//! then both write), never by timing. Here one object's and one document's versions; writes
//! over many objects, restarts and change events in `versions_writes.rs`.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::answer::{Answer, request};
use crate::common::{Harness, assert_error};

/// A request to the harness's server with its key.
pub(crate) async fn send(
    h: &Harness,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    request(
        &h.http,
        h.server.url(),
        &h.key(),
        method,
        path,
        headers,
        body,
    )
    .await
}

/// The version an ETag names.
fn version_of(etag: &str) -> u64 {
    etag.trim_matches('"').parse().unwrap()
}

#[tokio::test]
async fn one_object_answers_its_version_and_304_until_it_changes() {
    let h = Harness::new().await;
    let doc = h.new_doc("Versions").await;
    let made = send(
        &h,
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj"),
        &[],
        Some(json!({"type": "label", "props": {"text": "a"}})),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    let obj = made.body["objId"].as_str().unwrap().to_owned();
    let created = version_of(&made.etag());
    assert_eq!(
        made.doc_version(),
        created,
        "the object's version is the write's"
    );
    assert_eq!(created, 2, "after the document's `created` version");

    let path = format!("/api/v1/doc/{doc}/obj/{obj}");
    let read = send(&h, Method::GET, &path, &[], None).await;
    assert_eq!(read.etag(), format!("\"{created}\""));
    assert_eq!(read.body["data"]["text"], "a", "the body as before");
    assert!(
        read.body.get("version").is_none(),
        "no new field in the body"
    );
    for unchanged in [
        read.etag(),
        created.to_string(),
        format!("\"1\", {}", read.etag()),
    ] {
        let again = send(
            &h,
            Method::GET,
            &path,
            &[("if-none-match", &unchanged)],
            None,
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{unchanged}");
        assert_eq!(again.body, Value::Null, "no body");
        assert_eq!(again.etag(), read.etag());
    }

    // A write to another object leaves this one's version as it was.
    h.new_obj(&doc, "label", json!({"text": "other"})).await;
    let still = send(
        &h,
        Method::GET,
        &path,
        &[("if-none-match", &read.etag())],
        None,
    )
    .await;
    assert_eq!(still.status, StatusCode::NOT_MODIFIED);

    let updated = send(
        &h,
        Method::POST,
        &path,
        &[("if-match", &read.etag())],
        Some(json!({"props": {"text": "b"}})),
    )
    .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body, json!({"success": true}));
    let now = version_of(&updated.etag());
    assert_eq!(updated.doc_version(), now);
    assert_eq!(now, created + 2);
    let changed = send(
        &h,
        Method::GET,
        &path,
        &[("if-none-match", &read.etag())],
        None,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_eq!(changed.etag(), updated.etag());
    // A history read has no ETag.
    let old = send(
        &h,
        Method::GET,
        &format!("{path}?version={created}"),
        &[],
        None,
    )
    .await;
    assert_eq!(old.body["data"]["text"], "a");
    assert!(old.header("etag").is_none());
}

#[tokio::test]
async fn two_clients_that_read_then_write_lose_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("Raced").await;
    let obj = h
        .new_obj(&doc, "label", json!({"text": "start", "meta": {"n": 0}}))
        .await;
    let path = format!("/api/v1/doc/{doc}/obj/{obj}");
    // Both read the same version.
    let (first, second) = (
        send(&h, Method::GET, &path, &[], None).await,
        send(&h, Method::GET, &path, &[], None).await,
    );
    assert_eq!(first.etag(), second.etag());
    // Both write with it: the first goes through, the second is refused whole.
    let won = send(
        &h,
        Method::POST,
        &path,
        &[("if-match", &first.etag())],
        Some(json!({"props": {"text": "first's"}})),
    )
    .await;
    assert_eq!(won.status, StatusCode::OK, "{}", won.body);
    let lost = send(
        &h,
        Method::POST,
        &path,
        &[("if-match", &second.etag())],
        Some(json!({"props": {"meta": {"n": 2}}})),
    )
    .await;
    let message = assert_error(
        &(lost.status, lost.body.clone()),
        StatusCode::PRECONDITION_FAILED,
        "PRECONDITION_FAILED",
    );
    assert!(message.contains(&obj), "{message}");
    let now = version_of(&won.etag());
    assert_eq!(lost.body["documentVersion"], now);
    assert_eq!(lost.doc_version(), now);
    let current = &lost.body["objects"][&obj];
    assert_eq!(current["version"], now, "{}", lost.body);
    assert_eq!(
        current["data"]["text"], "first's",
        "the current properties come along"
    );
    assert_eq!(current["type"], "label");
    assert!(lost.body.get("nowMatch").is_none());
    // Nothing of the refused write landed; sent again at the version the 412 gave, it does.
    let read = send(&h, Method::GET, &path, &[], None).await;
    assert_eq!(read.body["data"]["meta"]["n"], 0);
    let retried = send(
        &h,
        Method::POST,
        &path,
        &[("if-match", &now.to_string())],
        Some(json!({"props": {"meta": {"n": 2}}})),
    )
    .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    let read = send(&h, Method::GET, &path, &[], None).await;
    assert_eq!(read.body["data"]["text"], "first's");
    assert_eq!(read.body["data"]["meta"]["n"], 2);
}

#[tokio::test]
async fn if_match_takes_lists_and_star_and_deletes_are_conditional_too() {
    let h = Harness::new().await;
    let doc = h.new_doc("Deletes").await;
    let obj = h.new_obj(&doc, "label", json!({"text": "x"})).await;
    let path = format!("/api/v1/doc/{doc}/obj/{obj}");
    let etag = send(&h, Method::GET, &path, &[], None).await.etag();
    let listed = format!("\"999\", {etag}");
    let props = Some(json!({"props": {"text": "y"}}));
    let answer = send(&h, Method::POST, &path, &[("if-match", &listed)], props).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let props = Some(json!({"props": {"text": "z"}}));
    let answer = send(&h, Method::POST, &path, &[("if-match", "*")], props).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);

    let delete = format!("{path}/delete");
    let stale = send(&h, Method::POST, &delete, &[("if-match", &etag)], None).await;
    assert_eq!(
        stale.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        stale.body
    );
    assert_eq!(stale.body["objects"][&obj]["data"]["text"], "z");
    assert_eq!(send(&h, Method::GET, &path, &[], None).await.status, 200);
    let now = send(&h, Method::GET, &path, &[], None).await.etag();
    let gone = send(&h, Method::POST, &delete, &[("if-match", &now)], None).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    assert_eq!(gone.doc_version(), version_of(&now) + 1);
    // A condition on an object that does not exist fails: its state is null.
    for (route, body) in [
        (delete.clone(), None),
        (path.clone(), Some(json!({"props": {"text": "back"}}))),
    ] {
        let missing = send(&h, Method::POST, &route, &[("if-match", "*")], body).await;
        assert_eq!(
            missing.status,
            StatusCode::PRECONDITION_FAILED,
            "{}",
            missing.body
        );
        assert_eq!(missing.body["objects"], json!({ obj.clone(): null }));
        assert!(
            missing.body["message"]
                .as_str()
                .unwrap()
                .contains("deleted")
        );
    }
}

#[tokio::test]
async fn bad_versions_are_refused_naming_the_header_or_field() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bad").await;
    let obj = h.new_obj(&doc, "label", json!({})).await;
    let path = format!("/api/v1/doc/{doc}/obj/{obj}");
    for (header, value) in [
        ("if-match", "soon"),
        ("if-match", "W/\"1\""),
        ("if-none-match", "-1"),
    ] {
        let method = if header == "if-match" {
            Method::POST
        } else {
            Method::GET
        };
        let body = (method == Method::POST).then(|| json!({"props": {}}));
        let answer = send(&h, method, &path, &[(header, value)], body).await;
        let message = assert_error(
            &(answer.status, answer.body),
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        let name = if header == "if-match" {
            "If-Match: "
        } else {
            "If-None-Match: "
        };
        assert!(message.starts_with(name), "{message}");
    }
    let bulk = format!("/api/v1/doc/{doc}");
    let answer = h
        .post(
            &bulk,
            json!({"objects": {&obj: {"text": "t"}}, "ifVersions": {&obj: "soon"}}),
        )
        .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(
        message.starts_with(&format!("ifVersions.{obj}: ")),
        "{message}"
    );
    let answer = h
        .post(
            &bulk,
            json!({"objects": {&obj: {"text": "t"}}, "ifVersions": {"other": 1}}),
        )
        .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert_eq!(message, "ifVersions.other: not among objects");
    let answer = h
        .post(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["k", "eq", 1], "props": {}, "ifVersions": {&obj: true}}),
        )
        .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(
        message.starts_with(&format!("ifVersions.{obj}: ")),
        "{message}"
    );
    let answer = h
        .get(&format!("/api/v1/doc/{doc}/obj/all?versions=yes"))
        .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(message.starts_with("versions: "), "{message}");
}

#[tokio::test]
async fn content_reads_carry_the_document_version_and_answer_304() {
    let h = Harness::new().await;
    let doc = h.new_doc("Content").await;
    let a = h.new_component(&doc, json!({"s": "up"})).await;
    let b = h.new_component(&doc, json!({"s": "down"})).await;
    for route in ["obj/all", "obj"] {
        let path = format!("/api/v1/doc/{doc}/{route}");
        let plain = send(&h, Method::GET, &path, &[], None).await;
        assert_eq!(plain.status, StatusCode::OK);
        let version = plain.doc_version();
        assert_eq!(version, 3);
        assert_eq!(plain.etag(), format!("\"{version}\""));
        assert!(
            plain.body[&a].get("version").is_none(),
            "unchanged without ?versions"
        );
        let versioned = send(&h, Method::GET, &format!("{path}?versions=true"), &[], None).await;
        assert_eq!(versioned.body[&a]["version"], 2);
        assert_eq!(versioned.body[&b]["version"], 3);
        assert_eq!(versioned.body[&b]["data"], plain.body[&b]["data"]);
        let text = serde_json::to_string(&versioned.body[&a]).unwrap();
        assert!(text.ends_with(",\"version\":2}"), "version last: {text}");
        let same = send(
            &h,
            Method::GET,
            &path,
            &[("if-none-match", &plain.etag())],
            None,
        )
        .await;
        assert_eq!(same.status, StatusCode::NOT_MODIFIED);
        assert_eq!(same.doc_version(), version);
    }
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{a}"),
        json!({"props": {"meta": {"s": "down"}}}),
    )
    .await;
    let path = format!("/api/v1/doc/{doc}/obj/all");
    let changed = send(&h, Method::GET, &path, &[("if-none-match", "\"3\"")], None).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_eq!(changed.doc_version(), 4);
    let selector = "%5B%22s%22%2C%22eq%22%2C%22down%22%5D";
    let path = format!("/api/v1/doc/{doc}/obj/where/{selector}?versions=true");
    let matched = send(&h, Method::GET, &path, &[], None).await;
    assert_eq!(matched.doc_version(), 4);
    assert_eq!(matched.body[&a]["version"], 4);
    assert_eq!(matched.body[&b]["version"], 3);
    let details = send(&h, Method::GET, &format!("/api/v1/doc/{doc}"), &[], None).await;
    assert_eq!(details.doc_version(), 4);
}

#[tokio::test]
async fn the_document_list_answers_304_until_it_changes() {
    let h = Harness::new().await;
    let list = send(&h, Method::GET, "/api/v1/doc", &[], None).await;
    let etag = list.etag();
    assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
    let same = send(
        &h,
        Method::GET,
        "/api/v1/doc",
        &[("if-none-match", &etag)],
        None,
    )
    .await;
    assert_eq!(same.status, StatusCode::NOT_MODIFIED);
    assert_eq!(same.body, Value::Null);
    h.new_doc("One more").await;
    let changed = send(
        &h,
        Method::GET,
        "/api/v1/doc",
        &[("if-none-match", &etag)],
        None,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_ne!(changed.etag(), etag);
}
