//! Running `diagtui serve` (or another server that announces itself the same way) as a child
//! process for the server benchmarks.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts `command` with its stdout piped and reads its first line, `listening on URL`;
/// returns the child and the URL. `RUST_LOG` is unset so that it logs nothing per request.
pub fn start_listening(command: &mut Command) -> (Child, String) {
    let mut child = command
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("its first line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_owned();
    (child, url)
}
