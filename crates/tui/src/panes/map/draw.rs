//! Drawing a scene into a rectangle of the terminal: the shapes as braille lines on ratatui's
//! `Canvas` (areas as outlines, line groups as lines with arrow tips, components and the
//! placeholders of icons, images and widgets as boxes), then the words on top (component titles,
//! captions, label texts), each where it does not cover words already placed. Only what meets
//! the view is drawn ([`Scene::in_view`]), and at a distance each cell is drawn once: a shape
//! smaller than a cell is a dot, and only the first in its cell (bottom to top) is drawn, so a
//! frame of the whole of a 100,000-object diagram costs about what its cells do.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect as Cells;
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::canvas::{Canvas, Context, Line, Points};

use crate::panes::map::viewport::Viewport;
use crate::theme::{Role, Theme};
use diagtui_scene::{Point, Primitive, Scene, Shape, Status};

/// Length of an arrow tip's wings, in columns.
const TIP_COLUMNS: f64 = 1.2;
/// Half the angle between an arrow tip's wings, in radians.
const TIP_SPREAD: f64 = 0.45;

/// What the map shows of the objects besides their shapes: the selection, the marks and the
/// filter.
pub struct Emphasis<'a> {
    /// The selected object.
    pub selected: Option<&'a str>,
    /// Whether an object is marked.
    pub marked: &'a dyn Fn(&str) -> bool,
    /// Whether the tree's filter hides an object.
    pub hidden: &'a dyn Fn(&str) -> bool,
}

impl Emphasis<'_> {
    /// The style of `p`'s shape: selected, marked, hidden by the filter, else by its kind (a
    /// component by its status).
    fn style(&self, p: &Primitive, theme: &Theme) -> Style {
        let role = if self.selected == Some(p.id.as_str()) {
            Role::MapSelected
        } else if (self.marked)(&p.id) {
            Role::MapMarked
        } else if (self.hidden)(&p.id) {
            Role::MapHidden
        } else {
            match &p.shape {
                Shape::Area(_) => Role::MapArea,
                Shape::Lines(_) => Role::MapLine,
                Shape::Component(c) => status_role(c.status),
                Shape::Label(_) => Role::MapLabel,
                Shape::Placeholder(_) => Role::MapComponent,
            }
        };
        theme.of(role)
    }
}

/// The style of a component of `status`.
fn status_role(status: Status) -> Role {
    match status {
        Status::Error => Role::StatusError,
        Status::Warning => Role::StatusWarning,
        Status::Good => Role::StatusGood,
        Status::Unknown => Role::MapComponent,
    }
}

/// Draws `scene` as `view` shows it into `area`; the centre cross too when `cross` (over a
/// word's letter, that letter in the cross's style: the cross never hides a title's letter).
pub fn draw(
    frame: &mut Frame,
    area: Cells,
    scene: &Scene,
    view: Viewport,
    emphasis: &Emphasis,
    theme: &Theme,
    cross: bool,
) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let visible = view.visible(area);
    let shown = scene.in_view(visible);
    let selected = shown
        .iter()
        .find(|p| emphasis.selected == Some(p.id.as_str()));
    let drawn = once_a_cell(&shown, area, view);
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([visible.min.x, visible.max.x])
        .y_bounds([-visible.max.y, -visible.min.y])
        .paint(|ctx| {
            for &(p, speck) in &drawn {
                let colour = colour(emphasis.style(p, theme));
                match speck {
                    Some(at) => ctx.draw(&Points {
                        coords: &[(at.x, -at.y)],
                        color: colour,
                    }),
                    None => paint(ctx, p, colour, view),
                }
            }
            // The selection again, over whatever was drawn across it.
            if let Some(p) = selected {
                paint(ctx, p, colour(emphasis.style(p, theme)), view);
            }
        });
    frame.render_widget(canvas, area);
    let mut words = Words::new(area, view);
    let buffer = frame.buffer_mut();
    // The selection's words first, then from the top of the drawing down: each takes its
    // place before those under it.
    for p in selected.into_iter().chain(shown.iter().rev()) {
        words.place(buffer, p, emphasis, theme);
    }
    if cross && let Some((column, row)) = view.cell_of(area, view.centre) {
        let cell = &mut buffer[(area.x + column, area.y + row)];
        if words.holds(column, row) {
            // A word's letter stays: the cross shows as that letter in its style, reversed.
            cell.set_style(theme.of(Role::MapCross).add_modifier(Modifier::REVERSED));
        } else {
            cell.set_symbol("✛").set_style(theme.of(Role::MapCross));
        }
    }
}

/// What to paint of `shown` (bottom to top) in `area`: each shape at least a cell wide or high
/// as itself (`None`), and of the smaller ones the first in each cell, as a dot at its centre.
fn once_a_cell<'s>(
    shown: &[&'s Primitive],
    area: Cells,
    view: Viewport,
) -> Vec<(&'s Primitive, Option<Point>)> {
    let (per_column, per_row) = (view.per_column, view.per_row());
    let origin = view.visible(area).min;
    let columns = usize::from(area.width);
    let mut taken = vec![false; columns * usize::from(area.height)];
    let mut drawn = Vec::with_capacity(shown.len().min(taken.len() * 2));
    for &p in shown {
        if p.bounds.width() >= per_column || p.bounds.height() >= per_row {
            drawn.push((p, None));
            continue;
        }
        let at = p.bounds.centre();
        let (column, row) = (
            ((at.x - origin.x) / per_column).floor(),
            ((at.y - origin.y) / per_row).floor(),
        );
        if column < 0.0 || row < 0.0 || column >= f64::from(area.width) {
            continue;
        }
        let cell = row as usize * columns + column as usize;
        if let Some(seen) = taken.get_mut(cell).filter(|seen| !**seen) {
            *seen = true;
            drawn.push((p, Some(at)));
        }
    }
    drawn
}

/// A style's text colour for the canvas (which takes colours only); the terminal's own colour
/// when the style has none.
fn colour(style: Style) -> Color {
    style.fg.unwrap_or(Color::Reset)
}

/// Paints `p`'s shape (words are placed apart, by [`Words`]). The canvas's y grows upwards,
/// the grid's downwards: y is negated.
fn paint(ctx: &mut Context, p: &Primitive, colour: Color, view: Viewport) {
    let mut segment = |a: Point, b: Point| {
        ctx.draw(&Line::new(a.x, -a.y, b.x, -b.y, colour));
    };
    match &p.shape {
        Shape::Area(area) => outline(&area.corners, &mut segment),
        Shape::Component(c) => outline(&c.corners, &mut segment),
        Shape::Placeholder(b) => outline(&b.corners, &mut segment),
        Shape::Lines(lines) => {
            for s in &lines.segments {
                segment(s.from.point, s.to.point);
                if s.to.arrow {
                    tip(s.from.point, s.to.point, view, &mut segment);
                }
                if s.from.arrow {
                    tip(s.to.point, s.from.point, view, &mut segment);
                }
            }
        }
        Shape::Label(_) => {}
    }
}

/// The closed outline through `corners`.
fn outline(corners: &[Point], segment: &mut impl FnMut(Point, Point)) {
    for (i, &a) in corners.iter().enumerate() {
        segment(a, corners[(i + 1) % corners.len()]);
    }
}

/// An arrow tip at `head` of the line from `tail`: two wings as long on the screen at any zoom.
fn tip(tail: Point, head: Point, view: Viewport, segment: &mut impl FnMut(Point, Point)) {
    // On the screen, where a row is taller than a column is wide.
    let (dx, dy) = (
        (tail.x - head.x) / view.per_column,
        (tail.y - head.y) / view.per_row(),
    );
    let length = dx.hypot(dy);
    if length == 0.0 || !length.is_finite() {
        return;
    }
    let (ux, uy) = (dx / length * TIP_COLUMNS, dy / length * TIP_COLUMNS);
    for angle in [TIP_SPREAD, -TIP_SPREAD] {
        let (sin, cos) = f64::sin_cos(angle);
        let wing = Point::new(
            head.x + (ux * cos - uy * sin) * view.per_column,
            head.y + (ux * sin + uy * cos) * view.per_row(),
        );
        segment(head, wing);
    }
}

/// The words of the map, each on cells no other word took.
struct Words {
    area: Cells,
    view: Viewport,
    /// The grid point at the area's top-left corner.
    origin: Point,
    taken: Vec<bool>,
}

impl Words {
    fn new(area: Cells, view: Viewport) -> Words {
        Words {
            area,
            view,
            origin: view.visible(area).min,
            taken: vec![false; usize::from(area.width) * usize::from(area.height)],
        }
    }

    /// Whether a word took the cell at `column`, `row` of the area.
    fn holds(&self, column: u16, row: u16) -> bool {
        let at = usize::from(row) * usize::from(self.area.width) + usize::from(column);
        self.taken.get(at).copied().unwrap_or(false)
    }

    /// Places `p`'s words, if it has any and they find room.
    fn place(&mut self, buffer: &mut Buffer, p: &Primitive, emphasis: &Emphasis, theme: &Theme) {
        let selected = emphasis.selected == Some(p.id.as_str());
        if !selected && (self.too_small(p) || self.surely_full(p)) {
            return;
        }
        let mut style = emphasis.style(p, theme);
        if selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let marker = if (emphasis.marked)(&p.id) { "● " } else { "" };
        match &p.shape {
            Shape::Component(c) => {
                let status = match c.status {
                    Status::Error => "✗ ",
                    Status::Warning => "! ",
                    Status::Good => "✓ ",
                    Status::Unknown => "",
                };
                let text = format!("{marker}{status}{}", c.title);
                self.under(buffer, p, &text, style, selected);
            }
            Shape::Placeholder(b) => {
                let text = format!("{marker}{}", b.caption);
                self.under(buffer, p, &text, style, selected);
            }
            Shape::Label(label) => {
                let lines: Vec<&str> = label.text.lines().collect();
                let Some(first) = self.row_of(label.centre.y) else {
                    return;
                };
                let first = first - (lines.len() as i32 - 1) / 2;
                for (i, line) in lines.iter().enumerate() {
                    let text = if i == 0 {
                        format!("{marker}{line}")
                    } else {
                        (*line).to_owned()
                    };
                    self.put(
                        buffer,
                        first + i as i32,
                        label.centre.x,
                        &text,
                        style,
                        selected,
                    );
                }
            }
            Shape::Area(_) | Shape::Lines(_) => {}
        }
    }

    /// Whether `p`'s title would be a word under a box narrower than a column (zoom in to read
    /// it). A label's text always counts: it is the diagram's own words.
    fn too_small(&self, p: &Primitive) -> bool {
        !matches!(p.shape, Shape::Label(_)) && p.bounds.width() < self.view.per_column
    }

    /// Whether the cell under the middle of `p`'s one line of words is already taken by another
    /// word, so that they cannot be placed (a word centred there covers it whatever its
    /// length): skips writing them out, which at a distance is most of a frame.
    fn surely_full(&self, p: &Primitive) -> bool {
        let (x, y) = match &p.shape {
            Shape::Label(label) if !label.text.contains('\n') => (label.centre.x, label.centre.y),
            Shape::Label(_) => return false,
            Shape::Component(_) | Shape::Placeholder(_) => {
                (p.bounds.centre().x, p.bounds.max.y + self.view.per_row())
            }
            Shape::Area(_) | Shape::Lines(_) => return true,
        };
        let column = ((x - self.origin.x) / self.view.per_column).floor();
        match self.row_of(y) {
            Some(row) if (0.0..f64::from(self.area.width)).contains(&column) && row >= 0 => {
                self.holds(column as u16, row as u16)
            }
            _ => false,
        }
    }

    /// `text` centred under `p`'s shape.
    fn under(&mut self, buffer: &mut Buffer, p: &Primitive, text: &str, style: Style, keep: bool) {
        if let Some(row) = self.row_of(p.bounds.max.y) {
            self.put(buffer, row + 1, p.bounds.centre().x, text, style, keep);
        }
    }

    /// The screen row (relative to the area, maybe outside it) of grid y.
    fn row_of(&self, y: f64) -> Option<i32> {
        let row = ((y - self.origin.y) / self.view.per_row()).floor();
        (row.abs() < f64::from(i16::MAX)).then_some(row as i32)
    }

    /// Writes `text` centred on grid x at `row` if its cells are free (and takes them). A
    /// word to `keep` (the selection's) is moved inside the area rather than left out.
    fn put(&mut self, buffer: &mut Buffer, row: i32, x: f64, text: &str, style: Style, keep: bool) {
        let (width, height) = (i32::from(self.area.width), i32::from(self.area.height));
        let length = text.chars().count() as i32;
        let centre = (x - self.origin.x) / self.view.per_column;
        if length == 0 || length > width || !centre.is_finite() {
            return;
        }
        let mut start = (centre - f64::from(length) / 2.0).round() as i32;
        let mut row = row;
        if keep {
            start = start.clamp(0, width - length);
            row = row.clamp(0, height - 1);
        }
        if row < 0 || row >= height || start < 0 || start + length > width {
            return;
        }
        let at = |column: i32| (row * width + column) as usize;
        if !keep && (start..start + length).any(|column| self.taken[at(column)]) {
            return;
        }
        for column in start..start + length {
            self.taken[at(column)] = true;
        }
        buffer.set_string(
            self.area.x + start as u16,
            self.area.y + row as u16,
            text,
            style,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_scene::{DEFAULT_STATUS_KEY, Input};

    /// Components on a `side` × `side` lattice 4 units apart, from 0 to 4 × (side − 1).
    fn lattice(side: usize) -> Scene {
        let objects: Vec<(String, String)> = (0..side * side)
            .map(|i| {
                let (x, y) = ((i % side) * 4, (i / side) * 4);
                (
                    format!("c{i:05}"),
                    format!(r#"{{"position": {{"x": {x}, "y": {y}}}}}"#),
                )
            })
            .collect();
        let inputs = objects
            .iter()
            .map(|(id, data)| Input::json(id, "component", data));
        Scene::build_from(inputs, DEFAULT_STATUS_KEY)
    }

    #[test]
    fn shapes_smaller_than_a_cell_are_drawn_once_a_cell() {
        let scene = lattice(20);
        let area = Cells::new(0, 0, 10, 5);
        let centre = Point::new(38.0, 38.0);
        // 20 units a column and 40 a row: a 2-unit box is a dot, and the lattice (0 to 76)
        // falls into columns 3 to 6 and rows 1 to 3 of the 10 × 5 cells.
        let far = Viewport {
            centre,
            per_column: 20.0,
        };
        let shown = scene.in_view(far.visible(area));
        assert_eq!(shown.len(), 400);
        let drawn = once_a_cell(&shown, area, far);
        assert_eq!(drawn.len(), 12);
        assert!(drawn.iter().all(|(_, speck)| speck.is_some()));
        // The first of each cell is the one drawn (bottom to top: here by id).
        assert_eq!(drawn[0].0.id, "c00000");
        // Close up, every shape is drawn whole.
        let near = Viewport {
            centre,
            per_column: 0.5,
        };
        let shown = scene.in_view(near.visible(area));
        let drawn = once_a_cell(&shown, area, near);
        assert_eq!(drawn.len(), shown.len());
        assert!(drawn.iter().all(|(_, speck)| speck.is_none()));
    }
}
