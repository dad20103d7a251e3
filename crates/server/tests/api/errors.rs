//! The error contract for transport-level mistakes: content type, malformed JSON, body shape,
//! unknown routes, wrong methods, bodies over the limit, and authentication.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Harness, assert_error, send};

#[tokio::test(flavor = "multi_thread")]
async fn bodies_must_be_json_of_the_right_shape() {
    let h = Harness::new().await;
    let url = format!("{}/api/v1/doc/create", h.server.url());
    let no_type = send(
        h.http
            .post(&url)
            .bearer_auth(h.key())
            .body(r#"{"title":"t"}"#),
    )
    .await;
    assert_error(
        &no_type,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    );
    let text_type = send(
        h.http
            .post(&url)
            .bearer_auth(h.key())
            .header("content-type", "text/plain")
            .body(r#"{"title":"t"}"#),
    )
    .await;
    assert_error(
        &text_type,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    );
    for bad in ["{", "{\"title\": }", "", "tru", "{\"title\": \"t\"} x"] {
        let answer = send(
            h.http
                .post(&url)
                .bearer_auth(h.key())
                .header("content-type", "application/json")
                .body(bad),
        )
        .await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "INVALID_JSON");
    }
    let msg = assert_error(
        &h.post("/api/v1/doc/create", json!({"title": 5})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.starts_with("title:"), "{msg}");
    let msg = assert_error(
        &h.post("/api/v1/doc/change-title", json!({"title": "x"}))
            .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("docId"), "{msg}");
    assert_error(
        &h.post("/api/v1/doc/create", json!([1])).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_routes_and_wrong_methods() {
    let h = Harness::new().await;
    let msg = assert_error(
        &h.get("/api/v1/nothing").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    assert!(msg.contains("/api/v1/nothing"), "{msg}");
    assert_error(&h.get("/").await, StatusCode::NOT_FOUND, "NOT_FOUND");
    assert_error(
        &h.call(Method::DELETE, "/api/v1/doc", Some(&h.key()), None)
            .await,
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
    );
    assert_error(
        &h.get("/api/v1/doc/create").await,
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
    );
    assert_error(
        &h.call(
            Method::PUT,
            "/api/v1/doc/x/obj/y",
            Some(&h.key()),
            Some(json!({})),
        )
        .await,
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bodies_over_the_limit_are_refused_and_nothing_is_written() {
    let h = Harness::new().await;
    let doc = h.new_doc("Big").await;
    let big = "x".repeat(diagtui_server::DEFAULT_MAX_BODY + 1);
    let body =
        format!(r#"{{"a0000000-aaaaaaaaa": {{"type": "label", "data": {{"text": "{big}"}}}}}}"#);
    let answer = send(
        h.http
            .post(format!("{}/api/v1/doc/set-content/{doc}", h.server.url()))
            .bearer_auth(h.key())
            .header("content-type", "application/json")
            .body(body),
    )
    .await;
    assert_error(&answer, StatusCode::PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        json!({})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_come_as_bearer_or_query_and_are_checked() {
    let h = Harness::new().await;
    let none = h.call(Method::GET, "/api/v1/doc", None, None).await;
    assert_error(&none, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    let wrong = h.call(Method::GET, "/api/v1/doc", Some("nope"), None).await;
    assert_error(&wrong, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    let wrong_query = h
        .call(Method::GET, "/api/v1/doc?key=nope", None, None)
        .await;
    assert_error(&wrong_query, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    let unauth_post = h
        .call(
            Method::POST,
            "/api/v1/doc/create",
            None,
            Some(json!({"title": "x"})),
        )
        .await;
    assert_error(&unauth_post, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    let by_query = h
        .call(
            Method::GET,
            &format!("/api/v1/doc?key={}", h.key()),
            None,
            None,
        )
        .await;
    assert_eq!(by_query.0, StatusCode::OK);
    assert_eq!(by_query.1, h.get_ok("/api/v1/doc").await);
    let created = h
        .call(
            Method::POST,
            &format!("/api/v1/doc/create?key={}", h.key()),
            None,
            Some(json!({"title": "via query"})),
        )
        .await;
    assert_eq!(created.0, StatusCode::OK, "{}", created.1);
    let basic = send(
        h.http
            .get(format!("{}/api/v1/doc", h.server.url()))
            .basic_auth("user", Some(h.key())),
    )
    .await;
    assert_error(&basic, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    assert!(
        !h.stored_text().contains(&h.key()),
        "keys are stored hashed"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn internal_failures_answer_500_without_internals() {
    let h = Harness::new().await;
    let doc = h.new_doc("Broken").await;
    // Break the database under the running server.
    h.run_sql("DROP TABLE objects");
    let msg = assert_error(
        &h.get(&format!("/api/v1/doc/{doc}/obj/all")).await,
        StatusCode::INTERNAL_SERVER_ERROR,
        "INTERNAL_ERROR",
    );
    assert!(
        !msg.contains("objects") && !msg.to_lowercase().contains("sql"),
        "{msg}"
    );
}
