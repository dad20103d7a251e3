//! `diagtui doc …` and `diagtui folder …`.

use serde_json::json;

use super::Env;

#[test]
fn documents_from_create_to_delete() {
    let env = Env::start();
    let doc = env.new_doc("Web tier");

    let list = env.run(&["doc", "list"]).ok().json();
    assert!(
        list.as_array()
            .unwrap()
            .contains(&json!({"id": doc, "title": "Web tier"}))
    );
    let table = env.run(&["doc", "list", "--table"]).ok().stdout;
    assert!(table.starts_with("ID "), "{table}");
    assert!(table.contains(&format!("{doc}  Web tier\n")), "{table}");

    let details = env.run(&["doc", "show", &doc]).ok().json();
    assert_eq!(details["title"], "Web tier");
    assert_eq!(details["user"]["email"], env.server().email());

    let out = env.run(&["doc", "rename", &doc, "Web tier (prod)"]).ok();
    assert_eq!(out.json(), json!({"success": true}));
    assert_eq!(
        env.run(&["doc", "show", &doc]).ok().json()["title"],
        "Web tier (prod)"
    );

    let content = json!({"1aaa-bbb": {"type": "label", "data": {"text": "imported"}}});
    let file = env.file("content.json", &content.to_string());
    env.run(&["doc", "import", &doc, &file, "--yes"]).ok();
    assert_eq!(env.run(&["doc", "content", &doc]).ok().json(), content);

    let from_stdin = json!({"1ccc-ddd": {"type": "label", "data": {"text": "piped"}}});
    let out = env.run_with_stdin(
        &["doc", "import", &doc, "-", "--yes"],
        Some(&from_stdin.to_string()),
    );
    assert_eq!(out.ok().json(), json!({"success": true}));
    assert_eq!(env.run(&["doc", "export", &doc]).ok().json(), from_stdin);

    let exported = env.dir().join("export.json");
    let out = env
        .run(&["doc", "export", &doc, "-o", exported.to_str().unwrap()])
        .ok();
    assert_eq!(out.stdout, "");
    let text = std::fs::read_to_string(&exported).unwrap();
    assert!(text.lines().count() > 1, "files are indented");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text).unwrap(),
        from_stdin
    );

    let copy = env.run(&["doc", "clone", &doc, "Copy"]).ok().json();
    assert_eq!(copy["success"], true);
    let copy = copy["docId"].as_str().unwrap();
    assert_eq!(env.run(&["doc", "content", copy]).ok().json(), from_stdin);

    env.run(&["doc", "empty", &doc, "--yes"]).ok();
    assert_eq!(env.run(&["doc", "content", &doc]).ok().json(), json!({}));

    env.run(&["doc", "delete", &doc, "-y"]).ok();
    let out = env.run(&["doc", "show", &doc]).fails(1);
    assert!(out.stderr.contains("HTTP 404 DOC_NOT_FOUND"), "{out:?}");
}

#[test]
fn destructive_commands_refuse_without_yes_and_a_terminal() {
    let env = Env::start();
    let doc = env.new_doc("Keep me");
    env.run(&["obj", "create", &doc, "label"]).ok();
    let file = env.file("empty.json", "{}");
    let folder = env.run(&["folder", "create", "Keep"]).ok().json()["folderId"]
        .as_str()
        .unwrap()
        .to_owned();
    for args in [
        vec!["doc", "delete", &doc],
        vec!["doc", "empty", &doc],
        vec!["doc", "import", &doc, &file],
        vec!["folder", "delete", &folder],
    ] {
        let out = env.run(&args).fails(2);
        assert!(out.stderr.contains("without --yes"), "{out:?}");
    }
    assert_eq!(
        env.run(&["doc", "show", &doc]).ok().json()["title"],
        "Keep me"
    );
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content.as_object().unwrap().len(), 1);
    assert!(
        env.run(&["folder", "list"])
            .ok()
            .json()
            .get(&folder)
            .is_some()
    );
}

#[test]
fn sharing_reports_an_unknown_account() {
    let env = Env::start();
    let doc = env.new_doc("Shared");
    let out = env
        .run(&["doc", "share", &doc, "nobody@example.com"])
        .fails(1);
    assert!(
        out.stderr.starts_with("diagtui: HTTP 404 USER_NOT_FOUND: "),
        "{out:?}"
    );
    diagtui_server::create_account(env.server().location(), "bob@example.com").unwrap();
    env.run(&["doc", "share", &doc, "bob@example.com"]).ok();
}

#[test]
fn folders_from_create_to_delete() {
    let env = Env::start();
    let created = env.run(&["folder", "create", "Network"]).ok().json();
    let folder = created["folderId"].as_str().unwrap();
    let doc = env
        .run(&["doc", "create", "Router", "--folder", folder])
        .ok()
        .json();
    let doc = doc["docId"].as_str().unwrap();
    env.run(&["folder", "rename", folder, "Net"]).ok();
    let list = env.run(&["folder", "list"]).ok().json();
    assert_eq!(
        list[folder],
        json!({"title": "Net", "docs": {doc: "Router"}})
    );
    env.run(&["folder", "delete", folder, "--yes"]).ok();
    assert!(
        env.run(&["folder", "list"])
            .ok()
            .json()
            .get(folder)
            .is_none()
    );
    env.run(&["doc", "show", doc]).fails(1);
}

#[test]
fn doc_move_puts_a_document_in_another_folder_and_names_a_missing_one() {
    let env = Env::start();
    let doc = env.new_doc("Router");
    let created = env.run(&["folder", "create", "Network"]).ok().json();
    let folder = created["folderId"].as_str().unwrap();
    let out = env.run(&["doc", "move", &doc, folder]).ok();
    assert_eq!(out.json(), json!({"success": true}));
    let details = env.run(&["doc", "show", &doc]).ok().json();
    assert_eq!(details["folder"], json!({"id": folder, "title": "Network"}));
    let history = env.run(&["doc", "history", &doc]).ok().stdout;
    assert!(
        history.contains("moved") && history.contains("to folder \"Network\""),
        "{history}"
    );
    let missing = "00000000-0000-4000-8000-000000000000";
    let out = env.run(&["doc", "move", &doc, missing]).fails(1);
    assert!(
        out.stderr
            .starts_with("diagtui: HTTP 404 FOLDER_NOT_FOUND: "),
        "{out:?}"
    );
}
