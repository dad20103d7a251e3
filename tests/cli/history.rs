//! `diagtui doc history`, `doc diff`, `doc restore` and `doc export --version`.

use serde_json::json;

use super::Env;

#[test]
fn history_diff_restore_and_export_at_a_version() {
    let env = Env::start();
    let doc = env.new_doc("Travel"); // 1
    let obj = env.run(&["obj", "create", &doc, "label"]).ok().json()["objId"] // 2
        .as_str()
        .unwrap()
        .to_owned();
    env.run(&["obj", "update", &doc, &obj, r#"{"text": "later"}"#])
        .ok(); // 3
    env.run(&["doc", "rename", &doc, "Travelled"]).ok(); // 4

    let table = env.run(&["doc", "history", &doc]).ok().stdout;
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("VERSION  WHEN"), "{table}");
    assert_eq!(lines.len(), 5, "{table}");
    assert!(
        lines[1].starts_with("4 ") && lines[1].contains("title-change"),
        "{table}"
    );
    assert!(lines[1].contains(r#"title "Travelled""#), "{table}");
    assert!(
        lines[1].contains(&env.server().email().to_string()),
        "{table}"
    );
    let page = env
        .run(&["doc", "history", &doc, "--limit", "2", "--json"])
        .ok()
        .json();
    assert_eq!(page["versions"].as_array().unwrap().len(), 2);
    assert_eq!(page["nextBefore"], 3);
    let one = env
        .run(&["doc", "history", &doc, "--object", &obj, "--json"])
        .ok()
        .json();
    let kinds: Vec<&str> = one["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["object-updated", "object-created"]);

    let diff = env.run(&["doc", "diff", &doc, "2"]).ok().json();
    assert_eq!(diff["to"], 4);
    assert_eq!(diff["changed"][&obj][0]["path"], "text");
    assert_eq!(diff["changed"][&obj][0]["to"], "later");

    let then = env
        .run(&["doc", "export", &doc, "--version", "2"])
        .ok()
        .json();
    assert_ne!(then[&obj]["data"]["text"], "later");

    let out = env.run(&["doc", "restore", &doc, "2"]).fails(2);
    assert!(out.stderr.contains("changing 1 object:"), "{out:?}");
    assert!(out.stderr.contains("refusing without --yes"), "{out:?}");
    let restored = env.run(&["doc", "restore", &doc, "2", "--yes"]).ok().json();
    assert_eq!(
        restored,
        json!({"success": true, "version": 5, "changed": 1})
    );
    assert_eq!(env.run(&["doc", "content", &doc]).ok().json(), then);

    let out = env.run(&["doc", "diff", &doc, "9"]).fails(1);
    assert!(out.stderr.contains("VERSION_NOT_FOUND"), "{out:?}");
}
