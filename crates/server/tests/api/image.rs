//! The image route: `GET /api/v1/image/from-document/{docId}`, PNG by default, SVG on request;
//! 3D by default, 2D on request.

use diagtui_testkit::pictures::{png_size, svg_size};
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Harness, assert_error};

/// GETs a picture with the default key: the status, the content type and the bytes.
async fn image(h: &Harness, path: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = h
        .http
        .get(format!("{}{path}", h.server.url()))
        .bearer_auth(h.key())
        .send()
        .await
        .expect("request sent");
    let status = resp.status();
    let kind = resp.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    (
        status,
        kind,
        resp.bytes().await.expect("body read").to_vec(),
    )
}

/// The first sample document (seeded in every new data dir).
async fn sample(h: &Harness) -> String {
    let list = h.get_ok("/api/v1/doc").await;
    list[0]["id"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_document_is_a_png_of_the_asked_size() {
    let h = Harness::new().await;
    let doc = sample(&h).await;
    let path = format!("/api/v1/image/from-document/{doc}");

    let (status, kind, png) = image(&h, &path).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/png"));
    let (width, height) = png_size(&png);
    assert_eq!(width, 1400, "the hosted service's later default");
    assert!(
        height > 300 && height < 1400,
        "follows the diagram: {height}"
    );

    let (status, _, png) = image(&h, &format!("{path}/?width=300&height=200&format=png")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(png_size(&png), (300, 200));
    let (_, _, png) = image(&h, &format!("{path}?width=1&height=8192")).await;
    assert_eq!(png_size(&png), (1, 8192));

    let url = format!("{}{path}?key={}&width=64", h.server.url(), h.key());
    let png = h.http.get(url).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(png_size(&png).0, 64, "the key may come in the query");
}

#[tokio::test(flavor = "multi_thread")]
async fn format_svg_is_svg_that_parses() {
    let h = Harness::new().await;
    let doc = h.new_doc("Drawn").await;
    let content = json!({
        "1a": {"type": "component", "data": {"name": "api-gateway", "position": {"x": 0, "y": 0}}},
        "1b": {"type": "label", "data": {"text": "no position"}},
    });
    h.post_ok(&format!("/api/v1/doc/set-content/{doc}"), content)
        .await;
    let path = format!("/api/v1/image/from-document/{doc}?format=svg&width=640&height=480");
    let (status, kind, svg) = image(&h, &path).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
    let svg = String::from_utf8(svg).unwrap();
    assert_eq!(svg_size(&svg), (640.0, 480.0));
    assert!(svg.contains(">api-gateway<"), "{svg}");
    assert!(svg.contains(">1 object could not be placed<"), "{svg}");

    let empty = h.new_doc("Empty").await;
    let path = format!("/api/v1/image/from-document/{empty}?format=SVG");
    let (status, _, svg) = image(&h, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(svg_size(&String::from_utf8(svg).unwrap()), (1400.0, 1400.0));
}

/// The SVG of the first sample with this query.
async fn sample_svg(h: &Harness, doc: &str, query: &str) -> String {
    let path = format!("/api/v1/image/from-document/{doc}?format=svg&{query}");
    let (status, _, svg) = image(h, &path).await;
    assert_eq!(status, StatusCode::OK, "{query}");
    String::from_utf8(svg).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn view_picks_3d_or_2d_in_any_case() {
    let h = Harness::new().await;
    let doc = sample(&h).await;
    let blocks = |svg: &str| svg.matches("<title>component ").count();
    let default = sample_svg(&h, &doc, "").await;
    // 3D draws the floor under one transform, and each component as a block.
    assert!(default.contains("<g transform=\"matrix("), "3D by default");
    assert_eq!(default, sample_svg(&h, &doc, "view=3d").await);
    assert_eq!(default, sample_svg(&h, &doc, "view=3D").await);
    let flat = sample_svg(&h, &doc, "view=2D").await;
    assert!(!flat.contains("<g transform=\"matrix("));
    assert_eq!(flat, sample_svg(&h, &doc, "view=2d").await);
    assert!(blocks(&default) > 5);
    assert_eq!(blocks(&default), blocks(&flat), "every component in both");
}

#[tokio::test(flavor = "multi_thread")]
async fn component_size_sets_the_scale_and_sides_follow() {
    let h = Harness::new().await;
    let doc = sample(&h).await;
    let small = svg_size(&sample_svg(&h, &doc, "view=2D&component-size=20").await);
    let large = svg_size(&sample_svg(&h, &doc, "view=2D&component-size=40").await);
    // Twice the component size, twice the picture (give or take the rounding).
    assert!(
        (large.0 - 2.0 * small.0).abs() <= 2.0,
        "{small:?} {large:?}"
    );
    assert!(
        (large.1 - 2.0 * small.1).abs() <= 2.0,
        "{small:?} {large:?}"
    );
    let given = svg_size(&sample_svg(&h, &doc, "component-size=40&width=300&height=200").await);
    assert_eq!(given, (300.0, 200.0));
    let tall = svg_size(&sample_svg(&h, &doc, "height=500").await);
    assert_eq!(tall, (1400.0, 500.0));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_parameters_are_named() {
    let h = Harness::new().await;
    let doc = sample(&h).await;
    for (query, name) in [
        ("width=0", "width"),
        ("width=8193", "width"),
        ("width=wide", "width"),
        ("width=", "width"),
        ("height=-1", "height"),
        ("height=1.5", "height"),
        ("format=gif", "format"),
        ("format=", "format"),
        ("view=4D", "view"),
        ("view=", "view"),
        ("view=2", "view"),
        ("component-size=0", "component-size"),
        ("component-size=big", "component-size"),
        ("component-size=8193", "component-size"),
        ("component-size=2000", "component-size"),
    ] {
        let path = format!("/api/v1/image/from-document/{doc}?{query}");
        let message = assert_error(
            &h.get(&path).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(
            message.starts_with(&format!("{name}: ")),
            "{query}: {message}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn missing_documents_and_keys_answer_as_everywhere() {
    let h = Harness::new().await;
    let doc = sample(&h).await;
    assert_error(
        &h.get("/api/v1/image/from-document/no-such-doc").await,
        StatusCode::NOT_FOUND,
        "DOC_NOT_FOUND",
    );
    let path = format!("/api/v1/image/from-document/{doc}");
    assert_error(
        &h.call(reqwest::Method::GET, &path, None, None).await,
        StatusCode::UNAUTHORIZED,
        "UNAUTHORIZED",
    );
    assert_error(
        &h.call(reqwest::Method::GET, &path, Some("wrong"), None)
            .await,
        StatusCode::UNAUTHORIZED,
        "UNAUTHORIZED",
    );
    assert_error(
        &h.post(&path, json!({})).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
    );
}
