//! `diagtui doc create-diagram DOC FILE [--set KEY=VALUE] [--replace]`.

use super::Env;

const CSV: &str = "id,type,componentType,groups,connections,label\n\
                   lb,component,networking.haproxy,,\"app1, app2\",Load balancer\n\
                   app1,component,generic.server,vpc,,\n\
                   app2,component,generic.server,vpc,,\n\
                   vpc,group,,,,Main VPC\n";

#[test]
fn a_file_is_laid_out_into_a_document_by_its_kind() {
    let env = Env::start();
    let doc = env.new_doc("From a file");
    // No extension: CSV by its content.
    let csv = env.file("services", CSV);
    let out = env
        .run(&["doc", "create-diagram", &doc, &csv, "--set", "comp_gap=4"])
        .ok()
        .json();
    assert_eq!(out["success"], true);
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content["app1"]["data"]["componentId"], "generic.server");
    assert_eq!(content["vpc"]["type"], "area");
    let gap = content["app2"]["data"]["position"]["x"].as_f64().unwrap()
        - content["app1"]["data"]["position"]["x"].as_f64().unwrap();
    assert_eq!(gap, 2.0 + 4.0, "the setting reached the layout");
    assert_eq!(out["objectCount"], content.as_object().unwrap().len());

    let json = env.file(
        "more.json",
        r#"{"cache": {"type": "component", "componentType": "cache.redis"}}"#,
    );
    env.run(&["doc", "create-diagram", &doc, &json]).ok();
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert!(content.get("app1").is_some(), "added to what is there");
    assert!(content.get("cache").is_some());

    // --replace empties the document first; it asks, and refuses without a terminal.
    let refused = env
        .run(&["doc", "create-diagram", &doc, &json, "--replace"])
        .fails(2);
    assert!(refused.stderr.contains("--yes"), "{}", refused.stderr);
    env.run(&["doc", "create-diagram", &doc, &json, "--replace", "--yes"])
        .ok();
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content.as_object().unwrap().len(), 1, "{content}");
}

#[test]
fn a_refusal_names_the_entry_and_the_field() {
    let env = Env::start();
    let doc = env.new_doc("Refused");
    let bad = env.file("bad.csv", "id,type\nweb,component\n");
    let out = env.run(&["doc", "create-diagram", &doc, &bad]).fails(1);
    assert!(
        out.stderr.contains("entry \"web\", field componentType"),
        "{}",
        out.stderr
    );
    let out = env
        .run(&["doc", "create-diagram", &doc, &bad, "--set", "gap"])
        .fails(2);
    assert!(out.stderr.contains("KEY=VALUE"), "{}", out.stderr);
}

#[test]
fn a_mermaid_file_is_read_as_mermaid() {
    let env = Env::start();
    let doc = env.new_doc("Flow");
    let mmd = env.file("flow.mmd", "flowchart LR\n  web[Web] --> db[(Orders)]\n");
    env.run(&["doc", "create-diagram", &doc, &mmd]).ok();
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content["db"]["data"]["componentId"], "generic.database");
    assert_eq!(content["web->db"]["type"], "line-group");
    // Without the extension, the first line tells.
    let plain = env.file("flow", "%% mine\ngraph TD\n  a --> b\n");
    env.run(&["doc", "create-diagram", &doc, &plain]).ok();
    assert_eq!(
        env.run(&["doc", "content", &doc]).ok().json()["a->b"]["type"],
        "line-group"
    );
}

#[test]
fn a_dot_file_is_read_as_dot() {
    let env = Env::start();
    let doc = env.new_doc("Graph");
    let dot = env.file(
        "deps.dot",
        "digraph deps {\n  node [shape=box]\n  web [label=\"Web\"]\n  db [shape=cylinder]\n  web -> db -> db\n}\n",
    );
    let out = env.run(&["doc", "create-diagram", &doc, &dot]).ok().json();
    assert_eq!(
        out["notes"],
        serde_json::json!([]),
        "the loop is drawn: {out}"
    );
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content["db->db"]["type"], "line-group", "db's loop");
    assert_eq!(content["db"]["data"]["componentId"], "generic.database");
    assert_eq!(content["web"]["data"]["name"], "Web");
    assert_eq!(content["web->db"]["type"], "line-group");
    // `.gv`, and without an extension the first line tells.
    let gv = env.file("more.gv", "graph { x -- y }\n");
    env.run(&["doc", "create-diagram", &doc, &gv]).ok();
    let plain = env.file("plain", "// mine\nstrict digraph { p -> q }\n");
    env.run(&["doc", "create-diagram", &doc, &plain]).ok();
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content["x->y"]["type"], "line-group");
    assert_eq!(content["p->q"]["type"], "line-group");
}

#[test]
fn entries_piped_in_are_read_from_stdin_for_a_dash() {
    let env = Env::start();
    let doc = env.new_doc("Piped");
    let out = env.run_with_stdin(
        &["doc", "create-diagram", &doc, "-"],
        Some("digraph { a -> b -> c }\n"),
    );
    assert_eq!(out.ok().json()["objectCount"], 5);
    let content = env.run(&["doc", "content", &doc]).ok().json();
    assert_eq!(content["b->c"]["type"], "line-group", "read as DOT");
    let out = env.run_with_stdin(
        &["doc", "create-diagram", &doc, "-", "--replace", "--yes"],
        Some("flowchart LR\n  x --> y\n"),
    );
    assert_eq!(out.ok().json()["objectCount"], 3, "read as Mermaid");
    // Replacing asks first; piped in, there is no terminal to ask.
    let out = env.run_with_stdin(
        &["doc", "create-diagram", &doc, "-", "--replace"],
        Some("flowchart LR\n  x --> y\n"),
    );
    let out = out.fails(2);
    assert!(out.stderr.contains("the diagram of stdin"), "{out:?}");
    // Nothing piped in: said so, not guessed as a CSV without a header.
    let out = env.run_with_stdin(&["doc", "create-diagram", &doc, "-"], Some(" \n"));
    let out = out.fails(1);
    assert!(out.stderr.contains("stdin: it is empty"), "{out:?}");
}
