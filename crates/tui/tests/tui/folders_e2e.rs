//! Folders in the real binary at 80×24 (tmux) against the local server: `N` makes a folder,
//! `M` moves a document into it through the picker and its question, `D` on its heading
//! deletes it with its document after a question whose `Enter` keeps it. Each step is read back
//! through the API.

use diagtui_client::Client;
use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::binary;

/// Makes a folder in the binary (`N`, its title) and returns its id, read through the API.
pub async fn make_folder(session: &Tmux, client: &Client, title: &str) -> String {
    session.keys(&["N"]);
    session.wait_for("New folder");
    session.type_line(title);
    session.wait_for(&format!("\"{title}\" created"));
    session.wait_for(&format!("▾ {title} (0)"));
    let folders = client.list_folders().await.unwrap();
    folders
        .iter()
        .find(|(_, f)| f.title == title)
        .map(|(id, _)| id.clone())
        .expect("the folder was made")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_a_folder_move_a_document_into_it_and_delete_it_in_the_binary() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let docs = client.list_docs().await.unwrap();
    let first = docs.first().expect("the samples").clone();
    let Some(session) = Tmux::start("tui-folders", 80, 24, Some(&binary(&dir, &server))) else {
        return;
    };
    session.wait_for("My Documents (3)");

    let archive = make_folder(&session, &client, "Archive").await;

    // The first document (under the next heading) moves into it.
    session.keys(&["j", "j", "M"]);
    session.wait_for("Move to folder");
    session.keys(&["-l", "arch"]);
    session.keys(&["Enter"]);
    let start: String = first.title.chars().take(4).collect();
    session.wait_for(&format!("Move \"{start}"));
    session.keys(&["y"]);
    session.wait_for("moved \"");
    let details = client.doc_details(&first.id).await.unwrap();
    assert_eq!(details.folder.id, archive);
    session.wait_for("▾ Archive (1)");

    // The folder goes with its document, after the question; Enter keeps it.
    session.keys(&["g", "D"]);
    let screen = session.wait_for("Delete folder");
    assert!(
        screen.contains("1 document in it"),
        "the question says how many go:\n{screen}"
    );
    session.keys(&["Enter"]);
    session.wait_for("▾ Archive (1)");
    assert!(client.list_folders().await.unwrap().contains_key(&archive));
    session.keys(&["D"]);
    session.wait_for("Delete folder");
    session.keys(&["y"]);
    session.wait_for("folder deleted");
    assert!(!client.list_folders().await.unwrap().contains_key(&archive));
    assert!(
        client.doc_details(&first.id).await.is_err(),
        "its document went with it"
    );
    session.keys(&["q"]);
}
