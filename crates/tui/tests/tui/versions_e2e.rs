//! Writes that name versions, end to end: the real binary in tmux against the local server
//! (which gives versions). A save whose object another client changed after the edit began is
//! refused by the server (412, nothing written); the question that follows shows the other
//! client's change, and reloading keeps it.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;
use serde_json::{Value, json};

use crate::e2e::{binary, open_doc};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_that_meets_a_concurrent_change_in_the_binary_writes_nothing_and_asks() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Race doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();
    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e-race", 140, 35, Some(&command)) else {
        return;
    };
    open_doc(&session, "Race doc", "\"Before\"");
    // The edit begins: "Before" becomes "Mine", unsaved.
    session.keys(&["3", "i", "Down", "End", "Left", "Left"]);
    for _ in 0.."Before".len() {
        session.keys(&["BSpace"]);
    }
    session.keys(&["-l", "Mine"]);
    session.wait_for("\"text\": \"Mine\"");
    session.keys(&["Escape"]);

    // Another client changes the same object meanwhile.
    let theirs = json!({"text": "Theirs"}).as_object().unwrap().clone();
    client.update_object(&doc, &obj, &theirs).await.unwrap();
    session.wait_for("changed on the server");

    session.keys(&["C-s"]);
    session.wait_for("What the save changes");
    session.keys(&["y"]);
    let screen = session.wait_for("This object changed on the server since you opened it.");
    assert!(screen.contains("overwrite with your edit"), "{screen}");
    // Nothing was written: the other client's change is there.
    let now = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(now.data["text"], Value::from("Theirs"));

    // Reload: the pane shows their text, taken from the server's refusal.
    session.keys(&["r"]);
    session.wait_for("reloaded the object from the server");
    let screen = session.wait_for("\"Theirs\"");
    assert!(!screen.contains("\"Mine\""), "{screen}");
    let now = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(now.data["text"], Value::from("Theirs"), "nothing lost");
    session.keys(&["q"]);
    server.shutdown().await;
}
