//! A search list: a query typed, the items ranked by it fuzzily, one highlighted. The command
//! palette and the componentId picker are each one, with their own items and drawing. A search
//! may offer the query itself as a last row (the componentId picker: an id not in the
//! catalogue).

use crossterm::event::KeyEvent;

use crate::keys::Command;
use crate::widgets::fuzzy::{self, Hit};
use crate::widgets::input::LineInput;
use crate::widgets::list::ListCursor;
use crate::widgets::typing::Typed;

/// What a command did to the search, when it ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The item at this index (in the items given) was picked.
    Picked(usize),
    /// The last row, the query itself, was picked.
    Typed,
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
    /// Whether the query is offered as a last row when it is not an item.
    offers_typed: bool,
    /// A name for each item (or none): an item whose name is the query ranks first, then
    /// those whose name starts with it.
    names: Vec<Option<&'static str>>,
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
            offers_typed: false,
            names: Vec::new(),
        };
        search.cursor.set_rows(rows);
        search.rank();
        search
    }

    /// The same search, offering the query as a last row when it is not one of the items.
    pub fn offering_typed(mut self) -> Search {
        self.offers_typed = true;
        self.rank();
        self
    }

    /// The same search, ranking first the items whose name (`names`, one per item) is the
    /// query, then those whose name starts with it, each in the items' order; the rest by how
    /// well they match.
    pub fn named(mut self, names: Vec<Option<&'static str>>) -> Search {
        self.names = names;
        self.rank();
        self
    }

    fn rank(&mut self) {
        self.hits = fuzzy::rank(self.input.text(), self.items.iter().map(String::as_str));
        let typed = self.input.text().trim().to_lowercase();
        if !typed.is_empty() && !self.names.is_empty() {
            let names = &self.names;
            // Among the names typed or begun, the items' own order (the palette's: what works
            // here first).
            self.hits
                .sort_by_key(|hit| match names.get(hit.index).copied().flatten() {
                    Some(name) if name == typed => (0, hit.index),
                    Some(name) if name.starts_with(&typed) => (1, hit.index),
                    _ => (2, 0),
                });
        }
        self.cursor
            .set_len(self.hits.len() + usize::from(self.typed_row()));
        self.cursor.select(0);
    }

    /// Whether the query shows as a last row: offered, typed, and not one of the items.
    pub fn typed_row(&self) -> bool {
        let typed = self.input.text().trim();
        self.offers_typed && !typed.is_empty() && !self.items.iter().any(|i| i == typed)
    }

    /// Whether the last row, the query, is highlighted.
    pub fn typed_selected(&self) -> bool {
        self.typed_row() && self.cursor.selected() == self.hits.len()
    }

    /// Carries out a command of the `search` context; the outcome when it ends the search.
    pub fn command(&mut self, command: Command) -> Option<Outcome> {
        match command {
            Command::Pick if self.typed_selected() => return Some(Outcome::Typed),
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
            Command::UndoText if self.input.undo() => self.rank(),
            Command::RedoText if self.input.redo() => self.rank(),
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

    /// The rows of items in view (the query's row, when offered, is the caller's to draw).
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.cursor
            .visible()
            .filter(|i| *i < self.hits.len())
            .map(|i| {
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
