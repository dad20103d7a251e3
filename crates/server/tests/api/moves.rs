//! Moving a document to another folder (`POST /api/v1/doc/move`, our extension): the owner
//! only, both ends checked, a version in the document's history and a `moved` change event.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Harness, assert_error, friend_and_stranger};
use crate::stream::Stream;

/// A new folder of the default account: its id.
async fn new_folder(h: &Harness, title: &str) -> String {
    h.post_ok("/api/v1/folder/create", json!({ "title": title }))
        .await["folderId"]
        .as_str()
        .expect("folderId")
        .to_owned()
}

/// The document's newest version.
async fn newest_version(h: &Harness, doc: &str) -> Value {
    let page = h.get_ok(&format!("/api/v1/doc/{doc}/history")).await;
    page["versions"][0].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_owner_moves_a_document_as_a_version_and_a_change_event() {
    let h = Harness::new().await;
    let doc = h.new_doc("Wandering").await;
    let home = h.get_ok(&format!("/api/v1/doc/{doc}")).await["folder"]["id"].clone();
    let archive = new_folder(&h, "Archive").await;
    let path = format!("/api/v1/doc/{doc}/events");
    let mut doc_stream = Stream::open_at(&h.http, h.server.url(), &path, &h.key(), None).await;
    doc_stream.expect("current").await;
    let mut account =
        Stream::open_at(&h.http, h.server.url(), "/api/v1/events", &h.key(), None).await;
    account.expect("current").await;
    let before = newest_version(&h, &doc).await["version"].as_u64().unwrap();

    h.post_ok(
        "/api/v1/doc/move",
        json!({"docId": doc, "folderId": archive}),
    )
    .await;

    let details = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(
        details["folder"],
        json!({"id": archive, "title": "Archive"})
    );
    let folders = h.get_ok("/api/v1/folder/list").await;
    assert_eq!(folders[&archive]["docs"], json!({&doc: "Wandering"}));
    let home = home.as_str().unwrap();
    assert!(folders[home]["docs"].get(&doc).is_none(), "{folders}");

    let version = newest_version(&h, &doc).await;
    assert_eq!(version["version"].as_u64(), Some(before + 1));
    assert_eq!(version["kind"], "moved");
    assert_eq!(
        version["folder"],
        json!({"id": archive, "title": "Archive"})
    );
    assert_eq!(version["changed"], 0, "a move changes no object");
    assert_eq!(version["account"], h.server.email());

    let (_, change) = doc_stream.expect("change").await;
    assert_eq!(change["document"], "moved");
    assert_eq!(change["lastChange"], details["lastChange"]);
    assert_eq!(
        (&change["changed"], &change["deleted"]),
        (&json!([]), &json!([]))
    );
    let (_, change) = account.expect("change").await;
    assert_eq!(
        change,
        json!({
            "docId": doc,
            "lastChange": details["lastChange"],
            "document": "moved",
            "version": before + 1,
        })
    );

    // Into the folder it is in: nothing changes, no version.
    h.post_ok(
        "/api/v1/doc/move",
        json!({"docId": doc, "folderId": archive}),
    )
    .await;
    assert_eq!(
        newest_version(&h, &doc).await["version"].as_u64(),
        Some(before + 1)
    );
    // And back home, as a second version.
    h.post_ok("/api/v1/doc/move", json!({"docId": doc, "folderId": home}))
        .await;
    let version = newest_version(&h, &doc).await;
    assert_eq!(version["version"].as_u64(), Some(before + 2));
    assert_eq!(version["folder"]["id"], home);
    assert_eq!(doc_stream.expect("change").await.1["document"], "moved");
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_owner_may_move_a_document_into_its_own_folder() {
    let h = Harness::new().await;
    let doc = h.new_doc("Shared").await;
    let mine = new_folder(&h, "Mine").await;
    let (friend, stranger) = friend_and_stranger(&h, &doc).await;
    let friends_folder = h
        .call(Method::GET, "/api/v1/folder/list", Some(&friend), None)
        .await
        .1
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let before = newest_version(&h, &doc).await;

    let body = |folder: &str| Some(json!({"docId": doc, "folderId": folder}));
    let answer = h
        .call(
            Method::POST,
            "/api/v1/doc/move",
            Some(&friend),
            body(&friends_folder),
        )
        .await;
    let message = assert_error(&answer, StatusCode::FORBIDDEN, "FORBIDDEN");
    assert!(message.contains("only the owner"), "{message}");
    let answer = h
        .call(
            Method::POST,
            "/api/v1/doc/move",
            Some(&stranger),
            body(&mine),
        )
        .await;
    assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    // The owner cannot put it in another account's folder either.
    let answer = h
        .post("/api/v1/doc/move", body(&friends_folder).unwrap())
        .await;
    assert_error(&answer, StatusCode::NOT_FOUND, "FOLDER_NOT_FOUND");

    assert_eq!(
        newest_version(&h, &doc).await,
        before,
        "nothing was written"
    );
    assert_ne!(
        h.get_ok(&format!("/api/v1/doc/{doc}")).await["folder"]["id"],
        mine.as_str()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_document_or_folder_is_not_found_and_the_body_is_checked() {
    let h = Harness::new().await;
    let doc = h.new_doc("Stays").await;
    let folder = new_folder(&h, "Somewhere").await;
    let missing = "00000000-0000-4000-8000-000000000000";
    let answer = h
        .post(
            "/api/v1/doc/move",
            json!({"docId": doc, "folderId": missing}),
        )
        .await;
    let message = assert_error(&answer, StatusCode::NOT_FOUND, "FOLDER_NOT_FOUND");
    assert!(message.contains(missing), "{message}");
    let answer = h
        .post(
            "/api/v1/doc/move",
            json!({"docId": missing, "folderId": folder}),
        )
        .await;
    let message = assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    assert!(message.contains(missing), "{message}");
    let answer = h.post("/api/v1/doc/move", json!({"docId": doc})).await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(message.contains("folderId"), "{message}");
    let folders = h.get_ok("/api/v1/folder/list").await;
    assert_eq!(folders[&folder]["docs"], json!({}));
}
