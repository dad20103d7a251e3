//! Selectors, table-driven: every operator, type insensitivity, missing keys, lists (AND), both
//! URL encodings of the path form, the body form, and malformed selectors.

use diagtui_server::{LocalServer, ServerOptions};
use percent_encoding::{AsciiSet, CONTROLS, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::StatusCode;
use serde_json::{Map, Value, json};

use crate::common::{Harness, assert_error};

/// What JavaScript's `encodeURI` escapes: brackets, quotes, spaces; not commas or colons.
const ENCODE_URI: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'[')
    .add(b']')
    .add(b'{')
    .add(b'}')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'|');

/// The objects every case runs against, by name, with their `meta`.
fn fixtures() -> Vec<(&'static str, Option<Value>)> {
    vec![
        (
            "A",
            Some(
                json!({"port": 16, "name": "web-01", "flag": true, "load": "0.75", "region": "eu-west-1"}),
            ),
        ),
        (
            "B",
            Some(
                json!({"port": "16", "name": "web-02", "flag": "true", "load": 2, "region": "us-east-1"}),
            ),
        ),
        (
            "C",
            Some(json!({"port": 9, "name": "db-01", "flag": false, "region": "EU-WEST-1"})),
        ),
        ("D", Some(json!({}))),
        ("E", None),
    ]
}

/// Selector and the names of the objects it must select.
fn cases() -> Vec<(Value, &'static str)> {
    vec![
        (json!(["port", "eq", 16]), "AB"),
        (json!(["port", "eq", "16"]), "AB"),
        (json!(["port", "eq", "16.0"]), "AB"),
        (json!(["flag", "eq", true]), "AB"),
        (json!(["flag", "eq", "true"]), "AB"),
        (json!(["flag", "eq", false]), "C"),
        (json!(["region", "eq", "eu-west-1"]), "A"),
        (json!(["port", "gt", 10]), "AB"),
        (json!(["port", "gt", "9"]), "AB"),
        (json!(["port", "lt", 10]), "C"),
        (json!(["load", "lt", 1]), "A"),
        (json!(["load", "gt", "1"]), "B"),
        (json!(["name", "gt", "db-99"]), "AB"),
        (json!(["name", "lt", "web"]), "C"),
        (json!(["name", "co", "web"]), "AB"),
        (json!(["port", "co", "1"]), "AB"),
        (json!(["region", "co", "west"]), "A"),
        (json!(["region", "co", "a s/t"]), ""),
        (json!(["name", "no", "web-01"]), "BCDE"),
        (json!(["port", "no", 16]), "CDE"),
        (json!(["missing", "eq", "x"]), ""),
        (json!(["missing", "gt", 0]), ""),
        (json!(["missing", "lt", 0]), ""),
        (json!(["missing", "co", ""]), ""),
        (json!(["missing", "no", "x"]), "ABCDE"),
        (json!([["port", "gt", 10], ["name", "co", "02"]]), "B"),
        (
            json!([["port", "eq", 16], ["region", "no", "eu-west-1"]]),
            "B",
        ),
        (json!([["port", "eq", 16]]), "AB"),
    ]
}

async fn setup(h: &Harness) -> (String, Vec<(String, &'static str)>) {
    let doc = h.new_doc("Selectors").await;
    let mut ids = Vec::new();
    for (name, meta) in fixtures() {
        let id = match meta {
            Some(meta) => h.new_component(&doc, meta).await,
            None => h.new_obj(&doc, "label", json!({})).await,
        };
        ids.push((id, name));
    }
    (doc, ids)
}

fn names_of(ids: &[(String, &'static str)], selected: impl Iterator<Item = String>) -> String {
    selected
        .map(|id| {
            ids.iter()
                .find(|(known, _)| *known == id)
                .map(|(_, name)| *name)
                .unwrap_or("?")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_operator_reads_through_both_path_encodings() {
    let h = Harness::new().await;
    let (doc, ids) = setup(&h).await;
    for (selector, wanted) in cases() {
        let text = selector.to_string();
        for (style, segment) in [
            (
                "full",
                utf8_percent_encode(&text, NON_ALPHANUMERIC).to_string(),
            ),
            (
                "encodeURI",
                utf8_percent_encode(&text, ENCODE_URI).to_string(),
            ),
        ] {
            let found = h
                .get_ok(&format!("/api/v1/doc/{doc}/obj/where/{segment}"))
                .await;
            let map = found.as_object().expect("a map");
            let names = names_of(&ids, map.keys().cloned());
            assert_eq!(names, wanted, "{selector} ({style}: {segment})");
            for value in map.values() {
                assert!(value["type"].is_string() && value["data"].is_object());
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_operator_updates_the_objects_it_reads() {
    let h = Harness::new().await;
    let (doc, ids) = setup(&h).await;
    for (i, (selector, wanted)) in cases().into_iter().enumerate() {
        let answer = h
            .post_ok(
                &format!("/api/v1/doc/{doc}/obj/where"),
                json!({"selector": selector, "props": {"desc": format!("case {i}")}}),
            )
            .await;
        let updated: Vec<String> = answer["updatedObjectIds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(answer["updatedObjectCount"], updated.len());
        assert_eq!(
            names_of(&ids, updated.iter().cloned()),
            wanted,
            "{selector}"
        );
        let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
        for id in &updated {
            assert_eq!(all[id]["data"]["desc"], format!("case {i}"), "{selector}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_selector_update_is_validated_and_atomic() {
    let h = Harness::new().await;
    let (doc, _) = setup(&h).await;
    let before = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let msg = assert_error(
        &h.post(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["missing", "no", 1], "props": {"opacity": 1, "position": {"x": 0}}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("position:"), "{msg}");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        before
    );

    // Bad props are refused even when the selector matches nothing.
    let msg = assert_error(
        &h.post(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["missing", "eq", 1], "props": {"color": "red"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("color:"), "{msg}");

    // Props that the first match (a label) takes but a later one (a component) refuses:
    // the label's change is rolled back with the rest.
    let doc = h.new_doc("Atomic").await;
    h.new_obj(&doc, "label", json!({})).await;
    h.new_component(&doc, json!({})).await;
    let before = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let msg = assert_error(
        &h.post(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["missing", "no", 1], "props": {"componentId": " "}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("componentId: must not be empty"), "{msg}");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        before
    );
}

/// An update of many objects of a document (on SQLite, written in one pass over its rows):
/// exactly the matches change, in what the server answers and in what the database holds.
#[tokio::test(flavor = "multi_thread")]
async fn a_large_selector_update_changes_every_match_and_nothing_else() {
    let h = Harness::new().await;
    let doc = h.new_doc("Large").await;
    let content: Map<String, Value> = (0..300)
        .map(|i| {
            let kind = if i % 3 == 0 { "edge" } else { "node" };
            let data = json!({
                "componentId": "computation.aws-ec2",
                "name": format!("a \"quoted\" {{brace}} [{i}]"),
                "opacity": 1,
                "meta": {"kind": kind, "tags": ["x", {"y": "}"}]},
            });
            (
                format!("obj{i:03}"),
                json!({"type": "component", "data": data}),
            )
        })
        .collect();
    h.post_ok(
        &format!("/api/v1/doc/set-content/{doc}"),
        Value::Object(content.clone()),
    )
    .await;
    let answer = h
        .post_ok(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"selector": ["kind", "eq", "node"], "props": {"opacity": 0.5, "new": [1]}}),
        )
        .await;
    let nodes: Vec<String> = (0..300)
        .filter(|i| i % 3 != 0)
        .map(|i| format!("obj{i:03}"))
        .collect();
    assert_eq!(answer["updatedObjectIds"], json!(nodes));
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    for (id, before) in &content {
        let (data, was) = (&all[id]["data"], &before["data"]);
        let matched = was["meta"]["kind"] == "node";
        assert_eq!(data["opacity"], if matched { json!(0.5) } else { json!(1) });
        assert_eq!(data["new"], if matched { json!([1]) } else { Value::Null });
        assert_eq!((&data["name"], &data["meta"]), (&was["name"], &was["meta"]));
    }

    // A server started afresh reads the same from the database.
    let location = h.server.location().clone();
    let Harness { server, dir, .. } = h;
    server.shutdown().await;
    let again = LocalServer::start_at(location, ServerOptions::default())
        .await
        .unwrap();
    let stored = reqwest::Client::new()
        .get(format!("{}/api/v1/doc/{doc}/obj/all", again.url()))
        .bearer_auth(again.api_key())
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(stored, all);
    again.shutdown().await;
    drop(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn malformed_selectors_answer_invalid_selector() {
    let h = Harness::new().await;
    let (doc, _) = setup(&h).await;
    let path_cases = [
        ("not json", "not valid JSON"),
        (r#"["a","like","b"]"#, "unknown operator"),
        (r#"["a","eq"]"#, "3 elements"),
        ("[]", "empty"),
        (r#"{"a":1}"#, "expected [key, operator, value]"),
        (r#"[["a","eq",1],["b"]]"#, "selector 2"),
    ];
    for (text, wanted) in path_cases {
        let segment = utf8_percent_encode(text, NON_ALPHANUMERIC).to_string();
        let msg = assert_error(
            &h.get(&format!("/api/v1/doc/{doc}/obj/where/{segment}"))
                .await,
            StatusCode::BAD_REQUEST,
            "INVALID_SELECTOR",
        );
        assert!(msg.contains(wanted), "{text}: {msg}");
    }
    let body_cases = [
        (json!("x"), "expected [key, operator, value]"),
        (json!([1, "eq", "b"]), "the key must be a string"),
        (json!(["a", "eq", null]), "the value must be"),
        (json!(["a", "gte", 1]), "unknown operator"),
    ];
    for (selector, wanted) in body_cases {
        let msg = assert_error(
            &h.post(
                &format!("/api/v1/doc/{doc}/obj/where"),
                json!({"selector": selector, "props": {}}),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "INVALID_SELECTOR",
        );
        assert!(msg.contains(wanted), "{selector}: {msg}");
    }
    let msg = assert_error(
        &h.post(
            &format!("/api/v1/doc/{doc}/obj/where"),
            json!({"props": {}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("selector"), "{msg}");
}
