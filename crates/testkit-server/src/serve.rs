//! A server as a child process (`diagtui serve`, or another program that announces itself the
//! same way): started, and its address read from its first line, `listening on URL`. The
//! process is held in a [`Guard`], which kills it when dropped: a test that panics halfway
//! leaves no server running.

use std::io::{BufRead, BufReader};
use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use diagtui_server::data_dir::KEY_FILE;
use tempfile::TempDir;

use diagtui_testkit::Bin;

/// A child process killed and reaped when dropped (also while a panic unwinds); otherwise
/// the [`Child`] it derefs to. Stopping it earlier (`kill`, or a signal and `wait`) is fine:
/// killing a process already reaped does nothing.
#[derive(Debug)]
pub struct Guard(Child);

impl Guard {
    /// Spawns `command` and guards the process.
    pub fn spawn(command: &mut Command) -> std::io::Result<Guard> {
        command.spawn().map(Guard)
    }
}

impl Deref for Guard {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl DerefMut for Guard {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A started server process and the URL it listens on; the process is killed when dropped.
pub struct Served {
    /// The process.
    pub child: Guard,
    /// Where it listens: `http://127.0.0.1:PORT`.
    pub url: String,
}

/// The lines a server writes on its stderr (piped by its command), as they come: read on a
/// thread of their own, so that waiting for one can give up.
pub struct StderrLines(mpsc::Receiver<String>);

impl StderrLines {
    /// Starts reading the stderr of `served`, whose command piped it.
    pub fn of(served: &mut Served) -> StderrLines {
        let stderr = served.child.stderr.take().expect("stderr piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        StderrLines(lines)
    }

    /// The lines from here up to and including the first that holds `text`; fails when none
    /// comes within a minute, with the lines read on the way.
    pub fn until(&self, text: &str) -> Vec<String> {
        let mut read = Vec::new();
        loop {
            match self.0.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    let found = line.contains(text);
                    read.push(line);
                    if found {
                        return read;
                    }
                }
                Err(e) => panic!("no line with {text:?} ({e}); the log said: {read:#?}"),
            }
        }
    }
}

/// Starts `command` with its stdout piped and reads its first line, `listening on URL`. Its
/// stderr goes where the command says; `RUST_LOG` is unset (so that it logs nothing per
/// request) unless the command sets it.
pub fn start(command: &mut Command) -> Served {
    let (child, lines) = announced(command, 1);
    let url = address(&lines[0], "listening on ");
    Served { child, url }
}

/// Like [`start`], for `serve --metrics-bind`: also reads its second line, `metrics on URL`,
/// and returns that URL beside.
pub fn start_metered(command: &mut Command) -> (Served, String) {
    let (child, lines) = announced(command, 2);
    let url = address(&lines[0], "listening on ");
    let metrics = address(&lines[1], "metrics on ");
    (Served { child, url }, metrics)
}

/// Starts `command` (see [`start`]) and reads the first `count` lines of its stdout.
fn announced(command: &mut Command, count: usize) -> (Guard, Vec<String>) {
    if command.get_envs().all(|(name, _)| name != "RUST_LOG") {
        command.env_remove("RUST_LOG");
    }
    let mut child = Guard::spawn(command.stdout(Stdio::piped())).expect("the server starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let lines = (0..count)
        .map(|_| {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("a line of stdout");
            line
        })
        .collect();
    (child, lines)
}

/// The loopback URL a line announces after `prefix`.
fn address(line: &str, prefix: &str) -> String {
    let url = line
        .trim_end()
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("expected {prefix:?}, got {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    url
}

/// `diagtui serve` on the data dir `dir`, its stderr dropped.
pub fn serve(bin: &Bin, dir: &Path) -> Served {
    start(bin.serve_command(dir).stderr(Stdio::null()))
}

/// `diagtui serve` on a data dir with the default account's key; killed on drop.
pub struct Server {
    /// The process (dropped, so killed, before the temp dir is removed).
    pub child: Guard,
    /// Where it listens.
    pub url: String,
    /// The data dir's API key.
    pub key: String,
    /// The temp dir holding the data dir, when the server made it.
    _dir: Option<TempDir>,
}

impl Server {
    /// Starts `bin serve` on `data` with `args` besides, its stderr dropped, and waits until
    /// it listens.
    pub fn start(bin: &Bin, data: &Path, args: &[&str]) -> Server {
        Server::launch(bin, data, args, None)
    }

    /// Like [`Server::start`], on a data dir of a new temp dir (removed when dropped).
    pub fn start_temp(bin: &Bin, args: &[&str]) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        Server::launch(bin, &data, args, Some(dir))
    }

    fn launch(bin: &Bin, data: &Path, args: &[&str], dir: Option<TempDir>) -> Server {
        let Served { child, url } = start(bin.serve_command(data).args(args).stderr(Stdio::null()));
        Server {
            child,
            url,
            key: key_of(data),
            _dir: dir,
        }
    }

    /// `--url … --api-key …` then `args`.
    pub fn args<'a>(&'a self, args: &[&'a str]) -> Vec<&'a str> {
        let mut all = vec!["--url", &self.url, "--api-key", &self.key];
        all.extend_from_slice(args);
        all
    }
}

/// The API key of a data dir's default account, from its key file.
pub fn key_of(data: &Path) -> String {
    std::fs::read_to_string(data.join(KEY_FILE))
        .expect("the key file")
        .trim()
        .to_owned()
}
