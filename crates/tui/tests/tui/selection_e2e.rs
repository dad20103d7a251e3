//! One selection in the real binary (tmux) against the local server, at 80×24 and 60×20: in the
//! Web platform sample, `g j` (CDN), `a`, `Enter` (component), `redis`, `Enter`, then `Enter`
//! `i` edits the new object, not CDN, and `d` asks about that same object.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::binary;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_then_i_edits_the_object_added_at_80x24_and_60x20() {
    for (width, height) in [(80, 24), (60, 20)] {
        let Local {
            dir,
            server,
            client,
        } = Local::start().await;
        let title = "Web platform (production)";
        let doc = client
            .list_docs()
            .await
            .unwrap()
            .into_iter()
            .find(|d| d.title == title)
            .expect("the sample")
            .id;
        let before = client.content(&doc).await.unwrap();
        let tag = format!("select-{width}");
        let Some(session) = Tmux::start(&tag, width, height, Some(&binary(&dir, &server))) else {
            return;
        };
        session.wait_for("Web platfor");
        session.keys(&["/"]);
        session.type_line("Web platform");
        session.keys(&["Enter"]);
        session.wait_for("CDN");
        session.keys(&["g", "j"]);
        session.keys(&["a"]);
        session.wait_for("New object");
        session.keys(&["Enter"]);
        session.keys(&["-l", "redis"]);
        session.keys(&["Enter"]);
        session.wait_for("created");

        let after = client.content(&doc).await.unwrap();
        let (id, added) = after
            .iter()
            .find(|(id, _)| !before.contains_key(*id))
            .expect("an object was added");
        let component_id = added.data["componentId"].as_str().unwrap().to_owned();
        assert!(component_id.contains("redis"), "{component_id}");

        session.keys(&["Enter", "i"]);
        let screen = session.wait_for("EDIT");
        // The pane is narrow: its lines end in `…`; the start of the componentId tells.
        let start = &component_id[..4];
        assert!(
            screen.contains(&format!("\"componentId\": \"{start}")),
            "{width}×{height}: i edits another object than the one added ({id}):\n{screen}"
        );
        assert!(
            !screen.contains("\"name\": \"CDN\""),
            "{width}×{height}: i edits CDN:\n{screen}"
        );
        // Back to the tree: `d` asks about the same object.
        session.keys(&["Escape"]);
        session.wait_for("[VIEW]");
        session.keys(&["2", "d"]);
        let screen = session.wait_for("Delete object");
        assert!(
            screen.contains(&id[..8]) && !screen.contains("CDN ("),
            "{width}×{height}: d names another object than {id}:\n{screen}"
        );
        session.keys(&["n", "q"]);
        drop(session);
        server.shutdown().await;
    }
}
