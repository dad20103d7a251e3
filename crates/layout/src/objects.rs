//! The objects a placed model becomes: an area per group (with its caption), a component per
//! component entry (its label as its `name`, which every picture of this server draws under
//! it), a line group per link (with the component and the label on it). Entry
//! ids are the objects' ids; the others are made from them (docs/create-diagram.md).

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::error::{LayoutError, LayoutResult};
use crate::geometry::{COMPONENT_SIDE, Rect, segment_meets};
use crate::link_labels::{Lines, middle_of_longest};
use crate::loops;
use crate::model::{End, Link, Model};
use crate::place::{COMPONENT_LABEL_FONT, Placement, text_box};
use crate::route::{Obstacles, Point, border_point, nearest_corner};
use crate::straighten::{Joins, straighten};
use diagtui_model::DiagramObject;
use diagtui_model::picture::SIGN_HEIGHT;

/// Border colours for groups without a `lineColor`, picked by a hash of the root group's id.
const PALETTE: [&str; 8] = [
    "#1F77B4", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#17BECF", "#BCBD22",
];

/// The fill of a title's band in the layered layout: a light grey-blue.
const TITLE_BAND: &str = "#EEF2F6";
/// The colour of a title's text in the layered layout: near black.
const TITLE_TEXT: &str = "#1F2933";

/// The objects, in drawing order, each under its id.
pub type Objects = Vec<(String, DiagramObject)>;

/// Collects objects, refusing a second object under one id.
struct Out {
    objects: Objects,
    owners: HashMap<String, String>,
}

impl Out {
    fn push(
        &mut self,
        id: String,
        entry: &str,
        kind: &str,
        data: Map<String, Value>,
    ) -> LayoutResult<()> {
        if let Some(owner) = self.owners.insert(id.clone(), entry.to_owned()) {
            let other = if owner == id { entry } else { owner.as_str() };
            return Err(LayoutError::field(
                if owner == id { &owner } else { &id },
                "id",
                format!(
                    "is also the id of an object made for entry \"{other}\"; rename one of them"
                ),
            ));
        }
        self.objects.push((
            id,
            DiagramObject {
                kind: kind.to_owned(),
                data,
            },
        ));
        Ok(())
    }
}

fn point(p: Point) -> Value {
    json!({"x": p.0, "y": p.1})
}

fn corners(r: Rect) -> Value {
    json!([{"x": r.x0, "y": r.y0}, {"x": r.x1, "y": r.y0}, {"x": r.x1, "y": r.y1}, {"x": r.x0, "y": r.y1}])
}

/// A label object's data.
fn label(text: &str, r: Rect, font_size: f64) -> Map<String, Value> {
    let data = json!({
        "text": text,
        "position": {"x": (r.x0 + r.x1) / 2.0, "y": (r.y0 + r.y1) / 2.0},
        "dimensions": {"width": r.width(), "height": r.height()},
        "fontSize": font_size,
        "textAlign": "center",
    });
    match data {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// The default border colour of a group: fixed per root group id.
fn root_colour(model: &Model, mut g: usize) -> &'static str {
    while let Some(p) = model.groups[g].parent {
        g = p;
    }
    let hash = model.groups[g].id.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    PALETTE[hash as usize % PALETTE.len()]
}

/// Builds every object of a placed model.
pub fn build(model: &Model, placement: &Placement) -> LayoutResult<Objects> {
    let mut out = Out {
        objects: Vec::new(),
        owners: HashMap::new(),
    };
    push_groups(&mut out, model, placement)?;
    for (i, c) in model.components.iter().enumerate() {
        let mut data = c.props.clone();
        data.insert("position".into(), point(placement.components[i]));
        if let Some(text) = &c.label {
            data.entry("name").or_insert_with(|| json!(text));
        }
        out.push(c.id.clone(), &c.id, "component", data)?;
    }
    push_lines(&mut out, model, placement)?;
    Ok(out.objects)
}

/// Each group's area, outer groups first, with its title (and the title's band).
fn push_groups(out: &mut Out, model: &Model, placement: &Placement) -> LayoutResult<()> {
    let mut order: Vec<usize> = (0..model.groups.len()).collect();
    order.sort_by_key(|&g| model.depth(g));
    for g in order {
        let group = &model.groups[g];
        let area = placement.groups[g];
        let mut data = group.props.clone();
        let colour = match data.get("lineColor") {
            Some(Value::String(c)) => c.clone(),
            _ => root_colour(model, g).to_owned(),
        };
        data.insert("lineColor".into(), json!(colour));
        data.insert("anchors".into(), corners(area));
        data.entry("zIndex").or_insert(json!(model.depth(g)));
        data.entry("fillColor").or_insert(json!("#FFFFFF"));
        out.push(group.id.clone(), &group.id, "area", data)?;
        if let (Some(l), Some(place)) = (&group.label, placement.group_labels[g]) {
            if let Some(band) = place.band {
                // The layered layout's titles: dark text on a light band (the tier layout keeps
                // the hosted service's white text on a band of the border's colour).
                let fill = if placement.layered {
                    TITLE_BAND
                } else {
                    colour.as_str()
                };
                let band_data = json!({"anchors": corners(band), "fillColor": fill, "lineColor": colour,
                    "lineWidth": 0.025, "zIndex": model.depth(g)});
                out.push(
                    format!("{}:band", group.id),
                    &group.id,
                    "area",
                    object(band_data),
                )?;
            }
            let mut data = label(&l.text, place.text, l.font_size);
            data.extend(l.props.clone());
            if placement.layered && !l.colour_given {
                data.insert("color".into(), json!(TITLE_TEXT));
                data.insert("outlineColor".into(), json!(TITLE_BAND));
            }
            out.push(format!("{}:label", group.id), &group.id, "label", data)?;
        }
    }
    Ok(())
}

/// A link routed, its label not placed yet.
struct Routed {
    /// The link's index in the model.
    index: usize,
    /// Its line group's first and last anchors: tied to its components (or free on a group's
    /// border); the points between come from its path.
    ends: [Value; 2],
    /// The room its layer kept for its label, if any.
    spot: Option<Rect>,
}

/// How near a line passes the room kept for its label for the label to take that room.
const LABEL_REACH: f64 = 0.5;

/// How far beyond the floor under a hung title a link's label keeps ([`SIGN_HEIGHT`]).
const SIGN_MARGIN: f64 = 0.5;

/// What the lines and the links' labels keep clear of: the boxes, names and titles no line
/// enters (with the room kept for long links' labels), and where no link's label goes (the
/// boxes, names and titles, the floor under the 3D picture's hung titles, the groups' borders).
fn obstacles_and_taken(placement: &Placement) -> (Obstacles, Vec<Rect>) {
    let mut obstacles = Obstacles::new(&placement.components);
    let mut taken: Vec<Rect> = placement
        .components
        .iter()
        .map(|&(x, y)| Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE))
        .collect();
    for r in placement.component_labels.iter().flatten() {
        obstacles.block(*r, false);
        taken.push(*r);
    }
    for c in placement.group_labels.iter().flatten() {
        let r = c.band.unwrap_or(c.text);
        obstacles.block(r, placement.layered);
        taken.push(r);
        // Where the 3D picture hangs a title on a band, over the floor up and left of it: a
        // label there would be drawn over the title. Half a cell more each way, as a label
        // stands upright on the screen, reaching further than its footprint on the floor.
        if let Some(band) = c.band {
            taken.push(band.shifted(-SIGN_HEIGHT, -SIGN_HEIGHT).inset(-SIGN_MARGIN));
        }
    }
    for r in placement.label_spots.iter().flatten() {
        obstacles.block(*r, false);
    }
    // A group's border: no link's label across it (each side a box without breadth).
    for r in &placement.groups {
        taken.extend([
            Rect { y1: r.y0, ..*r },
            Rect { y0: r.y1, ..*r },
            Rect { x1: r.x0, ..*r },
            Rect { x0: r.x1, ..*r },
        ]);
    }
    (obstacles, taken)
}

/// Each link's line group, routed clear of the boxes and titles drawn, its label where there
/// is room; then each link from a component to itself, beside it ([`push_loops`]).
fn push_lines(out: &mut Out, model: &Model, placement: &Placement) -> LayoutResult<()> {
    let (mut obstacles, mut taken) = obstacles_and_taken(placement);
    let centre = |e: End| match e {
        End::Component(c) => placement.components[c],
        End::Group(g) => {
            let r = placement.groups[g];
            ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0)
        }
    };
    let mut routed: Vec<Routed> = Vec::new();
    let mut paths: Vec<Option<Vec<Point>>> = vec![None; model.links.len()];
    let mut joins: Vec<Joins> = vec![Joins::default(); model.links.len()];
    for (l, link) in model.links.iter().enumerate() {
        if link.invisible {
            continue;
        }
        let bends = &placement.bends[l];
        let end = |e: End, toward: Point| -> (Value, Point) {
            match e {
                End::Component(c) => {
                    let (index, p) = nearest_corner(placement.components[c], toward);
                    (
                        json!({"type": 1, "id": model.components[c].id, "index": index}),
                        p,
                    )
                }
                End::Group(g) => {
                    let p = border_point(placement.groups[g], toward);
                    (json!({"type": 0, "x": p.0, "y": p.1}), p)
                }
            }
        };
        let (first, a) = end(link.from, bends.first().copied().unwrap_or(centre(link.to)));
        let (last, b) = end(link.to, bends.last().copied().unwrap_or(centre(link.from)));
        let ends: Vec<Point> = [link.from, link.to]
            .into_iter()
            .filter_map(|e| match e {
                End::Component(c) => Some(placement.components[c]),
                End::Group(_) => None,
            })
            .collect();
        paths[l] = Some(obstacles.route(a, b, bends, &ends, placement.planned[l]));
        let group = |e: End| match e {
            End::Group(g) => Some(placement.groups[g]),
            End::Component(_) => None,
        };
        joins[l] = Joins {
            components: ends,
            groups: [group(link.from), group(link.to)],
            label_room: placement.label_spots[l],
        };
        routed.push(Routed {
            index: l,
            ends: [first, last],
            spot: placement.label_spots[l],
        });
    }
    straighten(&mut paths, &joins, &placement.groups, &obstacles);
    // The labels once every line is known, so that each reads as its own line's.
    let lines = Lines(&paths);
    for Routed { index, ends, spot } in routed {
        let path = lines.0[index]
            .as_deref()
            .expect("a routed link has its line");
        // Its ends tied as routed (an end on a group's border where its line now meets it),
        // the points between them free.
        let [first, last] = ends;
        let free = |p: &Point| json!({"type": 0, "x": p.0, "y": p.1});
        let tied_or_at = |anchor: Value, p: &Point| match anchor["type"].as_u64() {
            Some(0) => free(p),
            _ => anchor,
        };
        let mut anchors = vec![tied_or_at(first, &path[0])];
        anchors.extend(path[1..path.len().saturating_sub(1)].iter().map(free));
        anchors.push(tied_or_at(last, &path[path.len() - 1]));
        // The room its layer kept for the label, while its line still passes by it and not
        // through it (a line straightened away from its step past the room, or across it,
        // no longer does).
        let spot = spot.filter(|room| {
            let near = room.inset(-LABEL_REACH);
            let meets = |r: &Rect| path.windows(2).any(|p| segment_meets(p[0], p[1], r));
            meets(&near) && !meets(&room.inset(0.01))
        });
        let place = |size, taken: &[Rect]| lines.place(index, path, size, spot, taken);
        line_group(out, &model.links[index], anchors, path, place, &mut taken)?;
    }
    let routed: Vec<Vec<Point>> = paths.into_iter().flatten().collect();
    push_loops(out, model, placement, taken, routed)
}

/// Each link from a component to itself, beside it, clear of the boxes `taken` and the lines
/// `routed` where there is room.
fn push_loops(
    out: &mut Out,
    model: &Model,
    placement: &Placement,
    mut taken: Vec<Rect>,
    mut routed: Vec<Vec<Point>>,
) -> LayoutResult<()> {
    for link in &model.loops {
        let End::Component(c) = link.from else {
            unreachable!("a group's link to itself is refused when checked")
        };
        let drawn = loops::beside(placement.components[c], &taken, &routed);
        let corner = |index| json!({"type": 1, "id": model.components[c].id, "index": index});
        let mut anchors = vec![corner(drawn.corners.0)];
        anchors.extend(
            drawn.path[1..3]
                .iter()
                .map(|p| json!({"type": 0, "x": p.0, "y": p.1})),
        );
        anchors.push(corner(drawn.corners.1));
        taken.push(drawn.strip);
        // Its label by the same rule as every link's: beside its own line, nearer it than the
        // lines drawn before.
        let mut lines: Vec<Option<Vec<Point>>> = routed.iter().cloned().map(Some).collect();
        lines.push(Some(drawn.path.clone()));
        let own = lines.len() - 1;
        let place = |size, taken: &[Rect]| Lines(&lines).place(own, &drawn.path, size, None, taken);
        line_group(out, link, anchors, &drawn.path, place, &mut taken)?;
        routed.push(drawn.path);
    }
    Ok(())
}

/// A link's line group along `path` (its `anchors`, the ends attached to their components),
/// with the component and the label on it: the label where `place_label` puts a box of its
/// size, clear of the boxes `taken` (which get what is added).
fn line_group(
    out: &mut Out,
    link: &Link,
    anchors: Vec<Value>,
    path: &[Point],
    place_label: impl FnOnce((f64, f64), &[Rect]) -> Rect,
    taken: &mut Vec<Rect>,
) -> LayoutResult<()> {
    let pieces: Vec<Value> = (1..anchors.len()).map(|i| json!([i - 1, i])).collect();
    let mut arrows = Map::new();
    if link.arrow_start {
        arrows.insert("0".into(), json!(true));
    }
    if link.arrow_end {
        arrows.insert((anchors.len() - 1).to_string(), json!(true));
    }
    let mut data = link.props.clone();
    data.insert("anchors".into(), Value::Array(anchors));
    data.insert("lines".into(), Value::Array(pieces));
    data.insert("arrowAnchorIndices".into(), Value::Object(arrows));
    out.push(link.id.clone(), &link.id, "line-group", data)?;
    let m = middle_of_longest(path);
    if let Some(component_id) = &link.middle {
        let data = object(json!({"componentId": component_id, "position": point(m)}));
        out.push(
            format!("{}:component", link.id),
            &link.id,
            "component",
            data,
        )?;
        taken.push(Rect::centred(m.0, m.1, COMPONENT_SIDE, COMPONENT_SIDE));
    }
    if let Some(text) = &link.label {
        let (w, h) = text_box(text, COMPONENT_LABEL_FONT);
        let r = if link.middle.is_some() {
            Rect::centred(m.0, m.1 + COMPONENT_SIDE / 2.0 + h / 2.0, w, h)
        } else {
            place_label((w, h), taken)
        };
        taken.push(r);
        out.push(
            format!("{}:label", link.id),
            &link.id,
            "label",
            label(text, r, COMPONENT_LABEL_FONT),
        )?;
    }
    Ok(())
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}
