//! The scene: a document's content turned into drawable primitives on the diagram's grid, and
//! the queries a map of it needs (what lies in a view, what is under a point, what comes next
//! by position, what connects to what). Pure: it knows the model and nothing of HTTP, SQLite or
//! terminals. The TUI's map and the renderer ([`render`](crate::render), behind the `render` feature)
//! both draw from it.
//!
//! # Decisions
//!
//! - **Coordinates** are grid units (the grid is 100 × 100, origin at its centre). **y grows
//!   downwards**, as on a screen: in the sample documents every area's title label sits at the
//!   area's smallest y, the DNS entry point is at y = −18 above the regions it feeds, and each
//!   alert label has a larger y than the component it annotates. A viewer whose y grows
//!   upwards (ratatui's `Canvas`) negates y.
//! - **A component's footprint** is a square of [`FOOTPRINT`] (2) grid units centred on its
//!   `position`: the closest components of the samples are 4 units apart, so 2 leaves a gap
//!   as wide as a box, and every sample area encloses exactly the components it was drawn
//!   around (the web platform's private subnet starts at y = 2: it holds web-03 at y = 4 but
//!   not web-02 at y = 0). Its title is drawn under the box, outside its bounds.
//! - **Rotation** is in radians, clockwise on the picture (y down), about the object's centre.
//!   A component's corners are numbered before rotation (0 top-left, 1 top-right,
//!   2 bottom-right, 3 bottom-left) and turn with it, so an attached anchor follows.
//! - **Positions**: a component's, label's, icon's and widget's `position` is its centre (the
//!   samples' area titles are centred over their areas); an image's is its top-left corner, as
//!   the API notes say.
//! - **What cannot be placed**: an object whose place is missing or not numeric (`position`,
//!   an area's corners, a line group's `lines` and the anchors they use), a coordinate beyond
//!   ±1,000,000, an unknown type, an area with fewer than 3 corners, a line group without
//!   lines, or an attached anchor naming an object that is missing, is no component or cannot be
//!   placed itself. Such an object is left out and listed in [`Scene::unplaced`] with the
//!   reason. Every other property (rotation, sizes, colours, text) falls back to the API's
//!   default when missing or unusable.
//! - **Status** ([`Status::of`]): the `meta` entry under the key given to [`Scene::build`]
//!   (`status` by default): `down`, `error`, `critical`, `failed` are errors, `degraded`,
//!   `warning` warnings, `up`, `ok`, `healthy` good, in any case; anything else is unknown.
//! - **Draw order**, bottom to top: areas (by `zIndex`, then id), images, widgets,
//!   components, line groups, icons, labels; within a kind, by id (creation order). Lines go
//!   over components because a line often crosses the box it leaves or enters (it runs
//!   between corners), and its arrow tip must stay visible.
//! - **Position order** (next / previous): by the top-left corner of each shape's bounds,
//!   top to bottom, then left to right.
//! - **Walls**: an area whose `areaType` is 1 is walled, with its `wallHeight` (2 grid units by
//!   default) and `wallColor` (`#CCCCCC`); only the 3D picture ([`iso`]) draws walls.
//! - **Relationships**: a component is connected through every line whose end is attached to
//!   it, and to every area whose polygon holds its centre.

mod build;
mod geometry;
mod index;
pub mod iso;
mod lenient;
mod part;
mod query;
mod read;
mod relations;
#[cfg(feature = "render")]
pub mod render;
mod shape;
mod surroundings;

#[cfg(test)]
pub(crate) mod random_content_tests;
#[cfg(test)]
mod tests;

pub use build::{FOOTPRINT, readable_component_id};
pub use geometry::{Point, Rect};
pub use read::Data;
pub use relations::{Connection, Direction, Via};
pub use shape::{
    Align, Area, Component, Dash, End, Label, Lines, Placeholder, PlaceholderKind, Primitive, Rgb,
    Segment, Shape, Status, Wall,
};
pub use surroundings::Enclosed;

use diagtui_model::{Content, DiagramObject, ObjectType};
use index::{Buckets, Grid};
use read::Fields;
use relations::Link;

/// The `meta` key read as a component's status unless another is given.
pub const DEFAULT_STATUS_KEY: &str = "status";

/// An object left out of the scene, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaced {
    /// The object id.
    pub id: String,
    /// Its type as given.
    pub kind: String,
    /// Why it could not be placed, e.g. `position is not {x, y} numbers`.
    pub reason: String,
}

/// A document's drawable scene with its indexes. Built once per content (off the input loop
/// for large documents), then queried.
#[derive(Debug, Clone, Default)]
pub struct Scene {
    /// The placed objects, in id order (so found by binary search).
    primitives: Vec<Primitive>,
    /// Indexes into `primitives`, bottom to top.
    draw_order: Vec<u32>,
    /// Indexes into `primitives`, in position order.
    position_order: Vec<u32>,
    /// Each primitive's place in `position_order`.
    position_rank: Vec<u32>,
    /// The rectangles of the primitives, filed by draw rank.
    grid: Grid,
    /// For each primitive, the line ends attached to it.
    links: Buckets<Link>,
    /// Around every primitive.
    bounds: Option<Rect>,
    /// The objects left out.
    unplaced: Vec<Unplaced>,
}

/// One object as a scene is built from it: its id, its type and its data (parsed, or as JSON
/// text; both are read alike).
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The object id.
    pub id: &'a str,
    /// Its type's wire name.
    pub kind: &'a str,
    /// Its data.
    pub data: Data<'a>,
}

impl<'a> Input<'a> {
    /// A parsed object.
    pub fn parsed(id: &'a str, object: &'a DiagramObject) -> Input<'a> {
        Input {
            id,
            kind: &object.kind,
            data: Data::Parsed(&object.data),
        }
    }

    /// An object whose data is the JSON text of an object.
    pub fn json(id: &'a str, kind: &'a str, data: &'a str) -> Input<'a> {
        Input {
            id,
            kind,
            data: Data::Json(data),
        }
    }
}

impl Scene {
    /// The scene of a document's content; `status_key` names the `meta` entry read as a
    /// component's status (usually [`DEFAULT_STATUS_KEY`]). Never fails: what cannot be placed
    /// is left out and listed in [`Scene::unplaced`].
    pub fn build(content: &Content, status_key: &str) -> Scene {
        Scene::build_from(
            content.iter().map(|(id, o)| Input::parsed(id, o)),
            status_key,
        )
    }

    /// [`Scene::build`] of objects given **in id order** (as a content map or the TUI's model
    /// keeps them), without gathering them into a content map first. Each object's data is read
    /// once, on one thread per core, keeping only what the scene needs.
    pub fn build_from<'a>(objects: impl IntoIterator<Item = Input<'a>>, status_key: &str) -> Scene {
        Scene::build_in_parts(objects.into_iter().collect(), status_key, PER_THREAD)
    }

    /// [`Scene::build_from`], placing the objects on one thread per core in parts of at least
    /// `smallest_part` objects.
    fn build_in_parts(objects: Vec<Input<'_>>, status_key: &str, smallest_part: usize) -> Scene {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let chunk = objects.len().div_ceil(threads).max(smallest_part).max(1);
        let document = build::Document::new(&objects, status_key);
        let placed: Vec<Placed> = if objects.len() <= chunk {
            vec![place_all(&objects, &document)]
        } else {
            std::thread::scope(|scope| {
                let workers: Vec<_> = objects
                    .chunks(chunk)
                    .map(|part| scope.spawn(|| place_all(part, &document)))
                    .collect();
                workers
                    .into_iter()
                    .map(|worker| worker.join().expect("placing never panics"))
                    .collect()
            })
        };
        drop(document);
        let mut primitives = Vec::with_capacity(objects.len());
        let mut unplaced = Vec::new();
        let mut was_placed = Vec::with_capacity(objects.len());
        for part in placed {
            primitives.extend(part.primitives);
            unplaced.extend(part.unplaced);
            was_placed.extend(part.was_placed);
        }
        build::attach(&mut primitives, &was_placed);
        Scene::index(primitives, unplaced)
    }

    /// Orders and indexes placed primitives (in id order): the draw order and the grid on one
    /// thread, the position order and the links on another.
    fn index(primitives: Vec<Primitive>, unplaced: Vec<Unplaced>) -> Scene {
        let bounds = primitives.iter().map(|p| p.bounds).reduce(Rect::union);
        let by_draw_rank = || {
            let draw_order = draw_order(&primitives);
            let grid = match bounds {
                Some(bounds) => {
                    let rects: Vec<Rect> = draw_order
                        .iter()
                        .map(|&i| primitives[i as usize].bounds)
                        .collect();
                    Grid::new(bounds, &rects)
                }
                None => Grid::default(),
            };
            (draw_order, grid)
        };
        let by_position = || {
            let position_order = position_order(&primitives);
            let mut position_rank = vec![0; primitives.len()];
            for (rank, &i) in position_order.iter().enumerate() {
                position_rank[i as usize] = rank as u32;
            }
            (position_order, position_rank, relations::links(&primitives))
        };
        let ((draw_order, grid), (position_order, position_rank, links)) =
            if primitives.len() < PER_THREAD {
                (by_draw_rank(), by_position())
            } else {
                std::thread::scope(|scope| {
                    let other = scope.spawn(by_position);
                    let mine = by_draw_rank();
                    (mine, other.join().expect("indexing never panics"))
                })
            };
        Scene {
            primitives,
            draw_order,
            position_order,
            position_rank,
            grid,
            links,
            bounds,
            unplaced,
        }
    }

    /// Every placed object, in id order.
    pub fn primitives(&self) -> &[Primitive] {
        &self.primitives
    }

    /// Every placed object, bottom to top.
    pub fn in_draw_order(&self) -> impl DoubleEndedIterator<Item = &Primitive> + '_ {
        self.draw_order
            .iter()
            .map(|&i| &self.primitives[i as usize])
    }

    /// The placed object with this id.
    pub fn get(&self, id: &str) -> Option<&Primitive> {
        self.position(id).map(|i| &self.primitives[i])
    }

    /// The index in `primitives` of the object with this id.
    fn position(&self, id: &str) -> Option<usize> {
        self.primitives
            .binary_search_by(|p| p.id.as_str().cmp(id))
            .ok()
    }

    /// The rectangle around everything placed; `None` when nothing is.
    pub fn bounds(&self) -> Option<Rect> {
        self.bounds
    }

    /// The objects left out, in id order.
    pub fn unplaced(&self) -> &[Unplaced] {
        &self.unplaced
    }

    /// `3 objects could not be placed`, or `None` when all were.
    pub fn unplaced_note(&self) -> Option<String> {
        match self.unplaced.len() {
            0 => None,
            1 => Some("1 object could not be placed".to_owned()),
            n => Some(format!("{n} objects could not be placed")),
        }
    }
}

/// Below this many objects a scene is placed on one thread.
const PER_THREAD: usize = 4096;

/// Some objects placed, in id order, and those that could not be.
struct Placed {
    primitives: Vec<Primitive>,
    unplaced: Vec<Unplaced>,
    /// Whether each object of the part was placed.
    was_placed: Vec<bool>,
}

/// Places `part` (a run of the document's objects, in id order).
fn place_all(part: &[Input<'_>], document: &build::Document<'_>) -> Placed {
    let mut data = Fields::default();
    let mut placed = Placed {
        primitives: Vec::with_capacity(part.len()),
        unplaced: Vec::new(),
        was_placed: Vec::with_capacity(part.len()),
    };
    for object in part {
        let place = build::place(object, document, &mut data);
        placed.was_placed.push(place.is_ok());
        match place {
            Ok((shape, bounds)) => placed.primitives.push(Primitive {
                id: object.id.to_owned(),
                bounds,
                shape,
            }),
            Err(reason) => placed.unplaced.push(Unplaced {
                id: object.id.to_owned(),
                kind: object.kind.to_owned(),
                reason,
            }),
        }
    }
    placed
}

/// Indexes into `primitives` (in id order), bottom to top: by layer, areas by `zIndex`, then
/// by id. The keys are gathered first, so that the sort reads them side by side.
fn draw_order(primitives: &[Primitive]) -> Vec<u32> {
    let mut keyed: Vec<(u8, f64, u32)> = (0..)
        .zip(primitives)
        .map(|(i, p)| (layer(p), z_index(p), i))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    keyed.into_iter().map(|(_, _, i)| i).collect()
}

/// Indexes into `primitives` (in id order) in position order: by the top-left corner of their
/// bounds, top to bottom, then left to right, then by id.
fn position_order(primitives: &[Primitive]) -> Vec<u32> {
    let mut keyed: Vec<(f64, f64, u32)> = (0..)
        .zip(primitives)
        .map(|(i, p)| (p.bounds.min.y, p.bounds.min.x, i))
        .collect();
    keyed.sort_unstable_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    keyed.into_iter().map(|(_, _, i)| i).collect()
}

/// A primitive's layer in the draw order, bottom first.
fn layer(p: &Primitive) -> u8 {
    match p.kind() {
        ObjectType::Area => 0,
        ObjectType::Image => 1,
        ObjectType::Widget => 2,
        ObjectType::Component => 3,
        ObjectType::LineGroup => 4,
        ObjectType::Icon => 5,
        ObjectType::Label => 6,
    }
}

/// An area's `zIndex`; 0 for the rest.
fn z_index(p: &Primitive) -> f64 {
    match &p.shape {
        Shape::Area(area) => area.z_index,
        _ => 0.0,
    }
}
