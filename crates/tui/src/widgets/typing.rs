//! The typing history of a text (a one-line field, the JSON editor): `Ctrl-Z` takes back a word
//! at a time, not a key at a time, and `Ctrl-Y` puts back what it took. The history keeps the
//! text as it was before each group of edits (a snapshot: texts typed by hand are small).
//!
//! Keys that type the same way in a row form one group: letters typed one after the other and
//! the blanks that follow them, or keys deleting in a row. A group ends where a new word starts
//! (a letter after a blank), where the typing turns to deleting or back, where the cursor was
//! moved between two edits, and after any other edit (a paste, a cleared field, a deleted word).

/// Groups a field remembers for undo.
const GROUPS: usize = 100;

/// What one edit did, to tell whether it goes on the group before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// A character typed (a line break counts as a blank); whether it is a blank.
    Type { blank: bool },
    /// A character deleted; whether it is a blank.
    Delete { blank: bool },
    /// Anything else: a group of its own.
    Other,
}

impl Edit {
    /// Typing `c`.
    pub fn typing(c: char) -> Edit {
        Edit::Type {
            blank: c.is_whitespace(),
        }
    }

    /// Deleting `c`.
    pub fn deleting(c: char) -> Edit {
        Edit::Delete {
            blank: c.is_whitespace(),
        }
    }

    /// Whether this edit goes on a group whose last edit was `last`.
    fn continues(self, last: Edit) -> bool {
        match (last, self) {
            (Edit::Type { blank: before }, Edit::Type { blank })
            | (Edit::Delete { blank: before }, Edit::Delete { blank }) => {
                // A word starts after a blank: a new group.
                !before || blank
            }
            _ => false,
        }
    }
}

/// The states of a text before each group of edits (`S`: the text and its cursor), and the
/// states undone since the last edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypingHistory<S> {
    undo: Vec<S>,
    redo: Vec<S>,
    /// The last edit and the cursor right after it, while its group goes on.
    last: Option<(Edit, (usize, usize))>,
}

impl<S> Default for TypingHistory<S> {
    fn default() -> TypingHistory<S> {
        TypingHistory {
            undo: Vec::new(),
            redo: Vec::new(),
            last: None,
        }
    }
}

impl<S> TypingHistory<S> {
    /// Records an edit that changed the text: `before` is the state it changed, `from` the
    /// cursor before it and `to` after it. A new group keeps `before`; an edit that goes on the
    /// group does not need to. Any edit forgets what was undone.
    pub fn record(&mut self, before: S, edit: Edit, from: (usize, usize), to: (usize, usize)) {
        let goes_on = self
            .last
            .is_some_and(|(last, at)| at == from && edit.continues(last));
        if !goes_on {
            if self.undo.len() == GROUPS {
                self.undo.remove(0);
            }
            self.undo.push(before);
        }
        self.redo.clear();
        self.last = (edit != Edit::Other).then_some((edit, to));
    }

    /// The state before the last group, `current` kept for redo; `None` when there is none.
    pub fn undo(&mut self, current: S) -> Option<S> {
        let state = self.undo.pop()?;
        self.redo.push(current);
        self.last = None;
        Some(state)
    }

    /// The state the last undo left, `current` kept for undo; `None` when nothing was undone.
    pub fn redo(&mut self, current: S) -> Option<S> {
        let state = self.redo.pop()?;
        self.undo.push(current);
        self.last = None;
        Some(state)
    }
}

/// A text with a typing history: undo and redo restore its states.
pub trait Typed {
    /// What undo puts back: the text and its cursor.
    type State;

    /// The text and cursor now.
    fn state(&self) -> Self::State;

    /// Puts back a text and cursor.
    fn restore(&mut self, state: Self::State);

    /// The history.
    fn history(&mut self) -> &mut TypingHistory<Self::State>;

    /// Takes back the last group of edits (a word typed, a run of deletes, a paste); whether
    /// there was one.
    fn undo(&mut self) -> bool {
        let current = self.state();
        let state = self.history().undo(current);
        state.map(|state| self.restore(state)).is_some()
    }

    /// Puts back what the last undo took; whether there was something.
    fn redo(&mut self) -> bool {
        let current = self.state();
        let state = self.history().redo(current);
        state.map(|state| self.restore(state)).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Types `text` into a history of plain strings, one character at a time.
    fn typed(history: &mut TypingHistory<String>, text: &mut String, typed: &str) {
        for c in typed.chars() {
            let at = text.chars().count();
            history.record(text.clone(), Edit::typing(c), (0, at), (0, at + 1));
            text.push(c);
        }
    }

    #[test]
    fn typing_is_undone_a_word_at_a_time_and_redone() {
        let mut history = TypingHistory::default();
        let mut text = String::new();
        typed(&mut history, &mut text, "hello big world");
        let mut back = Vec::new();
        while let Some(state) = history.undo(text.clone()) {
            text = state;
            back.push(text.clone());
        }
        assert_eq!(back, ["hello big ", "hello ", ""]);
        text = history.redo(text).unwrap();
        assert_eq!(text, "hello ");
        text = history.redo(text).unwrap();
        assert_eq!(text, "hello big ");
        typed(&mut history, &mut text, "x");
        assert_eq!(history.redo(text.clone()), None, "an edit forgets the redo");
    }

    #[test]
    fn a_moved_cursor_a_turn_to_deleting_or_another_edit_starts_a_group() {
        let mut history = TypingHistory::default();
        history.record("".to_string(), Edit::typing('a'), (0, 0), (0, 1));
        history.record("a".to_string(), Edit::typing('b'), (0, 0), (0, 1));
        history.record("ba".to_string(), Edit::deleting('b'), (0, 1), (0, 0));
        history.record("a".to_string(), Edit::Other, (0, 0), (0, 3));
        history.record("xyza".to_string(), Edit::typing('c'), (0, 3), (0, 4));
        let mut back = Vec::new();
        let mut text = "xyzca".to_string();
        while let Some(state) = history.undo(text.clone()) {
            text = state;
            back.push(text.clone());
        }
        assert_eq!(back, ["xyza", "a", "ba", "a", ""]);
    }
}
