//! The folder extension routes.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Harness, assert_error};

#[tokio::test(flavor = "multi_thread")]
async fn folders_list_create_rename_and_delete_with_their_documents() {
    let h = Harness::new().await;
    let list = h.get_ok("/api/v1/folder/list").await;
    let (first_id, first) = list.as_object().unwrap().iter().next().unwrap();
    assert_eq!(first["title"], "My Documents");
    assert_eq!(first["docs"].as_object().unwrap().len(), 3, "the samples");

    let folder = h
        .post_ok("/api/v1/folder/create", json!({"title": "Drafts"}))
        .await["folderId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(uuid::Uuid::parse_str(&folder).is_ok());
    let doc = h
        .post_ok(
            "/api/v1/doc/create",
            json!({"title": "Draft", "folderId": folder}),
        )
        .await["docId"]
        .as_str()
        .unwrap()
        .to_owned();
    let plain = h.new_doc("Default folder").await;
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{plain}")).await["folder"]["id"],
        first_id.as_str()
    );
    let details = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(details["folder"], json!({"id": folder, "title": "Drafts"}));

    h.post_ok(
        "/api/v1/folder/change-title",
        json!({"folderId": folder, "title": "Ideas"}),
    )
    .await;
    let list = h.get_ok("/api/v1/folder/list").await;
    assert_eq!(
        list[&folder],
        json!({"title": "Ideas", "docs": {&doc: "Draft"}})
    );

    h.post_ok("/api/v1/folder/delete", json!({"folderId": folder}))
        .await;
    assert!(h.get_ok("/api/v1/folder/list").await.get(&folder).is_none());
    assert_error(
        &h.get(&format!("/api/v1/doc/{doc}")).await,
        StatusCode::NOT_FOUND,
        "DOC_NOT_FOUND",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn folder_errors() {
    let h = Harness::new().await;
    let missing = "00000000-0000-4000-8000-000000000000";
    for (path, body) in [
        ("/api/v1/folder/delete", json!({"folderId": missing})),
        (
            "/api/v1/folder/change-title",
            json!({"folderId": missing, "title": "x"}),
        ),
        (
            "/api/v1/doc/create",
            json!({"title": "x", "folderId": missing}),
        ),
    ] {
        assert_error(
            &h.post(path, body).await,
            StatusCode::NOT_FOUND,
            "FOLDER_NOT_FOUND",
        );
    }
    let list = h.get_ok("/api/v1/folder/list").await;
    let only = list.as_object().unwrap().keys().next().unwrap().clone();
    let msg = assert_error(
        &h.post("/api/v1/folder/delete", json!({"folderId": only}))
            .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("last folder"), "{msg}");
    assert_error(
        &h.post("/api/v1/folder/create", json!({"title": ""})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
}
