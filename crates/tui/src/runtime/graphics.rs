//! Asking the terminal at start whether it shows pictures, and how large its cells are in
//! pixels: `[map] graphics` (`auto` by default) decides, the answer sets how the map draws
//! (`App::use_graphics`). Called once, in raw mode, before the event loop reads the input.
//!
//! The query is `ratatui-image`'s (the kitty graphics query, the primary device attributes,
//! whose `4` says sixel, the cell size, then a device status report every terminal answers);
//! its answers are read here, from the terminal with a deadline, rather than by
//! `ratatui-image`'s `Picker::from_query_stdio`: that reads on a thread it leaves blocked on
//! the input when the terminal does not answer (the thread would then swallow the first key),
//! and it turns tmux's passthrough on by itself. Here a terminal that has not answered within
//! [`ANSWER_WITHIN`] gets braille, and what it answers within a little longer is discarded.
//!
//! tmux passes pictures on only with `allow-passthrough` on: without it (its default) the
//! map stays braille unless the setting names a protocol; with it, the query and the pictures
//! go through to the terminal tmux runs in.

#![allow(
    unsafe_code,
    reason = "FFI: select, tcflush and ioctl on the terminal; openpty in the tests"
)]

use std::fs::File;
#[cfg(unix)]
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::fd::AsRawFd;
use std::process::{Command, Stdio};
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;

#[cfg(unix)]
use ratatui_image::picker::cap_parser::{Parser, QueryStdioOptions, Response};

use crate::document::picture::{Graphics, PixelProtocol};
use crate::settings::GraphicsSetting;

/// How long the terminal has to answer the query.
pub const ANSWER_WITHIN: Duration = Duration::from_millis(1000);

/// The cell size assumed for a protocol named in the settings when the terminal tells none.
const ASSUMED_CELL: (u16, u16) = (10, 20);

/// What the terminal answered.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Answer {
    kitty: bool,
    sixel: bool,
    /// Pixels across and down a cell.
    cell: Option<(u16, u16)>,
}

/// How the map shows pixels on this terminal under `setting`; `None`: braille.
pub fn detect(setting: GraphicsSetting) -> Option<Graphics> {
    let named = match setting {
        GraphicsSetting::Off => return None,
        GraphicsSetting::Auto => None,
        GraphicsSetting::Kitty => Some(PixelProtocol::Kitty),
        GraphicsSetting::Sixel => Some(PixelProtocol::Sixel),
        GraphicsSetting::Iterm2 => Some(PixelProtocol::Iterm2),
    };
    let tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
    if tmux && named.is_none() && !tmux_passes_through() {
        tracing::info!("in tmux without allow-passthrough: the map draws braille");
        return None;
    }
    let mut tty = File::options()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()?;
    let answer = ask(&mut tty, tmux);
    tracing::info!(?answer, ?named, tmux, "the terminal's graphics");
    let protocol = named
        .or_else(|| answer.and_then(chosen))
        .or_else(iterm2_by_name)?;
    let cell = answer
        .and_then(|a| a.cell)
        .or_else(|| cell_of_window(&tty))
        .or(named.map(|_| ASSUMED_CELL))?;
    Some(Graphics {
        protocol,
        cell,
        tmux,
    })
}

/// The protocol a terminal's answer offers: kitty's first (it places pictures exactly), then
/// sixel.
fn chosen(answer: Answer) -> Option<PixelProtocol> {
    if answer.kitty {
        Some(PixelProtocol::Kitty)
    } else if answer.sixel {
        Some(PixelProtocol::Sixel)
    } else {
        None
    }
}

/// iTerm2 and WezTerm answer no query for their inline images; they say who they are.
fn iterm2_by_name() -> Option<PixelProtocol> {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let program = var("TERM_PROGRAM");
    (program.contains("iTerm") || program.contains("WezTerm") || var("LC_TERMINAL") == "iTerm2")
        .then_some(PixelProtocol::Iterm2)
}

/// Whether the tmux pane we run in passes escape sequences through (`allow-passthrough` on).
fn tmux_passes_through() -> bool {
    Command::new("tmux")
        .args(["show-options", "-Apv", "allow-passthrough"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|out| {
            let value = String::from_utf8_lossy(&out.stdout);
            matches!(value.trim(), "on" | "all")
        })
}

/// Sends the query and reads the answers until the status report that ends them, for at most
/// [`ANSWER_WITHIN`]; `None` when the terminal did not answer in time (what comes in the next
/// 200 ms is discarded).
#[cfg(unix)]
fn ask(tty: &mut File, tmux: bool) -> Option<Answer> {
    let query = Parser::query(tmux, QueryStdioOptions::default());
    tty.write_all(query.as_bytes()).ok()?;
    tty.flush().ok()?;
    let deadline = Instant::now() + ANSWER_WITHIN;
    let mut parser = Parser::new();
    let mut answer = Answer::default();
    let mut bytes = [0u8; 256];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if !readable(tty, left) {
            discard_late_answers(tty);
            return None;
        }
        let read = tty.read(&mut bytes).ok().filter(|&n| n > 0)?;
        for &byte in &bytes[..read] {
            for response in parser.push(char::from(byte)) {
                match response {
                    Response::Status => return Some(answer),
                    Response::Kitty => answer.kitty = true,
                    Response::Sixel => answer.sixel = true,
                    Response::CellSize(cell) => answer.cell = cell,
                    _ => {}
                }
            }
        }
    }
}

/// Whether `tty` has input within `wait`. By select(2): macOS's poll(2) does not take a
/// terminal device.
#[cfg(unix)]
fn readable(tty: &File, wait: Duration) -> bool {
    let fd = tty.as_raw_fd();
    if usize::try_from(fd).map_or(true, |fd| fd >= libc::FD_SETSIZE) {
        return false;
    }
    let mut timeout = libc::timeval {
        tv_sec: libc::time_t::try_from(wait.as_secs()).unwrap_or(libc::time_t::MAX),
        // Under a million: it fits any platform's suseconds_t.
        tv_usec: wait.subsec_micros() as libc::suseconds_t,
    };
    // SAFETY: a zeroed fd_set is an empty one; fd is an open descriptor below FD_SETSIZE;
    // select only reads and writes the set and the timeout.
    unsafe {
        let mut set = std::mem::zeroed::<libc::fd_set>();
        libc::FD_ZERO(&mut set);
        libc::FD_SET(fd, &mut set);
        let null = std::ptr::null_mut();
        libc::select(fd + 1, &mut set, null, null, &mut timeout) > 0 && libc::FD_ISSET(fd, &set)
    }
}

/// A terminal that answers after the deadline would type its answer into the app: what
/// arrives a little longer is thrown away.
#[cfg(unix)]
fn discard_late_answers(tty: &File) {
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: tcflush on an open terminal's descriptor only drops its pending input.
    unsafe {
        libc::tcflush(tty.as_raw_fd(), libc::TCIFLUSH);
    }
}

/// The cell size the terminal reports for its window (pixels over cells), if it does.
#[cfg(unix)]
fn cell_of_window(tty: &File) -> Option<(u16, u16)> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ fills the winsize it is given.
    let done = unsafe { libc::ioctl(tty.as_raw_fd(), libc::TIOCGWINSZ, &mut size) };
    let known = done == 0 && size.ws_col > 0 && size.ws_row > 0 && size.ws_xpixel > 0;
    (known && size.ws_ypixel > 0)
        .then(|| (size.ws_xpixel / size.ws_col, size.ws_ypixel / size.ws_row))
        .filter(|&(across, down)| across > 0 && down > 0)
}

/// Elsewhere than on Unix the terminal is not asked: braille, unless the setting names a
/// protocol.
#[cfg(not(unix))]
fn ask(_tty: &mut File, _tmux: bool) -> Option<Answer> {
    None
}

/// Elsewhere than on Unix the cell size is not known from the window.
#[cfg(not(unix))]
fn cell_of_window(_tty: &File) -> Option<(u16, u16)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    use std::os::fd::{FromRawFd, OwnedFd};

    /// A pseudo-terminal in raw mode: the side the app reads (as `/dev/tty`), and the
    /// terminal's side.
    #[cfg(unix)]
    fn pty() -> (File, File) {
        let (mut app, mut terminal) = (0, 0);
        // SAFETY: openpty fills the two descriptors; null name, settings and size are allowed.
        let made = unsafe {
            libc::openpty(
                &mut terminal,
                &mut app,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(made, 0, "openpty");
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (app, terminal) = unsafe {
            (
                File::from(OwnedFd::from_raw_fd(app)),
                File::from(OwnedFd::from_raw_fd(terminal)),
            )
        };
        // SAFETY: a termios read from the descriptor, made raw, written back.
        unsafe {
            let mut modes = std::mem::zeroed::<libc::termios>();
            assert_eq!(libc::tcgetattr(app.as_raw_fd(), &mut modes), 0);
            libc::cfmakeraw(&mut modes);
            assert_eq!(libc::tcsetattr(app.as_raw_fd(), libc::TCSANOW, &modes), 0);
        }
        (app, terminal)
    }

    #[cfg(unix)]
    #[test]
    fn a_sixel_terminals_answers_are_read_up_to_its_status_report() {
        let (mut app, mut terminal) = pty();
        let answering = std::thread::spawn(move || {
            // The query ends with the status report's request, `ESC [ 5 n`.
            let mut query = Vec::new();
            let mut byte = [0u8; 1];
            while !query.ends_with(b"\x1b[5n") {
                terminal.read_exact(&mut byte).unwrap();
                query.push(byte[0]);
            }
            terminal
                .write_all(b"\x1b[?63;1;4;22c\x1b[6;20;10t\x1b[0n")
                .unwrap();
            (query, terminal)
        });
        let answer = ask(&mut app, false);
        let (query, _terminal) = answering.join().unwrap();
        assert!(query.starts_with(b"\x1b_G"), "the kitty query first");
        let sixel = Answer {
            kitty: false,
            sixel: true,
            cell: Some((10, 20)),
        };
        assert_eq!(answer, Some(sixel));
        assert_eq!(answer.and_then(chosen), Some(PixelProtocol::Sixel));
    }

    #[cfg(unix)]
    #[test]
    fn a_terminal_that_does_not_answer_gets_braille_within_the_deadline() {
        let (mut app, _terminal) = pty();
        let started = Instant::now();
        assert_eq!(ask(&mut app, false), None);
        let took = started.elapsed();
        assert!(took >= ANSWER_WITHIN, "it waited for the answer: {took:?}");
        assert!(took < ANSWER_WITHIN * 5, "and no longer: {took:?}");
        assert!(!readable(&app, Duration::ZERO), "nothing left to read");
    }

    #[test]
    fn off_asks_nothing_and_draws_braille() {
        assert_eq!(detect(GraphicsSetting::Off), None);
    }

    #[test]
    fn kitty_is_chosen_over_sixel_and_an_answer_without_either_gives_braille() {
        let both = Answer {
            kitty: true,
            sixel: true,
            cell: Some((9, 18)),
        };
        assert_eq!(chosen(both), Some(PixelProtocol::Kitty));
        let sixel = Answer {
            kitty: false,
            ..both
        };
        assert_eq!(chosen(sixel), Some(PixelProtocol::Sixel));
        assert_eq!(chosen(Answer::default()), None);
    }
}
