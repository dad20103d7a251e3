//! The map's level of detail: a shape that fits in one terminal cell is drawn as the braille
//! dot its centre falls into, and each dot once, by the most emphasised of the shapes that fall
//! into it (the marked, then the plain, then the ones the filter hides). So a frame of a whole
//! large diagram costs about what its cells cost, not what its objects do, and still shows
//! where they crowd.

use ratatui::layout::Rect as Cells;

use crate::panes::map::viewport::Viewport;
use diagtui_scene::{Point, Rect};

/// Dots across one terminal cell of the braille canvas.
const DOTS_ACROSS: f64 = 2.0;
/// Dots down one terminal cell of the braille canvas.
const DOTS_DOWN: f64 = 4.0;

/// How strongly a shape is emphasised; a stronger one takes a dot a weaker one drew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Hidden by the tree's filter (dimmed).
    Hidden = 1,
    /// Drawn in its own colour.
    Plain = 2,
    /// Marked, or matched by the selector preview.
    Marked = 3,
}

/// The dots of one frame's canvas, and which weight drew each.
pub struct Dots {
    origin: Point,
    /// Grid units across and down one dot.
    dot: (f64, f64),
    columns: usize,
    rows: usize,
    drawn: Vec<Option<Weight>>,
}

/// Where a shape smaller than a dot falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fall {
    /// Into this dot of the canvas.
    Dot(usize),
    /// Outside the canvas (its bounds only touch the view).
    Outside,
}

impl Dots {
    /// The dots of `area` showing `view`, none drawn yet.
    pub fn new(area: Cells, view: Viewport) -> Dots {
        let columns = usize::from(area.width) * DOTS_ACROSS as usize;
        let rows = usize::from(area.height) * DOTS_DOWN as usize;
        Dots {
            origin: view.visible(area).min,
            dot: (view.per_column / DOTS_ACROSS, view.per_row() / DOTS_DOWN),
            columns,
            rows,
            drawn: vec![None; columns * rows],
        }
    }

    /// Where a shape with `bounds` falls when it fits in a cell; `None` when it is drawn in
    /// full.
    pub fn fall(&self, bounds: &Rect) -> Option<Fall> {
        if bounds.width() > self.dot.0 * DOTS_ACROSS || bounds.height() > self.dot.1 * DOTS_DOWN {
            return None;
        }
        let centre = bounds.centre();
        let column = ((centre.x - self.origin.x) / self.dot.0).floor();
        let row = ((centre.y - self.origin.y) / self.dot.1).floor();
        let inside =
            (0.0..self.columns as f64).contains(&column) && (0.0..self.rows as f64).contains(&row);
        Some(if inside {
            Fall::Dot(row as usize * self.columns + column as usize)
        } else {
            Fall::Outside
        })
    }

    /// Whether the dot is drawn by the strongest weight already, so that no shape can take it.
    pub fn settled(&self, dot: usize) -> bool {
        self.drawn[dot] == Some(Weight::Marked)
    }

    /// Takes the dot for a shape of `weight` if no shape at least as strong drew it; whether
    /// it did.
    pub fn take(&mut self, dot: usize, weight: Weight) -> bool {
        if self.drawn[dot].is_some_and(|drawn| drawn >= weight) {
            return false;
        }
        self.drawn[dot] = Some(weight);
        true
    }

    /// The grid point at the centre of the dot, where it is drawn.
    pub fn centre(&self, dot: usize) -> Point {
        let (column, row) = (dot % self.columns, dot / self.columns);
        Point::new(
            self.origin.x + (column as f64 + 0.5) * self.dot.0,
            self.origin.y + (row as f64 + 0.5) * self.dot.1,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10 × 5 cell canvas showing the grid from (0, 0), a grid unit a column.
    fn dots() -> Dots {
        let view = Viewport {
            centre: Point::new(5.0, 5.0),
            per_column: 1.0,
        };
        Dots::new(Cells::new(0, 0, 10, 5), view)
    }

    fn square(x: f64, y: f64, size: f64) -> Rect {
        Rect::new(Point::new(x, y), Point::new(x + size, y + size))
    }

    #[test]
    fn a_shape_larger_than_a_cell_is_drawn_in_full() {
        // A cell is a grid unit across and two down; a dot half a unit each way.
        assert_eq!(dots().fall(&square(1.0, 1.0, 1.2)), None);
        assert!(dots().fall(&square(1.0, 1.0, 0.9)).is_some());
    }

    #[test]
    fn each_dot_is_drawn_once_by_the_strongest_shape() {
        let mut dots = dots();
        let Some(Fall::Dot(dot)) = dots.fall(&square(1.1, 1.1, 0.1)) else {
            panic!("inside");
        };
        assert_eq!(dots.fall(&square(1.2, 1.2, 0.1)), Some(Fall::Dot(dot)));
        assert!(dots.take(dot, Weight::Plain));
        assert!(!dots.take(dot, Weight::Plain), "drawn once");
        assert!(!dots.take(dot, Weight::Hidden), "a weaker one leaves it");
        assert!(!dots.settled(dot));
        assert!(dots.take(dot, Weight::Marked), "a marked one shows over it");
        assert!(dots.settled(dot));
        let centre = dots.centre(dot);
        assert!(square(1.0, 1.0, 0.5).contains(centre), "{centre:?}");
    }

    #[test]
    fn a_dot_outside_the_canvas_is_not_drawn() {
        assert_eq!(dots().fall(&square(-3.0, 1.0, 0.1)), Some(Fall::Outside));
        assert_eq!(dots().fall(&square(1.0, 40.0, 0.1)), Some(Fall::Outside));
    }
}
