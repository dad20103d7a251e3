//! Running `diagtui serve` (or another server that announces itself the same way) as a child
//! process for the benchmarks: the release binary clear of the machine's `DIAGTUI_*` settings,
//! on a temp data dir.

use std::io::{BufRead, BufReader};
use std::path::Path;
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

/// The binary with no `DIAGTUI_*` setting of the machine.
#[allow(
    dead_code,
    reason = "the server benches start their servers by start_listening only"
)]
pub fn command(bin: &Path) -> Command {
    let mut command = Command::new(bin);
    command
        .env_remove("DIAGTUI_URL")
        .env_remove("DIAGTUI_API_KEY")
        .env_remove("DIAGTUI_DATA_DIR")
        .env("DIAGTUI_CONFIG", "/dev/null");
    command
}

/// `diagtui serve` on a data dir, with a body limit far above the document; killed on drop.
#[allow(
    dead_code,
    reason = "the server benches start their servers by start_listening only"
)]
pub struct Server {
    child: Child,
    /// Where it listens.
    pub url: String,
    /// The data dir's API key.
    pub key: String,
}

#[allow(
    dead_code,
    reason = "the server benches start their servers by start_listening only"
)]
impl Server {
    /// Starts `bin serve` on `data` and waits until it listens.
    pub fn start(bin: &Path, data: &Path) -> Server {
        let (child, url) = start_listening(
            command(bin)
                .args(["--data-dir", data.to_str().unwrap(), "serve"])
                .args(["--bind", "127.0.0.1:0", "--max-body", "268435456"]),
        );
        let key = std::fs::read_to_string(data.join(diagtui::server::data_dir::KEY_FILE)).unwrap();
        Server {
            child,
            url,
            key: key.trim().to_owned(),
        }
    }

    /// `--url … --api-key …` then `args`.
    pub fn args<'a>(&'a self, args: &[&'a str]) -> Vec<&'a str> {
        let mut all = vec!["--url", &self.url, "--api-key", &self.key];
        all.extend_from_slice(args);
        all
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// `diagtui serve` on a new temp data dir, with `args` besides: the child, its URL, the default
/// account's key and the dir (removed when dropped).
#[allow(dead_code, reason = "benches/ceiling.rs starts its servers itself")]
pub fn serve_temp(args: &[&str]) -> (Child, String, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let (child, url) = start_listening(
        Command::new(env!("CARGO_BIN_EXE_diagtui"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .arg("--data-dir")
            .arg(&data),
    );
    let key = std::fs::read_to_string(data.join("api-key"))
        .expect("key file")
        .trim()
        .to_owned();
    (child, url, key, dir)
}
