//! Conditional writes and versions (issue 33, our extension): `ETag`, `If-Match`,
//! `If-None-Match`, `X-Document-Version`, `?versions=true`, `ifVersions` and the 412 answer, over
//! HTTP, on both engines. Clients are interleaved by the order of their requests (both read,
//! then both write), never by timing.

use diagtui_server::{LocalServer, ServerOptions};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::answer::{Answer, request};
use crate::common::{Harness, assert_error};
use crate::stream::Stream;

/// A request to the harness's server with its key.
async fn send(
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
