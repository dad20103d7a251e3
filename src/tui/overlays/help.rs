//! The help: every key that works where it was opened, from the key table, scrolled with the
//! movement keys; any other key closes it.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::tui::action::Action;
use crate::tui::component::{Component, Cx};
use crate::tui::keys::{Command, Context, KeyTable};
use crate::tui::list::ListCursor;
use crate::tui::theme::{Role, Theme};
use crate::tui::widgets::overlay_box;

/// Width of the box.
const WIDTH: u16 = 80;
/// Width of the keys column.
const KEYS: usize = 24;

/// One entry of the help.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Row {
    /// A context's heading.
    Heading(String),
    /// Keys and what they do.
    Keys(String, &'static str),
}

/// The help for one context.
#[derive(Debug)]
pub struct Help {
    rows: Vec<Row>,
    /// Characters a description has on one line.
    room: usize,
    view: ListCursor,
}

impl Help {
    /// The help of `context`, as `keys` has it: each context it inherits, with its keys, then
    /// the mouse.
    pub fn new(context: Context, keys: &KeyTable) -> Help {
        let mut rows = Vec::new();
        for c in context.lineage() {
            let own: Vec<_> = keys.own(c).collect();
            if own.is_empty() {
                continue;
            }
            rows.push(Row::Heading(format!(
                "{} [keys.{}]",
                capitalised(c.title()),
                c.name()
            )));
            rows.extend(own.iter().map(|b| Row::Keys(b.keys_text(), b.description)));
        }
        if context.lineage().contains(&Context::Global) {
            rows.push(Row::Keys(
                "mouse".into(),
                "click selects and focuses, the wheel scrolls",
            ));
        }
        let mut help = Help {
            rows,
            room: usize::from(WIDTH) - 2 - KEYS,
            view: ListCursor::default(),
        };
        help.view.set_len(help.lines(&Theme::plain()).len());
        help
    }

    /// The lines to show, the descriptions wrapped under themselves.
    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        for row in &self.rows {
            match row {
                Row::Heading(text) => out.push(Line::styled(text.clone(), theme.of(Role::Strong))),
                Row::Keys(keys, description) => {
                    for (i, part) in wrap(description, self.room.max(10)).into_iter().enumerate() {
                        let keys = if i == 0 { keys.as_str() } else { "" };
                        out.push(Line::from(vec![
                            Span::styled(
                                format!("  {keys:<w$}", w = KEYS - 2),
                                theme.of(Role::Key),
                            ),
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

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Component for Help {
    fn context(&self) -> Context {
        Context::Help
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match self.view.step_of(command) {
            Some(step) => {
                self.view.scroll(step);
                Vec::new()
            }
            None => vec![Action::Close],
        }
    }

    fn key(&mut self, _key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        vec![Action::Close]
    }

    fn set_area(&mut self, area: Rect) {
        self.room = usize::from(WIDTH.min(area.width)).saturating_sub(2 + KEYS);
        let len = self.lines(&Theme::plain()).len();
        self.view.set_len(len);
        self.view
            .set_rows(usize::from(area.height.saturating_sub(2)));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let all = self.lines(cx.theme);
        let height = all.len() as u16 + 2;
        let shown: Vec<Line> = all.into_iter().skip(self.view.offset()).collect();
        let close = cx
            .keys
            .binding(Context::Help, Command::Close)
            .map(|b| b.keys_text())
            .unwrap_or_default();
        let title = format!(
            " Keys ({close} or any other key closes; {} {} scroll) ",
            cx.key(Context::Move, Command::Down),
            cx.key(Context::Move, Command::Up)
        );
        overlay_box(frame, area, &title, shown, (WIDTH, height), cx.theme);
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
