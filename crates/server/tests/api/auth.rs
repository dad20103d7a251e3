//! Accounts and scoping: a second account, sharing, and what each may see and do.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Harness, assert_error};

/// A second account, bob@example.com, on the harness's server.
struct Bob<'h> {
    h: &'h Harness,
    key: String,
}

impl<'h> Bob<'h> {
    fn new(h: &'h Harness) -> Bob<'h> {
        let key = diagtui_server::create_account(h.server.location(), "bob@example.com").unwrap();
        Bob { h, key }
    }

    /// A request with Bob's key: the status and the JSON answer.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (StatusCode, serde_json::Value) {
        self.h.call(method, path, Some(&self.key), body).await
    }

    /// Bob sets the opacity of object `obj` of document `doc` to 0.5.
    async fn set_opacity(&self, doc: &str, obj: &str) -> (StatusCode, serde_json::Value) {
        let path = format!("/api/v1/doc/{doc}/obj/{obj}");
        let body = Some(json!({"props": {"opacity": 0.5}}));
        self.call(Method::POST, &path, body).await
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_account_starts_empty_and_sees_no_other_accounts_document() {
    let h = Harness::new().await;
    let bob = Bob::new(&h);

    let me = bob.call(Method::GET, "/api/v1/me", None).await;
    assert_eq!(
        me.1["email"], "bob@example.com",
        "the new key works at once"
    );
    let list = bob.call(Method::GET, "/api/v1/doc", None).await;
    assert_eq!(list.1, json!([]), "a new account starts empty");
    let folders = bob.call(Method::GET, "/api/v1/folder/list", None).await;
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
        let answer = bob.call(Method::GET, &path, None).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    }
    let write = bob.set_opacity(&doc, &obj).await;
    assert_error(&write, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collaborator_reads_writes_and_clones_but_only_the_owner_deletes() {
    let h = Harness::new().await;
    let bob = Bob::new(&h);
    let doc = h.new_doc("Mine").await;
    let obj = h.new_component(&doc, json!({"k": 1})).await;

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

    let list = bob.call(Method::GET, "/api/v1/doc", None).await;
    assert_eq!(list.1, json!([{"id": doc, "title": "Mine"}]));
    let details = bob
        .call(Method::GET, &format!("/api/v1/doc/{doc}"), None)
        .await;
    assert_eq!(
        details.1["user"]["email"],
        h.server.email(),
        "the owner stays"
    );
    let write = bob.set_opacity(&doc, &obj).await;
    assert_eq!(write.0, StatusCode::OK, "{}", write.1);
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/{obj}")).await["data"]["opacity"],
        0.5
    );
    let cloned = bob
        .call(
            Method::POST,
            "/api/v1/doc/clone",
            Some(json!({"docId": doc, "title": "Bob's copy"})),
        )
        .await;
    let copy = cloned.1["docId"].as_str().unwrap().to_owned();
    let copy_details = bob
        .call(Method::GET, &format!("/api/v1/doc/{copy}"), None)
        .await;
    assert_eq!(copy_details.1["user"]["email"], "bob@example.com");
    assert_error(
        &h.get(&format!("/api/v1/doc/{copy}")).await,
        StatusCode::NOT_FOUND,
        "DOC_NOT_FOUND",
    );

    let delete = bob
        .call(
            Method::POST,
            "/api/v1/doc/delete",
            Some(json!({"docId": doc})),
        )
        .await;
    assert_error(&delete, StatusCode::FORBIDDEN, "FORBIDDEN");
    h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": doc})).await;
    let gone = bob
        .call(Method::GET, &format!("/api/v1/doc/{doc}"), None)
        .await;
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
