//! One object's data to its shape, or the reason it cannot be placed.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::Input;
use super::geometry::{Point, Rect};
use super::read::{self, Anchor, Fields, Pair, Problem};
use super::shape::{
    Align, Area, Component, Dash, End, Label, Lines, Placeholder, PlaceholderKind, Primitive, Rgb,
    Segment, Shape, Wall,
};
use diagtui_model::ObjectType;

/// The side of a component's square footprint, in grid units.
pub const FOOTPRINT: f64 = 2.0;

/// The default colour of lines, labels and icons (`#333333`).
const INK: Rgb = Rgb::new(0x33, 0x33, 0x33);

/// A component's footprint corners, or why it cannot be placed.
type Corners = Result<[Point; 4], Problem>;

/// A document's objects in id order, with its components by id: where attached anchors find
/// their components' corners. Each component's corners are worked out once, by whichever
/// comes first: the component's own placing, or an anchor naming it (which reads it).
pub struct Document<'a> {
    objects: &'a [Input<'a>],
    /// Each component's index among the objects, and its corners once known.
    components: HashMap<&'a str, (usize, OnceLock<Corners>)>,
    status_key: &'a str,
}

impl<'a> Document<'a> {
    /// The document of these objects (in id order), whose components' status is `meta` under
    /// `status_key`.
    pub fn new(objects: &'a [Input<'a>], status_key: &'a str) -> Document<'a> {
        let is_component = |object: &&Input<'_>| object.kind == ObjectType::Component.as_str();
        let mut components = HashMap::with_capacity(objects.iter().filter(is_component).count());
        for (at, object) in objects.iter().enumerate().filter(|(_, o)| is_component(o)) {
            components.insert(object.id, (at, OnceLock::new()));
        }
        Document {
            objects,
            components,
            status_key,
        }
    }

    /// The component `id`'s index among the objects and its corners, or why an anchor cannot
    /// name it.
    fn component(&self, id: &str) -> Result<(usize, [Point; 4]), Problem> {
        if let Some((at, corners)) = self.components.get(id) {
            let corners = corners.get_or_init(|| {
                let fields = Fields::read(self.objects[*at].data, self.status_key)?;
                footprint(&fields).map(|(_, corners)| corners)
            });
            return match corners {
                Ok(corners) => Ok((*at, *corners)),
                Err(problem) => Err(format!("names {id}, which cannot be placed ({problem})")),
            };
        }
        match self.objects.binary_search_by(|object| object.id.cmp(id)) {
            Ok(at) => Err(format!(
                "names {id}, a {}, not a component",
                self.objects[at].kind
            )),
            Err(_) => Err(format!("names {id}, which does not exist")),
        }
    }

    /// Keeps component `id`'s corners, worked out while placing it.
    fn remember(&self, id: &str, corners: Corners) {
        if let Some((_, known)) = self.components.get(id) {
            known.get_or_init(|| corners);
        }
    }
}

/// Turns the attached ends of line groups from indexes among the objects (as [`place`] leaves
/// them) into indexes among the placed primitives, given whether each object was placed.
pub fn attach(primitives: &mut [Primitive], was_placed: &[bool]) {
    let mut next = 0;
    let slot: Vec<Option<usize>> = was_placed
        .iter()
        .map(|&placed| {
            next += usize::from(placed);
            placed.then(|| next - 1)
        })
        .collect();
    for primitive in primitives {
        if let Shape::Lines(lines) = &mut primitive.shape {
            for segment in &mut lines.segments {
                for end in [&mut segment.from, &mut segment.to] {
                    // A named component can always be placed, so its slot is always filled.
                    end.attached = end.attached.and_then(|at| slot[at]);
                }
            }
        }
    }
}

/// The shape of an object and the rectangle around it. `document` holds every object, where
/// attached anchors find their components; `data` is where the object's data is read (one for
/// many objects, to reuse its buffers).
pub fn place<'a>(
    object: &Input<'a>,
    document: &Document<'_>,
    data: &mut Fields<'a>,
) -> Result<(Shape, Rect), Problem> {
    let Some(&kind) = ObjectType::ALL.iter().find(|t| t.as_str() == object.kind) else {
        return Err(format!("unknown type \"{}\"", object.kind));
    };
    data.fill(object.data, document.status_key)?;
    let data = &*data;
    let shape = match kind {
        ObjectType::Component => {
            let component = component(data);
            let corners = component.as_ref().map(|c| c.corners);
            document.remember(object.id, corners.map_err(Clone::clone));
            Shape::Component(component?)
        }
        ObjectType::LineGroup => Shape::Lines(lines(data, document)?),
        ObjectType::Area => Shape::Area(area(data)?),
        ObjectType::Label => Shape::Label(label(data)?),
        ObjectType::Icon | ObjectType::Image | ObjectType::Widget => {
            Shape::Placeholder(placeholder(kind, data)?)
        }
    };
    let bounds = bounds(&shape);
    if !(bounds.min.is_finite() && bounds.max.is_finite()) {
        return Err("its geometry is out of range".to_owned());
    }
    Ok((shape, bounds))
}

/// The rectangle around a shape.
fn bounds(shape: &Shape) -> Rect {
    let around = |points: &[Point]| Rect::around(points.iter().copied());
    let rect = match shape {
        Shape::Area(a) => around(&a.corners),
        Shape::Component(c) => around(&c.corners),
        Shape::Placeholder(p) => around(&p.corners),
        Shape::Label(l) => around(&label_corners(l)),
        Shape::Lines(l) => Rect::around(l.segments.iter().flat_map(|s| [s.from.point, s.to.point])),
    };
    rect.expect("every placed shape has at least one point")
}

/// The corners of a box of `width` × `height` centred on `centre`, turned by `rotation`
/// about its centre: top-left first, clockwise.
fn box_corners(centre: Point, width: f64, height: f64, rotation: f64) -> [Point; 4] {
    let r = Rect::centred(centre, width, height);
    [
        r.min,
        Point::new(r.max.x, r.min.y),
        r.max,
        Point::new(r.min.x, r.max.y),
    ]
    .map(|p| p.rotated(centre, rotation))
}

/// A label's box corners.
fn label_corners(label: &Label) -> [Point; 4] {
    box_corners(label.centre, label.width, label.height, label.rotation)
}

/// A component's position and footprint corners.
fn footprint(data: &Fields<'_>) -> Result<(Point, [Point; 4]), Problem> {
    let centre = read::required_point(data.position, "position")?;
    let rotation = data.rotation.unwrap_or(0.0);
    Ok((centre, box_corners(centre, FOOTPRINT, FOOTPRINT, rotation)))
}

/// The last part of a componentId made readable, what names a component without a `name`:
/// `networking.aws-amazon-cloudfront` reads `aws amazon cloudfront` (dashes, underscores and
/// control characters as spaces).
pub fn readable_component_id(component_id: &str) -> impl Iterator<Item = char> + '_ {
    let last = component_id.rsplit('.').next().unwrap_or_default();
    last.chars().map(|c| match c {
        '-' | '_' => ' ',
        c if c.is_control() => ' ',
        c => c,
    })
}

fn component(data: &Fields<'_>) -> Result<Component, Problem> {
    let (centre, corners) = footprint(data)?;
    let component_id = read::text_or(&data.component_id, "");
    let named_empty = data.name.as_ref().and_then(read::Text::as_str) == Some("");
    let title = match read::non_empty(&data.name) {
        Some(name) => name.to_owned(),
        // A name given as "" asks for no title (a DOT `shape=point` junction).
        None if named_empty => String::new(),
        None => match readable_component_id(&component_id).collect::<String>() {
            slug if slug.trim().is_empty() => "component".to_owned(),
            slug => slug,
        },
    };
    let colour = component_id
        .starts_with("generic.")
        .then(|| read::colour_or(&data.primary_color, None))
        .flatten();
    Ok(Component {
        centre,
        corners,
        title,
        colour,
        component_id,
        status: data.status,
        opacity: read::number_or(data.opacity, 1.0, |v| (0.0..=1.0).contains(&v)),
    })
}

fn area(data: &Fields<'_>) -> Result<Area, Problem> {
    let anchors = data.anchors.get().ok_or("no anchors (the corners)")?;
    if anchors.len() < 3 {
        return Err(format!("{} corners: an area needs 3", anchors.len()));
    }
    let corners = anchors
        .iter()
        .enumerate()
        .map(|(i, anchor)| match anchor {
            Anchor::Object {
                point: Some(point), ..
            } => Ok(*point),
            _ => Err(format!("corner {i} is not {{x, y}} numbers")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Area {
        corners,
        fill: read::colour_or(&data.fill_color, Some(Rgb::new(0xBF, 0xBF, 0xBF))),
        line: read::colour_or(&data.line_color, Some(Rgb::new(0x60, 0x60, 0x60))),
        line_width: read::size_or(data.line_width, 0.05),
        z_index: data.z_index.unwrap_or(0.0),
        wall: (data.area_type == Some(1)).then(|| Wall {
            height: read::size_or(data.wall_height, 2.0),
            colour: read::colour_or(&data.wall_color, Some(Rgb::new(0xCC, 0xCC, 0xCC))),
        }),
    })
}

fn lines(data: &Fields<'_>, document: &Document<'_>) -> Result<Lines, Problem> {
    let anchors = data.anchors.get().unwrap_or_default();
    let pairs = data
        .lines
        .get()
        .filter(|l| !l.is_empty())
        .ok_or("no lines")?;
    let end = |index: &Value| -> Result<End, Problem> {
        let i = index
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < anchors.len())
            .ok_or_else(|| format!("a line names anchor {index}, which does not exist"))?;
        let (point, attached) =
            anchor(&anchors[i], document).map_err(|problem| format!("anchor {i}: {problem}"))?;
        Ok(End {
            point,
            attached,
            arrow: data.arrow(i),
        })
    };
    let segments = pairs
        .iter()
        .map(|pair| match pair {
            Pair::Two(from, to) => Ok(Segment {
                from: end(from)?,
                to: end(to)?,
            }),
            Pair::Other(pair) => Err(format!("a line is {pair}, not a pair of anchor indices")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lines {
        segments,
        colour: read::colour_or(&data.stroke_style, Some(INK)),
        width: read::size_or(data.line_width, 0.05),
        dash: match data.line_dash {
            Some(2) => Dash::Dashed,
            Some(3) => Dash::Dotted,
            _ => Dash::Solid,
        },
    })
}

/// Where an anchor is: a free one at its `x, y`, an attached one at its corner of the
/// component it names (which must itself be placeable), given by its index among the objects.
fn anchor(anchor: &Anchor<'_>, document: &Document<'_>) -> Result<(Point, Option<usize>), Problem> {
    let (kind, id, index, point) = match anchor {
        Anchor::Object {
            kind,
            id,
            index,
            point,
        } => (kind, id, index, point),
        Anchor::Other(anchor) => return Err(format!("is {anchor}, not an object")),
    };
    let attached = match kind {
        None => id.is_some(),
        Some(t) if t.as_i64() == Some(0) => false,
        Some(t) if t.as_i64() == Some(1) => true,
        Some(t) => return Err(format!("type {t} is neither 0 (free) nor 1 (attached)")),
    };
    if !attached {
        return point
            .map(|p| (p, None))
            .ok_or_else(|| "a free anchor's x, y are not numbers".to_owned());
    }
    let id = id
        .as_ref()
        .and_then(read::Text::as_str)
        .ok_or("an attached anchor has no id")?;
    let index = index
        .as_ref()
        .and_then(serde_json::Number::as_u64)
        .filter(|&i| i < 4)
        .ok_or("an attached anchor's index is not a corner 0–3")?;
    let (at, corners) = document.component(id)?;
    Ok((corners[index as usize], Some(at)))
}

fn label(data: &Fields<'_>) -> Result<Label, Problem> {
    let centre = read::required_point(data.position, "position")?;
    let text = read::text_or(&data.text, "");
    let font_size = read::size_or(data.font_size, 0.5);
    let (width, height) = data
        .dimensions
        .unwrap_or_else(|| text_extent(&text, font_size));
    let (bold, italic) = data.bold_italic;
    Ok(Label {
        centre,
        width,
        height,
        font_size,
        rotation: data.rotation.unwrap_or(0.0),
        colour: read::colour_or(&data.color, Some(INK)),
        outline: read::colour_or(&data.outline_color, Some(Rgb::new(0xFF, 0xFF, 0xFF))),
        outline_width: read::number_or(data.outline_width, 0.1, |v| v >= 0.0),
        align: match data.text_align.as_ref().and_then(read::Text::as_str) {
            Some("left") => Align::Left,
            Some("right") => Align::Right,
            _ => Align::Centre,
        },
        bold,
        italic,
        text,
    })
}

/// The box a text of `font_size` roughly fills: an average letter is 0.55 em wide, a line
/// 1.25 em high.
fn text_extent(text: &str, font_size: f64) -> (f64, f64) {
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let lines = text.lines().count().max(1);
    (
        (longest as f64 * 0.55 * font_size).max(font_size),
        lines as f64 * 1.25 * font_size,
    )
}

fn placeholder(kind: ObjectType, data: &Fields<'_>) -> Result<Placeholder, Problem> {
    let position = read::required_point(data.position, "position")?;
    let (kind, centre, (width, height), caption, colour) = match kind {
        ObjectType::Icon => {
            let size = read::size_or(data.font_size, 0.5);
            let colour = read::colour_or(&data.color, Some(INK));
            let name = read::text_or(&data.icon, "icon");
            (PlaceholderKind::Icon, position, (size, size), name, colour)
        }
        ObjectType::Image => {
            let (w, h) = data.dimensions.unwrap_or((1.625, 1.125));
            // An image's position is its top-left corner.
            let centre = Point::new(position.x + w / 2.0, position.y + h / 2.0);
            let path = read::text_or(&data.path, "image");
            let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
            (PlaceholderKind::Image, centre, (w, h), name, None)
        }
        _ => {
            let dims = data.dimensions.unwrap_or((8.875, 4.375));
            let caption = format!(
                "{} ({})",
                read::text_or(&data.widget_type, "chart"),
                read::text_or(&data.plot_type, "line")
            );
            let colour = read::colour_or(&data.line_color, Some(Rgb::new(0xF7, 0x94, 0x00)));
            (PlaceholderKind::Widget, position, dims, caption, colour)
        }
    };
    let rotation = data.rotation.unwrap_or(0.0);
    Ok(Placeholder {
        kind,
        corners: box_corners(centre, width, height, rotation),
        caption,
        colour,
    })
}
