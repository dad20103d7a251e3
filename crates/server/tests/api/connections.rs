//! The HTTP layer: header, idle and body timeouts, the connection cap, and its own rejections
//! (400, 413, 414, 431) in the error contract. Raw connections, so that half-sent requests and
//! malformed ones can be made.

use std::time::Duration;

use diagtui_server::ServerOptions;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::Harness;

/// How long a test waits for what the server must do far sooner (a bound against hanging,
/// not a measure of speed).
const PATIENCE: Duration = Duration::from_secs(20);

/// A server whose timeouts are one second.
async fn impatient() -> Harness {
    Harness::with(ServerOptions {
        header_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..ServerOptions::default()
    })
    .await
}

/// Reads until the server closes the connection; `None` if it is still open after `PATIENCE`.
/// A reset is a failure: the server reads and drops what a client still sends after a refusal
/// (a reset could destroy the answer before it is read).
async fn until_closed(stream: &mut TcpStream) -> Option<String> {
    let mut all = Vec::new();
    match tokio::time::timeout(PATIENCE, stream.read_to_end(&mut all)).await {
        Ok(read) => {
            read.expect("read to the end, without a reset");
        }
        Err(_) => return None,
    }
    Some(String::from_utf8_lossy(&all).into_owned())
}

/// Sends raw bytes on a new connection and reads everything until the server closes it.
async fn exchange(h: &Harness, request: &[u8]) -> String {
    exchange_parts(h, request, Vec::new()).await
}

/// Sends a request head and then `body` on a new connection, all of it (the sending must not
/// fail), while reading everything until the server closes it.
async fn exchange_parts(h: &Harness, head: &[u8], body: Vec<u8>) -> String {
    let stream = TcpStream::connect(h.addr()).await.unwrap();
    let (mut reading, mut writing) = stream.into_split();
    let head = head.to_vec();
    // The writing half is kept (not shut down) until the answer is read: a client that has
    // sent its request still listens.
    let sending = tokio::spawn(async move {
        writing.write_all(&head).await?;
        writing.write_all(&body).await?;
        Ok::<_, std::io::Error>(writing)
    });
    let mut all = Vec::new();
    tokio::time::timeout(PATIENCE, reading.read_to_end(&mut all))
        .await
        .expect("the server answers and closes")
        .expect("read to the end, without a reset");
    sending
        .await
        .unwrap()
        .expect("the whole request was sent: the server read what it refused");
    String::from_utf8_lossy(&all).into_owned()
}

/// The status and JSON body of one raw answer.
fn answer_of(raw: &str) -> (u16, Value) {
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {raw}"));
    (status, json)
}

/// Asserts an error answer in the contract.
fn assert_contract(raw: &str, status: u16, code: &str) {
    let (got, body) = answer_of(raw);
    assert_eq!(got, status, "{raw}");
    assert_eq!(body["success"], false, "{raw}");
    assert_eq!(body["error"], code, "{raw}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{raw}"
    );
    assert!(
        raw.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{raw}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_sent_request_line_is_closed_after_the_header_timeout() {
    let h = impatient().await;
    let mut stream = TcpStream::connect(h.addr()).await.unwrap();
    stream.write_all(b"GET /api/v1/do").await.unwrap();
    let answer = until_closed(&mut stream)
        .await
        .expect("the server closed the connection");
    assert_eq!(answer, "", "closed without an answer");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_connection_is_closed_after_the_idle_timeout() {
    let h = impatient().await;
    let mut stream = TcpStream::connect(h.addr()).await.unwrap();
    let request = format!(
        "GET /api/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\r\n",
        h.key()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = until_closed(&mut stream)
        .await
        .expect("answered, then closed once idle");
    let (status, me) = answer_of(&answer);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(me["email"], h.server.email());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_body_that_stops_arriving_answers_408() {
    let h = impatient().await;
    let request = format!(
        "POST /api/v1/doc/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"title\":",
        h.key()
    );
    let answer = exchange(&h, request.as_bytes()).await;
    assert_contract(&answer, 408, "REQUEST_TIMEOUT");
    let list = h.get_ok("/api/v1/doc").await;
    assert_eq!(list.as_array().unwrap().len(), 3, "only the samples");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_http_layers_own_rejections_speak_the_error_contract() {
    let h = Harness::new().await;
    let bad_header = exchange(
        &h,
        b"GET /api/v1/doc HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n",
    )
    .await;
    assert_contract(&bad_header, 400, "BAD_REQUEST");
    let bad_line = exchange(&h, b"NOT HTTP\r\n\r\n").await;
    assert_contract(&bad_line, 400, "BAD_REQUEST");
    let long_uri = format!(
        "GET /api/v1/doc?{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(70_000)
    );
    assert_contract(
        &exchange(&h, long_uri.as_bytes()).await,
        414,
        "URI_TOO_LONG",
    );
    let big_header = format!(
        "GET /api/v1/doc HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(500_000)
    );
    assert_contract(
        &exchange(&h, big_header.as_bytes()).await,
        431,
        "HEADERS_TOO_LARGE",
    );
    // Just over the limit and under hyper's read buffer: once answered as a request when it
    // arrived in one read.
    let over_the_limit = format!(
        "GET /api/v1/doc HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(diagtui_server::MAX_HEAD_BYTES + 2_000)
    );
    assert_contract(
        &exchange(&h, over_the_limit.as_bytes()).await,
        431,
        "HEADERS_TOO_LARGE",
    );
    let many_headers: String = (0..200).map(|i| format!("X-{i}: 1\r\n")).collect();
    let many = format!("GET /api/v1/doc HTTP/1.1\r\nHost: x\r\n{many_headers}\r\n");
    assert_contract(
        &exchange(&h, many.as_bytes()).await,
        431,
        "HEADERS_TOO_LARGE",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oversized_content_length_is_refused_before_the_body_is_sent() {
    let h = Harness::new().await;
    let doc = h.new_doc("Kept").await;
    let request = format!(
        "POST /api/v1/doc/set-content/{doc} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        h.key(),
        diagtui_server::DEFAULT_MAX_BODY + 1
    );
    let mut stream = TcpStream::connect(h.addr()).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = vec![0u8; 4096];
    let n = tokio::time::timeout(PATIENCE, stream.read(&mut head))
        .await
        .expect("answered without the body")
        .unwrap();
    let answer = String::from_utf8_lossy(&head[..n]).into_owned();
    assert!(
        answer.starts_with("HTTP/1.1 413 "),
        "no 100 Continue, at once 413: {answer}"
    );
    let body = answer.split_once("\r\n\r\n").unwrap().1;
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["error"], "PAYLOAD_TOO_LARGE");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        serde_json::json!({})
    );
}

/// 20 MB, more than the 16 MiB body limit of [`limited`].
const OVER: usize = 20_000_000;

/// A server whose body limit is 16 MiB.
async fn limited() -> Harness {
    Harness::with(ServerOptions {
        max_body: 16 << 20,
        ..ServerOptions::default()
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_sending_a_body_over_the_limit_reads_the_413() {
    let h = limited().await;
    let doc = h.new_doc("Kept").await;
    let path = format!("/api/v1/doc/set-content/{doc}");
    // Its length declared (refused before the body is read), then chunked (refused once the
    // limit is passed): either way the client sends all of it and then reads the answer.
    let declared = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {OVER}\r\n\r\n",
        h.key()
    );
    let answer = exchange_parts(&h, declared.as_bytes(), vec![b' '; OVER]).await;
    assert_contract(&answer, 413, "PAYLOAD_TOO_LARGE");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "the rest is not read: the connection ends after the answer: {answer}"
    );
    let chunked = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        h.key()
    );
    let chunk = 1 << 20;
    let mut body = Vec::with_capacity(OVER + 1024);
    for _ in 0..OVER / chunk {
        body.extend_from_slice(format!("{chunk:x}\r\n").as_bytes());
        body.extend(std::iter::repeat_n(b' ', chunk));
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let answer = exchange_parts(&h, chunked.as_bytes(), body).await;
    assert_contract(&answer, 413, "PAYLOAD_TOO_LARGE");
    assert_eq!(
        h.get_ok(&format!("/api/v1/doc/{doc}/obj/all")).await,
        serde_json::json!({})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_sending_more_after_a_refused_head_reads_the_414_and_431() {
    let h = Harness::new().await;
    // Each head is refused before the 4 MB body that follows it is read.
    let body = || vec![b' '; 4_000_000];
    let long_uri = format!(
        "POST /api/v1/doc/create?{} HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n",
        "a".repeat(70_000)
    );
    let answer = exchange_parts(&h, long_uri.as_bytes(), body()).await;
    assert_contract(&answer, 414, "URI_TOO_LONG");
    let many_headers: String = (0..200).map(|i| format!("X-{i}: 1\r\n")).collect();
    let many = format!(
        "POST /api/v1/doc/create HTTP/1.1\r\nHost: x\r\n{many_headers}Content-Length: 4000000\r\n\r\n"
    );
    let answer = exchange_parts(&h, many.as_bytes(), body()).await;
    assert_contract(&answer, 431, "HEADERS_TOO_LARGE");
    // A head too large to be read whole: the rest of it arrives after the answer.
    let big_header = format!(
        "GET /api/v1/doc HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(4_000_000)
    );
    let answer = exchange(&h, big_header.as_bytes()).await;
    assert_contract(&answer, 431, "HEADERS_TOO_LARGE");
}
