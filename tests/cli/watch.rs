//! `diagtui doc watch`: one JSON line per event, `--once`, exit 0 on interrupt, polling a
//! server without the event stream.

use std::io::{BufRead, BufReader, Lines};
use std::process::{Child, ChildStdout, Stdio};

use diagtui_server::ServerOptions;
use serde_json::Value;

use crate::{Env, command};

/// `doc watch` running against the env's server, its stdout read line by line.
struct Watching {
    child: Child,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Watching {
    fn start(env: &Env, args: &[&str]) -> Watching {
        let server = env.server();
        let mut all = vec!["--url", server.url(), "--api-key", server.api_key()];
        all.extend_from_slice(args);
        let mut child = command(&all)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Watching { child, lines }
    }

    /// The next line, as JSON.
    fn line(&mut self) -> Value {
        let line = self.lines.next().expect("a line").unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Waits for the exit; its code and stderr.
    fn exit(mut self) -> (i32, String) {
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut stderr).unwrap();
        let status = self.child.wait().unwrap();
        (status.code().expect("an exit code"), stderr)
    }
}

#[test]
fn watch_prints_each_event_as_a_line_and_once_stops_at_the_first_change() {
    let env = Env::start();
    let doc = env.new_doc("Watched");
    let mut watching = Watching::start(&env, &["doc", "watch", &doc, "--once"]);
    let current = watching.line();
    assert_eq!(current["event"], "current");
    assert!(current["id"].is_string(), "{current}");
    assert!(current["lastChange"].is_string(), "{current}");
    let created = env.run(&["obj", "create", &doc, "label"]).ok().json();
    let change = watching.line();
    assert_eq!(change["event"], "change");
    assert_eq!(change["changed"], serde_json::json!([created["objId"]]));
    assert!(watching.lines.next().is_none(), "nothing after the change");
    assert_eq!(watching.exit(), (0, String::new()));
}

#[test]
#[allow(unsafe_code, reason = "FFI: kill")]
fn watch_runs_until_interrupted_and_exits_0() {
    let env = Env::start();
    let doc = env.new_doc("Watched");
    let mut watching = Watching::start(&env, &["doc", "watch", &doc]);
    assert_eq!(watching.line()["event"], "current");
    env.run(&["doc", "rename", &doc, "Renamed"]).ok();
    assert_eq!(watching.line()["document"], "retitled");
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(watching.child.id() as i32, libc::SIGINT) };
    assert_eq!(watching.exit(), (0, String::new()));
}

#[test]
fn watch_ends_when_the_document_is_deleted() {
    let env = Env::start();
    let doc = env.new_doc("Doomed");
    let mut watching = Watching::start(&env, &["doc", "watch", &doc]);
    assert_eq!(watching.line()["event"], "current");
    env.run(&["doc", "delete", &doc, "--yes"]).ok();
    assert_eq!(watching.line()["document"], "deleted");
    assert_eq!(watching.exit(), (0, String::new()));
}

#[test]
fn watch_polls_a_server_without_the_event_stream_and_says_so() {
    let env = Env::start_with(ServerOptions {
        events: false,
        ..ServerOptions::default()
    });
    let doc = env.new_doc("Polled");
    let mut watching = Watching::start(&env, &["doc", "watch", &doc, "--once", "--poll", "0.1"]);
    let current = watching.line();
    assert_eq!(current["event"], "current");
    assert_eq!(current["polled"], true);
    env.run(&["doc", "rename", &doc, "Renamed"]).ok();
    let change = watching.line();
    assert_eq!(change["event"], "change");
    assert_ne!(change["lastChange"], current["lastChange"]);
    let (code, stderr) = watching.exit();
    assert_eq!(code, 0);
    assert!(stderr.contains("no event stream"), "{stderr}");
    assert!(stderr.contains("polling"), "{stderr}");
}

#[test]
fn watching_a_document_that_is_not_there_fails_with_its_error() {
    let env = Env::start();
    let out = env.run(&["doc", "watch", "no-such-doc"]).fails(1);
    assert!(out.stderr.contains("DOC_NOT_FOUND"), "{out:?}");
}
