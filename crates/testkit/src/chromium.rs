//! Headless Chromium for the embed tests: found on the machine (`CHROMIUM`, else `chromium` or
//! `chromium-browser` on the `PATH`), a screenshot of a page, and a page kept open and asked
//! about through the DevTools protocol over a pipe (`--remote-debugging-pipe`: JSON messages
//! ended by a NUL byte, written to the browser's fd 3 and read from its fd 4).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

/// The browser window's size, in pixels.
pub const WINDOW: (u32, u32) = (800, 600);

/// Chromium's path, if it is installed; `None` (after a note) when it is not, which fails under
/// CI, where `.ci/run` installs it.
pub fn find() -> Option<PathBuf> {
    let named = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let on_path = ["chromium", "chromium-browser"]
        .into_iter()
        .find_map(|name| {
            let out = Command::new("which").arg(name).output().ok()?;
            let path = String::from_utf8(out.stdout).ok()?;
            (out.status.success() && !path.trim().is_empty()).then(|| PathBuf::from(path.trim()))
        });
    let found = named.or(on_path);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no Chromium was found (chromium, or CHROMIUM)"
        );
        eprintln!(
            "note: no Chromium found: the browser tests are skipped (install chromium, or set \
             CHROMIUM, to run them)"
        );
    }
    found
}

/// A headless Chromium command with a profile of its own in `profile`.
fn headless(chromium: &Path, profile: &Path) -> Command {
    let mut command = Command::new(chromium);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .arg(format!("--user-data-dir={}", profile.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// A screenshot of the page at `url` once it has loaded, as PNG bytes.
pub fn screenshot(chromium: &Path, url: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("shot.png");
    let status = headless(chromium, &dir.path().join("profile"))
        .arg(format!("--screenshot={}", out.display()))
        .arg(url)
        .status()
        .expect("chromium runs");
    assert!(status.success(), "chromium --screenshot {url}: {status}");
    std::fs::read(&out).expect("the screenshot")
}

/// A page open in a headless Chromium, asked about through the DevTools protocol. The browser
/// is killed when it is dropped.
pub struct Page {
    child: Child,
    to_browser: File,
    from_browser: BufReader<File>,
    session: String,
    next_id: u64,
    _profile: TempDir,
}

/// A pipe's two ends, read and write, closed on exec.
#[allow(unsafe_code, reason = "FFI: pipe2, and descriptors from it")]
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `pipe2` writes two new descriptors into the array it is given, which we own.
    let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(made, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just made and belong to nothing else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Page {
    /// Opens `url` in a new headless Chromium.
    #[allow(unsafe_code, reason = "FFI: dup2 and fcntl between fork and exec")]
    pub fn open(chromium: &Path, url: &str) -> Page {
        use std::os::fd::AsRawFd;
        let profile = tempfile::tempdir().expect("temp dir");
        let (browser_reads, we_write) = pipe();
        let (we_read, browser_writes) = pipe();
        let (reads, writes) = (browser_reads.as_raw_fd(), browser_writes.as_raw_fd());
        let mut command = headless(chromium, profile.path());
        command.arg("--remote-debugging-pipe").arg("about:blank");
        // SAFETY: between fork and exec this only calls async-signal-safe functions (dup2,
        // fcntl) on descriptors the parent keeps open until the spawn returns.
        unsafe {
            command.pre_exec(move || {
                for (from, to) in [(reads, 3), (writes, 4)] {
                    if libc::dup2(from, to) < 0 || libc::fcntl(to, libc::F_SETFD, 0) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop((browser_reads, browser_writes));
        let mut page = Page {
            child,
            to_browser: File::from(we_write),
            from_browser: BufReader::new(File::from(we_read)),
            session: String::new(),
            next_id: 0,
            _profile: profile,
        };
        let target = page.call(None, "Target.createTarget", json!({"url": url}));
        let target = target["targetId"].as_str().expect("a target id").to_owned();
        let attach = json!({"targetId": target, "flatten": true});
        let attached = page.call(None, "Target.attachToTarget", attach);
        page.session = attached["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        page
    }

    /// Sends a command (to the page's session when `session`) and waits for its result.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).expect("JSON");
        bytes.push(0);
        self.to_browser
            .write_all(&bytes)
            .expect("the browser reads its pipe");
        loop {
            let mut answer = Vec::new();
            let read = self
                .from_browser
                .read_until(0, &mut answer)
                .expect("the browser's pipe reads");
            assert!(read > 0, "the browser closed its pipe during {method}");
            answer.pop();
            let answer: Value = serde_json::from_slice(&answer).expect("a JSON message");
            if answer["id"] == id {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression evaluated in the page.
    pub fn eval(&mut self, expression: &str) -> Value {
        let session = self.session.clone();
        let params = json!({"expression": expression, "returnByValue": true});
        let result = self.call(Some(&session), "Runtime.evaluate", params);
        result["result"]["value"].clone()
    }

    /// Evaluates `expression` until it is `true`, for at most `patience`; panics naming `what`
    /// otherwise.
    pub fn wait_for(&mut self, expression: &str, patience: Duration, what: &str) {
        let deadline = Instant::now() + patience;
        while self.eval(expression) != json!(true) {
            assert!(Instant::now() < deadline, "{what}: not within {patience:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}
