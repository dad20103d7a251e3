//! A search list: a query typed, the items ranked by it fuzzily, one highlighted. The command
//! palette and the componentId picker are each one, with their own items and drawing.

use crossterm::event::KeyEvent;

use crate::tui::fuzzy::{self, Hit};
use crate::tui::input::LineInput;
use crate::tui::keys::Command;
use crate::tui::list::ListCursor;

/// What a command did to the search, when it ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The item at this index (in the items given) was picked.
    Picked(usize),
    /// The search was left.
    Cancelled,
}

/// A search over a list of items.
#[derive(Debug)]
pub struct Search {
    input: LineInput,
    items: Vec<String>,
    hits: Vec<Hit>,
    cursor: ListCursor,
}

/// One row to draw: the item's index, the positions matched, whether it is highlighted.
pub struct Row<'a> {
    /// Index into the items.
    pub index: usize,
    /// The item's text.
    pub text: &'a str,
    /// Character positions the query matched.
    pub positions: &'a [usize],
    /// Whether it is the highlighted one.
    pub selected: bool,
}

impl Search {
    /// A search over `items`, all shown (in order) until something is typed, `rows` at a time.
    pub fn new(items: Vec<String>, rows: usize) -> Search {
        let mut search = Search {
            input: LineInput::default(),
            items,
            hits: Vec::new(),
            cursor: ListCursor::default(),
        };
        search.cursor.set_rows(rows);
        search.rank();
        search
    }

    fn rank(&mut self) {
        self.hits = fuzzy::rank(self.input.text(), self.items.iter().map(String::as_str));
        self.cursor.set_len(self.hits.len());
        self.cursor.select(0);
    }

    /// Carries out a command of the `search` context; the outcome when it ends the search.
    pub fn command(&mut self, command: Command) -> Option<Outcome> {
        match command {
            Command::Pick => {
                return self
                    .hits
                    .get(self.cursor.selected())
                    .map(|hit| Outcome::Picked(hit.index));
            }
            Command::Cancel => return Some(Outcome::Cancelled),
            Command::Down => self.cursor.step(1),
            Command::Up => self.cursor.step(-1),
            Command::Erase => {
                self.input.clear();
                self.rank();
            }
            _ => {}
        }
        None
    }

    /// A key typed into the query.
    pub fn key(&mut self, key: KeyEvent) {
        if self.input.handle(key) {
            self.rank();
        }
    }

    /// Text pasted into the query.
    pub fn paste(&mut self, text: &str) {
        if self.input.paste(text) {
            self.rank();
        }
    }

    /// How many rows show at once.
    pub fn set_rows(&mut self, rows: usize) {
        self.cursor.set_rows(rows);
    }

    /// The query.
    pub fn input(&self) -> &LineInput {
        &self.input
    }

    /// How many items match, of how many.
    pub fn counts(&self) -> (usize, usize) {
        (self.hits.len(), self.items.len())
    }

    /// The rows in view.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.cursor.visible().map(|i| {
            let hit = &self.hits[i];
            Row {
                index: hit.index,
                text: &self.items[hit.index],
                positions: &hit.positions,
                selected: i == self.cursor.selected(),
            }
        })
    }
}
