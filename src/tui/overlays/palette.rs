//! The command palette (`:`): every action available where it was opened, with its key, and
//! every document by title; typing narrows them fuzzily (the matched letters highlighted),
//! `Enter` runs the highlighted one.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::tui::action::Action;
use crate::tui::component::{Component, Cx};
use crate::tui::fuzzy::{self, Hit};
use crate::tui::input::LineInput;
use crate::tui::keys::{Command, Context};
use crate::tui::list::ListCursor;
use crate::tui::theme::Role;
use crate::tui::widgets::{highlighted, hint_line, input_spans, overlay_box, selected_line};

/// Width of the box.
const WIDTH: u16 = 76;
/// Width of the keys column.
const KEYS: usize = 16;

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
        /// What it does.
        description: &'static str,
    },
    /// Open a document.
    Open(crate::model::DocSummary),
}

impl Entry {
    /// The text typing matches.
    fn text(&self) -> String {
        match self {
            Entry::Command { description, .. } => description.to_string(),
            Entry::Open(doc) => format!("open {}", doc.title),
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
    texts: Vec<String>,
    input: LineInput,
    hits: Vec<Hit>,
    cursor: ListCursor,
}

impl Palette {
    /// A palette of `entries`, all shown until something is typed.
    pub fn new(entries: Vec<Entry>) -> Palette {
        let texts = entries.iter().map(Entry::text).collect();
        let mut palette = Palette {
            entries,
            texts,
            input: LineInput::default(),
            hits: Vec::new(),
            cursor: ListCursor::default(),
        };
        palette.rank();
        palette
    }

    fn rank(&mut self) {
        self.hits = fuzzy::rank(self.input.text(), self.texts.iter().map(String::as_str));
        self.cursor.set_len(self.hits.len());
        self.cursor.select(0);
    }
}

impl Component for Palette {
    fn context(&self) -> Context {
        Context::Search
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match command {
            Command::Pick => match self.hits.get(self.cursor.selected()) {
                Some(hit) => vec![Action::Close, self.entries[hit.index].run()],
                None => Vec::new(),
            },
            Command::Cancel => vec![Action::Close],
            Command::Down => {
                self.cursor.step(1);
                Vec::new()
            }
            Command::Up => {
                self.cursor.step(-1);
                Vec::new()
            }
            Command::Erase => {
                self.input.clear();
                self.rank();
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        if self.input.handle(key) {
            self.rank();
        }
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        if self.input.paste(text) {
            self.rank();
        }
        Vec::new()
    }

    fn set_area(&mut self, area: Rect) {
        self.cursor
            .set_rows(usize::from(area.height.saturating_sub(6)).clamp(1, 16));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let width = usize::from(WIDTH.min(area.width)) - 2;
        let mut prompt = vec![Span::styled(":", cx.style(Role::Key))];
        prompt.extend(input_spans(&self.input, cx.theme));
        let mut lines = vec![
            Line::from(prompt),
            Line::styled(
                format!("{} of {}", self.hits.len(), self.entries.len()),
                cx.style(Role::Dim),
            ),
        ];
        for i in self.cursor.visible() {
            let hit = &self.hits[i];
            let keys = match &self.entries[hit.index] {
                Entry::Command { keys, .. } => keys.as_str(),
                Entry::Open(_) => "",
            };
            let mut spans = vec![Span::styled(format!("{keys:<KEYS$} "), cx.style(Role::Key))];
            spans.extend(highlighted(
                &self.texts[hit.index],
                &hit.positions,
                width.saturating_sub(KEYS + 1),
                cx.theme,
            ));
            let line = Line::from(spans);
            lines.push(if i == self.cursor.selected() {
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
        let height = lines.len() as u16 + 2;
        overlay_box(frame, area, " Commands ", lines, (WIDTH, height), cx.theme);
    }
}
