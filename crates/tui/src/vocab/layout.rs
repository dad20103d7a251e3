//! Where each part sits on the screen. Shared by the view (to draw) and by `App` (to tell the
//! panes their areas, which their page sizes and clicks follow), so both always agree.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::vocab::calls::Pane;

/// The screen split into its parts; a pane that is not shown has an empty rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The documents pane.
    pub docs: Rect,
    /// The objects pane.
    pub objects: Rect,
    /// The properties pane.
    pub props: Rect,
    /// The map, in the properties' place while it is shown.
    pub map: Rect,
    /// The status bar.
    pub status: Rect,
    /// The footer: the keys of what has the focus.
    pub footer: Rect,
}

impl Screen {
    /// The rectangle of `pane`.
    pub fn pane(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Docs => self.docs,
            Pane::Objects => self.objects,
            Pane::Props => self.props,
            Pane::Map => self.map,
        }
    }
}

/// What the layout depends on besides the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrangement {
    /// The focused pane.
    pub focus: Pane,
    /// Whether the focused pane is zoomed to the whole width.
    pub zoomed: bool,
    /// Whether a document is open.
    pub doc_open: bool,
    /// Whether the map is shown (in the properties' place).
    pub map: bool,
    /// The status bar's rows: 1, or 2 while its message does not fit on one.
    pub status_rows: u16,
}

/// Below this width the documents pane folds away (rather than narrows) once a document is
/// open and it has not the focus.
const FOLD_BELOW: u16 = 70;

/// Past this width the narrowed documents pane grows with the terminal (38 columns at 200).
const GROW_FROM: u16 = 120;

/// Splits `area`: the panes side by side above a status line and a footer line.
///
/// - Nothing open, or the documents focused: documents 27 %, objects 38 %, properties 35 %.
/// - A document open and the focus elsewhere: the documents pane narrows to a column of titles
///   (15 %, 14 to 28 columns, growing by a column for every four past 120: 38 at 200), or folds
///   away below 70 columns, so the objects and properties get the room.
/// - Zoomed: the focused pane alone.
/// - The map, while shown, takes the properties' place (and the properties are not shown).
pub fn screen(area: Rect, arrangement: Arrangement) -> Screen {
    let mut screen = panes(area, arrangement);
    if arrangement.map {
        screen.map = screen.props;
        screen.props = Rect::new(screen.props.x, screen.props.y, 0, 0);
    }
    screen
}

/// The screen as if the map were the properties pane.
fn panes(area: Rect, arrangement: Arrangement) -> Screen {
    let [main, status, footer] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(arrangement.status_rows),
        Constraint::Length(1),
    ])
    .areas(area);
    let empty = Rect::new(main.x, main.y, 0, 0);
    if arrangement.zoomed {
        let mut screen = Screen {
            docs: empty,
            objects: empty,
            props: empty,
            map: empty,
            status,
            footer,
        };
        match arrangement.focus {
            Pane::Docs => screen.docs = main,
            Pane::Objects => screen.objects = main,
            Pane::Props | Pane::Map => screen.props = main,
        }
        return screen;
    }
    let narrow = arrangement.doc_open && arrangement.focus != Pane::Docs;
    let [docs, objects, props] = if !narrow {
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
        let [objects, props] =
            Layout::horizontal([Constraint::Percentage(52), Constraint::Percentage(48)])
                .areas(rest);
        [docs, objects, props]
    };
    Screen {
        docs,
        objects,
        props,
        map: Rect::new(props.x, props.y, 0, 0),
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

    fn at(focus: Pane, zoomed: bool, doc_open: bool) -> Screen {
        screen(
            Rect::new(0, 0, 80, 24),
            Arrangement {
                focus,
                zoomed,
                doc_open,
                map: false,
                status_rows: 1,
            },
        )
    }

    #[test]
    fn the_documents_narrow_once_a_document_is_open_and_zoom_takes_it_all() {
        let wide = at(Pane::Docs, false, true);
        assert_eq!(wide.docs.width, 22);
        let narrow = at(Pane::Objects, false, true);
        assert_eq!(narrow.docs.width, 14);
        assert!(narrow.objects.width > wide.objects.width);
        assert_eq!(narrow.props.x + narrow.props.width, 80);
        let zoomed = at(Pane::Props, true, true);
        assert_eq!((zoomed.props.width, zoomed.docs.width), (80, 0));
        assert_eq!(zoomed.props.height, 22, "status and footer stay");
        let folded = screen(
            Rect::new(0, 0, 60, 20),
            Arrangement {
                focus: Pane::Objects,
                zoomed: false,
                doc_open: true,
                map: false,
                status_rows: 2,
            },
        );
        assert_eq!(folded.docs.width, 0);
        assert_eq!(folded.status.height, 2, "a long message takes a second row");
        assert_eq!(folded.objects.height, 17);
    }

    #[test]
    fn the_narrowed_documents_grow_with_a_wide_terminal() {
        let width = |columns: u16| {
            screen(
                Rect::new(0, 0, columns, 50),
                Arrangement {
                    focus: Pane::Objects,
                    zoomed: false,
                    doc_open: true,
                    map: false,
                    status_rows: 1,
                },
            )
            .docs
            .width
        };
        assert_eq!(width(120), 18);
        assert_eq!(width(160), 28);
        assert_eq!(width(200), 38);
    }

    #[test]
    fn the_map_takes_the_place_of_the_properties_and_zooms_to_the_whole_screen() {
        let plain = at(Pane::Objects, false, true);
        let arrangement = |focus, zoomed| Arrangement {
            focus,
            zoomed,
            doc_open: true,
            map: true,
            status_rows: 1,
        };
        let shown = screen(Rect::new(0, 0, 80, 24), arrangement(Pane::Map, false));
        assert_eq!(shown.map, plain.props);
        assert_eq!(shown.props.width, 0);
        assert_eq!(shown.objects, plain.objects);
        let zoomed = screen(Rect::new(0, 0, 80, 24), arrangement(Pane::Map, true));
        assert_eq!((zoomed.map.width, zoomed.map.height), (80, 22));
        assert_eq!(zoomed.objects.width, 0);
    }
}
