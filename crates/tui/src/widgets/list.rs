//! The one list cursor: which row is selected, which row is shown first, how many rows show.
//! Every list and scrolled view uses it (documents, objects, the editor's lines, the log, the
//! help, the pickers, the palette, the selector result), so they all scroll and clamp alike: the
//! selection always shows, and after the view grows no rows stay hidden above a gap below.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::keys::Command;

/// What the mouse does to a list: scroll it by a step, or click a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// The wheel: this many rows.
    Wheel(isize),
    /// A left click on this row of the list (an index into it).
    Click(usize),
}

/// A selection in a list of `len` rows shown `rows` at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListCursor {
    selected: usize,
    offset: usize,
    len: usize,
    rows: usize,
    /// Rows kept in view above the selection when scrolling up (a heading, say).
    lead: usize,
}

impl ListCursor {
    /// A cursor that keeps `lead` rows in view above the selection when scrolling up.
    pub fn with_lead(lead: usize) -> ListCursor {
        ListCursor {
            lead,
            ..ListCursor::default()
        }
    }

    /// The selected row (0 when the list is empty).
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The first row shown.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// How many rows the list has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The list now has `len` rows: the selection and the view stay inside it.
    pub fn set_len(&mut self, len: usize) {
        self.len = len;
        self.clamp();
    }

    /// The view now shows `rows` rows (after a resize): it scrolls back as far as the list
    /// allows, keeping the selection in view.
    pub fn set_rows(&mut self, rows: usize) {
        self.rows = rows;
        self.clamp();
    }

    /// Selects row `index` (clamped) and scrolls it into view.
    pub fn select(&mut self, index: usize) {
        self.selected = index.min(self.len.saturating_sub(1));
        self.scroll_to_selection();
    }

    /// The row `step` rows away from the selection, clamped to the list.
    pub fn target(&self, step: isize) -> usize {
        if self.len == 0 {
            return 0;
        }
        (self.selected as isize)
            .saturating_add(step)
            .clamp(0, self.len as isize - 1) as usize
    }

    /// The step a movement command means here (a page is the rows shown), if it is one.
    pub fn step_of(&self, command: Command) -> Option<isize> {
        let page = self.rows.max(1) as isize;
        Some(match command {
            Command::Down => 1,
            Command::Up => -1,
            Command::PageDown => page,
            Command::PageUp => -page,
            Command::Top => isize::MIN / 2,
            Command::Bottom => isize::MAX / 2,
            _ => return None,
        })
    }

    /// Moves the selection by `step` rows.
    pub fn step(&mut self, step: isize) {
        self.select(self.target(step));
    }

    /// Scrolls the view by `step` rows (a text view, the mouse wheel); the selection moves only
    /// as far as it must to stay in view.
    pub fn scroll(&mut self, step: isize) {
        let rows = self.rows.max(1);
        let last = self.len.saturating_sub(rows);
        self.offset = (self.offset as isize)
            .saturating_add(step)
            .clamp(0, last as isize) as usize;
        self.selected = self.selected.clamp(
            self.offset,
            (self.offset + rows - 1).min(self.len.saturating_sub(1)),
        );
    }

    /// The row shown at `row` of the view (a click), if there is one.
    pub fn row_at(&self, row: usize) -> Option<usize> {
        let index = self.offset + row;
        (row < self.rows.max(1) && index < self.len).then_some(index)
    }

    /// What `mouse` does to this list, drawn in the bordered `area` with its rows starting
    /// `header` lines under the top border: the wheel scrolls three rows a notch, a click picks
    /// the row under it.
    pub fn pointer(&self, mouse: &MouseEvent, area: Rect, header: u16) -> Option<Pointer> {
        match mouse.kind {
            MouseEventKind::ScrollDown => Some(Pointer::Wheel(3)),
            MouseEventKind::ScrollUp => Some(Pointer::Wheel(-3)),
            MouseEventKind::Down(MouseButton::Left) => mouse
                .row
                .checked_sub(area.y + 1 + header)
                .and_then(|row| self.row_at(usize::from(row)))
                .map(Pointer::Click),
            _ => None,
        }
    }

    /// The rows to draw: from the offset, as many as show.
    pub fn visible(&self) -> std::ops::Range<usize> {
        self.offset..(self.offset + self.rows.max(1)).min(self.len)
    }

    fn clamp(&mut self) {
        self.selected = self.selected.min(self.len.saturating_sub(1));
        // No gap below the last row while rows are hidden above the first.
        let last_offset = self.len.saturating_sub(self.rows.max(1));
        self.offset = self.offset.min(last_offset);
        self.scroll_to_selection();
    }

    /// Scrolls as little as possible to show the selection.
    fn scroll_to_selection(&mut self) {
        let rows = self.rows.max(1);
        if self.selected < self.offset {
            self.offset = self.selected.saturating_sub(self.lead);
        } else if self.selected >= self.offset + rows {
            self.offset = self.selected + 1 - rows;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(len: usize, rows: usize) -> ListCursor {
        let mut c = ListCursor::default();
        c.set_rows(rows);
        c.set_len(len);
        c
    }

    #[test]
    fn scrolls_as_little_as_needed() {
        let mut c = cursor(20, 5);
        c.select(12);
        assert_eq!(c.offset(), 8, "below: scrolled to end on it");
        c.select(10);
        assert_eq!(c.offset(), 8, "inside: stays");
        c.select(4);
        assert_eq!(c.offset(), 4, "above: scrolled to start on it");
        let mut lead = ListCursor::with_lead(1);
        lead.set_rows(5);
        lead.set_len(20);
        lead.select(12);
        lead.select(4);
        assert_eq!(lead.offset(), 3, "one row of lead above");
        assert_eq!(lead.visible(), 3..8);
    }

    #[test]
    fn growing_the_view_shows_the_rows_above_again() {
        // The bug this type fixes: the end of a list at 80×24, then a taller terminal, left the
        // rows above hidden with a gap below.
        let mut c = cursor(30, 10);
        c.step(c.step_of(Command::Bottom).unwrap());
        assert_eq!((c.selected(), c.offset()), (29, 20));
        c.set_rows(40);
        assert_eq!(c.offset(), 0);
        assert_eq!(c.visible(), 0..30);
        c.set_rows(5);
        assert_eq!(c.offset(), 25, "shrinking keeps the selection in view");
    }

    #[test]
    fn steps_clamp_and_clicks_map_to_rows() {
        let mut c = cursor(5, 3);
        c.step(10);
        assert_eq!(c.selected(), 4);
        c.step(-10);
        assert_eq!(c.selected(), 0);
        assert_eq!(c.row_at(2), Some(2));
        assert_eq!(c.row_at(3), None);
        let mut empty = cursor(0, 3);
        empty.step(1);
        assert_eq!((empty.selected(), empty.row_at(0)), (0, None));
        c.set_len(2);
        assert_eq!(c.selected(), 0);
        c.scroll(5);
        assert_eq!(c.offset(), 0, "nothing to scroll in two rows of three");
        let mut view = cursor(30, 10);
        view.scroll(100);
        assert_eq!(
            (view.offset(), view.selected()),
            (20, 20),
            "the selection follows"
        );
        view.set_rows(10);
        assert_eq!(
            view.offset(),
            20,
            "and the view stays where it was scrolled"
        );
    }
}
