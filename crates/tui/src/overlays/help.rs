//! The help: every action of every pane and overlay from the key table, with its keys, its name
//! and what it does, grouped by where it works: first what works where it was opened, then
//! everything else (the palette, `:`, runs those from the panes). Scrolled with the movement
//! keys and searched with the filter key (`/`: the rows whose keys, name or description hold
//! what is typed, under their headings); any other key closes it.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context, KeyTable};
use crate::theme::{Role, Theme};
use crate::vocab::action::{Action, Component, Cx};
use crate::widgets::input::Filter;
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{filter_line, hint_line, scrolled_box, wrapped_rows};

/// Width of the box.
const WIDTH: u16 = 80;
/// Width of the keys column.
const KEYS: usize = 18;
/// Width of the names column.
const NAME: usize = 18;

/// One entry of the help.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Row {
    /// A context's heading.
    Heading(String),
    /// Keys, the action's name and what it does.
    Keys(String, &'static str, &'static str),
}

/// The help, as seen from one context.
#[derive(Debug)]
pub struct Help {
    rows: Vec<Row>,
    /// Characters a description has on one line.
    room: usize,
    view: ListCursor,
    /// What the rows are searched for.
    filter: Filter,
}

impl Help {
    /// The help opened in `context`, as `keys` has it: each context that applies there, with
    /// its keys (and the mouse in the panes), then every other context's.
    pub fn new(context: Context, keys: &KeyTable) -> Help {
        let here = context.lineage();
        let mut rows = Vec::new();
        let mut elsewhere = false;
        for (c, own) in keys.grouped(context) {
            if !elsewhere && !here.contains(&c) {
                elsewhere = true;
                if here.contains(&Context::Global) {
                    rows.push(Row::Keys(
                        "mouse".into(),
                        "",
                        "click selects and focuses, the wheel scrolls",
                    ));
                }
                rows.push(Row::Heading(
                    "Elsewhere (the palette runs these from the panes):".into(),
                ));
            }
            rows.push(Row::Heading(format!(
                "{} [keys.{}]",
                capitalised(c.title()),
                c.name()
            )));
            rows.extend(
                own.iter()
                    .map(|b| Row::Keys(b.keys_text(), b.command.name(), b.description)),
            );
        }
        let mut help = Help {
            rows,
            room: usize::from(WIDTH) - 2 - KEYS - NAME,
            view: ListCursor::default(),
            filter: Filter::default(),
        };
        help.view.set_len(help.lines(&Theme::plain()).len());
        help
    }

    /// The rows the search keeps: those whose keys, name or description hold the filter's text
    /// (case ignored), each under its heading; all of them when nothing is searched.
    fn shown(&self) -> Vec<&Row> {
        let wanted = self.filter.text().trim().to_lowercase();
        if wanted.is_empty() {
            return self.rows.iter().collect();
        }
        let mut out = Vec::new();
        let mut heading = None;
        for row in &self.rows {
            match row {
                Row::Heading(_) => heading = Some(row),
                Row::Keys(keys, name, description) => {
                    let hit = keys.to_lowercase().contains(&wanted)
                        || name.contains(&wanted)
                        || description.to_lowercase().contains(&wanted);
                    if hit {
                        out.extend(heading.take());
                        out.push(row);
                    }
                }
            }
        }
        out
    }

    /// The lines to show, the descriptions wrapped under themselves.
    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if self.filter.shown() {
            out.push(filter_line(&self.filter, self.room + KEYS, theme));
        }
        let shown = self.shown();
        if shown.is_empty() {
            out.push(Line::styled("no key matches", theme.of(Role::Dim)));
        }
        for row in shown {
            match row {
                Row::Heading(text) => out.push(Line::styled(text.clone(), theme.of(Role::Strong))),
                Row::Keys(keys, name, description) => {
                    for (i, part) in wrap(description, self.room.max(10)).into_iter().enumerate() {
                        let (keys, name) = if i == 0 {
                            (keys.as_str(), *name)
                        } else {
                            ("", "")
                        };
                        out.push(Line::from(vec![
                            Span::styled(
                                format!("  {keys:<w$} ", w = KEYS - 3),
                                theme.of(Role::Key),
                            ),
                            Span::styled(format!("{name:<w$} ", w = NAME - 1), theme.of(Role::Dim)),
                            Span::raw(part),
                        ]));
                    }
                }
            }
        }
        out
    }
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

impl Help {
    /// The list follows what the search keeps, from its top.
    fn relist(&mut self) {
        let len = self.lines(&Theme::plain()).len();
        self.view.set_len(len);
        self.view.select(0);
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Component for Help {
    fn context(&self) -> Context {
        if self.filter.typing() {
            Context::Filter
        } else {
            Context::Help
        }
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.view.step_of(command) {
            self.view.scroll(step);
            return Vec::new();
        }
        let typing = self.filter.typing();
        if (typing || command == Command::Filter) && self.filter.command(command).is_some() {
            self.relist();
            return Vec::new();
        }
        if typing {
            Vec::new()
        } else {
            vec![Action::Close]
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        if !self.filter.typing() {
            return vec![Action::Close];
        }
        if self.filter.key(key) {
            self.relist();
        }
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        if self.filter.paste(text) {
            self.relist();
        }
        Vec::new()
    }

    fn set_area(&mut self, area: Rect) {
        self.room = usize::from(WIDTH.min(area.width)).saturating_sub(2 + KEYS + NAME);
        let len = self.lines(&Theme::plain()).len();
        self.view.set_len(len);
        self.view
            .set_rows(usize::from(area.height.saturating_sub(3)));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let all = self.lines(cx.theme);
        let height = all.len() as u16 + 3;
        // The view counts lines; a long description wraps, so the box scrolls by the rows the
        // lines above the view take, and at the last line it shows the end whole.
        let inner = WIDTH.min(area.width).saturating_sub(2);
        let offset = self.view.offset();
        let scroll = if offset + self.view.visible().len() >= all.len() {
            usize::MAX
        } else {
            wrapped_rows(&all[..offset.min(all.len())], inner)
        };
        let close = cx
            .keys
            .binding(Context::Help, Command::Close)
            .map(|b| b.keys_text())
            .unwrap_or_default();
        let footer = vec![hint_line(
            format!(
                "{close} or any other key closes · {} {}: scroll · {}: search",
                cx.key(Context::Move, Command::Down),
                cx.key(Context::Move, Command::Up),
                cx.key(Context::Help, Command::Filter)
            ),
            cx.theme,
        )];
        scrolled_box(
            frame,
            area,
            " Keys ",
            (all, footer),
            (WIDTH, height),
            scroll,
            cx.theme,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_wrap_between_words() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("short", 20), vec!["short"]);
    }
}
