//! Where each pane sits on the screen. Shared by the view (to draw) and by `App::update` (to map
//! mouse clicks and to know how many rows a list shows), so both always agree.

use ratatui::layout::{Constraint, Layout, Rect};

/// The screen split into its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The documents pane.
    pub docs: Rect,
    /// The objects pane.
    pub objects: Rect,
    /// The properties pane.
    pub props: Rect,
    /// The one-line status bar at the bottom.
    pub status: Rect,
}

/// Splits `area`: three panes side by side above a status line. Narrow screens give the
/// documents pane less room.
pub fn screen(area: Rect) -> Screen {
    let [main, status] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    let [docs, objects, props] = Layout::horizontal([
        Constraint::Percentage(27),
        Constraint::Percentage(38),
        Constraint::Percentage(35),
    ])
    .areas(main);
    Screen {
        docs,
        objects,
        props,
        status,
    }
}

/// How many list rows fit inside a bordered pane of `rect`, after `extra` lines of its own
/// (a filter line, say).
pub fn inner_rows(rect: Rect, extra: u16) -> usize {
    rect.height.saturating_sub(2 + extra) as usize
}

/// A rectangle of at most `width` × `height` centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// Lines the selected document's details take at the bottom of the documents pane: none when
/// the pane is too short to spare them.
pub fn details_height(docs: Rect) -> u16 {
    if docs.height >= 14 { 6 } else { 0 }
}
