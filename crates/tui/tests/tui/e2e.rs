//! The real binary in a terminal (tmux, which `.ci/run` installs when absent; no extra crates)
//! against the local server: open a document, edit a label's text, save, read it back; paste
//! (`tmux paste-buffer -p`, a bracketed paste) into a list and into the selector form, and one
//! whose line breaks tmux sends as CR into the JSON editor; the palette by the actions' names;
//! the user's marks beside a selector preview, and a nested merge and its undo; the keys and
//! looks of a config file, with `NO_COLOR`, at 80×24; and undo: the delete of a connected
//! component, and `E`.

use diagtui_server::LocalServer;
use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;
use serde_json::{Value, json};

use diagtui_client::{ApiKey, Client, ClientConfig};
use diagtui_tui::Setup;
use diagtui_tui::session::selectors::SelectorHistory;
use diagtui_tui::transfer::Places;

use crate::undo_e2e::connected;

/// Set in the environment of this test binary when tmux runs it as the TUI (see [`binary`]):
/// the server's URL and API key, a space between them.
const TUI_CHILD: &str = "DIAGTUI_TEST_TUI";

/// The command line running the TUI on `server` in a terminal, its data dir in `dir`: this
/// test binary again, running only [`the_tui_in_a_terminal`], which then runs the TUI as the
/// `diagtui` binary does with `--url` and `--api-key` and no config file (the config file and
/// local mode are the binary's own, tested in the root's `tests/cli`).
pub(crate) fn binary(dir: &tempfile::TempDir, server: &LocalServer) -> String {
    format!(
        "{TUI_CHILD}='{} {}' DIAGTUI_DATA_DIR='{}' '{}' --ignored --exact --nocapture --quiet \
         e2e::the_tui_in_a_terminal",
        server.url(),
        server.api_key(),
        dir.path().join("tui").display(),
        std::env::current_exe()
            .expect("the test binary's path")
            .display(),
    )
}

/// Not a test of its own: the TUI in the terminal of a tmux session, when [`binary`] runs this
/// test binary for one; ignored in every other run.
#[test]
#[ignore = "the TUI of the end-to-end tests: they run it in tmux"]
fn the_tui_in_a_terminal() {
    let Ok(spec) = std::env::var(TUI_CHILD) else {
        eprintln!("note: not a test of its own; `binary` runs it, with {TUI_CHILD} set");
        return;
    };
    let (url, key) = spec.split_once(' ').expect("the URL and the key");
    let data_dir =
        std::path::PathBuf::from(std::env::var_os("DIAGTUI_DATA_DIR").expect("a data dir"));
    diagtui_tui::init_log(&data_dir).expect("the log file");
    let client = Client::new(ClientConfig::new(url, ApiKey::new(key))).expect("a client");
    let setup = Setup {
        history: SelectorHistory::load(&data_dir),
        places: Places::here(),
        ..Setup::new(url)
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime
        .block_on(diagtui_tui::run(client, setup))
        .expect("the TUI runs and quits");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_a_label_in_the_binary_and_read_it_back() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("E2E doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();

    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e", 140, 35, Some(&command)) else {
        return;
    };
    open_doc(&session, "E2E doc", "\"Before\"");
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
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
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

/// Waits (polling) until the screen no longer shows `text`: a key sent right after `Escape`
/// would arrive with it as one Alt chord.
fn gone(session: &Tmux, text: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while session.screen().contains(text) {
        assert!(
            std::time::Instant::now() < deadline,
            "the screen kept showing {text:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The binary on `server`, 140×40, with document `title` (of [`regions`]) open; `None` without
/// tmux.
fn open_regions(
    dir: &tempfile::TempDir,
    server: &LocalServer,
    tag: &str,
    title: &str,
) -> Option<Tmux> {
    let session = Tmux::start(tag, 140, 40, Some(&binary(dir, server)))?;
    open_doc(&session, title, "web [status=up region=eu]");
    Some(session)
}

/// Three components in region `eu` (two) and `us`, each with `status` in its meta; their ids.
async fn regions(client: &diagtui_client::Client, doc: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for (name, region, status) in [
        ("web", "eu", "up"),
        ("db", "eu", "down"),
        ("edge", "us", "up"),
    ] {
        let props = json!({
            "componentId": "generic.server",
            "name": name,
            "meta": {"region": region, "status": status}
        });
        let obj = client
            .create_object(doc, "component", props.as_object().unwrap())
            .await
            .unwrap();
        ids.push(obj);
    }
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_preview_in_the_binary_leaves_the_users_marks_alone() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Marks doc", None).await.unwrap();
    regions(&client, &doc).await;
    let Some(session) = open_regions(&dir, &server, "tui-e2e-marks", "Marks doc") else {
        return;
    };
    // The user marks the first component, then previews a selector that matches nothing.
    session.keys(&["Space"]);
    session.wait_for("1 marked");
    session.keys(&["w"]);
    session.wait_for("Objects whose meta match every row");
    session.keys(&["-l", "status"]);
    session.keys(&["Tab", "Tab"]);
    session.keys(&["-l", "gone"]);
    session.keys(&["C-p"]);
    let screen = session.wait_for("Preview: 0 objects match");
    assert!(screen.contains("1 marked"), "{screen}");
    // One that matches the db: shown ◇ in the tree, not marked.
    for _ in 0.."gone".len() {
        session.keys(&["BSpace"]);
    }
    session.keys(&["-l", "down"]);
    session.keys(&["C-p"]);
    let screen = session.wait_for("Preview: 1 object matches");
    assert!(screen.contains("◇ db [status=down region=eu]"), "{screen}");
    assert!(screen.contains("1 marked"), "{screen}");
    // Closed: the preview is gone, the user's mark is still there.
    session.keys(&["Escape"]);
    gone(&session, "Objects whose meta match every row");
    let screen = session.screen();
    assert!(!screen.contains("◇ db"), "{screen}");
    assert!(screen.contains("● web [status=up region=eu]"), "{screen}");
    assert!(screen.contains("1 marked"), "{screen}");
    session.keys(&["q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nested_merge_in_the_binary_keeps_the_other_keys_and_is_undone() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Merge doc", None).await.unwrap();
    let ids = regions(&client, &doc).await;
    let Some(session) = open_regions(&dir, &server, "tui-e2e-merge", "Merge doc") else {
        return;
    };
    session.keys(&["w"]);
    session.wait_for("Objects whose meta match every row");
    session.keys(&["-l", "region"]);
    session.keys(&["Tab", "Tab"]);
    session.keys(&["-l", "eu"]);
    session.keys(&["Tab"]);
    paste(&session, r#"{"meta":{"owner":"ops"}}"#);
    session.wait_for("nested:  merge | replace");
    session.keys(&["C-s"]);
    // The question's last line, so that the capture holds the whole question (a capture can
    // catch a frame half drawn).
    let screen = session.wait_for("meta.owner: added");
    assert!(screen.contains("Bulk update"), "{screen}");
    assert!(
        screen.contains("2 objects change of the 2 matches"),
        "{screen}"
    );
    assert!(screen.contains("meta.owner: added \"ops\""), "{screen}");
    session.keys(&["y"]);
    session.wait_for("updatedObjectCount: 2");
    let meta = |data: &diagtui_model::Props| data["meta"].clone();
    let (web, db, edge) = (&ids[0], &ids[1], &ids[2]);
    let read = |obj: &String| {
        let client = client.clone();
        let (doc, obj) = (doc.clone(), obj.clone());
        async move { client.get_object(&doc, &obj).await.unwrap().data }
    };
    assert_eq!(
        meta(&read(web).await),
        json!({"region": "eu", "status": "up", "owner": "ops"})
    );
    assert_eq!(
        meta(&read(db).await),
        json!({"region": "eu", "status": "down", "owner": "ops"})
    );
    assert_eq!(
        meta(&read(edge).await),
        json!({"region": "us", "status": "up"})
    );

    // Undo from the write history puts each one's own meta back.
    session.keys(&["Escape"]);
    gone(&session, "Selector update");
    session.keys(&["U"]);
    session.wait_for("selector apply");
    session.keys(&["Enter"]);
    session.wait_for("Undo the selector apply");
    session.keys(&["y"]);
    session.wait_for("undid the selector apply of 2 objects");
    assert_eq!(
        meta(&read(web).await),
        json!({"region": "eu", "status": "up"})
    );
    assert_eq!(
        meta(&read(db).await),
        json!({"region": "eu", "status": "down"})
    );
    session.keys(&["Escape", "q"]);
    server.shutdown().await;
}

/// Opens the only document whose title starts with `title` (past any sample documents, with the
/// filter) and waits for `shown`.
pub(crate) fn open_doc(session: &Tmux, title: &str, shown: &str) {
    session.wait_for(title);
    session.keys(&["/"]);
    session.type_line(title);
    session.keys(&["Enter"]);
    session.wait_for(shown);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paste_whose_line_breaks_are_cr_keeps_its_lines_in_the_json_editor() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("CR doc", None).await.unwrap();
    let props = json!({"text": "Before"}).as_object().unwrap().clone();
    let obj = client.create_object(&doc, "label", &props).await.unwrap();
    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e-cr", 120, 35, Some(&command)) else {
        return;
    };
    open_doc(&session, "CR doc", "\"Before\"");
    // After the `{` of line 1. tmux's paste-buffer sends each line break as CR; the tabs are
    // kept.
    session.keys(&["3", "i", "End"]);
    paste(&session, "\n\t\"note\": \"pasted\",\n\t\"owner\": \"ops\",");
    // Each pasted line on its own numbered line, the tabs as spaces.
    session.wait_for("2     \"note\": \"pasted\",");
    session.wait_for("3     \"owner\": \"ops\",");
    session.wait_for("4   \"text\": \"Before\"");
    session.keys(&["C-s"]);
    session.wait_for("What the save changes");
    session.keys(&["Enter"]);
    session.wait_for("saved 2 properties");
    let object = client.get_object(&doc, &obj).await.unwrap();
    assert_eq!(object.data["note"], Value::from("pasted"));
    assert_eq!(object.data["owner"], Value::from("ops"));
    session.keys(&["Escape", "q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_palette_runs_actions_by_their_config_names_in_the_binary() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Palette doc", None).await.unwrap();
    for name in ["a", "b"] {
        let props = json!({"componentId": "generic.server", "name": name});
        client
            .create_object(&doc, "component", props.as_object().unwrap())
            .await
            .unwrap();
    }
    let command = binary(&dir, &server);
    let Some(session) = Tmux::start("tui-e2e-palette", 120, 35, Some(&command)) else {
        return;
    };
    open_doc(&session, "Palette doc", "generic.server");
    session.keys(&["2", ":"]);
    session.wait_for("mark_shown");
    session.type_line("help");
    session.wait_for("╭ Keys ");
    // q closes the help (Esc then : would arrive as Alt-:).
    session.keys(&["q", ":"]);
    session.type_line("mark_shown");
    session.wait_for("2 marked");
    // From the documents pane: the objects pane's action runs there.
    session.keys(&["Escape"]);
    gone(&session, "2 marked");
    session.keys(&["1", ":"]);
    session.type_line("mark_shown");
    session.wait_for("2 marked");
    session.keys(&["Escape", "q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_component_row_shows_its_name_at_80_columns_in_the_binary() {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
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
    let screen = session.wait_for("CDN [status=up region=global]");
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
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Map doc", None).await.unwrap();
    client
        .set_content(&doc, &crate::harness::map_content())
        .await
        .unwrap();
    let Some(session) = open_in_binary(&dir, &server, ("tui-e2e-map", 120, 40), "Map doc") else {
        return;
    };
    session.wait_for("orders [status=degraded]");
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
    // tmux without allow-passthrough (its default): braille, and no picture's title.
    assert!(!screen.contains("Map doc · 2D"), "{screen}");
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
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
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
        diagtui_store::Location::DataDir(data),
        addr,
        diagtui_server::ServerOptions::default(),
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

/// The binary on a document holding `undo_e2e::connected`, opened.
async fn on_connected(tag: &str) -> Option<(tempfile::TempDir, LocalServer, Client, String, Tmux)> {
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    let doc = client.create_doc("Undo tmux", None).await.unwrap();
    client.set_content(&doc, &connected()).await.unwrap();
    let command = binary(&dir, &server);
    let session = Tmux::start(tag, 140, 35, Some(&command))?;
    session.wait_for("Undo tmux");
    session.keys(&["/"]);
    session.type_line("Undo tmux");
    Some((dir, server, client, doc, session))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_connected_component_in_the_binary_and_undoing_it() {
    let Some((_dir, server, client, doc, session)) = on_connected("tui-e2e-undo-delete").await
    else {
        return;
    };
    session.keys(&["Enter"]);
    session.wait_for("api — db l-wire");
    // The api component is selected. A stray Enter on the question deletes nothing.
    session.keys(&["d"]);
    session.wait_for("2 line groups are attached");
    session.keys(&["Enter"]);
    session.keys(&["d"]);
    // Still there (a delete takes the row out at once): asked about again.
    session.wait_for("Delete component api (c-api)");
    session.keys(&["y"]);
    session.wait_for("deleted component api");
    assert!(!client.content(&doc).await.unwrap().contains_key("c-api"));
    session.keys(&["U"]);
    session.wait_for("Write history");
    session.keys(&["Enter"]);
    session.wait_for("Undo the delete");
    session.keys(&["y"]);
    session.wait_for("2 line groups pointed at the new ids");
    let after = client.content(&doc).await.unwrap();
    let new = after
        .iter()
        .find(|(id, o)| o.kind == "component" && *id != "c-db")
        .map(|(id, _)| id.clone())
        .expect("api created again");
    assert_ne!(new, "c-api");
    assert_eq!(after["l-wire"].data["anchors"][0]["id"], json!(new));
    assert_eq!(after["l-tail"].data["anchors"][0]["id"], json!(new));
    session.keys(&["Escape"]);
    let screen = session.wait_for("api — db l-wire");
    assert!(screen.contains("api — (4, 4) l-tail"), "{screen}");
    session.keys(&["q"]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn emptying_a_document_in_the_binary_and_undoing_it() {
    let Some((_dir, server, client, doc, session)) = on_connected("tui-e2e-undo-empty").await
    else {
        return;
    };
    let before = client.content(&doc).await.unwrap();
    session.keys(&["E"]);
    session.wait_for("Remove all 5 objects");
    session.keys(&["y"]);
    session.wait_for("5 objects removed");
    assert!(client.content(&doc).await.unwrap().is_empty());
    session.keys(&["Enter"]);
    session.wait_for("no objects");
    session.keys(&["U"]);
    session.wait_for("removed all 5 objects");
    session.keys(&["Enter"]);
    session.wait_for("Undo the empty");
    session.keys(&["y"]);
    session.wait_for("set the content from before the empty back");
    assert_eq!(client.content(&doc).await.unwrap(), before);
    session.keys(&["Escape"]);
    session.wait_for("api — db l-wire");
    session.keys(&["q"]);
    server.shutdown().await;
}
