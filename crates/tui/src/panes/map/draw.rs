//! Drawing a scene into a rectangle of the terminal: the shapes as braille lines on ratatui's
//! `Canvas` (areas as outlines, line groups as lines with arrow tips, components and the
//! placeholders of icons, images and widgets as boxes), then the words on top (component titles,
//! captions, label texts), each where it does not cover words already placed. Only what meets
//! the view is drawn ([`Scene::in_view`]); a shape that fits in a cell is the braille dot its
//! centre falls into, drawn once however many shapes fall into it ([`Dots`]), and a title only
//! where its box is at least a column wide.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect as Cells;
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::canvas::{Canvas, Context, Line, Points};

use crate::panes::map::dots::{Dots, Fall, Weight};
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
    /// The selected object, as the scene has it (compared by address: no id is compared per
    /// object of a frame).
    pub selected: Option<&'a Primitive>,
    /// Whether an object is marked.
    pub marked: &'a dyn Fn(&str) -> bool,
    /// Whether the tree's filter hides an object.
    pub hidden: &'a dyn Fn(&str) -> bool,
}

impl Emphasis<'_> {
    /// Whether `p` is the selected object.
    fn is_selected(&self, p: &Primitive) -> bool {
        self.selected.is_some_and(|s| std::ptr::eq(s, p))
    }

    /// The style of `p`'s shape.
    fn style(&self, p: &Primitive, theme: &Theme) -> Style {
        theme.of(self.role(p))
    }

    /// The role of `p`'s shape: selected, marked, hidden by the filter, else by its kind (a
    /// component by its status).
    fn role(&self, p: &Primitive) -> Role {
        if self.is_selected(p) {
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
        }
    }
}

/// How strongly a shape of `role` shows among the shapes sharing a dot.
fn weight(role: Role) -> Weight {
    match role {
        Role::MapMarked => Weight::Marked,
        Role::MapHidden => Weight::Hidden,
        _ => Weight::Plain,
    }
}

/// What a frame's canvas draws, bottom to top: the shapes drawn in full, then the dots that
/// stand for the shapes smaller than one, each with its colour; and the shapes whose words
/// may find room.
struct Sketch<'a> {
    full: Vec<(&'a Primitive, Color)>,
    dots: Vec<(Point, Color)>,
    worded: Vec<&'a Primitive>,
}

impl<'a> Sketch<'a> {
    /// The sketch of `shown` (bottom to top) on `dots`, as `view` shows it.
    fn of(
        shown: &[&'a Primitive],
        mut dots: Dots,
        view: Viewport,
        emphasis: &Emphasis,
        theme: &Theme,
    ) -> Self {
        let mut sketch = Sketch {
            full: Vec::new(),
            dots: Vec::new(),
            worded: Vec::new(),
        };
        for &p in shown {
            if has_words(p) && !too_small(p, view) {
                sketch.worded.push(p);
            }
            match dots.fall(&p.bounds) {
                None => sketch.full.push((p, colour(emphasis.style(p, theme)))),
                Some(Fall::Outside) => {}
                Some(Fall::Dot(dot)) => {
                    if dots.settled(dot) {
                        continue;
                    }
                    let role = emphasis.role(p);
                    if dots.take(dot, weight(role)) {
                        sketch.dots.push((dots.centre(dot), colour(theme.of(role))));
                    }
                }
            }
        }
        sketch
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
    let selected = emphasis.selected.filter(|p| p.bounds.intersects(visible));
    let sketch = Sketch::of(&shown, Dots::new(area, view), view, emphasis, theme);
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([visible.min.x, visible.max.x])
        .y_bounds([-visible.max.y, -visible.min.y])
        .paint(|ctx| {
            for &(p, colour) in &sketch.full {
                paint(ctx, p, colour, view);
            }
            for &(at, color) in &sketch.dots {
                ctx.draw(&Points {
                    coords: &[(at.x, -at.y)],
                    color,
                });
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
    for &p in selected.iter().chain(sketch.worded.iter().rev()) {
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

/// Whether `p` has words: a title, a caption or a label's text (areas and lines have none).
fn has_words(p: &Primitive) -> bool {
    !matches!(p.shape, Shape::Area(_) | Shape::Lines(_))
}

/// Whether `p`'s words would belong to a box narrower than a column (zoom in to read them): a
/// title under its box, a label's text in it. Zoomed out over a large diagram, words written
/// for every such box would cover the drawing.
fn too_small(p: &Primitive, view: Viewport) -> bool {
    p.bounds.width() < view.per_column
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
        if !has_words(p) {
            return;
        }
        let selected = emphasis.is_selected(p);
        if !selected && too_small(p, self.view) {
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

    /// `text` centred under `p`'s shape, each of its lines on its own row.
    fn under(&mut self, buffer: &mut Buffer, p: &Primitive, text: &str, style: Style, keep: bool) {
        if let Some(row) = self.row_of(p.bounds.max.y) {
            for (i, line) in text.lines().enumerate() {
                let row = row + 1 + i as i32;
                self.put(buffer, row, p.bounds.centre().x, line, style, keep);
            }
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
