//! A real terminal that shows pictures, for the TUI's pixels: xterm as a VT340 (sixel, 256
//! colour registers) on a virtual X display of its own (Xvfb), typed into by `xdotool`, and
//! looked at by ImageMagick's `import`. Debian's packages (`xvfb xterm xdotool imagemagick`),
//! which `.ci/run` installs.
//!
//! Where one is missing, [`Xterm::start`] gives `None` and the test skips with a note, except
//! under CI (`CI` set), where a missing one is a failure.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The programs a terminal test needs.
const TOOLS: [&str; 4] = ["Xvfb", "xterm", "xdotool", "import"];

/// How long anything awaited may take (polled, not timed).
const PATIENCE: Duration = Duration::from_secs(60);

/// Xvfb and an xterm on it running a command, both killed on drop.
pub struct Xterm {
    display: String,
    xvfb: Child,
    xterm: Child,
}

/// A screenshot: 8-bit RGB pixels, row by row.
pub struct Screenshot {
    /// Pixels across.
    pub width: usize,
    /// Pixels down.
    pub height: usize,
    /// Three bytes a pixel.
    pub rgb: Vec<u8>,
}

impl Screenshot {
    /// How many pixels of the rectangle from (`x0`, `y0`) to (`x1`, `y1`) (exclusive) are
    /// within `tolerance` of `colour` in each channel.
    pub fn count(
        &self,
        (x0, y0, x1, y1): (usize, usize, usize, usize),
        colour: [u8; 3],
        tolerance: u8,
    ) -> usize {
        let mut found = 0;
        for y in y0..y1.min(self.height) {
            for x in x0..x1.min(self.width) {
                let at = (y * self.width + x) * 3;
                let near = (0..3).all(|c| self.rgb[at + c].abs_diff(colour[c]) <= tolerance);
                found += usize::from(near);
            }
        }
        found
    }

    /// The screenshot as a binary PPM file (what [`ppm`] reads).
    pub fn ppm(&self) -> Vec<u8> {
        let mut file = format!("P6\n{} {}\n255\n", self.width, self.height).into_bytes();
        file.extend_from_slice(&self.rgb);
        file
    }
}

impl Xterm {
    /// Starts a display and an xterm of `columns` × `rows` (a sixel VT340) running `program`
    /// with `args` and `env`; `None` when the tools are not installed outside CI.
    pub fn start(
        program: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        (columns, rows): (u16, u16),
    ) -> Option<Xterm> {
        let missing: Vec<&str> = TOOLS.into_iter().filter(|tool| !installed(tool)).collect();
        if !missing.is_empty() {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} missing; CI installs them, so this is a failure there",
                missing.join(", ")
            );
            eprintln!(
                "{} not installed (Debian: xvfb xterm xdotool imagemagick): skipping this \
                 terminal test",
                missing.join(", ")
            );
            return None;
        }
        let number = (90..400)
            .find(|n| {
                !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                    && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
            })
            .expect("a free display number");
        let display = format!(":{number}");
        let xvfb = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let socket = format!("/tmp/.X11-unix/X{number}");
        wait_until("the display", || Path::new(&socket).exists());
        let geometry = format!("{columns}x{rows}+0+0");
        let open = || {
            Command::new("xterm")
                .env("DISPLAY", &display)
                .envs(env.iter().copied())
                .args(["-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256"])
                .args(["-geometry", &geometry, "-e"])
                .arg(program)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("xterm starts")
        };
        let xterm = open();
        let mut terminal = Xterm {
            display: display.clone(),
            xvfb,
            xterm,
        };
        // Its window shown, then given the keys (either may take a moment on a busy machine).
        // An xterm started while the test run is busy sometimes cannot open the display that
        // answers xdotool, and quits ("Can't open display"): it is started again, twice at most.
        let deadline = Instant::now() + PATIENCE;
        let mut starts = 1;
        let window = loop {
            let found = terminal.try_xdotool(&["search", "--onlyvisible", "--class", "xterm"]);
            if let Some(first) = found.as_deref().and_then(|f| f.lines().next()) {
                break first.to_owned();
            }
            if let Ok(Some(status)) = terminal.xterm.try_wait() {
                assert!(starts < 3, "xterm quit {starts} times, the last {status}");
                terminal.xterm = open();
                starts += 1;
            }
            assert!(
                Instant::now() < deadline,
                "waited too long for xterm's window"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        wait_until("the focus on xterm", || {
            terminal
                .try_xdotool(&["windowfocus", "--sync", &window])
                .is_some()
        });
        Some(terminal)
    }

    /// Runs `xdotool` on this display; its output.
    fn xdotool(&self, args: &[&str]) -> String {
        self.try_xdotool(args)
            .unwrap_or_else(|| panic!("xdotool {args:?} failed"))
    }

    /// Runs `xdotool` on this display; its output, `None` when it fails.
    fn try_xdotool(&self, args: &[&str]) -> Option<String> {
        xdotool_on(&self.display, args)
    }

    /// Presses keys by their X names (`Return`, `plus`, `v`), in the xterm (which has the
    /// focus: nothing else runs on the display).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["key"];
        args.extend_from_slice(keys);
        self.xdotool(&args);
    }

    /// The whole display, as `import` sees it.
    pub fn screenshot(&self) -> Screenshot {
        let out = Command::new("import")
            .env("DISPLAY", &self.display)
            .args(["-window", "root", "-depth", "8", "ppm:-"])
            .output()
            .expect("import runs");
        assert!(out.status.success(), "import: {out:?}");
        ppm(&out.stdout)
    }

    /// Waits (polling screenshots) until `good` holds for one; returns it. When it never does,
    /// the last one is kept in the temporary directory (its path in the failure) for whoever
    /// looks into it.
    pub fn wait_for_screen(&self, what: &str, good: impl Fn(&Screenshot) -> bool) -> Screenshot {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let shot = self.screenshot();
            if good(&shot) {
                return shot;
            }
            if Instant::now() >= deadline {
                let name: String = (what.chars())
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .collect();
                let kept = std::env::temp_dir().join(format!("diagtui-xterm-{name}.ppm"));
                let saved = match std::fs::write(&kept, shot.ppm()) {
                    Ok(()) => format!("the last screenshot is {}", kept.display()),
                    Err(e) => format!("the last screenshot could not be kept: {e}"),
                };
                panic!("the screen never showed {what} ({saved})");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Xterm {
    fn drop(&mut self) {
        let _ = self.xterm.kill();
        let _ = self.xterm.wait();
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
    }
}

/// Runs `xdotool` on `display`; its output, `None` when it fails.
fn xdotool_on(display: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool runs");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `tool` is on the `PATH`.
fn installed(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// Polls `done` until it holds, failing after [`PATIENCE`].
pub fn wait_until(what: &str, done: impl Fn() -> bool) {
    wait_until_else(what, done, String::new);
}

/// Polls `done` until it holds, failing after [`PATIENCE`] with what `context` tells then (the
/// end of a log, say).
pub fn wait_until_else(what: &str, done: impl Fn() -> bool, context: impl Fn() -> String) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited too long for {what}{}",
            context()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Reads a binary PPM (`P6`, 8 bits a channel).
fn ppm(bytes: &[u8]) -> Screenshot {
    // The header: P6, width, height, the largest value, each after white space (no comments
    // from `import`), then one white space byte and the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P6", "a binary PPM");
    assert_eq!(fields[3], "255", "8 bits a channel");
    let (width, height): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let rgb = bytes[at + 1..].to_vec();
    assert_eq!(rgb.len(), width * height * 3, "the pixels");
    Screenshot { width, height, rgb }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screenshot_kept_as_ppm_reads_back_the_same() {
        let shot = Screenshot {
            width: 2,
            height: 1,
            rgb: vec![1, 2, 3, 10, 32, 255],
        };
        let back = ppm(&shot.ppm());
        assert_eq!((back.width, back.height), (2, 1));
        assert_eq!(back.rgb, shot.rgb);
    }
}
