//! Where each part sits on the screen. Shared by the view (to draw) and by `App` (to tell the
//! panes their areas, which their page sizes and clicks follow), so both always agree.

use ratatui::layout::{Constraint, Layout, Rect};

/// A column of the screen, left to right. Each pane sits in one (`TypedPane::COLUMN`); the
/// first registered there is shown in it, another (the map) in its place while shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The documents.
    Left,
    /// The document's objects.
    Middle,
    /// The selected object: its properties, or the map.
    Right,
}

impl Column {
    /// The columns, left to right.
    pub const ALL: [Column; 3] = [Column::Left, Column::Middle, Column::Right];

    /// Its place from the left (0 to 2).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The column `steps` to the right of it, round to the left after the last (negative:
    /// to the left).
    pub fn step(self, steps: isize) -> Column {
        let count = Column::ALL.len() as isize;
        Column::ALL[(self.index() as isize + steps).rem_euclid(count) as usize]
    }
}

/// The screen split into its parts; a column that is not shown has an empty rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The columns, left to right (`Column::index`).
    pub columns: [Rect; Column::ALL.len()],
    /// The status bar.
    pub status: Rect,
    /// The footer: the keys of what has the focus.
    pub footer: Rect,
}

impl Screen {
    /// The rectangle of `column`.
    pub fn column(&self, column: Column) -> Rect {
        self.columns[column.index()]
    }
}

/// What the layout depends on besides the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrangement {
    /// The column of the focused pane.
    pub focus: Column,
    /// Whether the focused pane is zoomed to the whole width.
    pub zoomed: bool,
    /// Whether a document is open.
    pub doc_open: bool,
    /// The status bar's rows: 1, or 2 while its message does not fit on one.
    pub status_rows: u16,
}

/// Below this width the documents pane folds away (rather than narrows) once a document is
/// open and it has not the focus.
const FOLD_BELOW: u16 = 70;

/// Past this width the narrowed documents pane grows with the terminal (38 columns at 200).
const GROW_FROM: u16 = 120;

/// Splits `area`: the columns side by side above a status line and a footer line.
///
/// - Nothing open, or the documents focused: documents 27 %, objects 38 %, the right 35 %.
/// - A document open and the focus elsewhere: the documents' column narrows to a column of
///   titles (15 %, 14 to 28 columns, growing by a column for every four past 120: 38 at 200),
///   or folds away below 70 columns, so the objects and the right column get the room.
/// - Zoomed: the focused column alone.
pub fn screen(area: Rect, arrangement: Arrangement) -> Screen {
    let [main, status, footer] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(arrangement.status_rows),
        Constraint::Length(1),
    ])
    .areas(area);
    if arrangement.zoomed {
        let mut columns = [Rect::new(main.x, main.y, 0, 0); Column::ALL.len()];
        columns[arrangement.focus.index()] = main;
        return Screen {
            columns,
            status,
            footer,
        };
    }
    let narrow = arrangement.doc_open && arrangement.focus != Column::Left;
    let columns = if !narrow {
        Layout::horizontal([
            Constraint::Percentage(27),
            Constraint::Percentage(38),
            Constraint::Percentage(35),
        ])
        .areas(main)
    } else {
        let docs = if main.width < FOLD_BELOW {
            0
        } else {
            // Past 120 columns it grows by a column for every four more.
            let grown = match main.width.checked_sub(GROW_FROM) {
                Some(past) => past / 4 + 18,
                None => 0,
            };
            (main.width * 15 / 100).clamp(14, 28).max(grown)
        };
        let [docs, rest] =
            Layout::horizontal([Constraint::Length(docs), Constraint::Min(0)]).areas(main);
        let [objects, right] =
            Layout::horizontal([Constraint::Percentage(52), Constraint::Percentage(48)])
                .areas(rest);
        [docs, objects, right]
    };
    Screen {
        columns,
        status,
        footer,
    }
}

/// How many rows fit inside a bordered pane of `rect`, after `extra` lines of its own (a filter
/// line, say).
pub fn inner_rows(rect: Rect, extra: u16) -> usize {
    rect.height.saturating_sub(2 + extra) as usize
}

/// Lines the selected document's details take at the bottom of the documents pane: none when
/// the pane is too short to spare them, or narrowed to a column of titles.
pub fn details_height(docs: Rect) -> u16 {
    if docs.height >= 14 && docs.width >= 20 {
        6
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(focus: Column, zoomed: bool, doc_open: bool) -> Screen {
        screen(
            Rect::new(0, 0, 80, 24),
            Arrangement {
                focus,
                zoomed,
                doc_open,
                status_rows: 1,
            },
        )
    }

    #[test]
    fn the_documents_narrow_once_a_document_is_open_and_zoom_takes_it_all() {
        let [wide_docs, wide_objects, _] = at(Column::Left, false, true).columns;
        assert_eq!(wide_docs.width, 22);
        let [docs, objects, right] = at(Column::Middle, false, true).columns;
        assert_eq!(docs.width, 14);
        assert!(objects.width > wide_objects.width);
        assert_eq!(right.x + right.width, 80);
        let [docs, _, right] = at(Column::Right, true, true).columns;
        assert_eq!((right.width, docs.width), (80, 0));
        assert_eq!(right.height, 22, "status and footer stay");
        let folded = screen(
            Rect::new(0, 0, 60, 20),
            Arrangement {
                focus: Column::Middle,
                zoomed: false,
                doc_open: true,
                status_rows: 2,
            },
        );
        assert_eq!(folded.column(Column::Left).width, 0);
        assert_eq!(folded.status.height, 2, "a long message takes a second row");
        assert_eq!(folded.column(Column::Middle).height, 17);
    }

    #[test]
    fn the_narrowed_documents_grow_with_a_wide_terminal() {
        let width = |columns: u16| {
            screen(
                Rect::new(0, 0, columns, 50),
                Arrangement {
                    focus: Column::Middle,
                    zoomed: false,
                    doc_open: true,
                    status_rows: 1,
                },
            )
            .column(Column::Left)
            .width
        };
        assert_eq!(width(120), 18);
        assert_eq!(width(160), 28);
        assert_eq!(width(200), 38);
    }

    #[test]
    fn a_step_past_the_last_column_comes_round_to_the_first() {
        assert_eq!(Column::Right.step(1), Column::Left);
        assert_eq!(Column::Left.step(-1), Column::Right);
        assert_eq!(Column::Left.step(1), Column::Middle);
    }
}
