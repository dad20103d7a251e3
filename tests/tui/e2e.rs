//! The real binary in a terminal (tmux, which `.ci/run` installs when absent; no extra crates)
//! against the local server: open a document, edit a label's text, save, read it back; paste
//! (`tmux paste-buffer -p`, a bracketed paste) into a list and into the selector form; and the
//! keys and looks of a config file, with `NO_COLOR`, at 80×24.

use diagtui::server::LocalServer;
use serde_json::{Value, json};

use crate::harness::live_server;
use crate::tmux::Tmux;

/// The command line running the binary on `server`, without a config file, its data dir in
/// `dir`.
fn binary(dir: &tempfile::TempDir, server: &LocalServer) -> String {
    format!(
        "DIAGTUI_CONFIG=/nonexistent DIAGTUI_DATA_DIR='{}' '{}' --url '{}' --api-key '{}'",
        dir.path().join("tui").display(),
        env!("CARGO_BIN_EXE_diagtui"),
        server.url(),
        server.api_key()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_a_label_in_the_binary_and_read_it_back() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("E2E doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();

    let command = binary(&dir, &server);
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
    session.wait_for("What the save changes");
    session.keys(&["Enter"]);
    session.wait_for("saved 1 property");

    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["text"], Value::from("After"));
    session.keys(&["Escape", "q"]);
    server.shutdown().await;
}

/// The binary on `server` in a tmux session `name` of `width` × `height`, with the document
/// titled `title` open (found with the filter, past any sample documents); `None` without tmux.
fn open_in_binary(
    dir: &tempfile::TempDir,
    server: &LocalServer,
    (name, width, height): (&str, u16, u16),
    title: &str,
) -> Option<Tmux> {
    let session = Tmux::start(name, width, height, Some(&binary(dir, server)))?;
    session.wait_for(title);
    session.keys(&["/"]);
    session.type_line(title);
    session.keys(&["Enter"]);
    Some(session)
}

/// Pastes `text` into the session's pane as a bracketed paste (as a terminal does when the app
/// asked for bracketed paste).
fn paste(session: &Tmux, text: &str) {
    session.run(&["set-buffer", "--", text]);
    session.run(&["paste-buffer", "-p", "-d"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paste_is_text_in_the_binary_never_a_command() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("Paste doc", None).await.unwrap();
    let props = json!({"componentId": "generic.server", "meta": {"status": "down"}});
    let obj = client
        .create_object(&doc, "component", props.as_object().unwrap())
        .await
        .unwrap();
    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e-paste", 120, 40, Some(&command)) else {
        return;
    };
    session.wait_for("Paste doc");
    // Into the documents pane: D (delete), E (empty), a line break and q (quit) run nothing.
    paste(&session, "DE\nq");
    let screen = session.wait_for("paste goes into a text field");
    assert!(!screen.contains("Delete document"), "{screen}");
    assert!(!screen.contains("Empty"), "{screen}");
    assert!(
        client
            .list_docs()
            .await
            .unwrap()
            .iter()
            .any(|d| d.id == doc)
    );
    // Open the document, then the selector form: status eq down, and the props pasted whole
    // into the untouched { } template.
    session.keys(&["/"]);
    session.type_line("Paste");
    session.keys(&["Enter"]);
    session.wait_for("generic.server");
    session.keys(&["w"]);
    session.wait_for("Objects whose meta match every row");
    paste(&session, "status");
    session.keys(&["Tab", "Tab"]);
    paste(&session, "down\n");
    session.keys(&["Tab"]);
    paste(&session, r##"{"backgroundColor":"#FF0000"}"##);
    session.wait_for(r##"{"backgroundColor":"#FF0000"}"##);
    session.keys(&["C-s"]);
    session.wait_for("Apply the selector");
    session.keys(&["Enter"]);
    session.wait_for("updatedObjectCount: 1");
    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["backgroundColor"], Value::from("#FF0000"));
    session.keys(&["Escape"]);
    session.keys(&["q"]);
    server.shutdown().await;
}

/// The SGR parameters of every escape sequence in `text` that sets a colour (30-37, 38, 40-47,
/// 48, 90-97, 100-107); `39`/`49` (back to the default) do not count.
fn colours(text: &str) -> Vec<String> {
    text.split("\x1b[")
        .skip(1)
        .filter_map(|rest| rest.split_once('m').map(|(params, _)| params))
        .filter(|params| {
            params.split(';').any(|p| {
                matches!(
                    p.parse::<u16>(),
                    Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
                )
            })
        })
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_looks_from_the_config_and_no_color_reach_the_binary() {
    assert_eq!(colours("\x1b[1;34mX\x1b[39;49m\x1b[7m"), vec!["1;34"]);
    let (dir, server, client) = live_server().await;
    client.create_doc("E2E doc", None).await.unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "theme = \"light\"\n[keys.global]\nquit = \"ctrl-q\"\n",
    )
    .unwrap();
    let command = format!(
        "NO_COLOR=1 DIAGTUI_CONFIG='{}' DIAGTUI_DATA_DIR='{}' '{}' --url '{}' --api-key '{}'; \
         echo \"diagtui exited $?\"; sleep 60",
        config.display(),
        dir.path().join("tui").display(),
        env!("CARGO_BIN_EXE_diagtui"),
        server.url(),
        server.api_key()
    );
    let Some(session) = Tmux::start("tui-e2e-config", 80, 24, Some(&command)) else {
        return;
    };
    session.wait_for("Ctrl-Q quit");
    session.wait_for("E2E doc");
    let styled = session.run(&["capture-pane", "-p", "-e"]);
    assert_eq!(colours(&styled), Vec::<String>::new(), "no colour at all");
    assert!(
        styled.contains("\x1b[7m") || styled.contains(";7m"),
        "the selection shows in reverse video: {styled:?}"
    );
    // q is not quit any more: it does nothing, and the app takes the next key.
    session.keys(&["q", "/"]);
    session.wait_for("/▏");
    // One key at a time: Esc and a key right after it read as Alt and that key.
    session.keys(&["Escape"]);
    session.wait_for("Enter open");
    session.keys(&["C-q"]);
    session.wait_for("diagtui exited 0");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_component_row_shows_its_name_at_80_columns_in_the_binary() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("Names doc", None).await.unwrap();
    for props in [
        json!({"componentId": "networking.aws-amazon-cloudfront", "name": "CDN",
               "meta": {"status": "up", "region": "global"}}),
        json!({"componentId": "computation.aws-ec2"}),
    ] {
        let props = props.as_object().unwrap().clone();
        client
            .create_object(&doc, "component", &props)
            .await
            .unwrap();
    }
    let Some(session) = open_in_binary(&dir, &server, ("tui-e2e-names", 80, 24), "Names doc")
    else {
        return;
    };
    // The name first, where the catalogue id used to crowd it out; without a name, the
    // catalogue id's last part made readable.
    let screen = session.wait_for("CDN networking.aws");
    assert!(screen.contains("aws ec2 computation.aws-ec2"), "{screen}");
    assert!(
        !screen.contains("networking.aws-amazon-cloudfr…"),
        "{screen}"
    );
    session.keys(&["q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_map_of_a_document_in_the_binary() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("Map doc", None).await.unwrap();
    client
        .set_content(&doc, &crate::harness::map_content())
        .await
        .unwrap();
    let Some(session) = open_in_binary(&dir, &server, ("tui-e2e-map", 120, 40), "Map doc") else {
        return;
    };
    session.wait_for("orders compute.service");
    session.keys(&["m"]);
    let screen = session.wait_for("✗ orders-db");
    for text in [
        "3 Map · Map doc",
        "✓ api-gateway",
        "! orders",
        "Orders platform",
    ] {
        assert!(screen.contains(text), "{text}:\n{screen}");
    }
    session.wait_for("! 1 object could");
    // Select what is under the cross (the area), then by position the title and the gateway;
    // zoom; then back to the properties, which show the selected object.
    session.keys(&["Enter", "n", "n", "+"]);
    session.wait_for("×1.5");
    session.keys(&["Escape"]);
    session.wait_for("\"name\": \"api-gateway\"");
    session.keys(&["q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_follows_changes_made_elsewhere_and_finds_the_server_again() {
    let (dir, server, client) = live_server().await;
    let doc = client.create_doc("Live doc", None).await.unwrap();
    let props = json!({"text": "as opened"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();
    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e-live", 120, 35, Some(&command)) else {
        return;
    };
    session.wait_for("Live doc");
    session.keys(&["/"]);
    session.type_line("Live");
    session.keys(&["Enter"]);
    session.wait_for("\"as opened\"");

    // Another client changes the object, adds one and renames the document: no key pressed.
    let props = json!({"text": "changed elsewhere"})
        .as_object()
        .unwrap()
        .clone();
    client.update_object(&doc, &obj, &props).await.unwrap();
    session.wait_for("\"changed elsewhere\"");
    let props = json!({"text": "added elsewhere"})
        .as_object()
        .unwrap()
        .clone();
    let added = client.create_object(&doc, "label", &props).await.unwrap();
    session.wait_for("added elsewhere");
    client.delete_object(&doc, &added).await.unwrap();
    let screen = session.wait_for("label (1)");
    assert!(!screen.contains("added elsewhere"), "{screen}");
    client.rename_doc(&doc, "Live doc, renamed").await.unwrap();
    session.wait_for("Objects · Live doc, renamed");

    // The server goes away: the status bar says so; it comes back on the same port and the
    // change made meanwhile shows.
    let addr: std::net::SocketAddr = server.url().trim_start_matches("http://").parse().unwrap();
    server.shutdown().await;
    session.wait_for("offline");
    let data = dir.path().join("data");
    let again = LocalServer::start_on(
        diagtui::store::Location::DataDir(data),
        addr,
        diagtui::server::ServerOptions::default(),
    )
    .await
    .unwrap();
    let props = json!({"text": "changed while away"})
        .as_object()
        .unwrap()
        .clone();
    client.update_object(&doc, &obj, &props).await.unwrap();
    session.wait_for("\"changed while away\"");
    session.keys(&["q"]);
    again.shutdown().await;
}
