//! Conditional writes and versions (continued from `versions.rs`): bulk updates, selector
//! applies after a preview, set content and restore, versions across a restart, in change
//! events, and in every write's answer; on both engines.

use diagtui_server::{LocalServer, ServerOptions};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::answer::request;
use crate::common::Harness;
use crate::stream::Stream;
use crate::versions::send;

#[tokio::test]
async fn a_bulk_update_with_one_stale_version_writes_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bulk").await;
    let a = h.new_obj(&doc, "label", json!({"text": "a"})).await;
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await;
    let c = h.new_obj(&doc, "label", json!({"text": "c"})).await;
    let all = h
        .get_ok(&format!("/api/v1/doc/{doc}/obj/all?versions=true"))
        .await;
    // Another client changes b after the read.
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{b}"),
        json!({"props": {"text": "b2"}}),
    )
    .await;
    let bulk = format!("/api/v1/doc/{doc}");
    let body = json!({
        "objects": {&a: {"text": "A"}, &b: {"text": "B"}, &c: {"text": "C"}},
        // The number, the string and the ETag all name a version.
        "ifVersions": {
            &a: all[&a]["version"],
            &b: all[&b]["version"].to_string(),
        },
    });
    let refused = send(&h, Method::POST, &bulk, &[], Some(body)).await;
    assert_eq!(
        refused.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        refused.body
    );
    let objects = refused.body["objects"].as_object().unwrap();
    assert_eq!(
        objects.keys().collect::<Vec<_>>(),
        [&b],
        "only the stale one"
    );
    assert_eq!(objects[&b]["data"]["text"], "b2");
    let now = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    for (id, text) in [(&a, "a"), (&b, "b2"), (&c, "c")] {
        assert_eq!(now[id]["data"]["text"], text, "nothing written");
    }
    let etag = format!("\"{}\"", refused.body["objects"][&b]["version"]);
    let body = json!({
        "objects": {&a: {"text": "A"}, &b: {"text": "B"}},
        "ifVersions": {&a: all[&a]["version"], &b: etag},
    });
    let done = send(&h, Method::POST, &bulk, &[], Some(body)).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.doc_version(), refused.doc_version() + 1);
}

/// A selector preview with versions, as a client keeps it: each match's id to its version.
async fn preview_versions(
    h: &Harness,
    doc: &str,
    selector: &str,
) -> serde_json::Map<String, Value> {
    let preview = h
        .get_ok(&format!(
            "/api/v1/doc/{doc}/obj/where/{selector}?versions=true"
        ))
        .await;
    preview
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, object)| (id.clone(), object["version"].clone()))
        .collect()
}

#[tokio::test]
async fn a_selector_apply_whose_matches_changed_after_the_preview_writes_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("Selector").await;
    let a = h.new_component(&doc, json!({"s": "down"})).await;
    let b = h.new_component(&doc, json!({"s": "down"})).await;
    let c = h.new_component(&doc, json!({"s": "up"})).await;
    let d = h.new_component(&doc, json!({"s": "down"})).await;
    let selector = "%5B%22s%22%2C%22eq%22%2C%22down%22%5D";
    let previewed = preview_versions(&h, &doc, selector).await;
    assert_eq!(previewed.len(), 3);
    // After the preview: c now matches, b no longer does, d changed but still matches.
    for (id, meta) in [(&c, "down"), (&b, "up")] {
        h.post_ok(
            &format!("/api/v1/doc/{doc}/obj/{id}"),
            json!({"props": {"meta": {"s": meta}}}),
        )
        .await;
    }
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{d}"),
        json!({"props": {"meta": {"s": "down", "x": 1}}}),
    )
    .await;
    let apply = format!("/api/v1/doc/{doc}/obj/where");
    let body = json!({"selector": ["s", "eq", "down"], "props": {"opacity": 0.5}, "ifVersions": previewed});
    let refused = send(&h, Method::POST, &apply, &[], Some(body)).await;
    assert_eq!(
        refused.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        refused.body
    );
    assert_eq!(refused.body["nowMatch"], json!([&c]));
    assert_eq!(refused.body["noLongerMatch"], json!([&b]));
    let mut listed: Vec<&String> = refused.body["objects"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    listed.sort();
    let mut wanted = vec![&b, &c, &d];
    wanted.sort();
    assert_eq!(listed, wanted, "a, unchanged, is not listed");
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    for id in [&a, &b, &c, &d] {
        assert_ne!(all[id]["data"]["opacity"], 0.5, "nothing written");
    }
    // Previewed again, it goes through; a preview that matched nothing says so with {}.
    let previewed = preview_versions(&h, &doc, selector).await;
    let body = json!({"selector": ["s", "eq", "down"], "props": {"opacity": 0.5}, "ifVersions": previewed});
    let done = send(&h, Method::POST, &apply, &[], Some(body)).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["updatedObjectCount"], 3);
    let body = json!({"selector": ["s", "eq", "gone"], "props": {"opacity": 1}, "ifVersions": {}});
    let none = send(&h, Method::POST, &apply, &[], Some(body)).await;
    assert_eq!(none.status, StatusCode::OK, "{}", none.body);
    assert_eq!(none.body["updatedObjectCount"], 0);
    let body = json!({"selector": ["s", "eq", "up"], "props": {"opacity": 1}, "ifVersions": {}});
    let some = send(&h, Method::POST, &apply, &[], Some(body)).await;
    assert_eq!(
        some.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        some.body
    );
    assert_eq!(some.body["nowMatch"], json!([&b]));
    assert_eq!(some.body["noLongerMatch"], json!([]));
}

#[tokio::test]
async fn set_content_and_restore_take_the_documents_version() {
    let h = Harness::new().await;
    let doc = h.new_doc("Whole").await;
    h.new_obj(&doc, "label", json!({"text": "one"})).await;
    let version = send(
        &h,
        Method::GET,
        &format!("/api/v1/doc/{doc}/obj/all"),
        &[],
        None,
    )
    .await
    .doc_version();
    let set = format!("/api/v1/doc/set-content/{doc}");
    let content = json!({"x": {"type": "label", "data": {"text": "set"}}});
    let stale = (version - 1).to_string();
    let refused = send(
        &h,
        Method::POST,
        &set,
        &[("if-match", &stale)],
        Some(content.clone()),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        refused.body
    );
    assert_eq!(refused.body["documentVersion"], version);
    assert!(refused.body.get("objects").is_none(), "{}", refused.body);
    assert!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all"))
            .await
            .get("x")
            .is_none()
    );
    let tag = format!("\"{version}\"");
    let done = send(&h, Method::POST, &set, &[("if-match", &tag)], Some(content)).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.doc_version(), version + 1);
    let all = h
        .get_ok(&format!("/api/v1/doc/{doc}/obj/all?versions=true"))
        .await;
    assert_eq!(
        all["x"]["version"],
        version + 1,
        "set-content's objects are its version"
    );

    let restore = format!("/api/v1/doc/{doc}/restore");
    let body = Some(json!({"version": version}));
    let refused = send(
        &h,
        Method::POST,
        &restore,
        &[("if-match", &tag)],
        body.clone(),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        refused.body
    );
    let now = (version + 1).to_string();
    let restored = send(&h, Method::POST, &restore, &[("if-match", &now)], body).await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.body);
    assert_eq!(restored.doc_version(), version + 2);
    assert_eq!(restored.body["version"], version + 2);
}

#[tokio::test]
async fn versions_survive_a_restart() {
    let h = Harness::new().await;
    let doc = h.new_doc("Kept").await;
    let a = h.new_obj(&doc, "label", json!({"text": "a"})).await;
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await;
    h.post_ok(
        &format!("/api/v1/doc/{doc}/obj/{a}"),
        json!({"props": {"text": "a2"}}),
    )
    .await;
    let path = format!("/api/v1/doc/{doc}/obj/all?versions=true");
    let before = send(&h, Method::GET, &path, &[], None).await;
    let Harness { server, dir, http } = h;
    let location = server.location().clone();
    server.shutdown().await;
    let again = LocalServer::start_at(location, ServerOptions::default())
        .await
        .expect("the server starts again");
    let after = request(
        &http,
        again.url(),
        again.api_key(),
        Method::GET,
        &path,
        &[],
        None,
    )
    .await;
    assert_eq!(after.body, before.body);
    assert_eq!(after.body[&a]["version"], 4);
    assert_eq!(after.body[&b]["version"], 3);
    assert_eq!(after.doc_version(), before.doc_version());
    let one = format!("/api/v1/doc/{doc}/obj/{a}");
    let read = request(
        &http,
        again.url(),
        again.api_key(),
        Method::GET,
        &one,
        &[],
        None,
    )
    .await;
    assert_eq!(read.etag(), "\"4\"");
    again.shutdown().await;
    drop(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn change_events_carry_the_version_and_the_new_objects_up_to_a_size() {
    let h = Harness::new().await;
    let doc = h.new_doc("Watched").await;
    let a = h.new_obj(&doc, "label", json!({"text": "a"})).await;
    let path = format!("/api/v1/doc/{doc}/events");
    let mut stream = Stream::open_at(&h.http, h.server.url(), &path, &h.key(), None).await;
    let mut account =
        Stream::open_at(&h.http, h.server.url(), "/api/v1/events", &h.key(), None).await;
    account.expect("current").await;
    let (_, current) = stream.expect("current").await;
    assert_eq!(current["version"], 2);
    assert!(current.get("objects").is_none());

    let one = send(
        &h,
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj/{a}"),
        &[],
        Some(json!({"props": {"text": "b"}})),
    )
    .await;
    let (_, change) = stream.expect("change").await;
    assert_eq!(change["version"], one.doc_version());
    assert_eq!(change["changed"], json!([&a]));
    let carried = &change["objects"][&a];
    assert_eq!(carried["version"], one.doc_version());
    assert_eq!(carried["type"], "label");
    assert_eq!(
        carried["data"],
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/{a}")).await["data"]
    );

    // Past 64 KiB of objects, ids only.
    let big = "x".repeat(1000);
    let objects: serde_json::Map<String, Value> = (0..70)
        .map(|n| {
            (
                format!("big{n:02}"),
                json!({"type": "label", "data": {"text": big}}),
            )
        })
        .collect();
    let set = send(
        &h,
        Method::POST,
        &format!("/api/v1/doc/set-content/{doc}"),
        &[],
        Some(Value::Object(objects.clone())),
    )
    .await;
    let (_, replaced) = stream.expect("change").await;
    assert_eq!(replaced["document"], "content-replaced");
    assert_eq!(replaced["version"], set.doc_version());
    assert!(
        replaced.get("objects").is_none(),
        "content-replaced carries none"
    );
    let bulk: serde_json::Map<String, Value> = objects
        .keys()
        .map(|id| (id.clone(), json!({"text": format!("{big}!")})))
        .collect();
    let updated = send(
        &h,
        Method::POST,
        &format!("/api/v1/doc/{doc}"),
        &[],
        Some(json!({"objects": bulk})),
    )
    .await;
    let (_, change) = stream.expect("change").await;
    assert_eq!(change["changed"].as_array().unwrap().len(), 70);
    assert_eq!(change["version"], updated.doc_version());
    assert!(change.get("objects").is_none(), "over 64 KiB: ids only");
    let deleted = send(
        &h,
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj/big00/delete"),
        &[],
        None,
    )
    .await;
    let (_, change) = stream.expect("change").await;
    assert_eq!(change["deleted"], json!(["big00"]));
    assert_eq!(change["version"], deleted.doc_version());
    assert!(change.get("objects").is_none());

    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": doc, "title": "Renamed"}),
    )
    .await;
    let (_, retitled) = account.expect("change").await;
    assert_eq!(retitled["document"], "content-replaced");
    let (_, retitled) = account.expect("change").await;
    assert_eq!(retitled["document"], "retitled");
    assert_eq!(retitled["version"], deleted.doc_version() + 1);
}

#[tokio::test]
async fn every_write_to_a_document_answers_its_version() {
    let h = Harness::new().await;
    let doc = h.new_doc("Written").await;
    let post = |path: &str, body: Value| {
        let path = path.to_owned();
        let h = &h;
        async move { send(h, Method::POST, &path, &[], Some(body)).await }
    };
    let diagram = post(
        &format!("/api/v1/create-diagram/{doc}"),
        json!([{"id": "a", "type": "component", "componentType": "generic.server"}]),
    )
    .await;
    assert_eq!(diagram.status, StatusCode::OK, "{}", diagram.body);
    assert_eq!(diagram.doc_version(), 2);
    let titled = post(
        "/api/v1/doc/change-title",
        json!({"docId": doc, "title": "Retitled"}),
    )
    .await;
    assert_eq!(titled.doc_version(), 3);
    let folder = h
        .post_ok("/api/v1/folder/create", json!({"title": "Elsewhere"}))
        .await["folderId"]
        .as_str()
        .unwrap()
        .to_owned();
    let moved = post(
        "/api/v1/doc/move",
        json!({"docId": doc, "folderId": folder}),
    )
    .await;
    assert_eq!(moved.doc_version(), 4);
    let again = post(
        "/api/v1/doc/move",
        json!({"docId": doc, "folderId": folder}),
    )
    .await;
    assert_eq!(
        again.doc_version(),
        4,
        "no move, no version: the current one"
    );
    diagtui_server::create_account(h.server.location(), "friend@example.com").unwrap();
    let shared = post(
        "/api/v1/doc/add-collaborator",
        json!({"docId": doc, "email": "friend@example.com"}),
    )
    .await;
    assert_eq!(shared.status, StatusCode::OK, "{}", shared.body);
    assert_eq!(shared.doc_version(), 4, "sharing makes no version");
    let emptied = post("/api/v1/doc/empty", json!({"docId": doc})).await;
    assert_eq!(emptied.doc_version(), 5);
}
