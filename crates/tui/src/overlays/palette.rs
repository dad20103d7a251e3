//! The command palette (`:`): every action of every pane and overlay, with its key and its name
//! (the one `config.toml` uses), those that work where it was opened first and the others
//! followed by where they work; then every document by title. Typing narrows them fuzzily by
//! name, description and place (the matched letters highlighted), an action whose name is what
//! was typed first, then those whose name starts with it; `Enter` runs the highlighted one (App
//! goes to its pane first, or says where it works).

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::overlays::search::{Outcome, Search};
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::widgets::pieces::{highlighted, hint_line, input_spans, overlay_box, selected_line};
use diagtui_model::DocSummary;

/// Width of the box.
const WIDTH: u16 = 76;
/// Width of the keys column.
const KEYS: usize = 16;
/// Width of the names column.
const NAME: usize = 17;

/// One thing the palette can run.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A command, as if its key were pressed in `context`.
    Command {
        /// Where it runs.
        context: Context,
        /// What it runs.
        command: Command,
        /// Its keys, as shown.
        keys: String,
        /// Its name in `config.toml`.
        name: &'static str,
        /// What it does.
        description: &'static str,
        /// Where it works, when that is not where the palette was opened.
        elsewhere: Option<&'static str>,
    },
    /// Open a document.
    Open(DocSummary),
}

impl Entry {
    /// The text typing matches, as shown: the name in its column, then the description.
    fn text(&self) -> String {
        match self {
            Entry::Command {
                name,
                description,
                elsewhere: None,
                ..
            } => format!("{name:<w$} {description}", w = NAME - 1),
            Entry::Command {
                name,
                description,
                elsewhere: Some(place),
                ..
            } => format!("{name:<w$} {place}: {description}", w = NAME - 1),
            Entry::Open(doc) => format!("open {}", doc.title),
        }
    }

    /// The action's name, which ranks it first when typed whole or begun.
    fn name(&self) -> Option<&'static str> {
        match self {
            Entry::Command { name, .. } => Some(name),
            Entry::Open(_) => None,
        }
    }

    /// What choosing it does.
    fn run(&self) -> Action {
        match self {
            Entry::Command {
                context, command, ..
            } => Action::Run(*context, *command),
            Entry::Open(doc) => Action::OpenDoc(doc.clone()),
        }
    }
}

/// The palette.
#[derive(Debug)]
pub struct Palette {
    entries: Vec<Entry>,
    search: Search,
}

impl Palette {
    /// A palette of `entries`, all shown until something is typed.
    pub fn new(entries: Vec<Entry>) -> Palette {
        let search = Search::new(entries.iter().map(Entry::text).collect(), 16)
            .named(entries.iter().map(Entry::name).collect());
        Palette { entries, search }
    }
}

impl Component for Palette {
    fn context(&self) -> Context {
        Context::Search
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match self.search.command(command) {
            Some(Outcome::Picked(index)) => vec![Action::Close, self.entries[index].run()],
            Some(Outcome::Cancelled) => vec![Action::Close],
            Some(Outcome::Typed) | None => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        self.search.key(key);
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        self.search.paste(text);
        Vec::new()
    }

    fn set_area(&mut self, area: Rect) {
        self.search
            .set_rows(usize::from(area.height.saturating_sub(6)).clamp(1, 16));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let width = usize::from(WIDTH.min(area.width)) - 2;
        let mut prompt = vec![Span::styled(":", cx.style(Role::Key))];
        prompt.extend(input_spans(self.search.input(), width - 1, cx.theme));
        let (shown, all) = self.search.counts();
        let mut lines = vec![
            Line::from(prompt),
            Line::styled(format!("{shown} of {all}"), cx.style(Role::Dim)),
        ];
        for row in self.search.rows() {
            let keys = match &self.entries[row.index] {
                Entry::Command { keys, .. } => keys.as_str(),
                Entry::Open(_) => "",
            };
            let mut spans = vec![Span::styled(format!("{keys:<KEYS$} "), cx.style(Role::Key))];
            spans.extend(highlighted(
                row.text,
                row.positions,
                width.saturating_sub(KEYS + 1),
                cx.theme,
            ));
            let line = Line::from(spans);
            lines.push(if row.selected {
                selected_line(line, width, cx.style(Role::Selected))
            } else {
                line
            });
        }
        lines.push(hint_line(
            cx.keys.hint(
                Context::Search,
                &[(Command::Pick, "run"), (Command::Cancel, "close")],
            ),
            cx.theme,
        ));
        let footer = lines.split_off(lines.len() - 1);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Commands ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}
