//! Undo after a restart, in the binary (tmux) against the local server: a save, quit, start
//! again, and `u` undoes the save from the server's history.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;
use serde_json::{Value, json};

use crate::e2e::{binary, open_doc};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_of_an_earlier_session_is_undone_after_a_restart() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Restart doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();
    let command = binary(&dir, &server);

    // The first session saves a new text and quits.
    let Some(first) = Tmux::start("undo-first", 140, 35, Some(&command)) else {
        return;
    };
    open_doc(&first, "Restart doc", "\"Before\"");
    first.keys(&["3", "i", "Down", "End", "Left", "Left"]);
    for _ in 0.."Before".len() {
        first.keys(&["BSpace"]);
    }
    first.keys(&["-l", "After"]);
    first.keys(&["C-s"]);
    first.wait_for("What the save changes");
    first.keys(&["Enter"]);
    first.wait_for("saved 1 property");
    first.keys(&["Escape", "q"]);
    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["text"], Value::from("After"));
    drop(first);

    // A new session knows nothing of it: the server's history does.
    let Some(second) = Tmux::start("undo-second", 140, 35, Some(&command)) else {
        return;
    };
    open_doc(&second, "Restart doc", "\"After\"");
    second.keys(&["u"]);
    second.wait_for("Undo the change (write 1) of label After");
    second.wait_for("~ text: \"After\" → \"Before\"");
    second.keys(&["y"]);
    second.wait_for("undid the change");
    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["text"], Value::from("Before"));
    second.keys(&["q"]);
    server.shutdown().await;
}
