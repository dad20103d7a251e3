//! One object's data to its shape, or the reason it cannot be placed.

use serde_json::{Map, Value};

use super::geometry::{Point, Rect};
use super::read::{self, Problem};
use super::shape::{
    Align, Area, Component, Dash, End, Label, Lines, Placeholder, PlaceholderKind, Rgb, Segment,
    Shape, Status,
};
use crate::model::{Content, DiagramObject, ObjectType};

/// The side of a component's square footprint, in grid units.
pub const FOOTPRINT: f64 = 2.0;

/// The default colour of lines, labels and icons (`#333333`).
const INK: Rgb = Rgb::new(0x33, 0x33, 0x33);

/// The shape of an object and the rectangle around it. `content` is the whole document, where
/// attached anchors find their components; `status_key` names the `meta` entry read as a
/// component's status.
pub fn place(
    object: &DiagramObject,
    content: &Content,
    status_key: &str,
) -> Result<(Shape, Rect), Problem> {
    let kind: ObjectType = object
        .kind
        .parse()
        .map_err(|_| format!("unknown type \"{}\"", object.kind))?;
    let data = &object.data;
    let shape = match kind {
        ObjectType::Component => Shape::Component(component(data, status_key)?),
        ObjectType::LineGroup => Shape::Lines(lines(data, content)?),
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
fn footprint(data: &Map<String, Value>) -> Result<(Point, [Point; 4]), Problem> {
    let centre = read::required_point(data, "position")?;
    let corners = box_corners(centre, FOOTPRINT, FOOTPRINT, read::rotation(data));
    Ok((centre, corners))
}

fn component(data: &Map<String, Value>, status_key: &str) -> Result<Component, Problem> {
    let (centre, corners) = footprint(data)?;
    let component_id = read::text_or(data, "componentId", "");
    let title = match read::non_empty(data, "name") {
        Some(name) => name.to_owned(),
        None => match component_id.rsplit('.').next().filter(|s| !s.is_empty()) {
            Some(slug) => slug.to_owned(),
            None => "component".to_owned(),
        },
    };
    let status = Status::of(data.get("meta").and_then(|m| m.get(status_key)));
    Ok(Component {
        centre,
        corners,
        title,
        component_id,
        status,
        opacity: read::number_or(data, "opacity", 1.0, |v| (0.0..=1.0).contains(&v)),
    })
}

fn area(data: &Map<String, Value>) -> Result<Area, Problem> {
    let anchors = data
        .get("anchors")
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
        fill: read::colour_or(data, "fillColor", Some(Rgb::new(0xBF, 0xBF, 0xBF))),
        line: read::colour_or(data, "lineColor", Some(Rgb::new(0x60, 0x60, 0x60))),
        line_width: read::size_or(data, "lineWidth", 0.05),
        z_index: read::number_or(data, "zIndex", 0.0, |_| true),
    })
}

fn lines(data: &Map<String, Value>, content: &Content) -> Result<Lines, Problem> {
    let anchors = data
        .get("anchors")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let pairs = data
        .get("lines")
        .and_then(Value::as_array)
        .filter(|l| !l.is_empty())
        .ok_or("no lines")?;
    let arrows = data.get("arrowAnchorIndices");
    let end = |index: &Value| -> Result<End, Problem> {
        let i = index
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < anchors.len())
            .ok_or_else(|| format!("a line names anchor {index}, which does not exist"))?;
        let (point, attached) =
            anchor(&anchors[i], content).map_err(|problem| format!("anchor {i}: {problem}"))?;
        let arrow = arrows
            .and_then(|a| a.get(i.to_string()))
            .and_then(Value::as_bool)
            .unwrap_or(false);
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
        colour: read::colour_or(data, "strokeStyle", Some(INK)),
        width: read::size_or(data, "lineWidth", 0.05),
        dash: match data.get("lineDash").and_then(Value::as_i64) {
            Some(2) => Dash::Dashed,
            Some(3) => Dash::Dotted,
            _ => Dash::Solid,
        },
    })
}

/// Where an anchor is: a free one at its `x, y`, an attached one at its corner of the
/// component it names (which must itself be placeable).
fn anchor(anchor: &Value, content: &Content) -> Result<(Point, Option<String>), Problem> {
    let attached = match anchor.get("type") {
        None => anchor.get("id").is_some(),
        Some(t) if t.as_i64() == Some(0) => false,
        Some(t) if t.as_i64() == Some(1) => true,
        Some(t) => return Err(format!("type {t} is neither 0 (free) nor 1 (attached)")),
    };
    if !attached {
        return read::point(anchor)
            .map(|p| (p, None))
            .ok_or_else(|| "a free anchor's x, y are not numbers".to_owned());
    }
    let id = anchor
        .get("id")
        .and_then(Value::as_str)
        .ok_or("an attached anchor has no id")?;
    let index = anchor
        .get("index")
        .and_then(Value::as_u64)
        .filter(|&i| i < 4)
        .ok_or("an attached anchor's index is not a corner 0–3")?;
    let target = content
        .get(id)
        .ok_or_else(|| format!("names {id}, which does not exist"))?;
    if target.kind != ObjectType::Component.as_str() {
        return Err(format!("names {id}, a {}, not a component", target.kind));
    }
    let (_, corners) = footprint(&target.data)
        .map_err(|problem| format!("names {id}, which cannot be placed ({problem})"))?;
    Ok((corners[index as usize], Some(id.to_owned())))
}

fn label(data: &Map<String, Value>) -> Result<Label, Problem> {
    let centre = read::required_point(data, "position")?;
    let text = read::text_or(data, "text", "");
    let font_size = read::size_or(data, "fontSize", 0.5);
    let (width, height) = read::dimensions(data).unwrap_or_else(|| text_extent(&text, font_size));
    Ok(Label {
        centre,
        width,
        height,
        font_size,
        rotation: read::rotation(data),
        colour: read::colour_or(data, "color", Some(INK)),
        outline: read::colour_or(data, "outlineColor", Some(Rgb::new(0xFF, 0xFF, 0xFF))),
        outline_width: read::number_or(data, "outlineWidth", 0.1, |v| v >= 0.0),
        align: match data.get("textAlign").and_then(Value::as_str) {
            Some("left") => Align::Left,
            Some("right") => Align::Right,
            _ => Align::Centre,
        },
        bold: read::flag(data, "fontStyle", "bold"),
        italic: read::flag(data, "fontStyle", "italic"),
        text,
    })
}

/// The box a text of `font_size` roughly fills: an average letter is 0.55 em wide, a line
/// 1.25 em high.
pub fn text_extent(text: &str, font_size: f64) -> (f64, f64) {
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let lines = text.lines().count().max(1);
    (
        (longest as f64 * 0.55 * font_size).max(font_size),
        lines as f64 * 1.25 * font_size,
    )
}

fn placeholder(kind: ObjectType, data: &Map<String, Value>) -> Result<Placeholder, Problem> {
    let position = read::required_point(data, "position")?;
    let rotation = read::rotation(data);
    let (kind, centre, (width, height), caption, colour) = match kind {
        ObjectType::Icon => {
            let size = read::size_or(data, "fontSize", 0.5);
            let name = read::text_or(data, "icon", "icon");
            let colour = read::colour_or(data, "color", Some(INK));
            (PlaceholderKind::Icon, position, (size, size), name, colour)
        }
        ObjectType::Image => {
            let (w, h) = read::dimensions(data).unwrap_or((1.625, 1.125));
            // An image's position is its top-left corner.
            let centre = Point::new(position.x + w / 2.0, position.y + h / 2.0);
            let path = read::text_or(data, "path", "image");
            let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
            (PlaceholderKind::Image, centre, (w, h), name, None)
        }
        _ => {
            let dims = read::dimensions(data).unwrap_or((8.875, 4.375));
            let caption = format!(
                "{} ({})",
                read::text_or(data, "widgetType", "chart"),
                read::text_or(data, "plotType", "line")
            );
            let colour = read::colour_or(data, "lineColor", Some(Rgb::new(0xF7, 0x94, 0x00)));
            (PlaceholderKind::Widget, position, dims, caption, colour)
        }
    };
    Ok(Placeholder {
        kind,
        corners: box_corners(centre, width, height, rotation),
        caption,
        colour,
    })
}
