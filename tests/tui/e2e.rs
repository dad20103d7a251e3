//! The real binary in a terminal (tmux, which `.ci/run` installs when absent; no extra crates)
//! against the local server: open a document, edit a label's text, save, read it back.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::live_server;

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The tmux session, killed when dropped.
struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.0]);
    }
}

impl Session {
    fn screen(&self) -> String {
        tmux(&["capture-pane", "-p", "-t", &self.0])
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.0.as_str()];
        args.extend_from_slice(keys);
        tmux(&args);
    }

    /// Waits (polling the screen, not timing anything) until `text` shows.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "never saw {text:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_a_label_in_the_binary_and_read_it_back() {
    if Command::new("tmux").arg("-V").output().is_err() {
        // CI installs tmux (.ci/run), so there a missing tmux is a failure, not a skip.
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is not installed: the end-to-end test cannot run"
        );
        eprintln!("tmux is not installed; skipping the end-to-end test");
        return;
    }
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("E2E doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();

    let name = format!("diagtui-e2e-{}", std::process::id());
    let command = format!(
        "DIAGTUI_CONFIG=/nonexistent DIAGTUI_DATA_DIR='{}' '{}' --url '{}' --api-key '{}'",
        dir.path().join("tui").display(),
        env!("CARGO_BIN_EXE_diagtui"),
        server.url(),
        server.api_key()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &name,
        "-x",
        "140",
        "-y",
        "35",
        &command,
    ]);
    let session = Session(name);
    session.wait_for("E2E doc");
    // Move to the document (past any sample documents) with the filter, then open it.
    session.keys(&["/"]);
    session.keys(&["-l", "E2E"]);
    session.keys(&["Enter", "Enter"]);
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
    drop(session);
    server.shutdown().await;
}
