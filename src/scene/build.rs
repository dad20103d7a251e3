//! One object's data to its shape, or the reason it cannot be placed.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::geometry::{Point, Rect};
use super::read::{self, Problem};
use super::shape::{
    Align, Area, Component, Dash, End, Label, Lines, Placeholder, PlaceholderKind, Primitive, Rgb,
    Segment, Shape, Status,
};
use crate::model::{DiagramObject, ObjectType};

/// The side of a component's square footprint, in grid units.
pub const FOOTPRINT: f64 = 2.0;

/// The default colour of lines, labels and icons (`#333333`).
const INK: Rgb = Rgb::new(0x33, 0x33, 0x33);

/// A document's objects in id order, with its components by id: where attached anchors find
/// their components.
pub struct Document<'a> {
    objects: &'a [(&'a str, &'a DiagramObject)],
    components: HashMap<&'a str, usize>,
}

impl<'a> Document<'a> {
    /// The document of these objects (in id order).
    pub fn new(objects: &'a [(&'a str, &'a DiagramObject)]) -> Document<'a> {
        let components = objects
            .iter()
            .enumerate()
            .filter(|(_, (_, object))| object.kind == ObjectType::Component.as_str())
            .map(|(at, (id, _))| (*id, at))
            .collect();
        Document {
            objects,
            components,
        }
    }

    /// The component `id` and its index among the objects, or why an anchor cannot name it.
    fn component(&self, id: &str) -> Result<(usize, &'a DiagramObject), Problem> {
        if let Some(&at) = self.components.get(id) {
            return Ok((at, self.objects[at].1));
        }
        match self.objects.binary_search_by(|(key, _)| (*key).cmp(id)) {
            Ok(at) => Err(format!(
                "names {id}, a {}, not a component",
                self.objects[at].1.kind
            )),
            Err(_) => Err(format!("names {id}, which does not exist")),
        }
    }
}

/// Turns the attached ends of line groups from indexes among the objects (as [`place`] leaves
/// them) into indexes among the placed primitives. Both lists are in id order.
pub fn attach(primitives: &mut [Primitive], objects: &[(&str, &DiagramObject)]) {
    let mut slot = vec![None; objects.len()];
    let mut next = 0;
    for (at, (id, _)) in objects.iter().enumerate() {
        if primitives.get(next).is_some_and(|p| p.id == **id) {
            slot[at] = Some(next);
            next += 1;
        }
    }
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
/// attached anchors find their components; `status_key` names the `meta` entry read as a
/// component's status.
pub fn place(
    object: &DiagramObject,
    document: &Document<'_>,
    status_key: &str,
) -> Result<(Shape, Rect), Problem> {
    let data = &object.data;
    let shape = match object.kind.as_str() {
        "component" => Shape::Component(component(data, status_key)?),
        "line-group" => Shape::Lines(lines(data, document)?),
        "area" => Shape::Area(area(data)?),
        "label" => Shape::Label(label(data)?),
        "icon" => Shape::Placeholder(placeholder(ObjectType::Icon, data)?),
        "image" => Shape::Placeholder(placeholder(ObjectType::Image, data)?),
        "widget" => Shape::Placeholder(placeholder(ObjectType::Widget, data)?),
        other => return Err(format!("unknown type \"{other}\"")),
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
fn footprint(data: &Map<String, Value>) -> Result<(Point, [Point; 4]), Problem> {
    let [position, rotation] = read::fields(data, ["position", "rotation"]);
    let centre = read::required_point(position, "position")?;
    let corners = box_corners(centre, FOOTPRINT, FOOTPRINT, read::rotation(rotation));
    Ok((centre, corners))
}

fn component(data: &Map<String, Value>, status_key: &str) -> Result<Component, Problem> {
    let [position, rotation, component_id, name, meta, opacity] = read::fields(
        data,
        [
            "position",
            "rotation",
            "componentId",
            "name",
            "meta",
            "opacity",
        ],
    );
    let centre = read::required_point(position, "position")?;
    let corners = box_corners(centre, FOOTPRINT, FOOTPRINT, read::rotation(rotation));
    let component_id = read::text_or(component_id, "");
    let title = match read::non_empty(name) {
        Some(name) => name.to_owned(),
        None => match component_id.rsplit('.').next().filter(|s| !s.is_empty()) {
            Some(slug) => slug.to_owned(),
            None => "component".to_owned(),
        },
    };
    Ok(Component {
        centre,
        corners,
        title,
        component_id,
        status: Status::of(meta.and_then(|m| m.get(status_key))),
        opacity: read::number_or(opacity, 1.0, |v| (0.0..=1.0).contains(&v)),
    })
}

fn area(data: &Map<String, Value>) -> Result<Area, Problem> {
    let [anchors, fill, line, line_width, z_index] = read::fields(
        data,
        ["anchors", "fillColor", "lineColor", "lineWidth", "zIndex"],
    );
    let anchors = anchors
        .and_then(Value::as_array)
        .ok_or("no anchors (the corners)")?;
    if anchors.len() < 3 {
        return Err(format!("{} corners: an area needs 3", anchors.len()));
    }
    let corners = anchors
        .iter()
        .enumerate()
        .map(|(i, v)| read::point(v).ok_or_else(|| format!("corner {i} is not {{x, y}} numbers")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Area {
        corners,
        fill: read::colour_or(fill, Some(Rgb::new(0xBF, 0xBF, 0xBF))),
        line: read::colour_or(line, Some(Rgb::new(0x60, 0x60, 0x60))),
        line_width: read::size_or(line_width, 0.05),
        z_index: read::number_or(z_index, 0.0, |_| true),
    })
}

fn lines(data: &Map<String, Value>, document: &Document<'_>) -> Result<Lines, Problem> {
    let [anchors, pairs, arrows, colour, width, dash] = read::fields(
        data,
        [
            "anchors",
            "lines",
            "arrowAnchorIndices",
            "strokeStyle",
            "lineWidth",
            "lineDash",
        ],
    );
    let anchors = anchors
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let pairs = pairs
        .and_then(Value::as_array)
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
        // `{"<anchor index>": true}`: a scan of its few entries, not a key made to look up.
        let arrow = arrows.and_then(Value::as_object).is_some_and(|tips| {
            tips.iter()
                .any(|(key, tip)| tip.as_bool() == Some(true) && key.parse() == Ok(i))
        });
        Ok(End {
            point,
            attached,
            arrow,
        })
    };
    let segments = pairs
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([from, to]) => Ok(Segment {
                from: end(from)?,
                to: end(to)?,
            }),
            _ => Err(format!("a line is {pair}, not a pair of anchor indices")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lines {
        segments,
        colour: read::colour_or(colour, Some(INK)),
        width: read::size_or(width, 0.05),
        dash: match dash.and_then(Value::as_i64) {
            Some(2) => Dash::Dashed,
            Some(3) => Dash::Dotted,
            _ => Dash::Solid,
        },
    })
}

/// Where an anchor is: a free one at its `x, y`, an attached one at its corner of the
/// component it names (which must itself be placeable), given by its index among the objects.
fn anchor(anchor: &Value, document: &Document<'_>) -> Result<(Point, Option<usize>), Problem> {
    let Some(fields) = anchor.as_object() else {
        return Err(format!("is {anchor}, not an object"));
    };
    let [kind, id, index] = read::fields(fields, ["type", "id", "index"]);
    let attached = match kind {
        None => id.is_some(),
        Some(t) if t.as_i64() == Some(0) => false,
        Some(t) if t.as_i64() == Some(1) => true,
        Some(t) => return Err(format!("type {t} is neither 0 (free) nor 1 (attached)")),
    };
    if !attached {
        return read::point(anchor)
            .map(|p| (p, None))
            .ok_or_else(|| "a free anchor's x, y are not numbers".to_owned());
    }
    let id = id
        .and_then(Value::as_str)
        .ok_or("an attached anchor has no id")?;
    let index = index
        .and_then(Value::as_u64)
        .filter(|&i| i < 4)
        .ok_or("an attached anchor's index is not a corner 0–3")?;
    let (at, target) = document.component(id)?;
    let (_, corners) = footprint(&target.data)
        .map_err(|problem| format!("names {id}, which cannot be placed ({problem})"))?;
    Ok((corners[index as usize], Some(at)))
}

fn label(data: &Map<String, Value>) -> Result<Label, Problem> {
    let [
        position,
        text,
        font_size,
        dims,
        rotation,
        colour,
        outline,
        outline_width,
        align,
        style,
    ] = read::fields(
        data,
        [
            "position",
            "text",
            "fontSize",
            "dimensions",
            "rotation",
            "color",
            "outlineColor",
            "outlineWidth",
            "textAlign",
            "fontStyle",
        ],
    );
    let centre = read::required_point(position, "position")?;
    let text = read::text_or(text, "");
    let font_size = read::size_or(font_size, 0.5);
    let (width, height) = read::dimensions(dims).unwrap_or_else(|| text_extent(&text, font_size));
    Ok(Label {
        centre,
        width,
        height,
        font_size,
        rotation: read::rotation(rotation),
        colour: read::colour_or(colour, Some(INK)),
        outline: read::colour_or(outline, Some(Rgb::new(0xFF, 0xFF, 0xFF))),
        outline_width: read::number_or(outline_width, 0.1, |v| v >= 0.0),
        align: match align.and_then(Value::as_str) {
            Some("left") => Align::Left,
            Some("right") => Align::Right,
            _ => Align::Centre,
        },
        bold: read::flag(style, "bold"),
        italic: read::flag(style, "italic"),
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

fn placeholder(kind: ObjectType, data: &Map<String, Value>) -> Result<Placeholder, Problem> {
    let [
        position,
        rotation,
        dims,
        size,
        colour,
        line_colour,
        icon,
        path,
        widget,
        plot,
    ] = read::fields(
        data,
        [
            "position",
            "rotation",
            "dimensions",
            "fontSize",
            "color",
            "lineColor",
            "icon",
            "path",
            "widgetType",
            "plotType",
        ],
    );
    let position = read::required_point(position, "position")?;
    let (kind, centre, (width, height), caption, colour) = match kind {
        ObjectType::Icon => {
            let size = read::size_or(size, 0.5);
            let colour = read::colour_or(colour, Some(INK));
            let name = read::text_or(icon, "icon");
            (PlaceholderKind::Icon, position, (size, size), name, colour)
        }
        ObjectType::Image => {
            let (w, h) = read::dimensions(dims).unwrap_or((1.625, 1.125));
            // An image's position is its top-left corner.
            let centre = Point::new(position.x + w / 2.0, position.y + h / 2.0);
            let path = read::text_or(path, "image");
            let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
            (PlaceholderKind::Image, centre, (w, h), name, None)
        }
        _ => {
            let dims = read::dimensions(dims).unwrap_or((8.875, 4.375));
            let caption = format!(
                "{} ({})",
                read::text_or(widget, "chart"),
                read::text_or(plot, "line")
            );
            let colour = read::colour_or(line_colour, Some(Rgb::new(0xF7, 0x94, 0x00)));
            (PlaceholderKind::Widget, position, dims, caption, colour)
        }
    };
    Ok(Placeholder {
        kind,
        corners: box_corners(centre, width, height, read::rotation(rotation)),
        caption,
        colour,
    })
}
