//! History routes (our extension): every write a version with its changed objects, content and
//! objects as they were, the difference by path, one object's versions, restore, the scoping
//! of a shared document, and every bad input with its status, code and parameter.

use reqwest::StatusCode;
use serde_json::{Value, json};

use diagtui_store::{Store, StoreOptions};

use crate::common::{Harness, assert_error, friend_and_stranger, send};

/// The kinds of a history page's versions, newest first.
fn kinds(page: &Value) -> Vec<&str> {
    page["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect()
}

/// The newest version of a document.
async fn head(h: &Harness, doc: &str) -> u64 {
    h.get_ok(&format!("/api/v1/doc/{doc}/history?limit=1"))
        .await["head"]
        .as_u64()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_write_adds_a_version_with_what_it_changed() {
    let h = Harness::new().await;
    let doc = h.new_doc("Versions").await;
    let a = h.new_component(&doc, json!({"status": "up"})).await;
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await;
    let path = format!("/api/v1/doc/{doc}");
    h.post_ok(
        &format!("{path}/obj/{a}"),
        json!({"props": {"meta": {"status": "down"}}}),
    )
    .await;
    h.post_ok(
        &path,
        json!({"objects": {&a: {"opacity": 0.5}, &b: {"text": "B"}}}),
    )
    .await;
    h.post_ok(
        &format!("{path}/obj/where"),
        json!({"selector": ["status", "eq", "down"], "props": {"opacity": 0.25}}),
    )
    .await;
    h.post_ok(
        "/api/v1/doc/change-title",
        json!({"docId": doc, "title": "Renamed"}),
    )
    .await;
    h.post_ok(&format!("{path}/obj/{b}/delete"), json!({}))
        .await;
    h.post_ok(
        &format!("/api/v1/doc/set-content/{doc}"),
        json!({"n1": {"type": "label", "data": {"text": "new"}}}),
    )
    .await;
    h.post_ok("/api/v1/doc/empty", json!({"docId": doc})).await;

    let page = h.get_ok(&format!("{path}/history")).await;
    assert_eq!(
        kinds(&page),
        [
            "empty",
            "set-content",
            "object-deleted",
            "title-change",
            "selector-update",
            "bulk-update",
            "object-updated",
            "object-created",
            "object-created",
            "created"
        ]
    );
    assert_eq!(
        (page["head"].as_u64(), page["oldest"].as_u64()),
        (Some(10), Some(1))
    );
    let newest = &page["versions"][0];
    assert_eq!(newest["version"], 10);
    assert_eq!(newest["account"], h.server.email());
    assert_eq!(newest["changed"], 1, "the one object set-content left");
    assert_eq!(page["versions"][3]["title"], "Renamed");
    assert_eq!(
        page["versions"][4]["changed"], 1,
        "the selector matched a only"
    );
    assert_eq!(page["versions"][5]["changed"], 2);
    assert!(page.get("nextBefore").is_none(), "{page}");

    let updated = h.get_ok(&format!("{path}/history/4")).await;
    assert_eq!(updated["version"]["kind"], "object-updated");
    let change = &updated["objects"][0];
    assert_eq!(change["objId"], a.as_str());
    assert_eq!(change["before"]["data"]["meta"]["status"], "up");
    assert_eq!(change["after"]["data"]["meta"]["status"], "down");
    let deleted = h.get_ok(&format!("{path}/history/8")).await;
    assert_eq!(deleted["objects"][0]["before"]["data"]["text"], "B");
    assert!(deleted["objects"][0].get("after").is_none(), "{deleted}");
    let replaced = h.get_ok(&format!("{path}/history/9")).await;
    let ids: Vec<&str> = replaced["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["objId"].as_str().unwrap())
        .collect();
    let mut expected = vec![a.as_str(), "n1"];
    expected.sort();
    assert_eq!(ids, expected, "a removed, n1 added");
}

#[tokio::test(flavor = "multi_thread")]
async fn content_objects_and_diffs_as_they_were() {
    let h = Harness::new().await;
    let doc = h.new_doc("Travel").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_component(&doc, json!({"status": "up"})).await; // 2
    h.post_ok(
        &format!("{path}/obj/{a}"),
        json!({"props": {"meta": {"status": "down"}}}),
    )
    .await; // 3
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await; // 4

    let then = h.get_ok(&format!("{path}/obj/all?version=2")).await;
    assert_eq!(then.as_object().unwrap().len(), 1, "{then}");
    assert_eq!(then[&a]["data"]["meta"]["status"], "up");
    let one = h.get_ok(&format!("{path}/obj/{a}?version=2")).await;
    assert_eq!(one["data"]["meta"]["status"], "up");
    assert_eq!(
        h.get_ok(&format!("{path}/obj/{a}")).await["data"]["meta"]["status"],
        "down"
    );
    assert_error(
        &h.get(&format!("{path}/obj/{b}?version=3")).await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_eq!(
        h.get_ok(&format!("{path}/obj/all?version=1")).await,
        json!({})
    );

    let diff = h.get_ok(&format!("{path}/diff?from=2&to=4")).await;
    assert_eq!(
        (diff["from"].as_u64(), diff["to"].as_u64()),
        (Some(2), Some(4))
    );
    assert_eq!(
        diff["changed"][&a],
        json!([{"path": "meta.status", "from": "up", "to": "down"}])
    );
    assert_eq!(diff["added"][&b]["data"]["text"], "b");
    assert_eq!(diff["removed"], json!({}));
    let to_newest = h.get_ok(&format!("{path}/diff?from=2")).await;
    assert_eq!(to_newest["to"], 4);
    let back = h.get_ok(&format!("{path}/diff?from=3&to=3")).await;
    assert_eq!(
        (back["added"].clone(), back["changed"].clone()),
        (json!({}), json!({}))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restore_is_a_new_version_that_can_itself_be_undone() {
    let h = Harness::new().await;
    let doc = h.new_doc("Restore").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "first"})).await; // 2
    h.post_ok(
        &format!("{path}/obj/{a}"),
        json!({"props": {"text": "second"}}),
    )
    .await; // 3
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await; // 4

    let restored = h
        .post_ok(&format!("{path}/restore"), json!({"version": 2}))
        .await;
    assert_eq!(
        restored,
        json!({"success": true, "version": 5, "changed": 2})
    );
    let all = h.get_ok(&format!("{path}/obj/all")).await;
    assert_eq!(all.as_object().unwrap().len(), 1, "{all}");
    assert_eq!(all[&a]["data"]["text"], "first");
    let version = h.get_ok(&format!("{path}/history/5")).await["version"].clone();
    assert_eq!(version["kind"], "restore");
    assert_eq!(version["restoredFrom"], 2);

    // Undone by restoring the version before it.
    h.post_ok(&format!("{path}/restore"), json!({"version": 4}))
        .await;
    let all = h.get_ok(&format!("{path}/obj/all")).await;
    assert_eq!(all[&a]["data"]["text"], "second");
    assert_eq!(all[&b]["data"]["text"], "b");
    assert_eq!(head(&h, &doc).await, 6);
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_and_one_objects_versions() {
    let h = Harness::new().await;
    let doc = h.new_doc("Pages").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "0"})).await; // 2
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await; // 3
    for n in 1..=3 {
        h.post_ok(
            &format!("{path}/obj/{a}"),
            json!({"props": {"text": n.to_string()}}),
        )
        .await; // 4, 5, 6
    }
    h.post_ok(&format!("{path}/obj/{b}"), json!({"props": {"text": "B"}}))
        .await; // 7
    let first = h.get_ok(&format!("{path}/history?limit=3")).await;
    let numbers = |page: &Value| -> Vec<u64> {
        page["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["version"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(numbers(&first), [7, 6, 5]);
    assert_eq!(first["nextBefore"], 5);
    let next = h.get_ok(&format!("{path}/history?limit=3&before=5")).await;
    assert_eq!(numbers(&next), [4, 3, 2]);
    let last = h.get_ok(&format!("{path}/history?limit=3&before=2")).await;
    assert_eq!(numbers(&last), [1]);
    assert!(last.get("nextBefore").is_none(), "{last}");

    let touched = h.get_ok(&format!("{path}/obj/{a}/history")).await;
    assert_eq!(numbers(&touched), [6, 5, 4, 2]);
    let paged = h
        .get_ok(&format!("{path}/obj/{a}/history?limit=2&before=6"))
        .await;
    assert_eq!(numbers(&paged), [5, 4]);
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_versions_and_parameters_are_named() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bad").await;
    let path = format!("/api/v1/doc/{doc}");
    h.new_obj(&doc, "label", json!({"text": "a"})).await; // 2
    for unknown in [
        format!("{path}/history/3"),
        format!("{path}/obj/all?version=99"),
        format!("{path}/diff?from=1&to=3"),
    ] {
        assert_error(
            &h.get(&unknown).await,
            StatusCode::NOT_FOUND,
            "VERSION_NOT_FOUND",
        );
    }
    assert_error(
        &h.post(&format!("{path}/restore"), json!({"version": 7}))
            .await,
        StatusCode::NOT_FOUND,
        "VERSION_NOT_FOUND",
    );
    let named = [
        (format!("{path}/history/x"), "version:"),
        (format!("{path}/history/0"), "version:"),
        (format!("{path}/obj/all?version=-1"), "version:"),
        (format!("{path}/history?limit=0"), "limit:"),
        (format!("{path}/history?limit=1001"), "limit:"),
        (format!("{path}/history?before=soon"), "before:"),
        (format!("{path}/diff?from=2&to=1"), "from:"),
        (format!("{path}/diff?to=1"), "from:"),
        (format!("{path}/diff?from=1&to=two"), "to:"),
    ];
    for (url, name) in named {
        let msg = assert_error(
            &h.get(&url).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with(name), "{url}: {msg}");
    }
    let msg = assert_error(
        &h.post(&format!("{path}/restore"), json!({"version": 2}))
            .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.starts_with("version:"), "{msg}");
    let msg = assert_error(
        &h.post(&format!("{path}/restore"), json!({"version": "2"}))
            .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("version"), "{msg}");
    assert_eq!(head(&h, &doc).await, 2, "nothing was written");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_write_adds_no_version() {
    let h = Harness::new().await;
    let doc = h.new_doc("Failed").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "a"})).await;
    assert_error(
        &h.post(
            &format!("{path}/obj/missing"),
            json!({"props": {"text": "x"}}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_error(
        &h.post(
            &path,
            json!({"objects": {&a: {"text": "x"}, "missing": {"text": "y"}}}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_error(
        &h.post(&format!("{path}/obj/missing/delete"), json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_eq!(head(&h, &doc).await, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collaborator_sees_the_history_and_a_stranger_does_not() {
    let h = Harness::new().await;
    let doc = h.new_doc("Shared").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "mine"})).await;
    let (friend, stranger) = friend_and_stranger(&h, &doc).await;
    let post = format!("{path}/obj/{a}");
    let edit = json!({"props": {"text": "theirs"}});
    let (status, _) = h
        .call(reqwest::Method::POST, &post, Some(&friend), Some(edit))
        .await;
    assert_eq!(status, StatusCode::OK);
    let list = format!("{path}/history");
    let (status, page) = h
        .call(reqwest::Method::GET, &list, Some(&friend), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["versions"][0]["account"], "friend@example.com");
    assert_eq!(page["versions"][1]["account"], h.server.email());
    let restore = format!("{path}/restore");
    let body = json!({"version": 2});
    let (status, _) = h
        .call(reqwest::Method::POST, &restore, Some(&friend), Some(body))
        .await;
    assert_eq!(status, StatusCode::OK);
    for url in [
        format!("{path}/history"),
        format!("{path}/history/1"),
        format!("{path}/obj/all?version=1"),
        format!("{path}/diff?from=1"),
        format!("{path}/obj/{a}/history"),
    ] {
        let answer = h
            .call(reqwest::Method::GET, &url, Some(&stranger), None)
            .await;
        assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    }
    let answer = send(
        reqwest::Client::new()
            .post(format!("{}{path}/restore", h.server.url()))
            .bearer_auth(&stranger)
            .json(&json!({"version": 1})),
    )
    .await;
    assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_older_document_starts_its_history_at_its_next_write() {
    let h = Harness::new().await;
    let list = h.get_ok("/api/v1/doc").await;
    let doc = list[0]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/doc/{doc}");
    let before = h.get_ok(&format!("{path}/obj/all")).await;
    let page = h.get_ok(&format!("{path}/history")).await;
    assert_eq!((page["head"].as_u64(), kinds(&page).len()), (Some(0), 0));
    assert_error(
        &h.get(&format!("{path}/obj/all?version=1")).await,
        StatusCode::NOT_FOUND,
        "VERSION_NOT_FOUND",
    );
    let id = before.as_object().unwrap().keys().next().unwrap().clone();
    h.post_ok(&format!("{path}/obj/{id}/delete"), json!({}))
        .await;
    let page = h.get_ok(&format!("{path}/history")).await;
    assert_eq!(kinds(&page), ["object-deleted", "started"]);
    assert!(page["versions"][1].get("account").is_none(), "{page}");
    assert_eq!(h.get_ok(&format!("{path}/obj/all?version=1")).await, before);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clone_starts_a_history_naming_its_source() {
    let h = Harness::new().await;
    let doc = h.new_doc("Source").await;
    h.new_obj(&doc, "label", json!({"text": "a"})).await;
    let copy = h
        .post_ok("/api/v1/doc/clone", json!({"docId": doc, "title": "Copy"}))
        .await["docId"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = h.get_ok(&format!("/api/v1/doc/{copy}/history")).await;
    assert_eq!(kinds(&page), ["cloned"]);
    assert_eq!(
        page["versions"][0]["source"],
        json!({"docId": doc, "version": 2})
    );
    let then = h
        .get_ok(&format!("/api/v1/doc/{copy}/obj/all?version=1"))
        .await;
    assert_eq!(then.as_object().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn content_far_back_is_right_across_snapshots() {
    let h = Harness::new().await;
    let doc = h.new_doc("Snapshots").await;
    let path = format!("/api/v1/doc/{doc}");
    let content = |n: usize, text: &str| -> Value {
        (0..n)
            .map(|i| {
                let data = json!({"type": "label", "data": {"text": format!("{text}{i}")}});
                (format!("o{i:04}"), data)
            })
            .collect::<serde_json::Map<String, Value>>()
            .into()
    };
    // Three contents of 700 objects: the changes pass a snapshot's worth on the way.
    for text in ["a", "b", "c"] {
        h.post_ok(
            &format!("/api/v1/doc/set-content/{doc}"),
            content(700, text),
        )
        .await;
    }
    h.post_ok("/api/v1/doc/empty", json!({"docId": doc})).await;
    for (version, text) in [(2, "a"), (3, "b"), (4, "c")] {
        let then = h.get_ok(&format!("{path}/obj/all?version={version}")).await;
        assert_eq!(then, content(700, text), "version {version}");
    }
    assert_eq!(
        h.get_ok(&format!("{path}/obj/all?version=5")).await,
        json!({})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn versions_older_than_the_time_kept_are_compacted_into_a_snapshot() {
    let h = Harness::new().await;
    let doc = h.new_doc("Kept").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "1"})).await; // 2
    for n in 2..=4 {
        h.post_ok(
            &format!("{path}/obj/{a}"),
            json!({"props": {"text": n.to_string()}}),
        )
        .await; // 3, 4, 5
    }
    let at_four = h.get_ok(&format!("{path}/obj/all?version=4")).await;
    let details = h.get_ok(&format!("{path}/history/4")).await;
    h.run_sql(&format!(
        "UPDATE history_versions SET at = '2000-01-01T00:00:00.000Z' \
         WHERE id / 1099511627776 = (SELECT num FROM history_heads WHERE doc_id = '{doc}') \
         AND id % 1099511627776 <= 3"
    ));
    // What `serve` does at start and hourly after, from another store on the same database.
    let store = Store::open_at(h.server.location(), StoreOptions::default())
        .await
        .unwrap();
    let ninety_days = std::time::Duration::from_secs(90 * 24 * 3600);
    store.compact_history(ninety_days).await.unwrap();
    drop(store);
    let oldest = h.get_ok(&format!("{path}/history")).await["oldest"].clone();
    assert_eq!(oldest, 4, "the first version written in the last 90 days");
    let msg = assert_error(
        &h.get(&format!("{path}/obj/all?version=3")).await,
        StatusCode::NOT_FOUND,
        "VERSION_PRUNED",
    );
    assert!(msg.contains("oldest kept is 4"), "{msg}");
    assert_error(
        &h.get(&format!("{path}/history/1")).await,
        StatusCode::NOT_FOUND,
        "VERSION_PRUNED",
    );
    assert_eq!(
        h.get_ok(&format!("{path}/obj/all?version=4")).await,
        at_four
    );
    assert_eq!(h.get_ok(&format!("{path}/history/4")).await, details);
    let page = h.get_ok(&format!("{path}/history")).await;
    let numbers: Vec<u64> = page["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [5, 4]);
    h.post_ok(&format!("{path}/restore"), json!({"version": 4}))
        .await;
    assert_eq!(h.get_ok(&format!("{path}/obj/all")).await, at_four);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_diagram_is_one_version_of_the_objects_it_added() {
    let h = Harness::new().await;
    let doc = h.new_doc("Laid out").await;
    let before = head(&h, &doc).await;
    let entries = json!({
        "web": {"type": "component", "componentType": "generic.server", "connections": ["db"]},
        "db": {"type": "component", "componentType": "database.mysql"},
    });
    h.post_ok(&format!("/api/v1/create-diagram/{doc}"), entries)
        .await;
    let after = head(&h, &doc).await;
    assert_eq!(after, before + 1, "one version");
    let version = h
        .get_ok(&format!("/api/v1/doc/{doc}/history/{after}"))
        .await;
    assert_eq!(version["version"]["kind"], "create-diagram", "{version}");
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let changed = version["objects"].as_array().expect("objects");
    assert_eq!(changed.len(), all.as_object().unwrap().len(), "{version}");
    let restored = h
        .post_ok(
            &format!("/api/v1/doc/{doc}/restore"),
            json!({ "version": before }),
        )
        .await;
    assert_eq!(restored["changed"], changed.len(), "{restored}");
    let emptied = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(emptied, json!({}), "undone by a restore");
}
