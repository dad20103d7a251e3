//! The binary end to end: the `diagtui` binary as a process against the local server on an
//! ephemeral port (or in local mode on a temp data dir): the scripting commands, `diagtui keys`,
//! and the TUI where the binary's own parts reach it (the config file, local mode).

mod create_diagram;
mod docs;
mod embeds;
mod history;
mod keys;
mod objects;
mod ops;
mod render;
mod settings;
mod terminal;
mod transfer;
mod tui_config;
mod tui_pictures;
mod watch;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use diagtui_server::{LocalServer, ServerOptions};
use diagtui_testkit::Bin;
use diagtui_testkit_server::Local;
use serde_json::Value;
use tokio::runtime::Runtime;

/// A local server running on its own runtime while the test thread runs the binary.
pub struct Env {
    /// The running server and its temp dir (dropped before the runtime).
    local: Option<Local>,
    rt: Runtime,
}

impl Env {
    /// Starts a fresh server.
    pub fn start() -> Env {
        Env::start_with(ServerOptions::default())
    }

    /// Starts a fresh server with these settings.
    pub fn start_with(options: ServerOptions) -> Env {
        let rt = Runtime::new().unwrap();
        let local = rt.block_on(Local::start_with(options));
        Env {
            local: Some(local),
            rt,
        }
    }

    /// The running server.
    pub fn server(&self) -> &LocalServer {
        &self.local.as_ref().unwrap().server
    }

    /// The temp dir: the server's data dir (`data`), and room for files.
    pub fn dir(&self) -> &Path {
        self.local.as_ref().unwrap().dir.path()
    }

    /// Runs `diagtui --url … --api-key … ARGS`.
    pub fn run(&self, args: &[&str]) -> Out {
        self.run_with_stdin(args, None)
    }

    /// Runs `diagtui --url … --api-key … ARGS` with `stdin` piped in.
    pub fn run_with_stdin(&self, args: &[&str], stdin: Option<&str>) -> Out {
        let server = self.server();
        let mut all = vec!["--url", server.url(), "--api-key", server.api_key()];
        all.extend_from_slice(args);
        run(&all, stdin, &[])
    }

    /// Writes a file in the temp dir and returns its path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.dir().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// Makes a document and returns its id.
    pub fn new_doc(&self, title: &str) -> String {
        let out = self.run(&["doc", "create", title]).ok();
        out.json()["docId"].as_str().unwrap().to_owned()
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        if let Some(local) = self.local.take() {
            self.rt.block_on(local.server.shutdown());
        }
    }
}

/// What a run of the binary gave.
#[derive(Debug)]
pub struct Out {
    /// The exit code.
    pub code: i32,
    /// Everything on stdout.
    pub stdout: String,
    /// Everything on stderr.
    pub stderr: String,
}

impl Out {
    /// Asserts exit 0 and an empty stderr.
    pub fn ok(self) -> Out {
        assert_eq!(self.code, 0, "{self:?}");
        assert_eq!(self.stderr, "", "{self:?}");
        self
    }

    /// Asserts the exit code and one line on stderr, starting `diagtui: `, and nothing on stdout.
    pub fn fails(self, code: i32) -> Out {
        assert_eq!(self.code, code, "{self:?}");
        assert_eq!(self.stdout, "", "{self:?}");
        assert!(self.stderr.starts_with("diagtui: "), "{self:?}");
        assert_eq!(self.stderr.lines().count(), 1, "{self:?}");
        self
    }

    /// Stdout as JSON, which must be compact: one line.
    pub fn json(&self) -> Value {
        assert_eq!(self.stdout.lines().count(), 1, "not compact: {self:?}");
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {self:?}"))
    }
}

/// The binary with ARGS, clear of any `DIAGTUI_*` setting of the machine running the tests.
pub fn command(args: &[&str]) -> Command {
    let mut command = Bin::new(env!("CARGO_BIN_EXE_diagtui")).command();
    command.args(args);
    command
}

/// Runs the binary with ARGS, an optional stdin and extra environment, clear of any
/// `DIAGTUI_*` setting of the machine running the tests.
pub fn run(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Out {
    let mut command = command(args);
    command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let output = child.wait_with_output().unwrap();
    Out {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}
