//! Folder writes undone in the real binary at 80×24 (tmux) against the local server: `N` makes
//! a folder, `r` renames it, `u` renames it back, `u` again deletes it (it is empty). Each step
//! is read back through the API.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::binary;
use crate::folders_e2e::make_folder;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_rename_undo_undo_in_the_binary() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let Some(session) = Tmux::start("tui-folder-undo", 80, 24, Some(&binary(&dir, &server))) else {
        return;
    };
    session.wait_for("My Documents (3)");
    let archive = make_folder(&session, &client, "Archive").await;

    // The new folder is selected: r renames it.
    session.keys(&["r"]);
    session.wait_for("Rename folder");
    session.keys(&["C-u"]);
    session.type_line("Old things");
    session.wait_for("folder renamed to \"Old things\"");
    assert_eq!(
        client.list_folders().await.unwrap()[&archive].title,
        "Old things"
    );

    // u: the rename back, after its question.
    session.keys(&["u"]);
    session.wait_for("Rename the folder \"Old things\" back to \"Archive\"?");
    session.keys(&["y"]);
    session.wait_for("▾ Archive (0)");
    for _ in 0..100 {
        if client.list_folders().await.unwrap()[&archive].title == "Archive" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        client.list_folders().await.unwrap()[&archive].title,
        "Archive"
    );

    // u again: the new folder, deleted (it is empty).
    session.keys(&["u"]);
    session.wait_for("Undo the new folder");
    session.keys(&["y"]);
    for _ in 0..100 {
        if !client.list_folders().await.unwrap().contains_key(&archive) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(!client.list_folders().await.unwrap().contains_key(&archive));
    session.keys(&["R"]);
    session.wait_for("My Documents (3)");
    let screen = session.screen();
    assert!(!screen.contains("▾ Archive"), "{screen}");
    session.keys(&["q"]);
    drop(session);
    server.shutdown().await;
}
