//! A tmux server of a test's own (its own socket), to run the binary in a real terminal and
//! read the screen: the CLI and TUI tests, the TUI binary's bench.
//!
//! Where tmux is missing, `Tmux::start` gives `None` and the test skips, except under CI (`CI`
//! set), where `.ci/run` installs tmux and a missing one is a failure.

use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux server with one window, killed on drop.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts a server named after `tag` with a `width` × `height` window running `command`
    /// (a shell when `None`); `None` when tmux is not installed outside CI.
    pub fn start(tag: &str, width: u16, height: u16, command: Option<&str>) -> Option<Tmux> {
        let socket = format!("diagtui-test-{}-{tag}", std::process::id());
        let (width, height) = (width.to_string(), height.to_string());
        let mut args = vec![
            "-L",
            &socket,
            "new-session",
            "-d",
            "-x",
            &width,
            "-y",
            &height,
        ];
        args.extend(command);
        let started = Command::new("tmux")
            .args(&args)
            .status()
            .is_ok_and(|s| s.success());
        if !started {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux could not start a session; CI installs it, so this is a failure there"
            );
            eprintln!("tmux is not installed: skipping this terminal test");
            return None;
        }
        Some(Tmux { socket })
    }

    /// Runs a tmux command on this server and returns its stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Sends keys (tmux key names, or `-l` and literal text).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// Types a line of text and presses Enter.
    pub fn type_line(&self, line: &str) {
        self.keys(&["-l", line]);
        self.keys(&["Enter"]);
    }

    /// The screen, with the scrollback and wrapped lines joined.
    pub fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-S", "-200"])
    }

    /// Waits (polling the screen, not timing anything) until it shows `text`; returns it once
    /// its frame is drawn whole ([`Tmux::settled`]).
    pub fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return self.settled(screen, text);
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The screen once it stops changing, still showing `text`: a terminal draws a frame in
    /// pieces, and `screen` (which shows `text`) may hold only the first of them, a dialog's
    /// title without its keys. Two captures alike a moment apart, or the last that showed
    /// `text` after a second (a screen that never rests, or whose `text` went away).
    fn settled(&self, mut screen: String, text: &str) -> String {
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(30));
            let again = self.screen();
            if again == screen || !again.contains(text) {
                break;
            }
            screen = again;
        }
        screen
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_caught_half_drawn_is_read_again_until_it_rests() {
        let Some(tmux) = Tmux::start("settled", 40, 5, Some("printf 'title\\nkeys\\n'; sleep 30"))
        else {
            println!("note: tmux is not installed: skipped");
            return;
        };
        tmux.wait_for("keys");
        // As if the first capture had caught the frame's first piece only.
        let screen = tmux.settled("title".to_owned(), "title");
        assert!(screen.contains("keys"), "{screen}");
    }
}
