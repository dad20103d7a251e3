//! `healthz` and `readyz`: no key, nothing about the data, and `readyz` turning 503 when the
//! schema is not this build's; the request id echoed. On both engines.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Harness, send};

/// GET a path without a key.
async fn get_without_key(h: &Harness, path: &str) -> (StatusCode, serde_json::Value) {
    send(h.http.get(format!("{}{path}", h.server.url()))).await
}

#[tokio::test]
async fn healthz_and_readyz_answer_without_a_key_and_say_nothing_of_the_data() {
    let h = Harness::new().await;
    assert_eq!(
        get_without_key(&h, "/healthz").await,
        (StatusCode::OK, json!({"status": "ok"}))
    );
    assert_eq!(
        get_without_key(&h, "/readyz").await,
        (StatusCode::OK, json!({"status": "ready"}))
    );
    // A key, even a wrong one, changes nothing.
    let with_key = h
        .http
        .get(format!("{}/readyz", h.server.url()))
        .bearer_auth("not-a-key");
    assert_eq!(send(with_key).await.0, StatusCode::OK);
}

#[tokio::test]
async fn readyz_turns_503_when_the_schema_is_not_this_builds() {
    let h = Harness::new().await;
    h.run_sql(if crate::engine::POSTGRES {
        "UPDATE diagtui_schema SET version = version + 1"
    } else {
        "PRAGMA user_version = 999"
    });
    assert_eq!(
        get_without_key(&h, "/readyz").await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "not ready", "reason": "schema"})
        )
    );
    // Alive all the same.
    assert_eq!(get_without_key(&h, "/healthz").await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_description_lists_healthz_and_readyz_without_security() {
    let h = Harness::new().await;
    let (_, doc) = get_without_key(&h, "/api/v1/openapi.json").await;
    for path in ["/healthz", "/readyz"] {
        let get = &doc["paths"][path]["get"];
        assert_eq!(get["security"], json!([{}]), "{path}: {get}");
        assert!(get["responses"]["200"].is_object(), "{path}: {get}");
    }
    let not_ready = &doc["paths"]["/readyz"]["get"]["responses"]["503"];
    let schema = &not_ready["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(schema, "#/components/schemas/Health", "{not_ready}");
    let codes = &doc["components"]["schemas"]["ErrorCode"]["enum"];
    assert!(
        codes
            .as_array()
            .unwrap()
            .contains(&json!("INSUFFICIENT_STORAGE")),
        "{codes}"
    );
}

#[tokio::test]
async fn a_request_id_is_echoed_or_made() {
    let h = Harness::new().await;
    let url = format!("{}/api/v1/doc", h.server.url());
    let sent = h
        .http
        .get(&url)
        .bearer_auth(h.key())
        .header("x-request-id", "trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(sent.headers()["x-request-id"], "trace-42");
    // None sent, or one that is not sensible (too long): a new UUID.
    let long = "x".repeat(200);
    for header in [None, Some(long.as_str())] {
        let mut request = h.http.get(&url).bearer_auth(h.key());
        if let Some(id) = header {
            request = request.header("x-request-id", id);
        }
        let answer = request.send().await.unwrap();
        let id = answer.headers()["x-request-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    }
    // Errors carry it too.
    let missing = h.http.get(format!("{}/nowhere", h.server.url())).send();
    let missing = missing.await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(missing.headers().contains_key("x-request-id"));
}
