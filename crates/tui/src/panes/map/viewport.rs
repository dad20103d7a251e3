//! Which part of the diagram the map shows: a centre on the grid and a scale, and the
//! conversions between grid points and terminal cells. Pure arithmetic, tested here.

use ratatui::layout::Rect as Cells;

use diagtui_scene::{Point, Rect};

/// How much taller a terminal cell is than wide: a grid square should look square.
const CELL_ASPECT: f64 = 2.0;

/// The closest view: a grid unit across 50 columns.
const MIN_PER_COLUMN: f64 = 0.02;
/// The farthest view: 20,000 grid units a column (coordinates go up to ±1,000,000).
const MAX_PER_COLUMN: f64 = 20_000.0;
/// A pan moves the view by this share of its width or height.
const PAN_SHARE: f64 = 0.125;
/// Room left around the diagram when it is fitted, as a share of its size.
const FIT_MARGIN: f64 = 0.05;

/// The part of the grid the map shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// The grid point at the centre of the map (under the cross).
    pub centre: Point,
    /// Grid units across one terminal column.
    pub per_column: f64,
}

impl Viewport {
    /// The view that shows all of `bounds` (with a small margin) in `size` cells.
    pub fn fit(bounds: Rect, size: Cells) -> Viewport {
        let margin = (bounds.width().max(bounds.height()) * FIT_MARGIN).max(1.0);
        let shown = bounds.grown(margin);
        let (columns, rows) = dimensions(size);
        let per_column = (shown.width() / columns).max(shown.height() / (rows * CELL_ASPECT));
        Viewport {
            centre: bounds.centre(),
            per_column: per_column.clamp(MIN_PER_COLUMN, MAX_PER_COLUMN),
        }
    }

    /// Grid units down one terminal row.
    pub fn per_row(self) -> f64 {
        self.per_column * CELL_ASPECT
    }

    /// The grid rectangle `size` cells show.
    pub fn visible(self, size: Cells) -> Rect {
        let (columns, rows) = dimensions(size);
        Rect::centred(
            self.centre,
            columns * self.per_column,
            rows * self.per_row(),
        )
    }

    /// Moves the view by `dx`, `dy` steps (a step is an eighth of the view).
    pub fn pan(&mut self, dx: f64, dy: f64, size: Cells) {
        let visible = self.visible(size);
        self.centre.x += dx * visible.width() * PAN_SHARE;
        self.centre.y += dy * visible.height() * PAN_SHARE;
    }

    /// Moves the view by whole cells (a mouse drag).
    pub fn shift_cells(&mut self, columns: f64, rows: f64) {
        self.centre.x += columns * self.per_column;
        self.centre.y += rows * self.per_row();
    }

    /// Zooms in by `factor` (out when below 1), keeping the grid point `about` where it is on
    /// the screen.
    pub fn zoom(&mut self, factor: f64, about: Point) {
        let per_column = (self.per_column / factor).clamp(MIN_PER_COLUMN, MAX_PER_COLUMN);
        let kept = per_column / self.per_column;
        self.centre = Point::new(
            about.x + (self.centre.x - about.x) * kept,
            about.y + (self.centre.y - about.y) * kept,
        );
        self.per_column = per_column;
    }

    /// The grid point at the middle of cell (`column`, `row`) of `area`.
    pub fn point_at(self, area: Cells, column: u16, row: u16) -> Point {
        let visible = self.visible(area);
        Point::new(
            visible.min.x + (f64::from(column.saturating_sub(area.x)) + 0.5) * self.per_column,
            visible.min.y + (f64::from(row.saturating_sub(area.y)) + 0.5) * self.per_row(),
        )
    }

    /// The cell of `area` (column, row, relative to it) that holds grid point `p`, if any.
    pub fn cell_of(self, area: Cells, p: Point) -> Option<(u16, u16)> {
        let visible = self.visible(area);
        let column = ((p.x - visible.min.x) / self.per_column).floor();
        let row = ((p.y - visible.min.y) / self.per_row()).floor();
        let inside = (0.0..f64::from(area.width)).contains(&column)
            && (0.0..f64::from(area.height)).contains(&row);
        inside.then_some((column as u16, row as u16))
    }

    /// Moves the view as little as it takes to show `target`'s centre away from the edges
    /// (a sixth of the view in from them); says whether it moved.
    pub fn keep_in_view(&mut self, target: Rect, size: Cells) -> bool {
        let visible = self.visible(size);
        let inner = visible.grown(-visible.width().min(visible.height()) / 6.0);
        let goal = target.centre();
        if inner.contains(goal) {
            return false;
        }
        let shift = |goal: f64, low: f64, high: f64| {
            if goal < low {
                goal - low
            } else if goal > high {
                goal - high
            } else {
                0.0
            }
        };
        self.centre.x += shift(goal.x, inner.min.x, inner.max.x);
        self.centre.y += shift(goal.y, inner.min.y, inner.max.y);
        true
    }

    /// How far one cell reaches on the grid: the tolerance of a pick by the cross or a click.
    pub fn cell_reach(self) -> f64 {
        self.per_row()
    }
}

/// The columns and rows of `size`, at least one each.
fn dimensions(size: Cells) -> (f64, f64) {
    (f64::from(size.width.max(1)), f64::from(size.height.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: Cells = Cells::new(10, 5, 100, 25);

    fn square(half: f64) -> Rect {
        Rect::new(Point::new(-half, -half), Point::new(half, half))
    }

    #[test]
    fn a_fitted_view_shows_the_whole_diagram_centred() {
        let bounds = Rect::new(Point::new(-40.0, -10.0), Point::new(60.0, 30.0));
        let view = Viewport::fit(bounds, SIZE);
        let visible = view.visible(SIZE);
        assert_eq!(view.centre, Point::new(10.0, 10.0));
        for corner in [bounds.min, bounds.max] {
            assert!(visible.contains(corner), "{corner:?} in {visible:?}");
        }
        // Wide diagram in a 100 × 25 (so 100 × 50 grid-square) pane: the width decides.
        assert!((visible.width() - 110.0).abs() < 1e-9, "{visible:?}");
        let dot = Viewport::fit(Rect::new(Point::new(3.0, 3.0), Point::new(3.0, 3.0)), SIZE);
        assert!(dot.per_column > 0.0 && dot.visible(SIZE).contains(Point::new(3.0, 3.0)));
    }

    #[test]
    fn cells_and_points_agree_and_the_edges_are_outside() {
        let view = Viewport::fit(square(50.0), SIZE);
        for (column, row) in [(0, 0), (37, 12), (99, 24)] {
            let p = view.point_at(SIZE, SIZE.x + column, SIZE.y + row);
            assert_eq!(view.cell_of(SIZE, p), Some((column, row)));
        }
        let visible = view.visible(SIZE);
        assert_eq!(view.cell_of(SIZE, visible.max), None);
        assert_eq!(
            view.cell_of(SIZE, Point::new(visible.min.x - 0.1, 0.0)),
            None
        );
    }

    #[test]
    fn zoom_keeps_its_point_still_and_stops_at_the_limits() {
        let mut view = Viewport::fit(square(50.0), SIZE);
        let about = Point::new(20.0, -10.0);
        let before = view.cell_of(SIZE, about);
        view.zoom(2.0, about);
        assert_eq!(view.cell_of(SIZE, about), before);
        for _ in 0..100 {
            view.zoom(2.0, about);
        }
        assert_eq!(view.per_column, MIN_PER_COLUMN);
        for _ in 0..100 {
            view.zoom(0.5, about);
        }
        assert_eq!(view.per_column, MAX_PER_COLUMN);
    }

    #[test]
    fn pans_move_by_a_share_of_the_view_and_a_target_is_brought_in() {
        let mut view = Viewport::fit(square(50.0), SIZE);
        let width = view.visible(SIZE).width();
        view.pan(1.0, 0.0, SIZE);
        assert!((view.centre.x - width * PAN_SHARE).abs() < 1e-9);
        let mut view = Viewport {
            centre: Point::new(0.0, 0.0),
            per_column: 0.1,
        };
        let near = Rect::new(Point::new(1.0, 0.5), Point::new(1.5, 1.0));
        assert!(!view.keep_in_view(near, SIZE), "already well in view");
        let far = Rect::new(Point::new(40.0, -30.0), Point::new(42.0, -28.0));
        assert!(view.keep_in_view(far, SIZE));
        assert!(view.visible(SIZE).contains(far.centre()));
        assert!(!view.keep_in_view(far, SIZE), "and it stays");
    }
}
