//! The scene as SVG text, fitted to an image of a given size: written by hand, since the
//! format is small and the scene's shapes map onto a handful of its elements.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::glyphs;
use super::measure::{self, LINE};
use crate::{
    Align, Area, Component, Dash, Label, Lines, Placeholder, PlaceholderKind, Point, Primitive,
    Rect, Rgb, Scene, Shape, Status,
};

/// The one font family the SVG names (the renderer loads only that font).
pub const FONT_FAMILY: &str = "Noto Sans";

/// The margin around the diagram, as a share of the image's shorter side.
pub(super) const MARGIN: f64 = 0.04;

/// Room kept around the scene's bounds for what reaches beyond them (titles under
/// components), in grid units.
pub(super) const ROOM: f64 = 1.0;

/// A component title's size, in grid units.
pub(super) const TITLE_SIZE: f64 = 0.5;

/// A glyph's half-width on a component's box or block top, in grid units.
pub(super) const GLYPH: f64 = 0.55;

/// Glyphs smaller than this many pixels across are left out.
pub(super) const SMALLEST_GLYPH: f64 = 6.0;

/// The least contrast of text with what it is drawn on (WCAG AA for text).
pub(super) const TEXT_CONTRAST: f64 = 4.5;

/// The least contrast of a glyph with the box it is drawn on (WCAG AA for graphics).
const GLYPH_CONTRAST: f64 = 3.0;

/// Text smaller than this many pixels is left out: it could not be read, and laying it out
/// is most of the cost of a picture of a large diagram.
pub(super) const SMALLEST_TEXT: f64 = 4.0;

/// The thinnest stroke drawn, in pixels.
const THINNEST: f64 = 0.75;

/// The page behind the diagram.
pub(super) const PAPER: Rgb = Rgb::new(0xFF, 0xFF, 0xFF);

/// Component titles, the unplaced note and placeholder captions.
pub(super) const TEXT: Rgb = Rgb::new(0x26, 0x26, 0x26);

/// Pure white and black: one of them stands out from any colour by at least 4.5.
const WHITE: Rgb = Rgb::new(0xFF, 0xFF, 0xFF);
const BLACK: Rgb = Rgb::new(0, 0, 0);

/// A placeholder's outline when it has no colour of its own.
const QUIET: Rgb = Rgb::new(0x80, 0x80, 0x80);

/// The fill and outline of a component with this status.
pub(super) fn status_colours(status: Status) -> (Rgb, Rgb) {
    match status {
        Status::Error => (Rgb::new(0xFD, 0xE2, 0xE1), Rgb::new(0xC0, 0x00, 0x00)),
        Status::Warning => (Rgb::new(0xFF, 0xF2, 0xCC), Rgb::new(0xBF, 0x8F, 0x00)),
        Status::Good => (Rgb::new(0xE2, 0xF0, 0xD9), Rgb::new(0x3A, 0x7D, 0x22)),
        Status::Unknown => (Rgb::new(0xFF, 0xFF, 0xFF), Rgb::new(0x59, 0x59, 0x59)),
    }
}

/// A component's fill and outline: its status's colours when it has a status, else its own
/// colour (a generic component's `primaryColor`) if it has one, outlined as an unknown status.
pub(super) fn component_colours(component: &Component) -> (Rgb, Rgb) {
    let (fill, line) = status_colours(component.status);
    match (component.status, component.colour) {
        (Status::Unknown, Some(own)) => (own, line),
        _ => (fill, line),
    }
}

/// The colour of a component's glyph on its fill: its outline's when that stands out.
pub(super) fn glyph_colour(fill: Rgb, line: Rgb) -> Rgb {
    legible(line, fill, GLYPH_CONTRAST)
}

/// `colour` when its contrast with `ground` is at least `ratio`, else the first of the dark
/// text colour, white and black that reaches it (white or black always reaches 4.5).
pub(super) fn legible(colour: Rgb, ground: Rgb, ratio: f64) -> Rgb {
    if colour.contrast(ground) >= ratio {
        return colour;
    }
    [TEXT, WHITE, BLACK]
        .into_iter()
        .find(|c| c.contrast(ground) >= ratio)
        .unwrap_or_else(|| {
            if WHITE.contrast(ground) > BLACK.contrast(ground) {
                WHITE
            } else {
                BLACK
            }
        })
}

/// Grid units to image pixels: the scene's bounds (with room) fitted into the image, less
/// the margin, and centred.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fit {
    /// Pixels per unit.
    pub(super) scale: f64,
    /// Where x = 0 lands, in pixels.
    pub(super) dx: f64,
    /// Where y = 0 lands, in pixels.
    pub(super) dy: f64,
}

impl Fit {
    /// `bounds` (with room) as large as fits in `width` × `height` less the margin, centred.
    pub(super) fn new(bounds: Option<Rect>, width: u32, height: u32) -> Fit {
        let (width, height) = (f64::from(width), f64::from(height));
        let Some(bounds) = bounds.map(|b| b.grown(ROOM)) else {
            return Fit {
                scale: 1.0,
                dx: 0.0,
                dy: 0.0,
            };
        };
        let margin = width.min(height) * MARGIN;
        let scale = ((width - 2.0 * margin) / bounds.width())
            .min((height - 2.0 * margin) / bounds.height())
            .max(f64::MIN_POSITIVE);
        Fit {
            scale,
            dx: (width - bounds.width() * scale) / 2.0 - bounds.min.x * scale,
            dy: (height - bounds.height() * scale) / 2.0 - bounds.min.y * scale,
        }
    }

    /// `bounds` (with room) at `scale` pixels per unit, centred in `width` × `height`.
    pub(super) fn with_scale(bounds: Option<Rect>, scale: f64, width: u32, height: u32) -> Fit {
        let centre = bounds.map_or(Point::default(), Rect::centre);
        Fit {
            scale,
            dx: f64::from(width) / 2.0 - centre.x * scale,
            dy: f64::from(height) / 2.0 - centre.y * scale,
        }
    }

    /// A point in pixels.
    pub(super) fn at(self, p: Point) -> (f64, f64) {
        (p.x * self.scale + self.dx, p.y * self.scale + self.dy)
    }

    /// A length in pixels.
    pub(super) fn len(self, units: f64) -> f64 {
        units * self.scale
    }

    /// A stroke width in pixels, never thinner than [`THINNEST`].
    pub(super) fn stroke(self, units: f64) -> f64 {
        self.len(units).max(THINNEST)
    }
}

/// The scene as an SVG image of `width` × `height` pixels: the diagram fitted with a margin on
/// a white page, and a note at the bottom when some objects could not be placed.
pub fn svg(scene: &Scene, width: u32, height: u32) -> String {
    flat(
        scene,
        Fit::new(flat_bounds(scene), width, height),
        width,
        height,
    )
}

/// The rectangle around what the 2D picture draws: the scene's shapes and the components'
/// titles under them, which may be wider than their boxes (so that no title is cut at the
/// picture's edge).
pub(super) fn flat_bounds(scene: &Scene) -> Option<Rect> {
    scene
        .primitives()
        .iter()
        .filter_map(|p| match &p.shape {
            Shape::Component(c) => {
                let bottom = c
                    .corners
                    .iter()
                    .map(|c| c.y)
                    .fold(f64::NEG_INFINITY, f64::max);
                let (width, height) = title_extent(&c.title);
                let top_left = Point::new(c.centre.x - width / 2.0, bottom);
                Some(Rect::new(
                    top_left,
                    Point::new(top_left.x + width, bottom + height),
                ))
            }
            _ => None,
        })
        .fold(scene.bounds(), |all, title| {
            Some(all.map_or(title, |all| all.union(title)))
        })
}

/// The width and height of a component's title, in grid units (with the gap to its box).
pub(super) fn title_extent(title: &str) -> (f64, f64) {
    let lines = title.lines().count().max(1) as f64;
    (
        measure::widest(title) * TITLE_SIZE,
        (0.3 + lines * LINE) * TITLE_SIZE,
    )
}

/// The scene as a 2D SVG image of `width` × `height` pixels, placed by `fit`.
pub(super) fn flat(scene: &Scene, fit: Fit, width: u32, height: u32) -> String {
    let mut out = open(scene, width, height);
    // Component titles go over the lines (which may cross them) and under labels and icons.
    let mut titles = String::new();
    for primitive in scene.in_draw_order() {
        if matches!(primitive.shape, Shape::Label(_) | Shape::Placeholder(_)) {
            out.push_str(&titles);
            titles.clear();
        }
        draw(&mut out, &mut titles, fit, scene, primitive);
    }
    out.push_str(&titles);
    close(out, scene, height)
}

/// The start of an SVG image of `width` × `height` pixels with its white page, with room for
/// the scene's objects.
pub(super) fn open(scene: &Scene, width: u32, height: u32) -> String {
    let mut out = String::with_capacity(512 + scene.primitives().len() * 240);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"{FONT_FAMILY}\">\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"{}\"/>\n",
        PAPER.hex()
    );
    out
}

/// The end of the image: the note on what could not be placed, at the bottom left.
pub(super) fn close(mut out: String, scene: &Scene, height: u32) -> String {
    if let Some(note) = scene.unplaced_note() {
        let size = (f64::from(height) * 0.025).clamp(SMALLEST_TEXT, 14.0);
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{size:.1}\" fill=\"{}\">{}</text>",
            size * 0.5,
            f64::from(height) - size * 0.5,
            TEXT.hex(),
            escape(&note)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Writes one primitive of `scene`, grouped with its id as its title (a tooltip in viewers);
/// a component's title goes to `titles`.
pub(super) fn draw(out: &mut String, titles: &mut String, fit: Fit, scene: &Scene, p: &Primitive) {
    let caption = match &p.shape {
        Shape::Placeholder(placeholder) => format!(": {}", escape(&placeholder.caption)),
        _ => String::new(),
    };
    let _ = write!(
        out,
        "<g><title>{} {}{caption}</title>",
        p.kind(),
        escape(&p.id)
    );
    match &p.shape {
        Shape::Area(area) => draw_area(out, fit, area),
        Shape::Lines(lines) => draw_lines(out, fit, lines),
        Shape::Component(component) => draw_component(out, titles, fit, component),
        Shape::Label(label) => draw_label(out, fit, label, ground(scene, label)),
        Shape::Placeholder(placeholder) => draw_placeholder(out, fit, placeholder),
    }
    out.push_str("</g>\n");
}

/// `fill="…"` or `fill="none"`.
fn paint(colour: Option<Rgb>) -> String {
    colour.map_or_else(|| "none".to_owned(), Rgb::hex)
}

/// The `points` of a polygon.
pub(super) fn points(fit: Fit, corners: &[Point]) -> String {
    let mut text = String::with_capacity(corners.len() * 16);
    for &corner in corners {
        let (x, y) = fit.at(corner);
        let _ = write!(text, "{x:.2},{y:.2} ");
    }
    text.pop();
    text
}

fn draw_area(out: &mut String, fit: Fit, area: &Area) {
    let _ = write!(
        out,
        "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{:.2}\"/>",
        points(fit, &area.corners),
        paint(area.fill),
        paint(area.line),
        fit.stroke(area.line_width)
    );
}

fn draw_lines(out: &mut String, fit: Fit, lines: &Lines) {
    let Some(colour) = lines.colour else {
        return;
    };
    let width = fit.stroke(lines.width);
    let dash = match lines.dash {
        Dash::Solid => String::new(),
        Dash::Dashed => format!(
            " stroke-dasharray=\"{:.2} {:.2}\"",
            width * 6.0,
            width * 4.0
        ),
        Dash::Dotted => format!(
            " stroke-dasharray=\"{:.2} {:.2}\" stroke-linecap=\"round\"",
            width * 0.1,
            width * 2.5
        ),
    };
    let mut path = String::with_capacity(lines.segments.len() * 40);
    let mut tips = String::new();
    for segment in &lines.segments {
        let (from, to) = (fit.at(segment.from.point), fit.at(segment.to.point));
        let _ = write!(path, "M{:.2} {:.2}L{:.2} {:.2}", from.0, from.1, to.0, to.1);
        if segment.to.arrow {
            tips.push_str(&arrow_tip(from, to, width));
        }
        if segment.from.arrow {
            tips.push_str(&arrow_tip(to, from, width));
        }
    }
    let colour = colour.hex();
    let _ = write!(
        out,
        "<path d=\"{path}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width:.2}\"{dash}/>"
    );
    if !tips.is_empty() {
        let _ = write!(out, "<path d=\"{tips}\" fill=\"{colour}\"/>");
    }
}

/// A filled triangle whose point is at `to`, in the direction from `from`; nothing for a
/// line of no length.
fn arrow_tip(from: (f64, f64), to: (f64, f64), stroke: f64) -> String {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    if length < 1e-9 {
        return String::new();
    }
    let size = (stroke * 7.0).max(7.0).min(length);
    let (ux, uy) = (dx / length, dy / length);
    let (bx, by) = (to.0 - ux * size, to.1 - uy * size);
    let (nx, ny) = (-uy * size * 0.45, ux * size * 0.45);
    format!(
        "M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z",
        to.0,
        to.1,
        bx + nx,
        by + ny,
        bx - nx,
        by - ny
    )
}

fn draw_component(out: &mut String, titles: &mut String, fit: Fit, component: &Component) {
    let (fill, line) = component_colours(component);
    let opacity = if component.opacity < 1.0 {
        format!(" opacity=\"{:.2}\"", component.opacity)
    } else {
        String::new()
    };
    let _ = write!(
        out,
        "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{:.2}\"{opacity}/>",
        points(fit, &component.corners),
        fill.hex(),
        line.hex(),
        fit.stroke(0.08)
    );
    let size = fit.len(GLYPH);
    if size * 2.0 >= SMALLEST_GLYPH {
        // The glyph stands on the box, turned with it.
        let [c0, c1, ..] = component.corners;
        let (sin, cos) = (c1.y - c0.y).atan2(c1.x - c0.x).sin_cos();
        let (x, y) = fit.at(component.centre);
        let matrix = [size * cos, size * sin, -size * sin, size * cos, x, y];
        if component.opacity < 1.0 {
            let _ = write!(out, "<g{opacity}>");
        }
        glyphs::draw(
            out,
            &component.component_id,
            matrix,
            glyph_colour(fill, line),
        );
        if component.opacity < 1.0 {
            out.push_str("</g>");
        }
    }
    let bottom = component
        .corners
        .iter()
        .map(|c| c.y)
        .fold(f64::NEG_INFINITY, f64::max);
    let size = fit.len(TITLE_SIZE);
    let (x, y) = fit.at(Point::new(component.centre.x, bottom));
    let style = format!("fill=\"{}\" {}", TEXT.hex(), halo(PAPER, size * 0.25));
    text(
        titles,
        &component.title,
        (x, y + size * 1.05),
        size,
        "middle",
        &style,
    );
}

/// The attributes of an outline drawn under the letters of a text, so that it stays legible
/// over lines.
pub(super) fn halo(colour: Rgb, width: f64) -> String {
    format!(
        "stroke=\"{}\" stroke-width=\"{width:.2}\" stroke-linejoin=\"round\" paint-order=\"stroke\"",
        colour.hex()
    )
}

/// What a label is drawn on: the fill of the topmost area under its centre, else the page.
pub(super) fn ground(scene: &Scene, label: &Label) -> Rgb {
    scene.fill_under(label.centre).unwrap_or(PAPER)
}

/// Whether a label lies on a band of its own: a filled area under it no larger than its box
/// (with half a unit to spare each way), as create-diagram draws a group's title.
pub(super) fn on_band(scene: &Scene, label: &Label) -> bool {
    let around = Rect::centred(label.centre, label.width, label.height).grown(0.5);
    scene
        .area_under(label.centre)
        .is_some_and(|band| around.contains(band.bounds.min) && around.contains(band.bounds.max))
}

/// The width a label's text may take in its box (a little room either side, so that letters
/// never touch the box's edges), and its text fitted to it.
fn label_text(label: &Label) -> (f64, measure::Fitted) {
    let room = (label.width - label.font_size * 0.5).max(label.width * 0.8);
    (
        room,
        measure::fit(&label.text, label.font_size, room, label.height),
    )
}

/// Where a label's text lies, unrotated, as [`draw_label`] draws it: from its centre, the
/// offsets of its left, top, right and bottom edges (its box is often wider than its text).
pub(super) fn label_text_edges(label: &Label) -> [f64; 4] {
    let (room, fitted) = label_text(label);
    let width = (fitted.lines.iter())
        .map(|line| measure::line_width(line) * fitted.size)
        .fold(0.0, f64::max);
    let half_height = fitted.lines.len().max(1) as f64 * fitted.size * LINE / 2.0;
    let left = match label.align {
        Align::Left => -room / 2.0,
        Align::Centre => -width / 2.0,
        Align::Right => room / 2.0 - width,
    };
    [left, -half_height, left + width, half_height]
}

/// A label on `ground`: its text fitted to its box (wrapped or made smaller, never cut), in
/// its colour when that reads on the ground (else dark or light text that does), with its
/// outline as a halo (the ground's colour when the colour was replaced or the outline would
/// blur the letters).
pub(super) fn draw_label(out: &mut String, fit: Fit, label: &Label, ground: Rgb) {
    let Some(colour) = label.colour else {
        return;
    };
    let (room, fitted) = label_text(label);
    let size = fit.len(fitted.size);
    let (anchor, x) = match label.align {
        Align::Left => ("start", label.centre.x - room / 2.0),
        Align::Centre => ("middle", label.centre.x),
        Align::Right => ("end", label.centre.x + room / 2.0),
    };
    let (x, centre_y) = fit.at(Point::new(x, label.centre.y));
    let lines = fitted.lines.len().max(1) as f64;
    let first_baseline = centre_y - (lines - 1.0) * size * LINE / 2.0 + size * 0.35;
    let legible = legible(colour, ground, TEXT_CONTRAST);
    let mut style = format!("fill=\"{}\"", legible.hex());
    if label.bold {
        style.push_str(" font-weight=\"bold\"");
    }
    if label.italic {
        style.push_str(" font-style=\"italic\"");
    }
    if let Some(outline) = label.outline.filter(|_| label.outline_width > 0.0) {
        // Text whose colour was replaced, or whose outline is too close to it, is outlined
        // in its ground's colour.
        let outline = if legible != colour || outline.contrast(legible) < TEXT_CONTRAST {
            ground
        } else {
            outline
        };
        style.push(' ');
        style.push_str(&halo(outline, fit.len(label.outline_width * 2.0)));
    }
    if label.rotation != 0.0 {
        let (cx, cy) = fit.at(label.centre);
        let _ = write!(
            style,
            " transform=\"rotate({:.2} {cx:.2} {cy:.2})\"",
            label.rotation.to_degrees()
        );
    }
    text(
        out,
        &fitted.lines.join("\n"),
        (x, first_baseline),
        size,
        anchor,
        &style,
    );
}

fn draw_placeholder(out: &mut String, fit: Fit, placeholder: &Placeholder) {
    let colour = placeholder.colour.unwrap_or(QUIET);
    let rect = Rect::around(placeholder.corners).expect("four corners");
    let (x, y) = fit.at(rect.centre());
    if placeholder.kind == PlaceholderKind::Icon {
        // Too small for its name, which the group's title carries.
        let _ = write!(
            out,
            "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{:.2}\" fill=\"{}\"/>",
            fit.len(rect.width() / 2.0).max(1.0),
            colour.hex()
        );
        return;
    }
    let _ = write!(
        out,
        "<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"{}\" \
         stroke-width=\"{:.2}\" stroke-dasharray=\"4 3\"/>",
        points(fit, &placeholder.corners),
        colour.hex(),
        colour.hex(),
        fit.stroke(0.05)
    );
    let longest = placeholder.caption.chars().count().max(1) as f64;
    let size = fit
        .len(rect.height() * 0.3)
        .min(fit.len(rect.width() * 0.9) / (longest * 0.55));
    let style = format!("fill=\"{}\"", TEXT.hex());
    text(
        out,
        &placeholder.caption,
        (x, y + size * 0.35),
        size,
        "middle",
        &style,
    );
}

/// A `<text>` of one or more lines, the first with its baseline at `at`; nothing when too
/// small to read.
pub(super) fn text(
    out: &mut String,
    text: &str,
    at: (f64, f64),
    size: f64,
    anchor: &str,
    style: &str,
) {
    if size < SMALLEST_TEXT || text.trim().is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<text x=\"{:.2}\" y=\"{:.2}\" font-size=\"{size:.2}\" text-anchor=\"{anchor}\" {style}>",
        at.0, at.1
    );
    for (i, line) in text.lines().map(drawable).enumerate() {
        let line = &*line;
        if i == 0 {
            out.push_str(&escape(line));
        } else {
            let _ = write!(
                out,
                "<tspan x=\"{:.2}\" dy=\"{:.2}\">{}</tspan>",
                at.0,
                size * LINE,
                escape(line)
            );
        }
    }
    out.push_str("</text>");
}

/// A line as the shipped fonts draw it: without the variation selectors U+FE0E and U+FE0F,
/// which ask for a symbol's text or emoji form. The fonts have one form, and resvg drew
/// nothing for a symbol that asked for its emoji form (`⚙️` in a Mermaid label).
fn drawable(line: &str) -> Cow<'_, str> {
    let selector = |c: char| matches!(c, '\u{FE0E}' | '\u{FE0F}');
    if line.contains(selector) {
        Cow::Owned(line.chars().filter(|&c| !selector(c)).collect())
    } else {
        Cow::Borrowed(line)
    }
}

/// Text made safe inside an XML element or attribute: the five special characters escaped,
/// and characters XML cannot hold (most control characters) left out. (HTML reads it too.)
pub fn escape(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => safe.push_str("&amp;"),
            '<' => safe.push_str("&lt;"),
            '>' => safe.push_str("&gt;"),
            '"' => safe.push_str("&quot;"),
            '\'' => safe.push_str("&apos;"),
            '\t' | '\n' | '\r' => safe.push(' '),
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => safe.push(c),
        }
    }
    safe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_xml_well_formed() {
        assert_eq!(
            escape("a<b & \"c\"\u{0}\u{7}\td"),
            "a&lt;b &amp; &quot;c&quot; d"
        );
    }

    #[test]
    fn the_fit_centres_the_diagram_with_a_margin() {
        let bounds = Rect::new(Point::new(-9.0, -4.0), Point::new(9.0, 4.0));
        let fit = Fit::new(Some(bounds), 1000, 1000);
        // 20 units (with room) across 920 pixels (1000 less two margins of 40).
        assert!((fit.scale - 46.0).abs() < 1e-9);
        assert_eq!(fit.at(Point::new(0.0, 0.0)), (500.0, 500.0));
        let (left, _) = fit.at(Point::new(-10.0, 0.0));
        assert!((left - 40.0).abs() < 1e-9);
    }

    #[test]
    fn arrow_tips_point_along_their_line() {
        assert_eq!(arrow_tip((0.0, 0.0), (0.0, 0.0), 1.0), "");
        assert_eq!(
            arrow_tip((0.0, 0.0), (10.0, 0.0), 1.0),
            "M10.00 0.00L3.00 3.15L3.00 -3.15Z"
        );
    }
}
