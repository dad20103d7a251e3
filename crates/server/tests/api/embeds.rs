//! Embeds (see `docs/embeds.md`): static embeds keep the diagram as it was, a live embed shows
//! the document now and follows it (at most five viewers), their pages and headers, what
//! deleting an embed, its document or its folder does, who may do what, and every bad input
//! with its status, code and field.

use std::time::Duration;

use diagtui_server::ServerOptions;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Harness, assert_error, friend_and_stranger};

/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(30);

/// A page fetched with no key: its status, headers and text.
async fn page(h: &Harness, url: &str) -> (StatusCode, reqwest::header::HeaderMap, String) {
    let answer = h.http.get(url).send().await.expect("the page answers");
    let status = answer.status();
    let headers = answer.headers().clone();
    (
        status,
        headers,
        answer.text().await.expect("the page reads"),
    )
}

/// A page's text, which must answer 200.
async fn page_ok(h: &Harness, url: &str) -> String {
    let (status, _, text) = page(h, url).await;
    assert_eq!(status, StatusCode::OK, "{url}: {text}");
    text
}

/// A document holding one label with this text.
async fn doc_with_label(h: &Harness, text: &str) -> String {
    let doc = h.new_doc("Embedded").await;
    h.new_obj(
        &doc,
        "label",
        json!({"text": text, "position": {"x": 0, "y": 0}}),
    )
    .await;
    doc
}

/// A static embed and the live embed of a document: their answers.
pub async fn both_embeds(h: &Harness, doc: &str) -> (Value, Value) {
    let made = h
        .post_ok("/api/v1/embed/create-static", json!({"docId": doc}))
        .await;
    let live = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": doc}))
        .await;
    (made, live)
}

/// An open live event stream, read as text.
struct Events(reqwest::Response);

impl Events {
    /// Opens a live embed's event stream (with no API key), which must answer 200.
    async fn open(h: &Harness, live_url: &str) -> Events {
        let response = h.http.get(events_url(live_url)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events(response)
    }

    /// Reads until an event named `name` arrives.
    async fn until(&mut self, name: &str) {
        let mut seen = String::new();
        while !seen.contains(&format!("event: {name}\n")) {
            let chunk = tokio::time::timeout(PATIENCE, self.0.chunk())
                .await
                .expect("an event in time")
                .expect("the stream reads")
                .expect("the stream goes on");
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Reads until the stream ends.
    async fn ends(&mut self) {
        loop {
            let chunk = tokio::time::timeout(PATIENCE, self.0.chunk())
                .await
                .expect("the end in time");
            if !matches!(chunk, Ok(Some(_))) {
                return;
            }
        }
    }
}

/// The event stream of a live embed's page URL.
fn events_url(live_url: &str) -> String {
    live_url.replace("/app/embed.html?", "/app/embed-events?")
}

/// The picture of a live embed's page URL.
fn picture_url(live_url: &str) -> String {
    live_url.replace("/app/embed.html?", "/app/embed.svg?")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_static_embed_keeps_the_diagram_as_it_was_until_deleted() {
    let h = Harness::new().await;
    let doc = doc_with_label(&h, "Before").await;
    let made = h
        .post_ok(
            "/api/v1/embed/create-static",
            json!({"docId": doc, "title": "Our <system>"}),
        )
        .await;
    let id = made["id"].as_str().unwrap();
    assert_eq!(id.len(), 36, "a UUID: {made}");
    let url = made["url"].as_str().unwrap();
    assert_eq!(url, format!("{}/app/embed.html?id={id}", h.server.url()));
    let (status, headers, html) = page(&h, url).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors *"), "{policy}");
    assert!(policy.contains("script-src 'none'"), "{policy}");
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(!headers.contains_key("x-frame-options"));
    assert_eq!(headers["referrer-policy"], "no-referrer");
    assert!(html.contains("<svg"), "the picture is inline: {html}");
    assert!(!html.contains("<script"), "no script: {html}");
    assert!(html.contains(">Before<"), "{html}");
    assert!(html.contains("<title>Our &lt;system&gt;</title>"), "{html}");
    let flat = page_ok(
        &h,
        &format!("{url}&view=2D&camera=1_2_3&hideViewControls=1"),
    )
    .await;
    assert!(flat.contains(">Before<"), "{flat}");

    // The document changes; the embed does not.
    h.post_ok(
        &format!("/api/v1/doc/set-content/{doc}"),
        json!({"n": {"type": "label", "data": {"text": "After", "position": {"x": 0, "y": 0}}}}),
    )
    .await;
    let html = page_ok(&h, url).await;
    assert!(
        html.contains(">Before<") && !html.contains(">After<"),
        "{html}"
    );

    let second = h
        .post_ok("/api/v1/embed/create-static", json!({"docId": doc}))
        .await;
    let list = h.get_ok(&format!("/api/v1/embed/list/{doc}")).await;
    let embeds = list["embeds"].as_array().unwrap();
    assert_eq!(embeds.len(), 2, "{list}");
    assert_eq!(embeds[0]["kind"], "static");
    assert_eq!(embeds[0]["id"], id);
    assert_eq!(embeds[0]["title"], "Our <system>");
    assert_eq!(embeds[0]["url"], url);
    assert_eq!(embeds[1]["id"], second["id"]);
    assert!(embeds[1].get("title").is_none(), "{list}");
    assert!(
        page_ok(&h, second["url"].as_str().unwrap())
            .await
            .contains(">After<")
    );

    h.post_ok("/api/v1/embed/delete-static", json!({"id": id}))
        .await;
    let (status, headers, html) = page(&h, url).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{html}");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors *")
    );
    assert!(html.contains("not shared here"), "{html}");
    let list = h.get_ok(&format!("/api/v1/embed/list/{doc}")).await;
    assert_eq!(list["embeds"].as_array().unwrap().len(), 1, "{list}");
    assert_error(
        &h.post("/api/v1/embed/delete-static", json!({"id": id}))
            .await,
        StatusCode::NOT_FOUND,
        "EMBED_NOT_FOUND",
    );
    let (status, _, _) = page(&h, &format!("{}/app/embed.html", h.server.url())).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no id");
    let (status, _, html) = page(&h, &format!("{url}&view=4D")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(html.contains("view: must be 2D or 3D"), "{html}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_embed_shows_the_document_now_and_follows_its_changes() {
    let h = Harness::new().await;
    let doc = doc_with_label(&h, "First").await;
    let live = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": doc}))
        .await;
    let key = live["key"].as_str().unwrap();
    assert!(
        key.len() == 32
            && key
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "{live}"
    );
    let url = live["url"].as_str().unwrap();
    assert!(url.ends_with(&format!("&key={key}&live=true")), "{url}");
    let again = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": doc}))
        .await;
    assert_eq!(again, live, "enabling twice answers the same key");

    let (status, headers, html) = page(&h, url).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors *"), "{policy}");
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    let nonce = policy
        .split("script-src 'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a script nonce");
    assert!(
        html.contains(&format!(
            "<script src=\"embed-live.js\" nonce=\"{nonce}\"></script>"
        )),
        "{html}"
    );
    assert_eq!(
        html.matches("<script").count(),
        1,
        "no inline script: {html}"
    );
    assert!(html.contains(">First<"), "{html}");
    let script = page_ok(&h, &format!("{}/app/embed-live.js", h.server.url())).await;
    assert!(script.contains("EventSource"), "{script}");

    let mut events = Events::open(&h, url).await;
    events.until("current").await;
    h.new_obj(
        &doc,
        "label",
        json!({"text": "Second", "position": {"x": 4, "y": 4}}),
    )
    .await;
    events.until("change").await;
    let (status, headers, svg) = page(&h, &picture_url(url)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "image/svg+xml");
    assert!(svg.contains(">First<") && svg.contains(">Second<"), "{svg}");
    assert!(page_ok(&h, url).await.contains(">Second<"));

    let list = h.get_ok(&format!("/api/v1/embed/list/{doc}")).await;
    assert_eq!(
        list["embeds"][0],
        json!({"kind": "live", "id": doc, "created": list["embeds"][0]["created"], "url": url})
    );

    // A new key: the old URL stops working, open pages stop following.
    let rotated = h
        .post_ok("/api/v1/embed/rotate-live", json!({"docId": doc}))
        .await;
    assert_ne!(rotated["key"], live["key"]);
    let new_url = rotated["url"].as_str().unwrap();
    for old in [url.to_owned(), picture_url(url)] {
        assert_eq!(page(&h, &old).await.0, StatusCode::NOT_FOUND, "{old}");
    }
    let (status, _, _) = page(&h, &events_url(url)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    events.ends().await;
    assert!(page_ok(&h, new_url).await.contains(">Second<"));

    h.post_ok("/api/v1/embed/disable-live", json!({"docId": doc}))
        .await;
    assert_eq!(page(&h, new_url).await.0, StatusCode::NOT_FOUND);
    let list = h.get_ok(&format!("/api/v1/embed/list/{doc}")).await;
    assert_eq!(list, json!({"success": true, "embeds": []}));
    let wrong = new_url.replace(rotated["key"].as_str().unwrap(), &"0".repeat(32));
    assert_eq!(page(&h, &wrong).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_sixth_viewer_of_a_live_embed_gets_a_page_that_says_so() {
    let h = Harness::new().await;
    let doc = doc_with_label(&h, "Busy").await;
    let live = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": doc}))
        .await;
    let url = live["url"].as_str().unwrap();
    let mut open = Vec::new();
    for _ in 0..5 {
        let mut events = Events::open(&h, url).await;
        events.until("current").await;
        open.push(events);
    }
    let (status, headers, html) = page(&h, url).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{html}");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors *")
    );
    assert!(html.contains("5 viewers already"), "{html}");
    assert_eq!(
        page(&h, &events_url(url)).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another document's live embed counts alone.
    let other = doc_with_label(&h, "Quiet").await;
    let other = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": other}))
        .await;
    page_ok(&h, other["url"].as_str().unwrap()).await;

    drop(open.pop());
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while page(&h, url).await.0 != StatusCode::OK {
        assert!(
            tokio::time::Instant::now() < deadline,
            "a closed page frees its place"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn embeds_go_with_their_document_and_its_folder() {
    let h = Harness::new().await;
    let doc = doc_with_label(&h, "Doomed").await;
    let (made, live) = both_embeds(&h, &doc).await;
    let urls = [made["url"].as_str().unwrap(), live["url"].as_str().unwrap()];
    let mut events = Events::open(&h, urls[1]).await;
    events.until("current").await;
    h.post_ok("/api/v1/doc/delete", json!({"docId": doc})).await;
    for url in urls {
        assert_eq!(page(&h, url).await.0, StatusCode::NOT_FOUND, "{url}");
    }
    assert_eq!(
        page(&h, &picture_url(urls[1])).await.0,
        StatusCode::NOT_FOUND
    );
    events.ends().await;
    assert_error(
        &h.post("/api/v1/embed/delete-static", json!({"id": made["id"]}))
            .await,
        StatusCode::NOT_FOUND,
        "EMBED_NOT_FOUND",
    );

    let folder = h
        .post_ok("/api/v1/folder/create", json!({"title": "Going"}))
        .await["folderId"]
        .as_str()
        .unwrap()
        .to_owned();
    let answer = h
        .post_ok(
            "/api/v1/doc/create",
            json!({"title": "In the folder", "folderId": folder}),
        )
        .await;
    let inside = answer["docId"].as_str().unwrap();
    let made = h
        .post_ok("/api/v1/embed/create-static", json!({"docId": inside}))
        .await;
    let url = made["url"].as_str().unwrap();
    page_ok(&h, url).await;
    h.post_ok("/api/v1/folder/delete", json!({"folderId": folder}))
        .await;
    assert_eq!(page(&h, url).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn embed_requests_for_what_does_not_exist_are_404_naming_it() {
    let h = Harness::new().await;
    let doc = h.new_doc("Errors").await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    for (path, body) in [
        ("/api/v1/embed/create-static", json!({"docId": unknown})),
        ("/api/v1/embed/enable-live", json!({"docId": unknown})),
        ("/api/v1/embed/rotate-live", json!({"docId": unknown})),
        ("/api/v1/embed/disable-live", json!({"docId": unknown})),
    ] {
        let msg = assert_error(
            &h.post(path, body).await,
            StatusCode::NOT_FOUND,
            "DOC_NOT_FOUND",
        );
        assert!(msg.contains(unknown), "{path}: {msg}");
    }
    assert_error(
        &h.get(&format!("/api/v1/embed/list/{unknown}")).await,
        StatusCode::NOT_FOUND,
        "DOC_NOT_FOUND",
    );
    let msg = assert_error(
        &h.post("/api/v1/embed/delete-static", json!({"id": unknown}))
            .await,
        StatusCode::NOT_FOUND,
        "EMBED_NOT_FOUND",
    );
    assert!(msg.contains(unknown), "{msg}");
    for path in ["/api/v1/embed/rotate-live", "/api/v1/embed/disable-live"] {
        let msg = assert_error(
            &h.post(path, json!({"docId": doc})).await,
            StatusCode::NOT_FOUND,
            "EMBED_NOT_FOUND",
        );
        assert!(msg.contains("live embed"), "{path}: {msg}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn malformed_embed_requests_are_400_naming_the_field() {
    let h = Harness::new().await;
    let doc = h.new_doc("Errors").await;
    for (path, body, field) in [
        ("/api/v1/embed/create-static", json!({}), "docId"),
        ("/api/v1/embed/create-static", json!({"docId": 5}), "docId"),
        ("/api/v1/embed/delete-static", json!({}), "id"),
        ("/api/v1/embed/enable-live", json!({"doc": doc}), "docId"),
        ("/api/v1/embed/rotate-live", json!({}), "docId"),
        ("/api/v1/embed/disable-live", json!({}), "docId"),
    ] {
        let msg = assert_error(
            &h.post(path, body).await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.contains(field), "{path}: {msg}");
    }
    for title in [json!(""), json!("   "), json!(7)] {
        let msg = assert_error(
            &h.post(
                "/api/v1/embed/create-static",
                json!({"docId": doc, "title": title}),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
        );
        assert!(msg.starts_with("title"), "{msg}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn embed_requests_without_a_key_are_401_and_make_nothing() {
    let h = Harness::new().await;
    let doc = h.new_doc("Errors").await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    for (method, path, body) in [
        (
            Method::POST,
            "/api/v1/embed/create-static",
            Some(json!({"docId": doc})),
        ),
        (
            Method::POST,
            "/api/v1/embed/delete-static",
            Some(json!({"id": unknown})),
        ),
        (
            Method::POST,
            "/api/v1/embed/enable-live",
            Some(json!({"docId": doc})),
        ),
        (
            Method::POST,
            "/api/v1/embed/rotate-live",
            Some(json!({"docId": doc})),
        ),
        (
            Method::POST,
            "/api/v1/embed/disable-live",
            Some(json!({"docId": doc})),
        ),
        (Method::GET, &format!("/api/v1/embed/list/{doc}"), None),
    ] {
        let answer = h.call(method, path, None, body).await;
        assert_error(&answer, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    }
    let list = h.get_ok(&format!("/api/v1/embed/list/{doc}")).await;
    assert_eq!(
        list,
        json!({"success": true, "embeds": []}),
        "nothing was made"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_collaborator_lists_embeds_but_only_the_owner_publishes() {
    let h = Harness::new().await;
    let doc = doc_with_label(&h, "Shared").await;
    let (friend, stranger) = friend_and_stranger(&h, &doc).await;
    let made = h
        .post_ok("/api/v1/embed/create-static", json!({"docId": doc}))
        .await;
    let list_path = format!("/api/v1/embed/list/{doc}");
    let (status, list) = h.call(Method::GET, &list_path, Some(&friend), None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["embeds"][0]["id"], made["id"]);
    let writes: [(&str, Value); 5] = [
        ("/api/v1/embed/create-static", json!({"docId": doc})),
        ("/api/v1/embed/delete-static", json!({"id": made["id"]})),
        ("/api/v1/embed/enable-live", json!({"docId": doc})),
        ("/api/v1/embed/rotate-live", json!({"docId": doc})),
        ("/api/v1/embed/disable-live", json!({"docId": doc})),
    ];
    for (path, body) in &writes {
        let answer = h
            .call(Method::POST, path, Some(&friend), Some(body.clone()))
            .await;
        let msg = assert_error(&answer, StatusCode::FORBIDDEN, "FORBIDDEN");
        assert!(msg.contains("owner"), "{path}: {msg}");
    }
    let answer = h.call(Method::GET, &list_path, Some(&stranger), None).await;
    assert_error(&answer, StatusCode::NOT_FOUND, "DOC_NOT_FOUND");
    for (path, body) in &writes {
        let answer = h
            .call(Method::POST, path, Some(&stranger), Some(body.clone()))
            .await;
        let code = if path.ends_with("delete-static") {
            "EMBED_NOT_FOUND"
        } else {
            "DOC_NOT_FOUND"
        };
        assert_error(&answer, StatusCode::NOT_FOUND, code);
    }
    let list = h.get_ok(&list_path).await;
    assert_eq!(list["embeds"].as_array().unwrap().len(), 1, "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_public_url_is_the_base_of_embed_urls() {
    let options = ServerOptions {
        public_url: Some("https://diagrams.example.com/team/".into()),
        ..ServerOptions::default()
    };
    let h = Harness::with(options).await;
    let doc = h.new_doc("Behind a proxy").await;
    let made = h
        .post_ok("/api/v1/embed/create-static", json!({"docId": doc}))
        .await;
    let url = made["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://diagrams.example.com/team/app/embed.html?id="),
        "{url}"
    );
    let live = h
        .post_ok("/api/v1/embed/enable-live", json!({"docId": doc}))
        .await;
    let live_url = live["url"].as_str().unwrap();
    assert!(live_url.starts_with("https://diagrams.example.com/team/app/embed.html?id="));
    // The server still serves the page at its own address.
    let local = url.replace("https://diagrams.example.com/team", h.server.url());
    page_ok(&h, &local).await;
}
