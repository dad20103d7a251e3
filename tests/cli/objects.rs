//! `diagtui obj …`: each command, selectors in both forms, props from an argument, a file and
//! stdin.

use serde_json::json;

use super::Env;

/// Makes a label (props from an argument), a component (props from a file) and an icon (no
/// props) in `doc`: their ids.
fn three_objects(env: &Env, doc: &str) -> (String, String, String) {
    let created = env
        .run(&[
            "obj",
            "create",
            doc,
            "label",
            r#"{"text":"web-01","meta":{"status":"down","port":16}}"#,
        ])
        .ok()
        .json();
    assert_eq!(created["success"], true);
    let label = created["objId"].as_str().unwrap().to_owned();
    let file = env.file(
        "component.json",
        r#"{"componentId":"generic.server","meta":{"status":"up","path":"a/b 50%"}}"#,
    );
    let component = env
        .run(&["obj", "create", doc, "component", &format!("@{file}")])
        .ok()
        .json();
    let component = component["objId"].as_str().unwrap().to_owned();
    let plain = env.run(&["obj", "create", doc, "icon"]).ok().json();
    let icon = plain["objId"].as_str().unwrap().to_owned();
    (label, component, icon)
}

#[test]
fn objects_from_create_to_delete() {
    let env = Env::start();
    let doc = env.new_doc("Objects");
    let (label, component, _) = three_objects(&env, &doc);

    let object = env.run(&["obj", "get", &doc, &label]).ok().json();
    assert_eq!(object["type"], "label");
    assert_eq!(object["data"]["text"], "web-01");

    let out = env.run_with_stdin(
        &["obj", "update", &doc, &label, "-"],
        Some(r#"{"position":{"x":2,"y":3}}"#),
    );
    assert_eq!(out.ok().json(), json!({"success": true}));
    let object = env.run(&["obj", "get", &doc, &label]).ok().json();
    assert_eq!(object["data"]["position"], json!({"x": 2, "y": 3}));

    let updated = env
        .run(&[
            "obj",
            "set-where",
            &doc,
            "status",
            "eq",
            "up",
            r##"{"primaryColor":"#FF0000"}"##,
        ])
        .ok()
        .json();
    assert_eq!(
        updated,
        json!({"success": true, "updatedObjectCount": 1, "updatedObjectIds": [component]})
    );
    let updated = env
        .run_with_stdin(
            &[
                "obj",
                "set-where",
                &doc,
                r#"["status","eq","nothing"]"#,
                "-",
            ],
            Some(r#"{"opacity":0.5}"#),
        )
        .ok()
        .json();
    assert_eq!(updated["updatedObjectCount"], 0);

    let bulk = json!({ label.clone(): {"text": "5%"}, component.clone(): {"opacity": 0.5} });
    env.run(&["obj", "bulk", &doc, &bulk.to_string()]).ok();
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content[&label]["data"]["text"], "5%");
    assert_eq!(content[&component]["data"]["opacity"], 0.5);
    assert_eq!(content[&component]["data"]["primaryColor"], "#FF0000");

    env.run(&["obj", "delete", &doc, &label]).fails(2);
    env.run(&["obj", "delete", &doc, &label, "--yes"]).ok();
    let out = env.run(&["obj", "get", &doc, &label]).fails(1);
    assert!(out.stderr.contains("OBJ_NOT_FOUND"), "{out:?}");
}

#[test]
fn obj_where_takes_a_selector_in_both_forms() {
    let env = Env::start();
    let doc = env.new_doc("Selectors");
    let (label, component, icon) = three_objects(&env, &doc);
    let keys = |args: &[&str]| {
        let found = env.run(args).ok().json();
        let mut keys: Vec<String> = found.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(
        keys(&["obj", "where", &doc, "status", "eq", "down"]),
        vec![label.clone()]
    );
    assert_eq!(
        keys(&["obj", "where", &doc, r#"["status","eq","up"]"#]),
        vec![component.clone()]
    );
    assert_eq!(
        keys(&["obj", "where", &doc, "port", "gt", "9"]),
        vec![label.clone()]
    );
    assert_eq!(
        keys(&["obj", "where", &doc, "port", "gt", "-5"]),
        vec![label.clone()]
    );
    assert_eq!(
        keys(&["obj", "where", &doc, "path", "co", "a/b 50%"]),
        vec![component.clone()]
    );
    let mut not_down = vec![component.clone(), icon.clone()];
    not_down.sort();
    assert_eq!(
        keys(&["obj", "where", &doc, "status", "no", "down"]),
        not_down
    );
}

#[test]
fn the_server_rejecting_props_is_exit_1() {
    let env = Env::start();
    let doc = env.new_doc("Checks");
    let out = env
        .run(&["obj", "create", &doc, "component", "{}"])
        .fails(1);
    assert!(out.stderr.contains("HTTP 400 VALIDATION_ERROR"), "{out:?}");
}

#[test]
fn flags_go_anywhere_and_values_after_a_double_dash() {
    let env = Env::start();
    let doc = env.new_doc("Flags");
    let created = |props: &str| {
        let out = env.run(&["obj", "create", &doc, "label", props]).ok();
        out.json()["objId"].as_str().unwrap().to_owned()
    };
    let cold = created(r#"{"meta":{"status":"down","temp":-10,"name":"-web"}}"#);
    let warm = created(r#"{"meta":{"status":"up","temp":3,"name":"web"}}"#);
    // Command lines as words; DOC, URL and KEY stand for the document, the server and its key.
    let words = |line: &'static str| -> Vec<String> {
        line.split(' ')
            .map(|word| match word {
                "DOC" => doc.clone(),
                "URL" => env.server().url().to_owned(),
                "KEY" => env.server().api_key().to_owned(),
                word => word.to_owned(),
            })
            .collect()
    };
    let answer = |line: &'static str| {
        let words = words(line);
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        super::run(&args, None, &[]).ok().json()
    };
    for line in [
        "obj where DOC status eq down --url URL --api-key KEY",
        "--url URL obj where DOC --api-key KEY status eq down",
        "obj where --url URL DOC status --api-key KEY eq down",
        "obj where DOC temp lt -5 --url URL --api-key KEY",
        "obj where DOC --url URL --api-key KEY -- temp lt -5",
        "obj where DOC --url URL --api-key KEY -- name eq -web",
    ] {
        let found = answer(line);
        let found: Vec<&String> = found.as_object().unwrap().keys().collect();
        assert_eq!(found, vec![&cold], "{line}");
    }
    let out = env
        .run(&["obj", "where", &doc, "name", "eq", "-web"])
        .fails(2);
    assert!(out.stderr.contains("as a value, use '-- -w'"), "{out:?}");

    for line in [
        r##"obj set-where DOC status eq up {"color":"#0000FF"} --url URL --api-key KEY"##,
        r##"obj set-where --url URL DOC status eq up --api-key KEY {"color":"#0000FF"}"##,
        r##"obj set-where DOC --url URL --api-key KEY -- temp gt -5 {"color":"#0000FF"}"##,
    ] {
        assert_eq!(answer(line)["updatedObjectIds"], json!([warm]), "{line}");
    }
    let blue = r##"{"color":"#0000FF"}"##;
    let out = env.run(&["obj", "set-where", &doc, blue]).fails(2);
    assert!(
        out.stderr.contains("give a selector, then the props"),
        "{out:?}"
    );
    let out = env.run(&["obj", "get", &doc, &cold]).ok().json();
    assert_ne!(
        out["data"]["color"], "#0000FF",
        "only the selected object changed"
    );
}

/// Three servers in `doc`, web and db in region eu and x in us, each at (1, 2) and up: their ids.
fn three_servers(env: &Env, doc: &str) -> (String, String, String) {
    let create = |name: &str, region: &str| {
        let props = json!({
            "componentId": "generic.server",
            "name": name,
            "position": {"x": 1, "y": 2},
            "meta": {"region": region, "status": "up"}
        });
        let created = env
            .run(&["obj", "create", doc, "component", &props.to_string()])
            .ok()
            .json();
        created["objId"].as_str().unwrap().to_owned()
    };
    (create("web", "eu"), create("db", "eu"), create("x", "us"))
}

/// An object's meta as `obj get` prints it.
fn meta_of(env: &Env, doc: &str, obj: &str) -> serde_json::Value {
    env.run(&["obj", "get", doc, obj]).ok().json()["data"]["meta"].clone()
}

#[test]
fn set_where_merge_keeps_the_other_nested_keys_where_the_default_replaces_them() {
    let env = Env::start();
    let doc = env.new_doc("Merge");
    let (web, db, other) = three_servers(&env, &doc);
    let meta = |obj: &str| meta_of(&env, &doc, obj);

    let owner = r#"{"meta":{"owner":"ops"}}"#;
    let merged = env
        .run(&[
            "obj",
            "set-where",
            &doc,
            "region",
            "eq",
            "eu",
            owner,
            "--merge",
        ])
        .ok()
        .json();
    let mut ids = vec![web.clone(), db.clone()];
    ids.sort();
    assert_eq!(
        merged,
        json!({"success": true, "updatedObjectCount": 2, "updatedObjectIds": ids})
    );
    assert_eq!(
        meta(&web),
        json!({"region": "eu", "status": "up", "owner": "ops"})
    );
    assert_eq!(meta(&other), json!({"region": "us", "status": "up"}));
    // Again: nothing changes, nothing is sent.
    let again = env
        .run(&[
            "obj",
            "set-where",
            &doc,
            "--merge",
            "region",
            "eq",
            "eu",
            owner,
        ])
        .ok()
        .json();
    assert_eq!(again["updatedObjectCount"], 0);

    // Without --merge, the API's semantics: the nested value is replaced whole.
    env.run(&["obj", "set-where", &doc, "region", "eq", "us", owner])
        .ok();
    assert_eq!(meta(&other), json!({"owner": "ops"}));
}

#[test]
fn bulk_merge_keeps_the_other_keys_and_refuses_a_broken_rule_before_sending() {
    let env = Env::start();
    let doc = env.new_doc("Merge");
    let (web, db, _) = three_servers(&env, &doc);

    // Each object its own merge; a partial point keeps the other coordinate.
    let bulk = json!({
        web.clone(): {"position": {"x": 3}},
        db.clone(): {"meta": {"status": "down"}}
    });
    env.run(&["obj", "bulk", &doc, &bulk.to_string(), "--merge"])
        .ok();
    let data = env.run(&["obj", "get", &doc, &web]).ok().json()["data"].clone();
    assert_eq!(data["position"], json!({"x": 3, "y": 2}));
    assert_eq!(
        meta_of(&env, &doc, &db),
        json!({"region": "eu", "status": "down"})
    );

    // A merged value that breaks a rule is refused before anything is sent, naming the object.
    let bad = json!({ web.clone(): {"meta": {"nested": {"deep": 1}}} });
    let out = env
        .run(&["obj", "bulk", &doc, &bad.to_string(), "--merge"])
        .fails(1);
    assert!(
        out.stderr.contains(&format!("{web}: meta.nested")),
        "{out:?}"
    );

    // Without --merge, the API's semantics: a partial point is refused.
    let out = env
        .run(&[
            "obj",
            "bulk",
            &doc,
            &json!({ web.clone(): {"position": {"x": 3}} }).to_string(),
        ])
        .fails(1);
    assert!(out.stderr.contains("VALIDATION_ERROR"), "{out:?}");
}

#[test]
fn get_prints_the_version_and_update_if_version_writes_only_at_it() {
    let env = Env::start();
    let doc = env.new_doc("Versions");
    let created = env
        .run(&["obj", "create", &doc, "label", r#"{"text":"a"}"#])
        .ok()
        .json();
    let obj = created["objId"].as_str().unwrap().to_owned();
    let read = env.run(&["obj", "get", &doc, &obj]).ok().json();
    let v1 = read["version"]
        .as_u64()
        .expect("the version beside type and data");
    assert_eq!(read["data"]["text"], "a");

    env.run(&[
        "obj",
        "update",
        &doc,
        &obj,
        r#"{"text":"b"}"#,
        "--if-version",
        &v1.to_string(),
    ])
    .ok();
    let v2 = env.run(&["obj", "get", &doc, &obj]).ok().json()["version"]
        .as_u64()
        .unwrap();
    assert!(v2 > v1);
    // From the first read again: refused, nothing written.
    let out = env
        .run(&[
            "obj",
            "update",
            &doc,
            &obj,
            r#"{"text":"c"}"#,
            "--if-version",
            &format!("\"{v1}\""),
        ])
        .fails(1);
    assert!(
        out.stderr
            .starts_with("diagtui: HTTP 412 PRECONDITION_FAILED: "),
        "{out:?}"
    );
    let now = env.run(&["obj", "get", &doc, &obj]).ok().json();
    assert_eq!(now["data"]["text"], "b");
    // Not a version: a usage error before anything is sent.
    let out = env
        .run(&["obj", "update", &doc, &obj, "{}", "--if-version", "x"])
        .fails(2);
    assert!(out.stderr.contains("\"x\" is not a version"), "{out:?}");
}
