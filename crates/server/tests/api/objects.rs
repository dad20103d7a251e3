//! Object routes: create with defaults and validation, get, update (non-recursive merge),
//! bulk update, delete, ordering, trailing slashes, who may update.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Harness, assert_error, friend_and_stranger};

#[tokio::test(flavor = "multi_thread")]
async fn create_fills_the_defaults_of_each_type() {
    let h = Harness::new().await;
    let doc = h.new_doc("Defaults").await;
    let cases = [
        (
            "component",
            json!({"componentId": "generic.server"}),
            "primaryColor",
            json!("#CCCCCC"),
        ),
        (
            "component",
            json!({"componentId": "database.postgres"}),
            "opacity",
            json!(1),
        ),
        ("label", json!({}), "text", json!("New Label")),
        ("line-group", json!({}), "lineWidth", json!(0.05)),
        ("area", json!({}), "fillColor", json!("#BFBFBF")),
        ("icon", json!({}), "icon", json!("heart")),
        ("image", json!({}), "path", json!("no-image-selected.png")),
        ("widget", json!({}), "widgetType", json!("chart")),
    ];
    for (kind, props, property, wanted) in cases {
        let id = h.new_obj(&doc, kind, props.clone()).await;
        let obj = h.get_ok(&format!("/api/v1/doc/{doc}/obj/{id}")).await;
        assert_eq!(obj["type"], kind);
        assert_eq!(obj["data"][property], wanted, "{kind} {props}: {obj}");
        for (name, value) in props.as_object().unwrap() {
            assert_eq!(&obj["data"][name], value, "given props are kept");
        }
    }
    let plain = h
        .new_obj(
            &doc,
            "component",
            json!({"componentId": "database.postgres"}),
        )
        .await;
    let obj = h.get_ok(&format!("/api/v1/doc/{doc}/obj/{plain}")).await;
    assert!(
        obj["data"].get("primaryColor").is_none(),
        "only generic components have colours"
    );
    let given = h
        .new_obj(
            &doc,
            "label",
            json!({"text": "Hello", "position": {"x": 2.5, "y": -1}}),
        )
        .await;
    let obj = h.get_ok(&format!("/api/v1/doc/{doc}/obj/{given}")).await;
    assert_eq!(obj["data"]["text"], "Hello");
    assert_eq!(obj["data"]["position"], json!({"x": 2.5, "y": -1}));
    assert_eq!(obj["data"]["color"], "#333333");
}

#[tokio::test(flavor = "multi_thread")]
async fn object_ids_have_the_documented_shape() {
    let h = Harness::new().await;
    let doc = h.new_doc("Ids").await;
    let id = h.new_obj(&doc, "label", json!({})).await;
    let (time, random) = id.split_once('-').expect("a dash");
    assert!(!time.is_empty() && !random.is_empty());
    assert!(
        id.chars()
            .all(|c| c == '-' || c.is_ascii_digit() || c.is_ascii_lowercase())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn create_and_update_validation_names_the_property() {
    let h = Harness::new().await;
    let doc = h.new_doc("Validation").await;
    let path = format!("/api/v1/doc/{doc}/obj");
    let cases = [
        (json!({"type": "box", "props": {}}), "type:"),
        (json!({"props": {}}), "type"),
        (json!({"type": "component", "props": {}}), "componentId:"),
        (
            json!({"type": "label", "props": {"color": "red"}}),
            "color:",
        ),
        (
            json!({"type": "label", "props": {"position": {"x": 1}}}),
            "position:",
        ),
        (
            json!({"type": "label", "props": {"position": {"x": 1, "y": "2"}}}),
            "position:",
        ),
        (
            json!({"type": "label", "props": {"fontSize": "big"}}),
            "fontSize:",
        ),
        (json!({"type": "label", "props": {"text": 5}}), "text:"),
        (
            json!({"type": "component", "props": {"componentId": "generic.server", "meta": {"a": [1]}}}),
            "meta.a:",
        ),
        (json!({"type": "label", "props": 5}), "props"),
    ];
    for (body, wanted) in cases {
        let msg = assert_error(
            &h.post(&path, body.clone()).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with(wanted), "{body}: {msg}");
    }
    let position = assert_error(
        &h.post(
            &path,
            json!({"type": "label", "props": {"position": {"x": 1}}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(position.contains("needs both x and y"), "{position}");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        json!({})
    );

    let id = h.new_obj(&doc, "label", json!({})).await;
    let update = format!("/api/v1/doc/{doc}/obj/{id}");
    for (props, wanted) in [
        (json!({"color": "#12345"}), "color:"),
        (json!({"position": {"y": 3}}), "position:"),
        (json!({"showMetaData": "yes"}), "showMetaData:"),
    ] {
        let msg = assert_error(
            &h.post(&update, json!({ "props": props })).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with(wanted), "{props}: {msg}");
    }
    let msg = assert_error(
        &h.post(&update, json!({})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(msg.contains("props"), "{msg}");
}

#[tokio::test(flavor = "multi_thread")]
async fn update_merges_non_recursively() {
    let h = Harness::new().await;
    let doc = h.new_doc("Merge").await;
    let id = h
        .new_obj(
            &doc,
            "component",
            json!({"componentId": "generic.server", "position": {"x": 1, "y": 2},
                   "meta": {"status": "up", "region": "eu"}}),
        )
        .await;
    let path = format!("/api/v1/doc/{doc}/obj/{id}");
    h.post_ok(
        &path,
        json!({"props": {"meta": {"status": "down"}, "position": {"x": 5, "y": 6}, "custom": {"a": 1}}}),
    )
    .await;
    let obj = h.get_ok(&path).await;
    assert_eq!(
        obj["data"]["meta"],
        json!({"status": "down"}),
        "meta replaced whole"
    );
    assert_eq!(obj["data"]["position"], json!({"x": 5, "y": 6}));
    assert_eq!(
        obj["data"]["custom"],
        json!({"a": 1}),
        "unknown properties kept as given"
    );
    assert_eq!(
        obj["data"]["componentId"], "generic.server",
        "others untouched"
    );
    assert_eq!(obj["data"]["primaryColor"], "#CCCCCC");
}

#[tokio::test(flavor = "multi_thread")]
async fn get_update_and_delete_of_a_missing_object_answer_obj_not_found() {
    let h = Harness::new().await;
    let doc = h.new_doc("Missing").await;
    let id = h.new_obj(&doc, "label", json!({})).await;
    let base = format!("/api/v1/doc/{doc}/obj");
    h.post_ok(&format!("{base}/{id}/delete"), json!({})).await;
    assert_error(
        &h.get(&format!("{base}/{id}")).await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_error(
        &h.post(&format!("{base}/{id}"), json!({"props": {}})).await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert_error(
        &h.post(&format!("{base}/{id}/delete"), json!({})).await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    // Delete takes no body at all, too.
    let other = h.new_obj(&doc, "label", json!({})).await;
    let resp = h
        .http
        .post(format!("{}{base}/{other}/delete", h.server.url()))
        .bearer_auth(h.key())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(h.get_ok(&format!("{base}/all")).await, json!({}));
}

#[tokio::test(flavor = "multi_thread")]
async fn bulk_update_is_all_or_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("Bulk").await;
    let a = h.new_component(&doc, json!({"n": 1})).await;
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await;
    let path = format!("/api/v1/doc/{doc}");
    h.post_ok(
        &path,
        json!({"objects": {&a: {"meta": {"n": 2}, "opacity": 0.5}, &b: {"text": "B"}}}),
    )
    .await;
    let all = h.get_ok(&format!("{path}/obj/all")).await;
    assert_eq!(all[&a]["data"]["meta"], json!({"n": 2}));
    assert_eq!(all[&a]["data"]["opacity"], 0.5);
    assert_eq!(all[&b]["data"]["text"], "B");

    let missing = assert_error(
        &h.post(
            &path,
            json!({"objects": {&a: {"opacity": 0.25}, "0zzzzzzzz-nothere00": {"text": "x"}}}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "OBJ_NOT_FOUND",
    );
    assert!(missing.contains("0zzzzzzzz-nothere00"), "{missing}");
    let invalid = assert_error(
        &h.post(
            &path,
            json!({"objects": {&a: {"opacity": 0.25}, &b: {"color": "blue"}}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(
        invalid.contains(&format!("objects.{b}: color:")),
        "{invalid}"
    );
    assert_eq!(
        h.get_ok(&format!("{path}/obj/all")).await,
        all,
        "nothing written"
    );
    assert_error(
        &h.post(&path, json!({"objects": {&a: 5}})).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn objects_read_back_in_creation_order() {
    let h = Harness::new().await;
    let doc = h.new_doc("Order").await;
    let mut ids = Vec::new();
    for i in 0..25 {
        ids.push(
            h.new_obj(&doc, "label", json!({"text": format!("{i}")}))
                .await,
        );
    }
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let keys: Vec<String> = all.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ids);
}

#[tokio::test(flavor = "multi_thread")]
async fn trailing_slashes_do_not_matter() {
    let h = Harness::new().await;
    assert_eq!(
        h.get_ok("/api/v1/doc/").await,
        h.get_ok("/api/v1/doc").await
    );
    let doc = h.new_doc("Slashes").await;
    let a = h
        .post_ok(&format!("/api/v1/doc/{doc}/obj/"), json!({"type": "label"}))
        .await;
    let b = h
        .post_ok(&format!("/api/v1/doc/{doc}/obj"), json!({"type": "label"}))
        .await;
    assert_ne!(a["objId"], b["objId"]);
    for path in [
        format!("/api/v1/doc/{doc}/obj/where"),
        format!("/api/v1/doc/{doc}/obj/where/"),
    ] {
        let answer = h
            .post_ok(
                &path,
                json!({"selector": ["k", "no", "v"], "props": {"rotation": 0}}),
            )
            .await;
        assert_eq!(answer["updatedObjectCount"], 2);
    }
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all/")).await;
    assert_eq!(all.as_object().unwrap().len(), 2);
    let key_query = h
        .call(
            reqwest::Method::GET,
            &format!("/api/v1/doc/?key={}", h.key()),
            None,
            None,
        )
        .await;
    assert_eq!(
        key_query.0,
        StatusCode::OK,
        "the query survives the folding"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collaborator_updates_objects_and_a_stranger_cannot() {
    let h = Harness::new().await;
    let doc = h.new_doc("Shared").await;
    let path = format!("/api/v1/doc/{doc}");
    let a = h.new_obj(&doc, "label", json!({"text": "a"})).await;
    let b = h.new_obj(&doc, "label", json!({"text": "b"})).await;
    let (friend, stranger) = friend_and_stranger(&h, &doc).await;
    let one = |text: &str| json!({"props": {"text": text}});
    let both = |text: &str| json!({"objects": {&a: {"text": text}, &b: {"text": text}}});
    let single = format!("{path}/obj/{a}");
    for (url, body) in [(&single, one("friend")), (&path, both("friends"))] {
        let (status, answer) = h.call(Method::POST, url, Some(&friend), Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{url}: {answer}");
    }
    let all = h.get_ok(&format!("{path}/obj/all")).await;
    assert_eq!(all[&a]["data"]["text"], "friends");
    assert_eq!(all[&b]["data"]["text"], "friends");
    for (url, body) in [(&single, one("stranger")), (&path, both("strangers"))] {
        let answer = h.call(Method::POST, url, Some(&stranger), Some(body)).await;
        assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    }
    assert_eq!(
        h.get_ok(&format!("{path}/obj/all")).await,
        all,
        "nothing written"
    );
}
