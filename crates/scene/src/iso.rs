//! The isometric projection of a scene, what the 3D picture draws: the diagram's grid is the
//! floor, seen from above one of its corners; components stand on it as blocks and walled areas
//! get walls. Blocks and walls are cut into [`Piece`]s and put in painter's order (farthest
//! first), so that what is nearer covers what is farther. Pure geometry: the renderer (`render`,
//! behind the feature `render`) paints it, drawing the flat objects (areas, lines, labels,
//! placeholders) on the floor under the pieces.
//!
//! # Decisions
//!
//! - **The camera** is the hosted service's default for embeds: turned π/4 about the vertical
//!   axis and tilted down by arctan(1/√2) ≈ 0.6155 rad, the true isometric view. The 2D
//!   picture's top-left corner is the farthest point, its bottom-right the nearest.
//! - **Screen coordinates** are grid units with y growing downwards, like the grid's (the
//!   renderer fits them to the picture as it fits the grid for 2D).
//! - **A block** is [`BLOCK_HEIGHT`] high on the component's footprint, turned with it, so its
//!   `rotation` shows; its visible sides and its top are its faces.
//! - **A wall** stands on every edge of a walled area's outline, cut into pieces no longer than
//!   [`WALL_PIECE`] so that each is ordered among the blocks by its own middle.
//! - **Lines** run on the floor, under the blocks. An end attached to a component leaves the
//!   middle of its footprint, not its corner, and stops where it meets the footprint's edge
//!   (the foot of the block): a corner is often on the block's far side, where the block would
//!   hide the line's end and its arrow tip.
//! - **Painter's order**: by the depth of each piece's middle on the floor (blocks by their
//!   centre), then blocks before walls, then by index. Blocks do not overlap on the floor (a
//!   component's footprint is as wide as the gap between the closest ones), so the order holds.

use std::f64::consts::FRAC_PI_4;

use crate::geometry::edges;
use crate::{Lines, Point, Rect, Scene, Shape};

/// How high a component's block stands, in grid units (half its footprint's side).
pub const BLOCK_HEIGHT: f64 = 1.0;

/// The longest piece a wall is cut into, in grid units.
pub const WALL_PIECE: f64 = 1.0;

/// A view of the floor from above: where a point of the grid at a height lands on the
/// screen, and how near it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    sin_yaw: f64,
    cos_yaw: f64,
    sin_tilt: f64,
    cos_tilt: f64,
}

impl Projection {
    /// The isometric view (see the module docs).
    pub fn isometric() -> Projection {
        Projection::new(FRAC_PI_4, std::f64::consts::FRAC_1_SQRT_2.atan())
    }

    /// The view turned by `yaw` radians about the vertical axis and tilted `tilt` radians
    /// down from the horizontal (π/2 looks straight down).
    pub fn new(yaw: f64, tilt: f64) -> Projection {
        let (sin_yaw, cos_yaw) = yaw.sin_cos();
        let (sin_tilt, cos_tilt) = tilt.sin_cos();
        Projection {
            sin_yaw,
            cos_yaw,
            sin_tilt,
            cos_tilt,
        }
    }

    /// The floor point turned by the yaw: across the screen, and towards the viewer.
    fn turned(&self, p: Point) -> (f64, f64) {
        (
            p.x * self.cos_yaw - p.y * self.sin_yaw,
            p.x * self.sin_yaw + p.y * self.cos_yaw,
        )
    }

    /// Where the grid point `p` at height `z` lands on the screen.
    pub fn at(&self, p: Point, z: f64) -> Point {
        let (across, towards) = self.turned(p);
        Point::new(across, towards * self.sin_tilt - z * self.cos_tilt)
    }

    /// How near the floor point `p` is to the viewer: larger is nearer.
    pub fn depth(&self, p: Point) -> f64 {
        self.turned(p).1
    }

    /// The floor's map to the screen as the matrix `[a, b, c, d]` (screen x = a·x + c·y,
    /// screen y = b·x + d·y), the order of SVG's `matrix()`.
    pub fn floor(&self) -> [f64; 4] {
        [
            self.cos_yaw,
            self.sin_yaw * self.sin_tilt,
            -self.sin_yaw,
            self.cos_yaw * self.sin_tilt,
        ]
    }

    /// How far up the screen a height of `z` lifts a point.
    pub fn lift(&self, z: f64) -> f64 {
        z * self.cos_tilt
    }

    /// The step on the floor that looks, on the screen, like rising by `z`: a point at height
    /// `z` lands where the floor point `p + rise(z)` lands at height 0 (towards the back).
    pub fn rise(&self, z: f64) -> Point {
        let towards = -z * self.cos_tilt / self.sin_tilt;
        Point::new(towards * self.sin_yaw, towards * self.cos_yaw)
    }

    /// How light a vertical face is whose outward direction on the floor is `normal`: 1 for a
    /// face turned towards the upper left of the screen (where the light comes from), less for
    /// one turned to the right.
    fn shade(&self, normal: Point) -> f64 {
        let length = normal.x.hypot(normal.y).max(f64::MIN_POSITIVE);
        let (across, _) = self.turned(Point::new(normal.x / length, normal.y / length));
        0.8 - 0.12 * across
    }
}

/// One flat face of a piece, on the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    /// Its corners on the screen, in order.
    pub corners: [Point; 4],
    /// How lit it is: 1 for a block's top, less for the sides (its colour is scaled by it).
    pub shade: f64,
}

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceKind {
    /// A component's block: its visible sides, then its top.
    Block,
    /// A stretch of a walled area's wall.
    Wall,
}

/// A block or a stretch of wall, drawn in one go.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The primitive it belongs to, as its index in [`Scene::primitives`].
    pub index: usize,
    /// A block or a wall.
    pub kind: PieceKind,
    /// Its faces, farthest first.
    pub faces: Vec<Face>,
    /// How near its middle is (see [`Projection::depth`]).
    pub depth: f64,
}

/// A scene seen in a projection: its solid pieces in painter's order and the screen
/// rectangle around everything.
#[derive(Debug, Clone)]
pub struct Iso {
    /// The view.
    pub projection: Projection,
    /// The blocks and walls, farthest first.
    pub pieces: Vec<Piece>,
    /// Around the floor's objects and the pieces on the screen; `None` when nothing is placed.
    pub bounds: Option<Rect>,
}

impl Iso {
    /// The scene in `projection`.
    pub fn of(scene: &Scene, projection: Projection) -> Iso {
        let mut pieces = Vec::new();
        let mut bounds: Option<Rect> = None;
        let mut hold = |p: Point| {
            let r = Rect::new(p, p);
            bounds = Some(bounds.map_or(r, |b| b.union(r)));
        };
        for (index, primitive) in scene.primitives().iter().enumerate() {
            let b = primitive.bounds;
            for corner in [
                b.min,
                Point::new(b.max.x, b.min.y),
                b.max,
                Point::new(b.min.x, b.max.y),
            ] {
                hold(projection.at(corner, 0.0));
            }
            match &primitive.shape {
                Shape::Component(c) => {
                    pieces.push(block(&projection, index, c.centre, &c.corners));
                }
                Shape::Area(area) => {
                    if let Some(wall) = area.wall {
                        walls(&projection, index, &area.corners, wall.height, &mut pieces);
                    }
                }
                _ => {}
            }
        }
        for piece in &pieces {
            for face in &piece.faces {
                face.corners.iter().copied().for_each(&mut hold);
            }
        }
        pieces.sort_by(|a, b| {
            a.depth
                .total_cmp(&b.depth)
                .then((a.kind == PieceKind::Wall).cmp(&(b.kind == PieceKind::Wall)))
                .then(a.index.cmp(&b.index))
        });
        Iso {
            projection,
            pieces,
            bounds,
        }
    }
}

/// A line group as it runs on the floor of the 3D view: each end attached to a component
/// moved to where the line from the middle of its footprint towards the other end leaves the
/// footprint (see the module docs). `scene` is the scene the line group belongs to.
pub fn on_floor(scene: &Scene, lines: &Lines) -> Lines {
    let footprint = |attached: Option<usize>| match attached.map(|at| &scene.primitives()[at].shape)
    {
        Some(Shape::Component(c)) => Some(c),
        _ => None,
    };
    let mut moved = lines.clone();
    for segment in &mut moved.segments {
        let (from, to) = (
            footprint(segment.from.attached),
            footprint(segment.to.attached),
        );
        let from_middle = from.map_or(segment.from.point, |c| c.centre);
        let to_middle = to.map_or(segment.to.point, |c| c.centre);
        if let Some(c) = from {
            segment.from.point = leaving(&c.corners, from_middle, to_middle);
        }
        if let Some(c) = to {
            segment.to.point = leaving(&c.corners, to_middle, from_middle);
        }
    }
    moved
}

/// Where the way from `inside` towards `towards` leaves the convex polygon `corners`; `inside`
/// itself when `towards` is inside too.
fn leaving(corners: &[Point], inside: Point, towards: Point) -> Point {
    let (dx, dy) = (towards.x - inside.x, towards.y - inside.y);
    let mut nearest = f64::INFINITY;
    for (a, b) in edges(corners) {
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let across = dx * ey - dy * ex;
        if across.abs() < 1e-12 {
            continue;
        }
        // inside + t·d = a + u·e
        let (fx, fy) = (a.x - inside.x, a.y - inside.y);
        let t = (fx * ey - fy * ex) / across;
        let u = (fx * dy - fy * dx) / across;
        if t > 0.0 && (0.0..=1.0).contains(&u) {
            nearest = nearest.min(t);
        }
    }
    if nearest <= 1.0 {
        Point::new(inside.x + dx * nearest, inside.y + dy * nearest)
    } else {
        inside
    }
}

/// The outward direction on the floor of the edge `a`–`b` of a shape around `inside`.
fn outward(a: Point, b: Point, inside: Point) -> Point {
    let normal = Point::new(b.y - a.y, a.x - b.x);
    let middle = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    if normal.x * (middle.x - inside.x) + normal.y * (middle.y - inside.y) < 0.0 {
        Point::new(-normal.x, -normal.y)
    } else {
        normal
    }
}

/// The vertical face standing on the floor from `a` to `b`, `height` high.
fn upright(projection: &Projection, a: Point, b: Point, height: f64) -> [Point; 4] {
    [
        projection.at(a, 0.0),
        projection.at(b, 0.0),
        projection.at(b, height),
        projection.at(a, height),
    ]
}

/// A component's block on its footprint: the sides turned towards the viewer, then the top.
fn block(projection: &Projection, index: usize, centre: Point, corners: &[Point; 4]) -> Piece {
    let mut faces = Vec::with_capacity(3);
    for (a, b) in edges(corners) {
        let normal = outward(a, b, centre);
        if projection.depth(normal) > 1e-9 {
            faces.push(Face {
                corners: upright(projection, a, b, BLOCK_HEIGHT),
                shade: projection.shade(normal),
            });
        }
    }
    faces.push(Face {
        corners: corners.map(|c| projection.at(c, BLOCK_HEIGHT)),
        shade: 1.0,
    });
    Piece {
        index,
        kind: PieceKind::Block,
        faces,
        depth: projection.depth(centre),
    }
}

/// The walls on an area's outline, in pieces of at most [`WALL_PIECE`].
fn walls(
    projection: &Projection,
    index: usize,
    corners: &[Point],
    height: f64,
    pieces: &mut Vec<Piece>,
) {
    for (a, b) in edges(corners) {
        let length = a.distance(b);
        if length < 1e-9 {
            continue;
        }
        let mut normal = Point::new(b.y - a.y, a.x - b.x);
        if projection.depth(normal) < 0.0 {
            normal = Point::new(-normal.x, -normal.y);
        }
        let shade = projection.shade(normal);
        let count = (length / WALL_PIECE).ceil().max(1.0);
        let along = |t: f64| Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        for i in 0..count as usize {
            let (from, to) = (along(i as f64 / count), along((i + 1) as f64 / count));
            let middle = along((i as f64 + 0.5) / count);
            pieces.push(Piece {
                index,
                kind: PieceKind::Wall,
                faces: vec![Face {
                    corners: upright(projection, from, to, height),
                    shade,
                }],
                depth: projection.depth(middle),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::DEFAULT_STATUS_KEY;
    use diagtui_model::Content;

    fn scene(content: Value) -> Scene {
        let content: Content = serde_json::from_value(content).unwrap();
        Scene::build(&content, DEFAULT_STATUS_KEY)
    }

    fn component(x: f64, y: f64, rotation: f64) -> Value {
        json!({"type": "component", "data": {"position": {"x": x, "y": y}, "rotation": rotation}})
    }

    fn close(a: Point, b: Point) -> bool {
        a.distance(b) < 1e-9
    }

    /// The ids of the pieces' primitives, in painter's order.
    fn order(scene: &Scene, iso: &Iso) -> Vec<String> {
        iso.pieces
            .iter()
            .map(|p| scene.primitives()[p.index].id.clone())
            .collect()
    }

    #[test]
    fn the_isometric_view_puts_the_top_left_farthest_and_keeps_the_floor_scale() {
        let view = Projection::isometric();
        let far = Point::new(-1.0, -1.0);
        let near = Point::new(1.0, 1.0);
        assert!(view.depth(far) < view.depth(Point::default()));
        assert!(view.depth(near) > view.depth(Point::new(1.0, -1.0)));
        // The floor's x axis goes down to the right, its y axis down to the left.
        let x = view.at(Point::new(1.0, 0.0), 0.0);
        let y = view.at(Point::new(0.0, 1.0), 0.0);
        assert!(
            x.x > 0.0 && x.y > 0.0 && y.x < 0.0 && y.y > 0.0,
            "{x:?} {y:?}"
        );
        // Across the screen, a diagonal keeps its length; heights go up the screen.
        assert!(close(
            view.at(Point::new(1.0, -1.0), 0.0),
            Point::new(2f64.sqrt(), 0.0)
        ));
        let lifted = view.at(Point::default(), 1.0);
        assert!(lifted.y < 0.0 && lifted.x.abs() < 1e-12);
        assert!((view.lift(1.0) + lifted.y).abs() < 1e-12);
        let [a, b, c, d] = view.floor();
        let p = Point::new(3.0, -2.0);
        assert!(close(
            view.at(p, 0.0),
            Point::new(a * p.x + c * p.y, b * p.x + d * p.y)
        ));
    }

    #[test]
    fn nearer_blocks_are_painted_after_farther_ones() {
        // A row going towards the viewer, given far to near, near to far and sideways.
        let s = scene(json!({
            "c-far": component(-8.0, -8.0, 0.0),
            "a-near": component(8.0, 8.0, 0.0),
            "b-middle": component(0.0, 0.0, 0.0),
            "d-left": component(-4.0, 6.0, 0.0),
        }));
        let iso = Iso::of(&s, Projection::isometric());
        assert_eq!(order(&s, &iso), ["c-far", "b-middle", "d-left", "a-near"]);
        // Each block shows two sides and its top, the top painted last.
        for piece in &iso.pieces {
            assert_eq!(piece.kind, PieceKind::Block);
            assert_eq!(piece.faces.len(), 3);
            assert_eq!(piece.faces[2].shade, 1.0);
            assert!(piece.faces[0].shade != piece.faces[1].shade);
        }
    }

    #[test]
    fn a_block_stands_on_its_footprint_and_turns_with_its_rotation() {
        let view = Projection::isometric();
        for rotation in [0.0, 0.3, -1.0, std::f64::consts::FRAC_PI_4] {
            let s = scene(json!({ "c": component(2.0, 1.0, rotation) }));
            let iso = Iso::of(&s, view);
            let Shape::Component(c) = &s.primitives()[0].shape else {
                panic!("a component");
            };
            let top = iso.pieces[0].faces.last().unwrap();
            for (corner, seen) in c.corners.iter().zip(top.corners) {
                assert!(close(view.at(*corner, BLOCK_HEIGHT), seen), "{rotation}");
            }
            // Turned by π/4, one side faces the viewer and two are edge-on (not drawn);
            // otherwise two sides show.
            let sides = iso.pieces[0].faces.len() - 1;
            let facing = rotation == std::f64::consts::FRAC_PI_4;
            assert_eq!(sides, if facing { 1 } else { 2 }, "{rotation}");
            // The sides stand on the footprint's edges.
            for side in &iso.pieces[0].faces[..sides] {
                let on_floor = |p: Point| c.corners.iter().any(|&q| close(view.at(q, 0.0), p));
                assert!(on_floor(side.corners[0]) && on_floor(side.corners[1]));
            }
        }
        // A turned block differs from an unturned one.
        let plain = Iso::of(&scene(json!({ "c": component(0.0, 0.0, 0.0) })), view);
        let turned = Iso::of(&scene(json!({ "c": component(0.0, 0.0, 0.3) })), view);
        assert_ne!(plain.pieces[0].faces, turned.pieces[0].faces);
    }

    fn area(walled: bool) -> Value {
        json!({"type": "area", "data": {
            "areaType": if walled { 1 } else { 0 }, "wallHeight": 3, "wallColor": "#112233",
            "anchors": [{"x": -5, "y": -5}, {"x": 5, "y": -5}, {"x": 5, "y": 5}, {"x": -5, "y": 5}],
        }})
    }

    #[test]
    fn walled_areas_get_walls_in_pieces_ordered_among_the_blocks() {
        let s = scene(json!({ "area": area(true), "inside": component(0.0, 0.0, 0.0) }));
        let Shape::Area(outline) = &s.get("area").unwrap().shape else {
            panic!("an area");
        };
        let wall = outline.wall.expect("walled");
        assert_eq!(wall.height, 3.0);
        assert_eq!(wall.colour.map(|c| c.hex()), Some("#112233".to_owned()));
        let iso = Iso::of(&s, Projection::isometric());
        let walls: Vec<&Piece> = iso
            .pieces
            .iter()
            .filter(|p| p.kind == PieceKind::Wall)
            .collect();
        // Four sides of 10 units, each in 10 pieces of one unit, 3 units high.
        assert_eq!(walls.len(), 40);
        let view = Projection::isometric();
        for piece in &walls {
            let [bottom, _, _, top] = piece.faces[0].corners;
            assert!((bottom.y - top.y - view.lift(3.0)).abs() < 1e-9);
        }
        // The far walls are painted before the block inside, the near ones after it.
        let at = iso
            .pieces
            .iter()
            .position(|p| p.kind == PieceKind::Block)
            .unwrap();
        let far = Point::new(-5.0, -5.0);
        assert!(iso.pieces[..at].iter().all(|p| p.kind == PieceKind::Wall));
        assert!(iso.pieces[..at].iter().all(|p| p.depth < 0.0));
        assert!(iso.pieces[at + 1..].iter().all(|p| p.depth > 0.0));
        assert!(iso.pieces[0].depth >= view.depth(far));
        // The screen bounds hold the wall tops.
        let bounds = iso.bounds.unwrap();
        assert!(bounds.min.y <= view.at(far, 3.0).y + 1e-9);
    }

    #[test]
    fn attached_line_ends_meet_the_foot_of_their_block_facing_the_other_end() {
        let s = scene(json!({
            "a": component(0.0, 0.0, 0.0),
            "b": component(10.0, 0.0, 0.0),
            "l": {"type": "line-group", "data": {
                "anchors": [{"type": 1, "id": "a", "index": 0}, {"type": 1, "id": "b", "index": 3},
                            {"type": 0, "x": 5, "y": 20}],
                "lines": [[0, 1], [2, 1]],
            }},
        }));
        let Shape::Lines(lines) = &s.get("l").unwrap().shape else {
            panic!("a line group");
        };
        let moved = on_floor(&s, lines);
        // a's right side and b's left side, halfway down, whatever corners were named.
        assert!(close(moved.segments[0].from.point, Point::new(1.0, 0.0)));
        assert!(close(moved.segments[0].to.point, Point::new(9.0, 0.0)));
        // A free end stays; b is met on its bottom side, on the way to the free end.
        let second = &moved.segments[1];
        assert!(close(second.from.point, Point::new(5.0, 20.0)));
        assert!(
            (second.to.point.y - 1.0).abs() < 1e-9,
            "{:?}",
            second.to.point
        );
        assert!(second.to.point.x > 9.0 && second.to.point.x < 10.0);
        assert_eq!(moved.segments[1].to.attached, lines.segments[1].to.attached);
    }

    #[test]
    fn plain_areas_have_no_walls_and_walls_default_to_two_units_of_grey() {
        let s = scene(json!({ "area": area(false) }));
        assert!(Iso::of(&s, Projection::isometric()).pieces.is_empty());
        let s = scene(json!({"area": {"type": "area", "data": {"areaType": 1,
            "anchors": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 0, "y": 1}]}}}));
        let Shape::Area(outline) = &s.primitives()[0].shape else {
            panic!("an area");
        };
        let wall = outline.wall.unwrap();
        assert_eq!(
            (wall.height, wall.colour.unwrap().hex()),
            (2.0, "#CCCCCC".to_owned())
        );
    }
}
