//! The status bar's message and its lifetime: an information fades after a few seconds; a
//! warning or an error stays until the user's next key, paste or click (or a newer message).
//! Time comes in as the app's ticks, never from a clock. Every message is also kept in the log
//! (`L`), which the app writes it to. Also the bar itself ([`Bar`]): the connection, the account,
//! the requests in flight, an unreachable server and the message, on one or two rows.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::keys::{Command, Context, KeyTable};
use crate::text::notification::{Level, Notification};
use crate::theme::{Role, Theme};

/// Ticks an information shows: 40 of the runner's 120 ms ticks, about five seconds.
pub const INFO_TICKS: u64 = 40;

/// The message the status bar shows, and since when.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Status {
    current: Option<Notification>,
    since: u64,
}

impl Status {
    /// Shows `notification` from tick `now` on.
    pub fn show(&mut self, notification: Notification, now: u64) {
        self.current = Some(notification);
        self.since = now;
    }

    /// The message shown, if any.
    pub fn current(&self) -> Option<&Notification> {
        self.current.as_ref()
    }

    /// Time passed: an information shown for [`INFO_TICKS`] goes.
    pub fn tick(&mut self, now: u64) {
        if self.fading() && now.wrapping_sub(self.since) >= INFO_TICKS {
            self.current = None;
        }
    }

    /// Whether the message will go by itself (an information): the screen must be drawn again as
    /// time passes.
    pub fn fading(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|n| n.level == Level::Info)
    }

    /// The user did something: a warning or an error has been seen and goes.
    pub fn user_acted(&mut self) {
        if !self.fading() {
            self.current = None;
        }
    }

    /// Takes an error off (a retry is under way).
    pub fn clear_error(&mut self) {
        if self
            .current
            .as_ref()
            .is_some_and(|n| n.level == Level::Error)
        {
            self.current = None;
        }
    }
}

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

/// What the status bar shows, read off the app (`App::status_bar`).
pub(crate) struct Bar<'a> {
    /// The connection (`local …`, `remote …`).
    pub mode: &'a str,
    /// The account's e-mail, once known.
    pub account: Option<&'a str>,
    /// The requests in flight.
    pub in_flight: usize,
    /// The app's tick now (the spinner turns with it).
    pub tick: u64,
    /// When the next try to reach a server that stopped answering is, if one stopped.
    pub offline: Option<String>,
    /// The message shown, if any.
    pub message: Option<&'a Notification>,
    /// The looks.
    pub theme: &'a Theme,
    /// The keys (a message cut short names the log's).
    pub keys: &'a KeyTable,
}

impl Bar<'_> {
    /// The status bar's parts: what it always says (connection, account, requests in flight, when
    /// the next try to reach a server that stopped answering is), then the last message, if any.
    fn parts(&self) -> (Vec<Span<'static>>, Option<Span<'static>>) {
        let theme = self.theme;
        let mut spans = vec![
            Span::styled(format!(" {} ", self.mode), theme.of(Role::Badge)),
            Span::raw(" "),
            Span::styled(
                self.account.unwrap_or("…").to_string(),
                theme.of(Role::Strong),
            ),
            Span::raw(" "),
        ];
        let in_flight = self.in_flight;
        if in_flight > 0 {
            let frame_index = (self.tick % SPINNER.len() as u64) as usize;
            spans.push(Span::styled(
                format!("{} {in_flight} ", SPINNER[frame_index]),
                theme.of(Role::Spinner),
            ));
        }
        if let Some(offline) = &self.offline {
            spans.push(Span::styled(
                format!("! {offline} "),
                theme.of(Role::Warning),
            ));
        }
        let message = self.message.map(|message| {
            let (mark, role) = message.level.look();
            let text = match mark {
                "" => message.text.clone(),
                mark => format!("{mark} {}", message.text),
            };
            Span::styled(text, theme.of(role))
        });
        (spans, message)
    }
    /// The status bar's rows on a screen `width` columns wide: two while its message does not fit
    /// on one (an error is read whole, with its code), else one.
    pub fn rows(&self, width: u16) -> u16 {
        let (mut spans, message) = self.parts();
        spans.extend(message);
        if wrap(&spans, usize::from(width)).len() > 1 {
            2
        } else {
            1
        }
    }

    /// The status bar ([`Bar::parts`]) on its one or two rows, broken between words. A message
    /// longer than that is cut after a word and ends by naming the key of the log, which shows
    /// it whole.
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let (mut spans, message) = self.parts();
        let (width, height) = (usize::from(area.width), usize::from(area.height).max(1));
        let mut rows = Vec::new();
        if let Some(message) = message {
            spans.push(message.clone());
            rows = wrap(&spans, width);
            if rows.len() > height {
                let tail = format!(
                    "… ({} shows it whole)",
                    self.keys.key(Context::Global, Command::Log)
                );
                let words: Vec<&str> = message.content.split(' ').collect();
                for kept in (0..words.len()).rev() {
                    let cut = format!("{}{tail}", words[..kept].join(" "));
                    *spans.last_mut().expect("the message") = Span::styled(cut, message.style);
                    rows = wrap(&spans, width);
                    if rows.len() <= height {
                        break;
                    }
                }
            }
        }
        if rows.is_empty() {
            rows = vec![Line::from(spans)];
        }
        rows.truncate(height);
        frame.render_widget(Paragraph::new(rows), area);
    }
}

/// `spans` in rows of `width` columns, a row ending after its last space rather than inside a
/// word; only a word as long as a third of a row is cut where the row ends.
fn wrap(spans: &[Span<'static>], width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let chars: Vec<(char, Style)> = spans
        .iter()
        .flat_map(|span| span.content.chars().map(move |c| (c, span.style)))
        .collect();
    let mut rows: Vec<Vec<(char, Style)>> = vec![Vec::new()];
    for (i, &(c, style)) in chars.iter().enumerate() {
        let row = rows.last_mut().expect("there is a row");
        if row.len() == width {
            if c == ' ' {
                // The row ends at a word's end: the space between is not carried.
                rows.push(Vec::new());
                continue;
            }
            // A word as long as a third of the row (an e-mail, a path) is broken where the
            // row ends rather than leave a wide gap; a shorter one goes whole to the next row.
            let carried = match row.iter().rposition(|(c, _)| *c == ' ') {
                Some(at) => {
                    let rest = chars[i..].iter().take_while(|(c, _)| *c != ' ').count();
                    let word = width - at - 1 + rest;
                    if word < width / 3 {
                        row.split_off(at + 1)
                    } else {
                        Vec::new()
                    }
                }
                None => Vec::new(),
            };
            rows.push(carried);
        }
        rows.last_mut().expect("there is a row").push((c, style));
    }
    rows.into_iter()
        .map(|row| {
            let mut line: Vec<Span<'static>> = Vec::new();
            for (c, style) in row {
                match line.last_mut() {
                    Some(last) if last.style == style => last.content.to_mut().push(c),
                    _ => line.push(Span::styled(c.to_string(), style)),
                }
            }
            Line::from(line)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rows: &[Line]) -> Vec<String> {
        rows.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_bar_breaks_between_words_never_inside_one() {
        let spans = vec![Span::raw(
            " local /d  me@x.org saved 2 properties (u undoes)",
        )];
        let rows = texts(&wrap(&spans, 40));
        assert_eq!(
            rows,
            [" local /d  me@x.org saved 2 properties ", "(u undoes)"]
        );
        let rows = texts(&wrap(&[Span::raw("HTTP 400 VALIDATION_ERROR: line 3")], 30));
        assert_eq!(rows, ["HTTP 400 VALIDATION_ERROR: ", "line 3"]);
        // A word as long as a third of the row is broken in place.
        let rows = texts(&wrap(
            &[Span::raw("to ghost.of.christmas.past@example.com")],
            30,
        ));
        assert_eq!(rows, ["to ghost.of.christmas.past@exa", "mple.com"]);
    }

    #[test]
    fn an_information_fades_and_an_error_stays_until_the_user_acts() {
        let mut status = Status::default();
        status.show(Notification::info("saved"), 10);
        status.tick(10 + INFO_TICKS - 1);
        assert!(status.current().is_some() && status.fading());
        status.tick(10 + INFO_TICKS);
        assert_eq!(status.current(), None);

        status.show(Notification::error("save failed"), 100);
        status.tick(100 + 10 * INFO_TICKS);
        assert_eq!(status.current(), Some(&Notification::error("save failed")));
        assert!(!status.fading());
        status.user_acted();
        assert_eq!(status.current(), None);

        status.show(Notification::info("copied"), 0);
        status.user_acted();
        assert!(
            status.current().is_some(),
            "an information waits for its time"
        );
        status.show(Notification::warning("careful"), 0);
        status.clear_error();
        assert!(status.current().is_some(), "a retry clears errors only");
    }
}
