//! Names survive a delete in the real binary (tmux, 80×24) against the local server: in the
//! Web platform sample, orders-db deleted, the line groups that ended at it read
//! `web-01, web-02, web-03 → (deleted) orders-db` and `(deleted) orders-db → orders-db replica`,
//! and again after the app is quit and started again (the name read from the server's history).

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::{binary, open_doc};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_line_groups_of_a_deleted_component_keep_its_name_at_80x24_also_after_a_restart() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client
        .list_docs()
        .await
        .unwrap()
        .into_iter()
        .find(|d| d.title == "Web platform (production)")
        .expect("the sample")
        .id;
    let Some(session) = Tmux::start("deleted-names", 80, 24, Some(&binary(&dir, &server))) else {
        return;
    };
    open_doc(&session, "Web platform", "CDN");
    // The objects filtered down to orders-db (and its replica); the first one selected.
    session.keys(&["/"]);
    session.type_line("orders-db");
    session.keys(&["d"]);
    let asked = session.wait_for("Delete object");
    assert!(
        asked.contains("Delete component orders-db (0lqu5m2oa"),
        "{asked}"
    );
    session.keys(&["y"]);
    session.wait_for("deleted component orders-db");
    let content = client.content(&doc).await.unwrap();
    assert!(
        !content.contains_key("0lqu5m2oa-ynk8w3tzp"),
        "deleted on the server"
    );
    // The filter cleared and the tree zoomed to read its rows whole.
    session.keys(&["Escape"]);
    session.wait_for("line-group (6)");
    session.keys(&["z", "G"]);
    let screen = session.wait_for("web-01, web-02, web-03 → (deleted) orders-db");
    assert!(
        screen.contains("(deleted) orders-db → orders-db replica"),
        "{screen}"
    );
    assert!(!screen.contains("anchors,"), "{screen}");
    session.keys(&["q"]);
    drop(session);

    // Started again: this session never saw orders-db, the server's history names it.
    let session = Tmux::start("deleted-names-again", 80, 24, Some(&binary(&dir, &server)))
        .expect("tmux, as before");
    open_doc(&session, "Web platform", "line-group (6)");
    session.keys(&["z", "G"]);
    let screen = session.wait_for("web-01, web-02, web-03 → (deleted) orders-db");
    assert!(
        screen.contains("(deleted) orders-db → orders-db replica"),
        "{screen}"
    );
    assert!(!screen.contains("(missing)"), "{screen}");
    session.keys(&["q"]);
    drop(session);
    server.shutdown().await;
}
