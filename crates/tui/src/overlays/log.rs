//! The request log: every request of the session, newest first, with its status, latency and
//! error (never the key), one row each (cut with `…` at the box's edge), and between them every
//! message the status bar showed, whole; the newest lines only, the title saying how many older
//! ones are in the log file.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::keys::{Command, Context};
use crate::requests::ledger::{LogEntry, LogLine};
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::overlay_box;

/// The log view; its cursor's offset is the first entry shown, counted from the newest.
#[derive(Debug, Default)]
pub struct LogView {
    view: ListCursor,
}

impl Component for LogView {
    fn context(&self) -> Context {
        Context::Log
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        match self.view.step_of(command) {
            Some(step) => {
                self.view.set_len(cx.requests.log().len());
                self.view.scroll(step);
                Vec::new()
            }
            None if command == Command::Close => vec![Action::Close],
            None => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.view
            .set_rows(usize::from(area.height.saturating_sub(3)));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let log = cx.requests.log();
        // A request is one row, cut with `…` where the box ends (messages wrap, read whole).
        let inner = usize::from(area.width.min(BOX.0)).saturating_sub(2);
        let path = inner.saturating_sub(FIXED + ERROR_ROOM).clamp(12, 58);
        let mut lines = vec![Line::styled(
            clip(
                &format!(
                    "{:<5} {:<path$} {:>6} {:>8}  error",
                    "", "path", "status", "ms"
                ),
                inner,
            ),
            cx.style(Role::Dim),
        )];
        lines.extend(
            log.iter()
                .rev()
                .skip(self.view.offset().min(log.len().saturating_sub(1)))
                .map(|line| match line {
                    LogLine::Request(entry) => request_line(entry, (path, inner), cx),
                    LogLine::Message(message) => {
                        let (mark, role) = message.level.look();
                        let mark = if mark.is_empty() { "·" } else { mark };
                        Line::styled(format!("{mark:<5} {}", message.text), cx.style(role))
                    }
                }),
        );
        if log.is_empty() {
            lines.push(Line::raw("nothing yet"));
        }
        let close = cx
            .keys
            .binding(Context::Log, Command::Close)
            .map(|b| b.keys_text())
            .unwrap_or_default();
        let gone = cx.requests.gone();
        let title = if gone == 0 {
            " Request log ".to_owned()
        } else {
            format!(" Request log ({gone} older lines in the log file) ")
        };
        let footer = vec![Line::styled(format!("{close}: close"), cx.style(Role::Dim))];
        overlay_box(frame, area, &title, (lines, footer), BOX, cx.theme);
    }
}

/// The log's box at most: columns, rows.
const BOX: (u16, u16) = (100, 30);

/// Columns a request's row takes besides its path and error: method, status, latency, gaps.
const FIXED: usize = 5 + 1 + 1 + 6 + 1 + 8 + 2;

/// Columns kept for the error before the path takes more than its least.
const ERROR_ROOM: usize = 16;

/// A request's row: method, path (in `path` columns), status, latency, error; cut to `width`.
fn request_line(entry: &LogEntry, (path, width): (usize, usize), cx: &Cx) -> Line<'static> {
    let status = entry.status.map_or("…".to_string(), |s| {
        if s == 0 { "—".into() } else { s.to_string() }
    });
    let latency = entry.latency.map_or(String::new(), |l| {
        format!("{:.1}", l.as_secs_f64() * 1000.0)
    });
    let style = match entry.status {
        Some(200) => ratatui::style::Style::new(),
        None => cx.style(Role::Dim),
        Some(_) => cx.style(Role::Error),
    };
    let row = format!(
        "{:<5} {:<path$} {:>6} {:>8}  {}",
        entry.method,
        clip(&entry.path, path),
        status,
        latency,
        entry.error.clone().unwrap_or_default()
    );
    Line::styled(clip(&row, width), style)
}
