//! Document routes: list, details, create, retitle, empty, clone, delete, set-content.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Harness, assert_error};

fn is_timestamp(text: &Value) -> bool {
    let s = text.as_str().unwrap_or_default();
    // 2026-11-21T11:08:13.123Z
    s.len() == 24 && s.ends_with('Z') && s.as_bytes()[19] == b'.' && s.as_bytes()[10] == b'T'
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_data_dir_is_seeded_with_samples_sorted_by_title() {
    let h = Harness::new().await;
    let list = h.get_ok("/api/v1/doc").await;
    let titles: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Edge network (multi-region)",
            "Event data pipeline",
            "Web platform (production)"
        ]
    );
    for doc in list.as_array().unwrap() {
        let id = doc["id"].as_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
        let content = h.get_ok(&format!("/api/v1/doc/{id}/obj/all")).await;
        let types: Vec<&str> = content
            .as_object()
            .unwrap()
            .values()
            .map(|o| o["type"].as_str().unwrap())
            .collect();
        for kind in ["component", "label", "line-group", "area"] {
            assert!(types.contains(&kind), "{} lacks {kind}", doc["title"]);
        }
    }
    // A data dir keeps the default account's key in a file of the user's own.
    #[cfg(unix)]
    if let Some(dir) = h.server.location().data_dir() {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("api-key")).unwrap();
        assert_eq!(mode.permissions().mode() & 0o777, 0o600);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn details_show_owner_folder_and_timestamps() {
    let h = Harness::new().await;
    let doc = h.new_doc("Details").await;
    let d = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(d["id"], doc.as_str());
    assert_eq!(d["title"], "Details");
    assert_eq!(d["user"]["email"], h.server.email());
    let me = h.get_ok("/api/v1/me").await;
    assert_eq!(d["user"]["id"], me["id"]);
    assert_eq!(me["email"], h.server.email());
    assert_eq!(d["folder"]["title"], "My Documents");
    assert!(is_timestamp(&d["created"]), "{d}");
    assert_eq!(d["created"], d["lastChange"]);
    assert_eq!(d["objectCount"], 0);
    h.new_component(&doc, json!({})).await;
    let d = h.get_ok(&format!("/api/v1/doc/{doc}")).await;
    assert_eq!(d["objectCount"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_write_bumps_last_change() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bump").await;
    let obj = h.new_component(&doc, json!({})).await;
    let writes: Vec<(String, Value)> = vec![
        (format!("/api/v1/doc/{doc}/obj"), json!({"type": "label"})),
        (
            format!("/api/v1/doc/{doc}/obj/{obj}"),
            json!({"props": {"opacity": 0.5}}),
        ),
        (
            format!("/api/v1/doc/{doc}"),
            json!({"objects": {&obj: {"rotation": 0}}}),
        ),
        (
            format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["x", "no", 1], "props": {"opacity": 1}}),
        ),
        (format!("/api/v1/doc/set-content/{doc}"), json!({})),
        (
            "/api/v1/doc/change-title".into(),
            json!({"docId": doc, "title": "B"}),
        ),
        ("/api/v1/doc/empty".into(), json!({"docId": doc})),
        (
            "/api/v1/doc/add-collaborator".into(),
            json!({"docId": doc, "email": "bump@example.com"}),
        ),
    ];
    diagtui_server::create_account(h.server.location(), "bump@example.com").unwrap();
    let mut last = h.get_ok(&format!("/api/v1/doc/{doc}")).await["lastChange"].clone();
    for (path, body) in writes {
        // Timestamps have millisecond resolution: let one pass so a bump is visible.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        h.post_ok(&path, body).await;
        let now = h.get_ok(&format!("/api/v1/doc/{doc}")).await["lastChange"].clone();
        assert!(now.as_str() > last.as_str(), "{path}: {now} after {last}");
        last = now;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn create_retitle_clone_empty_delete() {
    let h = Harness::new().await;
    let doc = h.new_doc("Original").await;
    let a = h.new_component(&doc, json!({"k": "v"})).await;
    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": doc, "title": "Renamed"}),
    )
    .await;
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}")).await["title"],
        "Renamed"
    );

    let cloned = h
        .post_ok("/api/v1/doc/clone", json!({"docId": doc, "title": "Copy"}))
        .await["docId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(cloned, doc);
    let original = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let copy = h.get_ok(&format!("/api/v1/doc/{cloned}/obj/all")).await;
    assert_eq!(original, copy);
    assert!(copy.get(&a).is_some());
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{cloned}")).await["title"],
        "Copy"
    );

    h.post_ok("/api/v1/doc/empty", json!({"docId": doc})).await;
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        json!({})
    );
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}")).await["title"],
        "Renamed"
    );
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{cloned}/obj/all")).await,
        copy,
        "the clone is independent"
    );

    h.post_ok("/api/v1/doc/delete", json!({"docId": doc})).await;
    let gone = h.get(&format!("/api/v1/doc/{doc}")).await;
    assert_error(&gone, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    let list = h.get_ok("/api/v1/doc").await;
    assert!(!list.to_string().contains(&doc));
    assert!(list.to_string().contains(&cloned));
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_documents_answer_doc_not_found_on_every_route() {
    let h = Harness::new().await;
    let missing = "00000000-0000-4000-8000-000000000000";
    let gets = [
        format!("/api/v1/doc/{missing}"),
        format!("/api/v1/doc/{missing}/obj/all"),
        format!("/api/v1/doc/{missing}/obj"),
        format!("/api/v1/doc/{missing}/obj/x"),
        format!("/api/v1/doc/{missing}/obj/where/%5B%22a%22%2C%22eq%22%2C1%5D"),
    ];
    for path in gets {
        assert_error(&h.get(&path).await, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    }
    let posts = [
        (
            format!("/api/v1/doc/{missing}/obj"),
            json!({"type": "label"}),
        ),
        (format!("/api/v1/doc/{missing}/obj/x"), json!({"props": {}})),
        (format!("/api/v1/doc/{missing}/obj/x/delete"), json!({})),
        (format!("/api/v1/doc/{missing}"), json!({"objects": {}})),
        (
            format!("/api/v1/doc/{missing}/obj/where"),
            json!({"selector": ["a", "eq", 1], "props": {}}),
        ),
        (format!("/api/v1/doc/set-content/{missing}"), json!({})),
        ("/api/v1/doc/empty".into(), json!({"docId": missing})),
        ("/api/v1/doc/delete".into(), json!({"docId": missing})),
        (
            "/api/v1/doc/move".into(),
            json!({"docId": missing, "folderId": missing}),
        ),
        (
            "/api/v1/doc/change-title".into(),
            json!({"docId": missing, "title": "t"}),
        ),
        (
            "/api/v1/doc/clone".into(),
            json!({"docId": missing, "title": "t"}),
        ),
        (
            "/api/v1/doc/add-collaborator".into(),
            json!({"docId": missing, "email": h.server.email()}),
        ),
    ];
    for (path, body) in posts {
        assert_error(
            &h.post(&path, body).await,
            StatusCode::NOT_FOUND,
            "DOC_NOT_FOUND",
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn titles_must_not_be_empty() {
    let h = Harness::new().await;
    let msg = assert_error(
        &h.post("/api/v1/doc/create", json!({"title": "  "})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.starts_with("title:"), "{msg}");
    let msg = assert_error(
        &h.post("/api/v1/doc/create", json!({})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("title"), "{msg}");
}

#[tokio::test(flavor = "multi_thread")]
async fn set_content_replaces_everything_and_stores_data_as_given() {
    let h = Harness::new().await;
    let doc = h.new_doc("Import").await;
    let old = h.new_component(&doc, json!({})).await;
    let content = json!({
        "1chsmqmgt-q6lfvkevo": {"type": "label", "data": {"text": "hi", "color": "not a colour"}},
        "1chsmqmgu-aaaaaaaaa": {"type": "custom-thing", "data": {"x": [1, 2]}},
        "1chsmqmgs-zzzzzzzzz": {"type": "component", "data": {"meta": {"a": 1}}}
    });
    h.post_ok(&format!("/api/v1/doc/set-content/{doc}"), content.clone())
        .await;
    let back = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(back, content, "stored exactly, unvalidated and uncompleted");
    assert!(back.get(&old).is_none());
    let keys: Vec<&String> = back.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "1chsmqmgs-zzzzzzzzz",
            "1chsmqmgt-q6lfvkevo",
            "1chsmqmgu-aaaaaaaaa"
        ],
        "read back in id order"
    );
    let legacy = h.get_ok(&format!("/api/v1/doc/{doc}/obj")).await;
    assert_eq!(legacy, back, "the legacy list serves the same map");
}

#[tokio::test(flavor = "multi_thread")]
async fn set_content_needs_a_map_of_type_and_data_entries() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bad import").await;
    let kept = h.new_component(&doc, json!({})).await;
    let cases = [
        (json!([1, 2]), "content:"),
        (json!({"a": 5}), "content.a:"),
        (json!({"a": {"data": {}}}), "content.a: type"),
        (json!({"a": {"type": 3, "data": {}}}), "content.a: type"),
        (json!({"b": {"type": "label"}}), "content.b: data"),
        (
            json!({"b": {"type": "label", "data": []}}),
            "content.b: data",
        ),
    ];
    for (body, wanted) in cases {
        let msg = assert_error(
            &h.post(&format!("/api/v1/doc/set-content/{doc}"), body.clone())
                .await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with(wanted), "{body}: {msg}");
    }
    let content = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert!(content.get(&kept).is_some(), "nothing was half-written");
}
