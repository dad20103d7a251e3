//! The real binary in a terminal (tmux, which `.ci/run` installs when absent; no extra crates)
//! against the local server: open a document, edit a label's text, save, read it back.

use serde_json::{Value, json};

use crate::harness::live_server;
use crate::tmux::Tmux;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_a_label_in_the_binary_and_read_it_back() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("E2E doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();

    let command = format!(
        "DIAGTUI_CONFIG=/nonexistent DIAGTUI_DATA_DIR='{}' '{}' --url '{}' --api-key '{}'",
        dir.path().join("tui").display(),
        env!("CARGO_BIN_EXE_diagtui"),
        server.url(),
        server.api_key()
    );
    let Some(session) = Tmux::start("tui-e2e", 140, 35, Some(&command)) else {
        return;
    };
    session.wait_for("E2E doc");
    // Move to the document (past any sample documents) with the filter, then open it.
    session.keys(&["/"]);
    session.type_line("E2E");
    session.keys(&["Enter"]);
    session.wait_for("\"Before\"");
    session.keys(&["3", "i", "Down", "End", "Left", "Left"]);
    for _ in 0.."Before".len() {
        session.keys(&["BSpace"]);
    }
    session.keys(&["-l", "After"]);
    session.wait_for("\"text\": \"After\"");
    session.keys(&["C-s"]);
    session.wait_for("These top-level properties will be sent");
    session.keys(&["Enter"]);
    session.wait_for("saved 1 property");

    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["text"], Value::from("After"));
    session.keys(&["Escape", "q"]);
    server.shutdown().await;
}
