//! A question and its answers: every "are you sure?" of the app (delete, empty, quit, drop
//! edits, replace a file, undo), the save diff, the bulk diff, the import report and the save
//! conflict. The component that asks prepares the actions of each answer; the question only
//! shows them and hands back the chosen ones. A body taller than the screen scrolls (the
//! movement keys); the answers always show under it, one of them highlighted: `Enter` takes
//! the highlighted answer, each answer's own key takes it at once. A destructive question
//! highlights its safe answer, so a stray `Enter` changes nothing. The screen's footer shows
//! the same answers and keys as the box ([`Question::keys_shown`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context, KeyTable};
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Component, Cx};
use crate::vocab::calls::Body;
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{diff_lines, hint_line, scroll_room, scrolled_box, sent_whole_note};
use diagtui_model::{ContentReport, DocSummary};

/// Objects listed in a bulk diff (the rest are counted).
const DIFF_OBJECTS: usize = 200;
/// Problems listed in the import report.
const PROBLEMS: usize = 12;
/// Width of the boxes that show data.
const WIDE: u16 = 90;

/// One key hint of a question, as its box and the screen's footer show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The keys (`n / Esc`).
    pub keys: String,
    /// What they do.
    pub label: String,
    /// Whether it is the answer `Enter` takes now.
    pub highlighted: bool,
}

/// A question shown: what was asked, and how far its body scrolls.
#[derive(Debug)]
pub struct Question {
    /// What it asks, its answers, and the answer `Enter` takes now.
    ask: Ask,
    /// The first row of the body shown.
    scroll: usize,
    /// The screen it is drawn on.
    area: Rect,
}

/// A question laid out on a screen: what it draws and how far its body scrolls.
struct Laid {
    body: Vec<Line<'static>>,
    footer: Vec<Line<'static>>,
    width: u16,
    room: usize,
    page: usize,
}

impl From<Ask> for Question {
    fn from(ask: Ask) -> Question {
        Question {
            ask,
            scroll: 0,
            area: Rect::default(),
        }
    }
}

impl Question {
    /// The answers and the keys that give them, then the keys that take and move the
    /// highlight: what the box's answers line and the screen's footer both show.
    pub fn keys_shown(&self, keys: &KeyTable) -> Vec<Shown> {
        let keys_of = |command| {
            keys.binding(self.ask.context, command)
                .map(|b| b.keys_text())
                .unwrap_or_else(|| command.name().to_string())
        };
        let mut shown: Vec<Shown> = self
            .ask
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| Shown {
                keys: keys_of(c.command),
                label: c.label.clone(),
                highlighted: i == self.ask.highlighted,
            })
            .collect();
        if self.ask.choices.len() > 1 {
            shown.push(Shown {
                keys: keys_of(Command::Pick),
                label: "highlighted".into(),
                highlighted: false,
            });
            let first = |command| {
                keys.binding(self.ask.context, command)
                    .and_then(|b| b.keys.first())
                    .map_or_else(|| command.name().to_string(), ToString::to_string)
            };
            shown.push(Shown {
                keys: format!(
                    "{}/{}",
                    first(Command::PrevChoice),
                    first(Command::NextChoice)
                ),
                label: "move".into(),
                highlighted: false,
            });
        }
        shown
    }

    /// The answers line: each answer as `keys: label` (the highlighted one reversed and marked
    /// `▸`), then the keys that take and move the highlight.
    fn answers_line(&self, cx: &Cx) -> Line<'static> {
        let mut spans = Vec::new();
        for item in self.keys_shown(cx.keys) {
            if !spans.is_empty() {
                spans.push(Span::styled(" · ", cx.style(Role::Dim)));
            }
            let text = format!("{}: {}", item.keys, item.label);
            spans.push(match item.highlighted {
                true => Span::styled(format!("▸ {text}"), cx.style(Role::Selected)),
                false => Span::styled(text, cx.style(Role::Dim)),
            });
        }
        Line::from(spans)
    }

    /// Whether its yes quits the app (a second Ctrl-C answers it).
    pub fn is_quit(&self) -> bool {
        self.ask
            .choices
            .iter()
            .any(|c| c.command == Command::Yes && matches!(c.actions[..], [Action::Quit]))
    }

    /// The lines of the body and the box's width, for a screen `room` columns wide.
    fn body_lines(&self, cx: &Cx, room: u16) -> (Vec<Line<'static>>, u16) {
        let inner = usize::from(WIDE.min(room)).saturating_sub(2);
        let strong = cx.style(Role::Strong);
        let dim = cx.style(Role::Dim);
        match &self.ask.body {
            Body::Text(text) => {
                // A sentence a little longer than the usual box gets a wider one, up to the
                // widest, rather than a second line.
                let width = (text.chars().count() + 2).clamp(60, usize::from(WIDE));
                (vec![Line::raw(text.clone())], width as u16)
            }
            Body::Listed {
                text,
                rows,
                more,
                after,
            } => {
                let mut lines = vec![Line::raw(text.clone())];
                lines.extend(rows.iter().map(|row| Line::raw(clip(row, inner))));
                if *more > 0 {
                    lines.push(Line::styled(format!("  … and {more} more"), dim));
                }
                lines.extend(after.iter().map(|a| Line::raw(a.clone())));
                (lines, WIDE)
            }
            Body::Diff {
                heading,
                diff,
                notes,
            } => {
                let mut lines = vec![Line::styled(heading.clone(), strong)];
                lines.extend(diff_lines(diff, "", cx.theme));
                lines.extend(sent_whole_note(&diff.sent_whole(), cx.theme));
                lines.extend(note_lines(notes, cx));
                (lines, WIDE)
            }
            Body::BulkDiff {
                heading,
                changes,
                notes,
            } => {
                let mut lines = vec![Line::styled(heading.clone(), strong)];
                let names = cx.names();
                let mut whole: Vec<&str> = Vec::new();
                for change in changes.iter().take(DIFF_OBJECTS) {
                    lines.push(names.of(&change.obj).row(inner, true, cx.theme));
                    lines.extend(diff_lines(&change.diff, "    ", cx.theme));
                    for key in change.diff.sent_whole() {
                        if !whole.contains(&key) {
                            whole.push(key);
                        }
                    }
                }
                if changes.len() > DIFF_OBJECTS {
                    lines.push(Line::styled(
                        format!("  … and {} more objects", changes.len() - DIFF_OBJECTS),
                        dim,
                    ));
                }
                lines.extend(sent_whole_note(&whole, cx.theme));
                lines.extend(note_lines(notes, cx));
                (lines, WIDE)
            }
            Body::Import { doc, path, report } => {
                (import_lines(doc, path, report, inner, cx), WIDE)
            }
        }
    }

    /// The answers, and a word on scrolling when the body does not fit.
    fn footer(&self, cx: &Cx, overflows: bool) -> Vec<Line<'static>> {
        let mut footer = Vec::new();
        if overflows {
            let keys = [
                Command::Up,
                Command::Down,
                Command::PageUp,
                Command::PageDown,
            ]
            .map(|c| cx.key(self.ask.context, c));
            footer.push(hint_line(format!("{}: scroll", keys.join(" ")), cx.theme));
        }
        footer.push(Line::raw(""));
        footer.push(self.answers_line(cx));
        footer
    }

    /// What it draws on a screen `area`: the body, the footer (with the word on scrolling when
    /// the body does not fit), the box's width, how far the body scrolls and a page of it.
    fn laid_out(&self, cx: &Cx, area: Rect) -> Laid {
        let (body, width) = self.body_lines(cx, area.width);
        // The answers fit on their line when the screen allows.
        let width = width
            .max(u16::try_from(self.answers_line(cx).width() + 2).unwrap_or(WIDE))
            .min(WIDE);
        let (room, _) = scroll_room(area, body.clone(), self.footer(cx, false), (width, 0));
        let footer = self.footer(cx, room > 0);
        let (room, page) = scroll_room(area, body.clone(), footer.clone(), (width, 0));
        Laid {
            body,
            footer,
            width,
            room,
            page,
        }
    }
}

/// The notes under a diff, as warnings.
fn note_lines(notes: &[String], cx: &Cx) -> Vec<Line<'static>> {
    notes
        .iter()
        .map(|note| Line::styled(format!("! {note}"), cx.style(Role::Warning)))
        .collect()
}

/// What an import file holds and every problem in it (cut to `width`), or why it is refused.
fn import_lines(
    doc: &DocSummary,
    path: &std::path::Path,
    report: &Result<ContentReport, String>,
    width: usize,
    cx: &Cx,
) -> Vec<Line<'static>> {
    let dim = cx.style(Role::Dim);
    let warning = cx.style(Role::Warning);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("file  ", dim),
            Span::raw(path.display().to_string()),
        ]),
        Line::from(vec![
            Span::styled("into  ", dim),
            Span::raw(format!("\"{}\" (replaces ALL its content)", doc.title)),
        ]),
        Line::raw(""),
    ];
    let refused = match report {
        Err(why) => Some(why.clone()),
        Ok(report) => {
            let counts: Vec<String> = report
                .counts
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{} objects: ", report.total()),
                    cx.style(Role::Strong),
                ),
                Span::raw(counts.join(" · ")),
            ]));
            if report.problems.is_empty() {
                lines.push(Line::styled("no problems found", cx.style(Role::Success)));
            } else {
                lines.push(Line::styled(
                    format!(
                        "{} problems (set-content does not validate; they would be stored as they are):",
                        report.problems.len()
                    ),
                    warning,
                ));
            }
            for problem in report.problems.iter().take(PROBLEMS) {
                lines.push(Line::styled(
                    clip(&format!("  ! {problem}"), width),
                    warning,
                ));
            }
            if report.problems.len() > PROBLEMS {
                lines.push(Line::styled(
                    format!("  … and {} more", report.problems.len() - PROBLEMS),
                    dim,
                ));
            }
            report.content.is_none().then(|| {
                "some entries are not {type, data} objects; set-content cannot take them".into()
            })
        }
    };
    if let Some(why) = refused {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("✗ refused: {why}"),
            cx.style(Role::Error)
                .add_modifier(ratatui::style::Modifier::BOLD),
        ));
    }
    lines
}

impl Component for Question {
    fn context(&self) -> Context {
        self.ask.context
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        let Laid { room, page, .. } = self.laid_out(cx, self.area);
        let mut cursor = ListCursor::default();
        cursor.set_rows(page);
        if let Some(step) = cursor.step_of(command) {
            self.scroll = self.scroll.min(room).saturating_add_signed(step).min(room);
            return Vec::new();
        }
        let count = self.ask.choices.len().max(1);
        let chosen = match command {
            Command::NextChoice | Command::PrevChoice => {
                let step = if command == Command::NextChoice {
                    1
                } else {
                    count - 1
                };
                self.ask.highlighted = (self.ask.highlighted + step) % count;
                return Vec::new();
            }
            Command::Pick => self.ask.choices.get_mut(self.ask.highlighted),
            _ => self.ask.choices.iter_mut().find(|c| c.command == command),
        };
        match chosen {
            Some(choice) => {
                let mut actions = vec![Action::Close];
                actions.append(&mut choice.actions);
                actions
            }
            None => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let laid = self.laid_out(cx, area);
        scrolled_box(
            frame,
            area,
            &format!(" {} ", self.ask.title),
            (laid.body, laid.footer),
            (laid.width, 0),
            self.scroll.min(laid.room),
            cx.theme,
        );
    }
}
