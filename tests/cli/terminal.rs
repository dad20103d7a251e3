//! The CLI on a real terminal (a tmux pane): pretty JSON (an export streamed to the terminal
//! too), and the confirmation question of a destructive command answered no, then yes. Skipped
//! when tmux is not installed (outside CI).

use diagtui_testkit::tmux::Tmux;

use super::Env;

fn command_line(env: &Env, args: &str) -> String {
    format!(
        "{} --url {} --api-key {} {args}; echo EXIT=$?",
        env!("CARGO_BIN_EXE_diagtui"),
        env.server().url(),
        env.server().api_key()
    )
}

#[test]
fn a_terminal_gets_pretty_json_and_a_question() {
    if Tmux::start("probe", 160, 50, None).is_none() {
        return;
    }
    let env = Env::start();
    let doc = env.new_doc("On a terminal");
    // A fresh tmux server for each step, so no pane shows an earlier step's text.
    let step = |tag: &str| Tmux::start(tag, 160, 50, None).expect("tmux started once already");

    let tmux = step("pretty");
    tmux.type_line(&command_line(&env, &format!("doc show {doc}")));
    let pane = tmux.wait_for("EXIT=0");
    assert!(pane.contains("\n  \"title\": \"On a terminal\","), "{pane}");

    env.run(&["obj", "create", &doc, "label", r#"{"text":"shown"}"#])
        .ok();
    let tmux = step("export");
    tmux.type_line(&command_line(&env, &format!("doc export {doc}")));
    let pane = tmux.wait_for("EXIT=0");
    assert!(pane.contains("\n    \"type\": \"label\",\n"), "{pane}");

    let tmux = step("no");
    tmux.type_line(&command_line(&env, &format!("doc delete {doc}")));
    tmux.wait_for("and all its objects? [y/N]");
    tmux.type_line("n");
    let pane = tmux.wait_for("EXIT=1");
    assert!(pane.contains("diagtui: cancelled"), "{pane}");
    env.run(&["doc", "show", &doc]).ok();

    let tmux = step("yes");
    tmux.type_line(&command_line(&env, &format!("doc delete {doc}")));
    tmux.wait_for("[y/N]");
    tmux.type_line("y");
    tmux.wait_for("EXIT=0");
    env.run(&["doc", "show", &doc]).fails(1);
}
