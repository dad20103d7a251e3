//! `POST /api/v1/create-diagram/{docId}` and `POST /api/v1/image/create-from-diagram`: entries
//! in (JSON, CSV, Mermaid or DOT), a laid-out diagram stored (or drawn) out; refusals store
//! nothing.

use diagtui_testkit::pictures::png_size;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Harness, assert_error, send};

/// POSTs a body with a content type to a path, with the default key.
async fn post_as(h: &Harness, path: &str, content_type: &str, body: &str) -> (StatusCode, Value) {
    send(
        h.http
            .post(format!("{}{path}", h.server.url()))
            .bearer_auth(h.key())
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body.to_owned()),
    )
    .await
}

/// The notes' minimal JSON example, with an id that is not of our base-36 form.
fn example() -> Value {
    json!({
        "web server/1": {"type": "component", "componentType": "generic.server", "groups": ["vpc", "dmz"],
                 "connections": ["db"], "arrowsTo": "all", "label": "web 1", "meta-role": "front"},
        "db": {"type": "component", "componentType": "database.mysql", "groups": ["vpc"], "meta-size": "large"},
        "vpc": {"type": "group", "label": "Main VPC", "areaType": 1},
        "w2d": {"type": "connection", "from": "web server/1", "to": "db", "lineDash": "dashed"}
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn json_entries_become_objects_under_their_own_ids() {
    let h = Harness::new().await;
    let doc = h.new_doc("auto").await;
    let (status, answer) = post_as(
        &h,
        &format!("/api/v1/create-diagram/{doc}?comp_gap=3&Group_Padding=1"),
        "application/json",
        &example().to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["success"], true);
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let all = all.as_object().unwrap();
    assert_eq!(answer["objectCount"], all.len());
    for (id, kind) in [
        ("web server/1", "component"),
        ("db", "component"),
        ("vpc", "area"),
        ("vpc:band", "area"),
        ("vpc:label", "label"),
        ("dmz", "area"),
        ("w2d", "line-group"),
    ] {
        assert_eq!(all[id]["type"], kind, "{id}");
    }
    assert_eq!(all["db"]["data"]["meta"], json!({"size": "large"}));
    assert_eq!(all["web server/1"]["data"]["name"], "web 1");
    assert_eq!(all["vpc"]["data"]["areaType"], 1);
    assert_eq!(all["w2d"]["data"]["lineDash"], 2);
    assert_eq!(
        all["w2d"]["data"]["arrowAnchorIndices"]
            .as_object()
            .unwrap()
            .len(),
        1
    );

    // The caller's ids work everywhere: read, selector, update, delete.
    let path = format!("/api/v1/doc/{doc}/obj/web%20server%2F1");
    assert_eq!(
        h.get_ok(&path).await["data"]["componentId"],
        "generic.server"
    );
    let found = h
        .get_ok(&format!(
            "/api/v1/doc/{doc}/obj/where/%5B%22role%22%2C%22eq%22%2C%22front%22%5D"
        ))
        .await;
    assert!(found.get("web server/1").is_some(), "{found}");
    h.post_ok(&path, json!({"props": {"opacity": 0.5}})).await;
    assert_eq!(h.get_ok(&path).await["data"]["opacity"], 0.5);
    h.post_ok(
        &format!("/api/v1/doc/{doc}"),
        json!({"objects": {"web server/1": {"meta": {"role": "back"}}}}),
    )
    .await;
    h.post_ok(&format!("{path}/delete"), json!({})).await;
    assert_error(&h.get(&path).await, StatusCode::NOT_FOUND, "OBJ_NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread")]
async fn csv_entries_and_running_again_replaces_the_same_ids() {
    let h = Harness::new().await;
    let doc = h.new_doc("csv").await;
    let mine = h.new_component(&doc, json!({"kept": true})).await;
    let csv = "id,type,componentType,groups,connections,label,tier,areaType\n\
               lb,component,networking.haproxy,,\"app1, app2\",,,\n\
               app1,component,generic.server,\"vpc, apps\",,App one,,\n\
               app2,component,generic.server,\"vpc, apps\",,,3,\n\
               vpc,group,,,,Main VPC,,1\n";
    let path = format!("/api/v1/create-diagram/{doc}");
    let (status, first) = post_as(&h, &path, "text/csv; charset=utf-8", csv).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(all["vpc"]["data"]["areaType"], 1);
    assert_eq!(all["app1"]["data"]["name"], "App one");
    assert_eq!(all["lb->app1"]["type"], "line-group");
    assert!(
        all.get(&mine).is_some(),
        "create-diagram adds to what is there"
    );
    let count = all.as_object().unwrap().len();

    let (status, _) = post_as(&h, &path, "text/csv", csv).await;
    assert_eq!(status, StatusCode::OK);
    let again = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(
        again.as_object().unwrap().len(),
        count,
        "same ids replaced, none added"
    );

    let (status, _) = post_as(&h, &format!("{path}?replace=true"), "text/csv", csv).await;
    assert_eq!(status, StatusCode::OK);
    let replaced = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert!(
        replaced.get(&mine).is_none(),
        "replace empties the document first"
    );
    assert_eq!(replaced.as_object().unwrap().len(), count - 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_is_refused_whole_naming_the_entry_and_the_field() {
    let h = Harness::new().await;
    let doc = h.new_doc("refusals").await;
    h.new_component(&doc, json!({})).await;
    let before = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    let path = format!("/api/v1/create-diagram/{doc}");
    let server = json!({"type": "component", "componentType": "generic.server"});
    let cases = [
        (json!({"a": {"type": "box"}}), "entry \"a\", field type"),
        (
            json!({"a": {"type": "component"}}),
            "entry \"a\", field componentType",
        ),
        (
            json!({"a": {"type": "component", "componentType": "generic.server", "connections": ["zz"]}}),
            "entry \"a\", field connections",
        ),
        (
            json!({"a": {"type": "component", "componentType": "generic.server", "groups": ["x", "y"]},
                "b": {"type": "component", "componentType": "generic.server", "groups": ["y", "x"]}}),
            "field groups",
        ),
        (
            json!({"a": {"type": "component", "componentType": "generic.server", "positionType": "relative",
                      "positionRelativeTo": "b", "positionX": 1, "positionY": 0},
                "b": {"type": "component", "componentType": "generic.server", "positionType": "relative",
                      "positionRelativeTo": "a", "positionX": 1, "positionY": 0}}),
            "field positionRelativeTo",
        ),
        (
            json!({"a": server, "c": {"type": "connection", "from": "a", "to": "nowhere"}}),
            "entry \"c\", field to",
        ),
    ];
    for (body, expected) in cases {
        let answer = post_as(&h, &path, "application/json", &body.to_string()).await;
        let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
        assert!(message.contains(expected), "{body}: {message}");
    }
    let duplicate = r#"{"a": {"type": "group"}, "a": {"type": "group"}}"#;
    let message = assert_error(
        &post_as(&h, &path, "application/json", duplicate).await,
        StatusCode::BAD_REQUEST,
        "VALIDATION_ERROR",
    );
    assert!(message.contains("entry \"a\", field id"), "{message}");
    for query in [
        "TIER_GAP=0",
        "comp_gap=-1",
        "MAX_COMPONENTS_PER_TIER=2.5",
        "wobble=1",
        "replace=maybe",
    ] {
        let body = json!({"a": server}).to_string();
        let answer = post_as(&h, &format!("{path}?{query}"), "application/json", &body).await;
        let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
        let name = query.split('=').next().unwrap();
        assert!(
            message.to_lowercase().contains(&name.to_lowercase()),
            "{query}: {message}"
        );
    }
    let answer = post_as(&h, &path, "text/plain", "id,type\n").await;
    assert_error(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    );
    let answer = post_as(
        &h,
        "/api/v1/create-diagram/00000000-0000-4000-8000-000000000000",
        "application/json",
        &json!({"a": server}).to_string(),
    )
    .await;
    assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    let after = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(before, after, "nothing written on refusal");
}

#[tokio::test(flavor = "multi_thread")]
async fn create_from_diagram_answers_a_png_and_stores_nothing() {
    let h = Harness::new().await;
    let docs = h.get_ok("/api/v1/doc").await;
    let (status, kind, png) = from_diagram(&h, "width=400&height=300&comp_gap=4").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "image/png");
    assert_eq!(png_size(&png), (400, 300));
    assert_eq!(
        h.get_ok("/api/v1/doc").await,
        docs,
        "no document left behind"
    );
    let answer = post_as(
        &h,
        "/api/v1/image/create-from-diagram",
        "application/json",
        r#"{"a": {"type": "component"}}"#,
    )
    .await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
}

/// The README's example (so that it keeps working) drawn by create-from-diagram with `query`:
/// the status, the content type and the bytes.
async fn from_diagram(h: &Harness, query: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = h
        .http
        .post(format!(
            "{}/api/v1/image/create-from-diagram?{query}",
            h.server.url()
        ))
        .bearer_auth(h.key())
        .header(reqwest::header::CONTENT_TYPE, "text/csv")
        .body(include_str!("../../../../docs/examples/web-shop.csv"))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let kind = resp.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    (status, kind, resp.bytes().await.unwrap().to_vec())
}

#[tokio::test(flavor = "multi_thread")]
async fn create_from_diagram_takes_view_and_component_size_like_from_document() {
    let h = Harness::new().await;
    let (_, _, flat) = from_diagram(&h, "").await;
    assert_eq!(png_size(&flat), (1024, 768), "flat, 1024 x 768 by default");
    let (_, _, flat_named) = from_diagram(&h, "view=2d").await;
    assert_eq!(flat_named, flat);
    let (status, _, iso) = from_diagram(&h, "view=3D").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(png_size(&iso), (1024, 768));
    assert_ne!(iso, flat, "3D draws another picture");
    let (_, _, small) = from_diagram(&h, "component-size=20").await;
    let (_, _, large) = from_diagram(&h, "component-size=40").await;
    let (small, large) = (png_size(&small), png_size(&large));
    assert_ne!(small, (1024, 768), "the sides follow the component size");
    assert!(
        large.0 > small.0 * 3 / 2 && large.1 > small.1 * 3 / 2,
        "{small:?} {large:?}"
    );
    let (_, _, kept) = from_diagram(&h, "component-size=20&width=500").await;
    assert_eq!(png_size(&kept).0, 500, "a side given is kept");
    let (_, kind, svg) = from_diagram(&h, "view=3D&format=svg").await;
    assert_eq!(kind, "image/svg+xml");
    assert!(String::from_utf8(svg).unwrap().starts_with("<svg"));
    for (query, name) in [
        ("view=4D", "view:"),
        ("component-size=0", "component-size:"),
        ("component-size=8000", "component-size:"),
        ("width=0", "width:"),
    ] {
        let (status, _, body) = from_diagram(&h, query).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        let body: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["error"], "VALIDATION_ERROR", "{query}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with(name), "{query}: {message}");
    }
}

/// The three sample documents, each with its create-diagram file and its Mermaid file.
const SAMPLES: [(&str, &str, &str); 3] = [
    (
        include_str!("../../../../assets/samples/web-platform.json"),
        include_str!("samples/web-platform.csv"),
        include_str!("samples/web-platform.mmd"),
    ),
    (
        include_str!("../../../../assets/samples/data-pipeline.json"),
        include_str!("samples/data-pipeline.csv"),
        include_str!("samples/data-pipeline.mmd"),
    ),
    (
        include_str!("../../../../assets/samples/edge-network.json"),
        include_str!("samples/edge-network.csv"),
        include_str!("samples/edge-network.mmd"),
    ),
];

/// What a diagram is made of, whatever its layout: the components' kinds and names, how many
/// pairs are linked, how many areas group them.
#[derive(Debug, PartialEq)]
struct Parts {
    kinds: Vec<String>,
    names: Vec<String>,
    linked_pairs: usize,
    areas: usize,
}

/// The parts of a sample document.
fn sample_parts(sample: &str) -> Parts {
    let sample: Value = serde_json::from_str(sample).unwrap();
    let content = sample["content"].as_object().unwrap();
    let of = |kind: &'static str| content.values().filter(move |o| o["type"] == kind);
    let mut kinds: Vec<String> = of("component")
        .map(|o| o["data"]["componentId"].as_str().unwrap().to_owned())
        .collect();
    kinds.sort();
    let mut names: Vec<String> = of("component")
        .map(|o| o["data"]["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    let mut pairs = std::collections::BTreeSet::new();
    for line in of("line-group") {
        let anchors = line["data"]["anchors"].as_array().unwrap();
        for l in line["data"]["lines"].as_array().unwrap() {
            let end = |i: usize| {
                anchors[l[i].as_u64().unwrap() as usize]["id"]
                    .as_str()
                    .unwrap()
            };
            let (a, b) = (end(0), end(1));
            pairs.insert(if a < b { (a, b) } else { (b, a) });
        }
    }
    let titled =
        of("area").count() - usize::from(of("area").any(|a| a["data"]["fillColor"] == "#F3F3F3"));
    Parts {
        kinds,
        names,
        linked_pairs: pairs.len(),
        areas: titled,
    }
}

/// The parts of a laid-out document: its components, their labels, line groups and group areas.
fn laid_out_parts(all: &Value) -> Parts {
    let all = all.as_object().unwrap();
    let of = |kind: &'static str| all.iter().filter(move |(_, o)| o["type"] == kind);
    let mut kinds: Vec<String> = of("component")
        .map(|(_, o)| o["data"]["componentId"].as_str().unwrap().to_owned())
        .collect();
    kinds.sort();
    // A name Mermaid wraps (a line over 26 characters) carries the line breaks Mermaid draws:
    // its words are the sample's.
    let mut names: Vec<String> = of("component")
        .map(|(_, o)| o["data"]["name"].as_str().unwrap())
        .map(|name| name.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    names.sort();
    Parts {
        kinds,
        names,
        linked_pairs: of("line-group").count(),
        areas: of("area").filter(|(id, _)| !id.ends_with(":band")).count(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_sample_documents_are_rebuilt_from_a_file_and_from_mermaid() {
    let h = Harness::new().await;
    for (sample, csv, mermaid) in SAMPLES {
        let expected = sample_parts(sample);
        for (content_type, body) in [("text/csv", csv), ("text/vnd.mermaid", mermaid)] {
            let doc = h.new_doc("rebuilt").await;
            let (status, answer) = post_as(
                &h,
                &format!("/api/v1/create-diagram/{doc}"),
                content_type,
                body,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{content_type}: {answer}");
            let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
            assert_eq!(laid_out_parts(&all), expected, "{content_type}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mermaid_line_not_understood_is_named_by_its_number() {
    let h = Harness::new().await;
    let doc = h.new_doc("mermaid").await;
    let body = "flowchart LR\n  a[Web] --> b[(DB)]\n  a ~~> c\n";
    let answer = post_as(
        &h,
        &format!("/api/v1/create-diagram/{doc}"),
        "text/vnd.mermaid",
        body,
    )
    .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(message.starts_with("line 3: "), "{message}");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        json!({})
    );
}

/// A small DOT graph: a cluster, a record, a cylinder, a loop, colours and dashes.
const DOT: &str = "digraph shop {\r\n  rankdir=LR\r\n  users [label=\"Customers\", shape=circle]\r\n  \
                   subgraph cluster_back {\r\n    label=\"Back end\"; style=filled; fillcolor=\"#eef4ff\"\r\n    \
                   api [label=\"{Orders API|REST :8080}\", shape=record]\r\n    \
                   db [label=\"Orders DB\\n(primary)\", shape=cylinder]\r\n  }\r\n  \
                   users -> api [label=\"HTTPS\"]\r\n  api -> db [style=dashed, color=darkgreen]\r\n  \
                   api -> api [label=\"retry\"]\r\n}\r\n";

#[tokio::test(flavor = "multi_thread")]
async fn a_dot_graph_is_laid_out_and_what_cannot_be_drawn_is_noted() {
    let h = Harness::new().await;
    let doc = h.new_doc("dot").await;
    let (status, answer) = post_as(
        &h,
        &format!("/api/v1/create-diagram/{doc}"),
        "text/vnd.graphviz; charset=utf-8",
        DOT,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["notes"], json!([]));
    let all = h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await;
    assert_eq!(answer["objectCount"], all.as_object().unwrap().len());
    assert_eq!(all["db"]["data"]["componentId"], "generic.database");
    assert_eq!(all["db"]["data"]["name"], "Orders DB\n(primary)");
    assert_eq!(all["api"]["data"]["name"], "Orders API\nREST :8080");
    assert_eq!(all["users"]["data"]["name"], "Customers");
    assert_eq!(all["cluster_back"]["type"], "area");
    assert_eq!(all["cluster_back"]["data"]["fillColor"], "#EEF4FF");
    assert_eq!(all["api->db"]["type"], "line-group");
    assert_eq!(all["api->db"]["data"]["strokeStyle"], "#006400");
    assert_eq!(all["api->db"]["data"]["lineDash"], 2);
    // The loop: from one corner of its component to the next, with its label.
    let anchors = all["api->api"]["data"]["anchors"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(anchors.len(), 4, "{anchors:?}");
    for end in [&anchors[0], &anchors[3]] {
        assert_eq!(
            (end["type"].clone(), end["id"].clone()),
            (json!(1), json!("api"))
        );
    }
    assert_ne!(anchors[0]["index"], anchors[3]["index"]);
    assert_eq!(all["api->api:label"]["data"]["text"], "retry");

    let picture = h
        .http
        .post(format!(
            "{}/api/v1/image/create-from-diagram?format=svg",
            h.server.url()
        ))
        .bearer_auth(h.key())
        .header(reqwest::header::CONTENT_TYPE, "text/vnd.graphviz")
        .body(DOT)
        .send()
        .await
        .unwrap();
    assert_eq!(picture.status(), StatusCode::OK);
    assert!(picture.text().await.unwrap().contains("<svg"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dot_syntax_error_is_named_by_its_line_and_stores_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("dot").await;
    let path = format!("/api/v1/create-diagram/{doc}");
    let answer = post_as(
        &h,
        &path,
        "text/vnd.graphviz",
        "digraph {\n  a -> b\n  b -- c\n}\n",
    )
    .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert_eq!(
        message,
        "line 3: `->` (edges of a `digraph`) was expected, not `--`"
    );
    let answer = post_as(
        &h,
        &path,
        "text/vnd.graphviz",
        "digraph {\n  a [label=\"open\n}\n",
    )
    .await;
    let message = assert_error(&answer, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert!(message.starts_with("line 2: "), "{message}");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        json!({})
    );
    let answer = post_as(&h, &path, "text/plain", "digraph { a }").await;
    let message = assert_error(
        &answer,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    );
    assert!(message.contains("text/vnd.graphviz"), "{message}");
}
