//! Accounts and scoping: a second account, sharing, and what each may see and do.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Harness, assert_error};

#[tokio::test(flavor = "multi_thread")]
async fn accounts_see_only_their_own_and_shared_documents() {
    let h = Harness::new().await;
    let other = diagtui_server::create_account(h.server.location(), "bob@example.com").unwrap();
    let as_bob = |method: Method, path: &str, body: Option<serde_json::Value>| {
        let key = other.clone();
        let path = path.to_owned();
        let h = &h;
        async move { h.call(method, &path, Some(&key), body).await }
    };

    let me = as_bob(Method::GET, "/api/v1/me", None).await;
    assert_eq!(
        me.1["email"], "bob@example.com",
        "the new key works at once"
    );
    let list = as_bob(Method::GET, "/api/v1/doc", None).await;
    assert_eq!(list.1, json!([]), "a new account starts empty");
    let folders = as_bob(Method::GET, "/api/v1/folder/list", None).await;
    assert_eq!(
        folders.1.as_object().unwrap().len(),
        1,
        "with its own first folder"
    );

    let doc = h.new_doc("Mine").await;
    let obj = h.new_component(&doc, json!({"k": 1})).await;
    for path in [
        format!("/api/v1/doc/{doc}"),
        format!("/api/v1/doc/{doc}/obj/all"),
        format!("/api/v1/doc/{doc}/obj/{obj}"),
    ] {
        let answer = as_bob(Method::GET, &path, None).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    }
    let write = as_bob(
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj/{obj}"),
        Some(json!({"props": {"opacity": 0.5}})),
    )
    .await;
    assert_error(&write, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");

    let unknown = h
        .post(
            "/api/v1/doc/add-collaborator",
            json!({"docId": doc, "email": "nobody@example.com"}),
        )
        .await;
    assert_error(&unknown, StatusCode::NOT_FOUND, "USER_NOT_FOUND");
    h.post_ok(
        "/api/v1/doc/add-collaborator",
        json!({"docId": doc, "email": "BOB@example.com"}),
    )
    .await;

    let list = as_bob(Method::GET, "/api/v1/doc", None).await;
    assert_eq!(list.1, json!([{"id": doc, "title": "Mine"}]));
    let details = as_bob(Method::GET, &format!("/api/v1/doc/{doc}"), None).await;
    assert_eq!(
        details.1["user"]["email"],
        h.server.email(),
        "the owner stays"
    );
    let write = as_bob(
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj/{obj}"),
        Some(json!({"props": {"opacity": 0.5}})),
    )
    .await;
    assert_eq!(write.0, StatusCode::OK, "{}", write.1);
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/{obj}")).await["data"]["opacity"],
        0.5
    );
    let cloned = as_bob(
        Method::POST,
        "/api/v1/doc/clone",
        Some(json!({"docId": doc, "title": "Bob's copy"})),
    )
    .await;
    let copy = cloned.1["docId"].as_str().unwrap().to_owned();
    let copy_details = as_bob(Method::GET, &format!("/api/v1/doc/{copy}"), None).await;
    assert_eq!(copy_details.1["user"]["email"], "bob@example.com");
    assert_error(
        &h.get(&format!("/api/v1/doc/{copy}")).await,
        StatusCode::NOT_FOUND,
        "DOC_NOT_FOUND",
    );

    let delete = as_bob(
        Method::POST,
        "/api/v1/doc/delete",
        Some(json!({"docId": doc})),
    )
    .await;
    assert_error(&delete, StatusCode::FORBIDDEN, "FORBIDDEN");
    h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": doc})).await;
    let gone = as_bob(Method::GET, &format!("/api/v1/doc/{doc}"), None).await;
    assert_error(&gone, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_email_has_one_account() {
    let h = Harness::new().await;
    diagtui_server::create_account(h.server.location(), "carol@example.com").unwrap();
    let again =
        diagtui_server::create_account(h.server.location(), "Carol@Example.com").unwrap_err();
    assert!(again.to_string().contains("already exists"), "{again}");
    let default =
        diagtui_server::create_account(h.server.location(), h.server.email()).unwrap_err();
    assert!(default.to_string().contains("already exists"), "{default}");
    let bad = diagtui_server::create_account(h.server.location(), "no-at-sign").unwrap_err();
    assert!(bad.to_string().contains("not an e-mail address"), "{bad}");
}
