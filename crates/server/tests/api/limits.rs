//! Caps on what one request may ask: selector size, title, e-mail and object id lengths. A
//! request over a cap answers at once and writes nothing.

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Harness, assert_error, send};

/// A selector of `n` conditions.
fn conditions(n: usize) -> serde_json::Value {
    json!(
        (0..n)
            .map(|i| json!([format!("k{i}"), "eq", i]))
            .collect::<Vec<_>>()
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn selectors_are_capped_at_64_conditions() {
    let h = Harness::new().await;
    let doc = h.new_doc("Capped").await;
    h.new_component(&doc, json!({"k0": 0})).await;
    let path = format!("/api/v1/doc/{doc}/obj/where");
    h.post_ok(&path, json!({"selector": conditions(64), "props": {}}))
        .await;
    let msg = assert_error(
        &h.post(&path, json!({"selector": conditions(65), "props": {}}))
            .await,
        StatusCode::BAD_REQUEST,
        "INVALID_SELECTOR",
    );
    assert!(msg.contains("64"), "the message names the cap: {msg}");

    let segment = |n| utf8_percent_encode(&conditions(n).to_string(), NON_ALPHANUMERIC).to_string();
    h.get_ok(&format!("{path}/{}", segment(64))).await;
    let msg = assert_error(
        &h.get(&format!("{path}/{}", segment(65))).await,
        StatusCode::BAD_REQUEST,
        "INVALID_SELECTOR",
    );
    assert!(msg.contains("64"), "{msg}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_huge_selector_is_refused_without_holding_up_writes() {
    let h = Harness::new().await;
    let doc = h.new_doc("Busy").await;
    let obj = h.new_component(&doc, json!({"n": 0})).await;
    // About 1.3 million conditions, 16 MB: under the body limit.
    let term = r#"["status","eq","down"],"#;
    let mut body = String::from(r#"{"props": {"opacity": 0.5}, "selector": ["#);
    body.push_str(&term.repeat(16 * 1024 * 1024 / term.len()));
    body.push_str(r#"["status","eq","down"]]}"#);
    let url = format!("{}/api/v1/doc/{doc}/obj/where", h.server.url());
    let huge = tokio::spawn({
        let request = h
            .http
            .post(&url)
            .bearer_auth(h.key())
            .header("content-type", "application/json")
            .body(body);
        async move { send(request).await }
    });
    // Writes go on while it is refused.
    for n in 1..=20 {
        h.post_ok(
            &format!("/api/v1/doc/{doc}/obj/{obj}"),
            json!({"props": {"meta": {"n": n}}}),
        )
        .await;
    }
    let answer = huge.await.unwrap();
    let msg = assert_error(&answer, StatusCode::BAD_REQUEST, "INVALID_SELECTOR");
    assert!(msg.contains("64"), "{msg}");
    let object = h.get_ok(&format!("/api/v1/doc/{doc}/obj/{obj}")).await;
    assert_eq!(object["data"]["meta"]["n"], 20);
    assert_eq!(
        object["data"]["opacity"], 1,
        "the huge update wrote nothing"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn titles_are_capped_at_1000_characters() {
    let h = Harness::new().await;
    let doc = h.new_doc("Short").await;
    let folder = h
        .post_ok("/api/v1/folder/create", json!({"title": "F"}))
        .await["folderId"]
        .as_str()
        .unwrap()
        .to_owned();
    let ok = "é".repeat(1000);
    let long = "t".repeat(1001);
    h.post_ok("/api/v1/doc/create", json!({"title": ok})).await;
    for (path, body) in [
        ("/api/v1/doc/create", json!({"title": long})),
        (
            "/api/v1/doc/change-title",
            json!({"docId": doc, "title": long}),
        ),
        ("/api/v1/doc/clone", json!({"docId": doc, "title": long})),
        ("/api/v1/folder/create", json!({"title": long})),
        (
            "/api/v1/folder/change-title",
            json!({"folderId": folder, "title": long}),
        ),
    ] {
        let msg = assert_error(
            &h.post(path, body).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(
            msg.starts_with("title:") && msg.contains("1000"),
            "{path}: {msg}"
        );
    }
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}")).await["title"],
        "Short"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn emails_are_capped_at_254_characters() {
    let h = Harness::new().await;
    let doc = h.new_doc("Shared").await;
    let long = format!("{}@example.com", "a".repeat(243));
    assert_eq!(long.len(), 255);
    let msg = assert_error(
        &h.post(
            "/api/v1/doc/add-collaborator",
            json!({"docId": doc, "email": long}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.starts_with("email:") && msg.contains("254"), "{msg}");
    let err = diagtui_server::create_account(h.server.location(), &long).unwrap_err();
    assert!(err.to_string().contains("254"), "{err}");
    diagtui_server::create_account(h.server.location(), &long[1..]).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn object_ids_are_capped_at_128_characters() {
    let h = Harness::new().await;
    let doc = h.new_doc("Ids").await;
    let ok = "a".repeat(128);
    let long = "a".repeat(129);
    let set = format!("/api/v1/doc/set-content/{doc}");
    h.post_ok(&set, json!({&ok: {"type": "label", "data": {}}}))
        .await;
    let msg = assert_error(
        &h.post(&set, json!({&long: {"type": "label", "data": {}}}))
            .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("128"), "{msg}");
    let msg = assert_error(
        &h.post(
            &format!("/api/v1/doc/{doc}"),
            json!({"objects": {&long: {"text": "x"}}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.starts_with("objects.") && msg.contains("128"), "{msg}");
    for path in [
        format!("/api/v1/doc/{doc}/obj/{long}"),
        format!("/api/v1/doc/{doc}/obj/{long}/delete"),
    ] {
        let msg = assert_error(
            &h.post(&path, json!({"props": {}})).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with("objId:") && msg.contains("128"), "{msg}");
    }
    let content = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(
        content.as_object().unwrap().len(),
        1,
        "only the first upload"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oversized_selector_is_refused_before_any_document_is_read() {
    let h = Harness::new().await;
    let msg = assert_error(
        &h.post(
            "/api/v1/doc/00000000-0000-4000-8000-000000000000/obj/where",
            json!({"selector": conditions(100_000), "props": {}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "INVALID_SELECTOR",
    );
    assert!(msg.contains("64"), "{msg}");
}
