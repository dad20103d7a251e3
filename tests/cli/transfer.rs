//! `doc import`, `doc export` and `doc content` with generated documents: a file that is not a
//! content map is refused before any request, 5,000 objects go round through files and stdin
//! unchanged, and the output is indented or compact as documented.

use std::os::unix::fs::PermissionsExt;

use diagtui_testkit::generated;
use diagtui_testkit::net::closed_url;
use serde_json::{Value, json};

use super::{Env, run};

/// The generated content as a value and as compact text.
fn generated_text(objects: usize) -> (Value, String) {
    let content = Value::Object(generated::content(objects));
    let text = serde_json::to_string(&content).unwrap();
    (content, text)
}

#[test]
fn what_is_not_a_content_map_is_refused_before_any_request() {
    let env = Env::start();
    let doc = env.new_doc("Kept");
    env.run(&["obj", "create", &doc, "label", r#"{"text":"keep me"}"#])
        .ok();
    let before = env.run(&["doc", "content", &doc]).ok().stdout;
    let cases = [
        ("[1, 2]", "got an array"),
        ("\"text\"", "got a string"),
        ("", "is not valid JSON: EOF"),
        (
            r#"{"a": {"type": "label", "data": {}}"#,
            "is not valid JSON",
        ),
        (
            r#"{"a": {"type": "label", "data": {}}} {}"#,
            "trailing characters",
        ),
        (
            r#"{"a": {"type": "label", "data": {}}, "b": {"type": "label"}}"#,
            r#"content: object "b": missing field `data`"#,
        ),
        (
            r#"{"a": {"type": "label", "data": [1]}}"#,
            r#"content: object "a": invalid type: sequence, expected a JSON object"#,
        ),
        (
            r#"{"a": 7}"#,
            r#"content: object "a": invalid type: integer `7`"#,
        ),
    ];
    for (text, expected) in cases {
        let file = env.file("bad.json", text);
        let out = env.run(&["doc", "import", &doc, &file, "--yes"]).fails(2);
        assert!(out.stderr.contains(expected), "{text}: {out:?}");
        let out = env
            .run_with_stdin(&["doc", "import", &doc, "-", "--yes"], Some(text))
            .fails(2);
        assert!(out.stderr.contains(expected), "stdin {text}: {out:?}");
    }
    assert_eq!(env.run(&["doc", "content", &doc]).ok().stdout, before);

    // Refused without a connection: a closed port would make it exit 1 if one were tried.
    let closed = closed_url();
    let file = env.file("bad.json", r#"{"a": {"type": "label"}}"#);
    let args = ["--url", &closed, "--api-key", "some-key-1234567890"];
    let out = run(
        &[&args[..], &["doc", "import", "D", &file, "--yes"]].concat(),
        None,
        &[],
    );
    assert!(out.fails(2).stderr.contains("missing field `data`"));
}

#[test]
fn five_thousand_objects_go_round_unchanged() {
    let env = Env::start();
    let (content, text) = generated_text(5_000);
    let indented = serde_json::to_string_pretty(&content).unwrap() + "\n";
    let first = env.new_doc("First");
    let file = env.file("generated.json", &text);
    let out = env.run(&["doc", "import", &first, &file, "--yes"]).ok();
    assert_eq!(out.json(), json!({"success": true}));

    let exported = env.dir().join("exported.json");
    let exported = exported.to_str().unwrap();
    let out = env.run(&["doc", "export", &first, "-o", exported]).ok();
    assert_eq!(out.stdout, "");
    assert_eq!(std::fs::read_to_string(exported).unwrap(), indented);

    let second = env.new_doc("Second");
    env.run(&["doc", "import", &second, exported, "--yes"]).ok();
    let piped = env.run(&["doc", "export", &second]).ok();
    assert_eq!(piped.stdout, text.clone() + "\n", "compact when piped");
    assert_eq!(
        env.run(&["doc", "content", &second]).ok().stdout,
        piped.stdout
    );

    let third = env.new_doc("Third");
    env.run_with_stdin(&["doc", "import", &third, "-", "--yes"], Some(&indented))
        .ok();
    assert_eq!(env.run(&["doc", "content", &third]).ok().json(), content);
}

#[test]
fn an_export_file_is_written_whole_or_not_at_all() {
    let env = Env::start();
    let doc = env.new_doc("Small");
    env.run(&["obj", "create", &doc, "label", r#"{"text":"hi"}"#])
        .ok();
    let path = env.file("kept.json", "old text");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();

    let out = env
        .run(&["doc", "export", "no-such-doc", "-o", &path])
        .fails(1);
    assert!(out.stderr.contains("DOC_NOT_FOUND"), "{out:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old text");

    let dir = env.dir().to_str().unwrap();
    let out = env.run(&["doc", "export", &doc, "-o", dir]).fails(1);
    assert!(
        out.stderr.contains(&format!("cannot write {dir}")),
        "{out:?}"
    );

    env.run(&["doc", "export", &doc, "-o", &path]).ok();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(written.as_object().unwrap().len(), 1);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the file keeps its permissions");
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".part")), "{names:?}");
}
