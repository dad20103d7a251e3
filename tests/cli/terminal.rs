//! The CLI on a real terminal (a tmux pane): pretty JSON, and the confirmation question of a
//! destructive command answered no, then yes. Skipped when tmux is not installed.

use std::process::Command;
use std::time::Duration;

use super::Env;

/// A detached tmux server of its own (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(tag: &str) -> Option<Tmux> {
        let socket = format!("diagtui-cli-test-{}-{tag}", std::process::id());
        let ok = Command::new("tmux")
            .args(["-L", &socket, "new-session", "-d", "-x", "160", "-y", "50"])
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmux { socket })
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types a shell command line into the pane.
    fn type_line(&self, line: &str) {
        self.tmux(&["send-keys", "-l", line]);
        self.tmux(&["send-keys", "Enter"]);
    }

    /// Waits (polling, bounded) until the pane shows `text`; returns the pane.
    fn wait_for(&self, text: &str) -> String {
        for _ in 0..300 {
            let pane = self.tmux(&["capture-pane", "-p", "-J", "-S", "-200"]);
            if pane.contains(text) {
                return pane;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "the pane never showed {text:?}:\n{}",
            self.tmux(&["capture-pane", "-p"])
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

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
    if Tmux::start("probe").is_none() {
        eprintln!("tmux is not installed: skipping the terminal test");
        return;
    }
    let env = Env::start();
    let doc = env.new_doc("On a terminal");
    // A fresh tmux server for each step, so no pane shows an earlier step's text.
    let step = |tag: &str| Tmux::start(tag).expect("tmux started once already");

    let tmux = step("pretty");
    tmux.type_line(&command_line(&env, &format!("doc show {doc}")));
    let pane = tmux.wait_for("EXIT=0");
    assert!(pane.contains("\n  \"title\": \"On a terminal\","), "{pane}");

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
