//! Error variants that need a misbehaving server: tiny hand-made HTTP listeners on loopback.

use std::time::Duration;

use diagtui_client::{ApiError, ApiKey, Client, ClientConfig};
use diagtui_testkit::net::closed_url;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const KEY: &str = "test-key-0123456789-abcd";

fn client_for(url: &str, request_timeout: Duration) -> Client {
    let mut config = ClientConfig::new(url, ApiKey::new(KEY));
    config.request_timeout = request_timeout;
    Client::new(config).unwrap()
}

/// A listener that answers one request with `response` and hands back the request's head.
async fn answer_once(response: String) -> (String, tokio::task::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = socket.read(&mut buf).await.unwrap();
            assert!(n > 0, "the client closed before sending a request");
            head.extend_from_slice(&buf[..n]);
        }
        socket.write_all(response.as_bytes()).await.unwrap();
        socket.shutdown().await.ok();
        String::from_utf8_lossy(&head).into_owned()
    });
    (url, task)
}

fn html(status_line: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status_line}\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn debug_output_never_shows_the_key() {
    let client = client_for("http://127.0.0.1:9", Duration::from_secs(1));
    let debug = format!("{client:?}");
    assert!(!debug.contains(KEY), "{debug}");
    assert!(debug.contains("****abcd"), "{debug}");
}

#[tokio::test]
async fn a_server_that_is_down_is_a_connect_error() {
    let url = closed_url();
    let err = client_for(&url, Duration::from_secs(30))
        .list_docs()
        .await
        .unwrap_err();
    match &err {
        ApiError::Connect { url: u, detail } => {
            assert_eq!(u, &url);
            assert!(!detail.is_empty());
        }
        other => panic!("expected Connect, got {other:?}"),
    }
    assert_eq!(err.status(), None);
    let line = err.to_string();
    assert!(
        line.starts_with(&format!("could not connect to {url}: ")),
        "{line}"
    );
    assert!(!line.contains('\n') && !line.contains(KEY), "{line}");
}

#[tokio::test]
async fn a_server_that_hangs_is_a_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let hold = tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            held.push(socket);
        }
    });
    let after = Duration::from_millis(300);
    let err = client_for(&url, after).content("doc").await.unwrap_err();
    hold.abort();
    assert_eq!(
        err,
        ApiError::Timeout {
            url: url.clone(),
            after
        }
    );
    assert_eq!(
        err.to_string(),
        format!("no answer from {url} within 0.3 s")
    );
}

#[tokio::test]
async fn an_html_page_is_an_unexpected_answer() {
    for (status_line, status) in [("200 OK", 200), ("502 Bad Gateway", 502)] {
        let body = "<!DOCTYPE html>\n<html><body><h1>Welcome to nginx</h1></body></html>";
        let (url, server) = answer_once(html(status_line, body)).await;
        let err = client_for(&url, Duration::from_secs(30))
            .list_docs()
            .await
            .unwrap_err();
        server.await.unwrap();
        match &err {
            ApiError::Unexpected {
                status: s, excerpt, ..
            } => {
                assert_eq!(*s, status);
                assert!(excerpt.starts_with("<!DOCTYPE html> <html>"), "{excerpt}");
            }
            other => panic!("expected Unexpected, got {other:?}"),
        }
        assert_eq!(err.status(), Some(status));
        assert!(!err.to_string().contains('\n'), "{err}");
    }
}

#[tokio::test]
async fn json_of_the_wrong_shape_is_an_unexpected_answer() {
    let body = r#"{"docs": []}"#;
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (url, server) = answer_once(response).await;
    let err = client_for(&url, Duration::from_secs(30))
        .list_docs()
        .await
        .unwrap_err();
    server.await.unwrap();
    assert!(
        matches!(&err, ApiError::Unexpected { status: 200, excerpt, .. } if excerpt == body),
        "{err:?}"
    );
}

#[tokio::test]
async fn requests_carry_the_key_the_user_agent_and_an_encoded_selector() {
    let body = "{}";
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (url, server) = answer_once(response).await;
    let selector = diagtui_model::Selector::parse(r#"["a/b","eq","50% & é"]"#).unwrap();
    let found = client_for(&format!("{url}/"), Duration::from_secs(30))
        .objects_where("doc 1", &selector)
        .await
        .unwrap();
    assert!(found.is_empty());
    let head = server.await.unwrap();
    let request_line = head.lines().next().unwrap();
    assert_eq!(
        request_line,
        format!(
            "GET /api/v1/doc/doc%201/obj/where/{} HTTP/1.1",
            selector.to_path_segment()
        )
    );
    let lower = head.to_lowercase();
    assert!(lower.contains(&format!("authorization: bearer {}", KEY.to_lowercase())));
    assert!(lower.contains(&format!(
        "user-agent: diagtui/{}",
        env!("CARGO_PKG_VERSION")
    )));
}
