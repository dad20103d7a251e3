//! The drawable primitives: one per placed object, with everything a renderer needs.

use super::geometry::{Point, Rect, distance_to_polygon, distance_to_segment};
use diagtui_model::ObjectType;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Rgb {
    /// The colour `#RRGGBB` as numbers.
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// `#RRGGBB` (uppercase hex).
    pub fn hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }

    /// The relative luminance (WCAG 2): 0 for black, 1 for white.
    pub fn luminance(self) -> f64 {
        let linear = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(self.r) + 0.7152 * linear(self.g) + 0.0722 * linear(self.b)
    }

    /// The contrast ratio of two colours (WCAG 2), from 1 (the same) to 21 (black and white).
    /// Text reads at 4.5 or more, shapes stand out at 3 or more.
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// How a component is doing, read from its `meta` (see [`Status::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Status {
    /// `down`, `error`, `critical` or `failed`.
    Error,
    /// `degraded` or `warning`.
    Warning,
    /// `up`, `ok` or `healthy`.
    Good,
    /// Anything else, or no status at all.
    #[default]
    Unknown,
}

impl Status {
    /// The status a `meta` value names (`None` when it is not a string); case and surrounding
    /// spaces do not matter.
    pub fn of(value: Option<&str>) -> Status {
        let Some(text) = value else {
            return Status::Unknown;
        };
        let text = text.trim();
        let is = |names: &[&str]| names.iter().any(|name| text.eq_ignore_ascii_case(name));
        if is(&["down", "error", "critical", "failed"]) {
            Status::Error
        } else if is(&["degraded", "warning"]) {
            Status::Warning
        } else if is(&["up", "ok", "healthy"]) {
            Status::Good
        } else {
            Status::Unknown
        }
    }
}

/// How a line is stroked (`lineDash`: 1 solid, 2 dashed, 3 dotted; anything else is solid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    /// A continuous line.
    Solid,
    /// Long dashes.
    Dashed,
    /// Dots.
    Dotted,
}

/// Where a label's text sits in its box (`textAlign`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Against the box's left edge.
    Left,
    /// Centred on the label's position (the default).
    Centre,
    /// Against the box's right edge.
    Right,
}

/// A closed polygon.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// Its corners in order (at least three).
    pub corners: Vec<Point>,
    /// The fill; `None` when invisible.
    pub fill: Option<Rgb>,
    /// The outline; `None` when invisible.
    pub line: Option<Rgb>,
    /// The outline's width, in grid units.
    pub line_width: f64,
    /// Its `zIndex`: higher areas are drawn over lower ones.
    pub z_index: f64,
    /// Its walls when it is walled (`areaType` 1); drawn only in the 3D picture.
    pub wall: Option<Wall>,
}

/// The walls standing on a walled area's outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wall {
    /// `wallHeight`, in grid units (2 by default).
    pub height: f64,
    /// `wallColor` (`#CCCCCC` by default); `None` when invisible.
    pub colour: Option<Rgb>,
}

/// One end of a line segment.
#[derive(Debug, Clone, PartialEq)]
pub struct End {
    /// Where it is.
    pub point: Point,
    /// The component it is attached to, as its index in [`super::Scene::primitives`]; `None`
    /// for a free anchor.
    pub attached: Option<usize>,
    /// Whether it ends in an arrow tip (`arrowAnchorIndices`).
    pub arrow: bool,
}

/// One line of a line group: from the first anchor of a `lines` pair to the second.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// The pair's first anchor.
    pub from: End,
    /// The pair's second anchor.
    pub to: End,
}

/// A line group: its segments and their stroke.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    /// The lines, in the order of `lines`.
    pub segments: Vec<Segment>,
    /// The stroke colour (`strokeStyle`); `None` when invisible.
    pub colour: Option<Rgb>,
    /// The stroke width, in grid units.
    pub width: f64,
    /// Solid, dashed or dotted.
    pub dash: Dash,
}

/// A component: a square footprint centred on its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    /// Its position.
    pub centre: Point,
    /// The footprint's corners: top-left, top-right, bottom-right, bottom-left before rotation
    /// (the `index` of an attached anchor), turned with the component.
    pub corners: [Point; 4],
    /// `name`, else the last part of `componentId`.
    pub title: String,
    /// The `componentId` (empty when missing).
    pub component_id: String,
    /// Its own fill: a generic component's (`generic.*`) `primaryColor`; `None` for the
    /// others (the catalogue's products have their own look) or when it is not a colour.
    pub colour: Option<Rgb>,
    /// Its status from `meta`.
    pub status: Status,
    /// Its `opacity`, 0–1.
    pub opacity: f64,
}

/// A text label.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// The text (may hold line breaks).
    pub text: String,
    /// Its position: the centre of its box.
    pub centre: Point,
    /// Its box's width, in grid units (`dimensions`, else estimated from the text).
    pub width: f64,
    /// Its box's height, in grid units.
    pub height: f64,
    /// The text's size (the em height), in grid units.
    pub font_size: f64,
    /// Radians, clockwise about the centre.
    pub rotation: f64,
    /// The text colour; `None` when invisible.
    pub colour: Option<Rgb>,
    /// The outline drawn around the letters; `None` when invisible.
    pub outline: Option<Rgb>,
    /// The outline's width, in grid units.
    pub outline_width: f64,
    /// Where the text sits in the box.
    pub align: Align,
    /// Bold text.
    pub bold: bool,
    /// Italic text.
    pub italic: bool,
}

/// What a placeholder box stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceholderKind {
    /// An icon (a square as large as its `fontSize`).
    Icon,
    /// A picture.
    Image,
    /// A chart widget.
    Widget,
}

/// An icon, image or widget, drawn as a box saying what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Placeholder {
    /// Icon, image or widget.
    pub kind: PlaceholderKind,
    /// The box's corners (top-left first, clockwise), turned by its rotation.
    pub corners: [Point; 4],
    /// What it shows: the icon's name, the image's file name, the widget's type and plot.
    pub caption: String,
    /// The icon's colour or the widget's line colour; `None` for images or when invisible.
    pub colour: Option<Rgb>,
}

/// The drawing of one object.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// An area.
    Area(Area),
    /// A line group.
    Lines(Lines),
    /// A component.
    Component(Component),
    /// A label.
    Label(Label),
    /// An icon, image or widget.
    Placeholder(Placeholder),
}

/// One placed object: its id, its shape and the rectangle its shape fills.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// The object id.
    pub id: String,
    /// The rectangle around the shape (a component's title and a label's letters may reach
    /// beyond it).
    pub bounds: Rect,
    /// What to draw.
    pub shape: Shape,
}

impl Primitive {
    /// The object's type.
    pub fn kind(&self) -> ObjectType {
        match &self.shape {
            Shape::Area(_) => ObjectType::Area,
            Shape::Lines(_) => ObjectType::LineGroup,
            Shape::Component(_) => ObjectType::Component,
            Shape::Label(_) => ObjectType::Label,
            Shape::Placeholder(p) => match p.kind {
                PlaceholderKind::Icon => ObjectType::Icon,
                PlaceholderKind::Image => ObjectType::Image,
                PlaceholderKind::Widget => ObjectType::Widget,
            },
        }
    }

    /// The distance from `p` to the shape: 0 on or inside it.
    pub fn distance_to(&self, p: Point) -> f64 {
        match &self.shape {
            Shape::Area(area) => distance_to_polygon(&area.corners, p),
            Shape::Lines(lines) => lines
                .segments
                .iter()
                .map(|s| distance_to_segment(p, s.from.point, s.to.point))
                .fold(f64::INFINITY, f64::min),
            Shape::Component(c) => distance_to_polygon(&c.corners, p),
            Shape::Placeholder(b) => distance_to_polygon(&b.corners, p),
            Shape::Label(label) => {
                let local = p.rotated(label.centre, -label.rotation);
                let r = Rect::centred(label.centre, label.width, label.height);
                let dx = (r.min.x - local.x).max(local.x - r.max.x).max(0.0);
                let dy = (r.min.y - local.y).max(local.y - r.max.y).max(0.0);
                dx.hypot(dy)
            }
        }
    }
}
