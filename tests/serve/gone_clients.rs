//! A client that goes away before its answer: the work started for it stops instead of
//! holding a core for no one.

use std::io::Write;
use std::net::TcpStream;
use std::process::Stdio;

use diagtui_testkit_server::serve::{StderrLines, key_of, start};
use serde_json::json;

use crate::bin;
use crate::common::send;

/// A DOT tree of 1,200 nodes with 600 more edges: too large for the grid, so its layout tries
/// gap after gap for seconds (more in a debug build) before refusing it.
fn too_large_a_graph() -> String {
    let mut dot = String::from("digraph G {\n");
    let mut seed: u64 = 7;
    let mut next = |below: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % below
    };
    for node in 1..1200 {
        dot.push_str(&format!("  n{} -> n{node};\n", next(node)));
    }
    for _ in 0..600 {
        let (a, b) = (next(1200), next(1200));
        dot.push_str(&format!("  n{} -> n{};\n", a.min(b), a.max(b)));
    }
    dot + "}\n"
}

#[tokio::test(flavor = "multi_thread")]
async fn a_layout_is_given_up_once_its_client_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut command = bin().serve_command(&data);
    command
        .env(
            "RUST_LOG",
            "warn,diagtui_server::routes::create_diagram=debug",
        )
        .stderr(Stdio::piped());
    let mut served = start(&mut command);
    let key = key_of(&data);
    let log = StderrLines::of(&mut served);
    let http = reqwest::Client::new();
    let create = http.post(format!("{}/api/v1/doc/create", served.url));
    let (_, created) = send(
        create
            .bearer_auth(&key)
            .json(&json!({"title": "too large"})),
    )
    .await;
    let doc = created["docId"].as_str().expect("a document").to_owned();
    let body = too_large_a_graph();
    let address = served.url.trim_start_matches("http://");
    let mut client = TcpStream::connect(address).unwrap();
    write!(
        client,
        "POST /api/v1/create-diagram/{doc} HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: Bearer {key}\r\nContent-Type: text/vnd.graphviz\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // The interleaving forced: the client goes only once its layout is under way.
    log.until("create-diagram's layout started");
    drop(client);
    let read = log.until("layout given up: its client went away");
    let given_up = read.last().expect("the line");
    assert!(given_up.contains("millis="), "{given_up}");
}
