//! The release binary as the benches run it: clear of the machine's `DIAGTUI_*` settings, and
//! `diagtui serve` on a temp data dir with a body limit far above the documents.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The binary with no `DIAGTUI_*` setting of the machine.
pub fn command(bin: &Path) -> Command {
    let mut command = Command::new(bin);
    command
        .env_remove("DIAGTUI_URL")
        .env_remove("DIAGTUI_API_KEY")
        .env_remove("DIAGTUI_DATA_DIR")
        .env("DIAGTUI_CONFIG", "/nonexistent/diagtui/config.toml");
    command
}

/// `diagtui serve` on a data dir, with a body limit far above the document; killed on drop.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub url: String,
    /// The data dir's API key.
    pub key: String,
}

impl Server {
    /// Starts `bin serve` on `data` and waits until it listens.
    pub fn start(bin: &Path, data: &Path) -> Server {
        let mut child = command(bin)
            .args(["--data-dir", data.to_str().unwrap(), "serve"])
            .args(["--bind", "127.0.0.1:0", "--max-body", "268435456"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_owned();
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
