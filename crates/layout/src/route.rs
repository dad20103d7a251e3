//! Routing links: right-angled paths on the half-cell grid that neither pass through nor run
//! along any component's footprint (only the two components a link joins may be touched), nor
//! through a label or a group's title. A straight line, an L or a Z is taken when one is clear
//! and runs along no line routed before; otherwise the cheapest path found by a search over the
//! grid, where a bend costs more than a step, running along a line routed before costs much
//! more (so parallel lines keep apart, on tracks of their own) and crossing one a little. A
//! link with points to pass (the layered layout's long links) is routed from point to point.
//! When no clear path exists at all, the L.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::geometry::{COMPONENT_SIDE, GRID_HALF, Rect};

/// Grid nodes per axis: −50 to 50 in half cells.
const NODES: usize = (GRID_HALF * 4.0) as usize + 1;
// A node's two coordinates fit 8 bits each in the search's packed states.
const _: () = assert!(NODES <= 256);
/// What a bend costs against a step of half a cell, in the search.
const BEND_COST: u32 = 8;
/// What a step along a line routed before costs more.
const ALONG_COST: u32 = 40;
/// What crossing a line routed before costs more.
const CROSS_COST: u32 = 80;
/// How far (in half cells) beyond the rectangle of its two ends a path is looked for, first
/// near, then further.
const SEARCH_MARGINS: [usize; 3] = [6, 16, 48];

/// A node on or in a component's footprint.
const FOOTPRINT: u8 = 1;
/// A node inside a label or on a title: never passed.
const SOLID: u8 = 2;
/// A node a horizontal line passes.
const HORIZONTAL: u8 = 1;
/// A node a vertical line passes.
const VERTICAL: u8 = 2;

/// A point on the half-cell grid.
pub type Point = (f64, f64);

/// Which grid nodes lie on or inside a component's footprint, a label or a title, and which
/// the lines routed so far pass.
pub struct Obstacles {
    blocked: Vec<u8>,
    used: Vec<u8>,
}

/// The footprints a route may run along: those of the components it joins.
type Ends<'a> = &'a [Point];

/// The grid node nearest to a coordinate.
fn node(v: f64) -> usize {
    (((v + GRID_HALF) * 2.0).round().max(0.0) as usize).min(NODES - 1)
}

/// A node's coordinate.
fn coordinate(n: usize) -> f64 {
    n as f64 / 2.0 - GRID_HALF
}

impl Obstacles {
    /// The obstacles of components centred at `centres`.
    pub fn new(centres: &[Point]) -> Obstacles {
        let mut obstacles = Obstacles {
            blocked: vec![0; NODES * NODES],
            used: vec![0; NODES * NODES],
        };
        let reach = COMPONENT_SIDE / 2.0;
        for &(x, y) in centres {
            obstacles.mark_rect(
                Rect::centred(x, y, 2.0 * reach, 2.0 * reach),
                FOOTPRINT,
                false,
            );
        }
        obstacles
    }

    /// Adds a box no line may enter: its inside, and its border too when `border`.
    pub fn block(&mut self, r: Rect, border: bool) {
        self.mark_rect(r, SOLID, !border);
    }

    fn mark_rect(&mut self, r: Rect, flag: u8, inside_only: bool) {
        let (mut x0, mut x1, mut y0, mut y1) = (node(r.x0), node(r.x1), node(r.y0), node(r.y1));
        if inside_only {
            if x1 < x0 + 2 || y1 < y0 + 2 {
                return;
            }
            (x0, x1, y0, y1) = (x0 + 1, x1 - 1, y0 + 1, y1 - 1);
        }
        for row in y0..=y1 {
            self.blocked[row * NODES + x0..=row * NODES + x1]
                .iter_mut()
                .for_each(|b| *b |= flag);
        }
    }

    /// Whether a route joining `ends` may not pass node (`x`, `y`): it lies on or in a
    /// footprint, and not on the border of one of the ends, or in a label or on a title.
    fn is_blocked(&self, x: usize, y: usize, ends: Ends<'_>) -> bool {
        let b = self.blocked[y * NODES + x];
        if b & SOLID != 0 {
            return true;
        }
        if b & FOOTPRINT == 0 {
            return false;
        }
        let (px, py) = (coordinate(x), coordinate(y));
        let h = COMPONENT_SIDE / 2.0;
        !ends.iter().any(|&(cx, cy)| {
            let (dx, dy) = ((px - cx).abs(), (py - cy).abs());
            dx <= h && dy <= h && (dx == h || dy == h)
        })
    }

    /// The nodes of the straight segment from `a` to `b` (same x or same y), with the flag
    /// of its orientation; `None` when it is slanted.
    fn segment(a: Point, b: Point) -> Option<(Vec<(usize, usize)>, u8)> {
        let (ax, ay, bx, by) = (node(a.0), node(a.1), node(b.0), node(b.1));
        if ax == bx {
            Some((
                (ay.min(by)..=ay.max(by)).map(|y| (ax, y)).collect(),
                VERTICAL,
            ))
        } else if ay == by {
            Some((
                (ax.min(bx)..=ax.max(bx)).map(|x| (x, ay)).collect(),
                HORIZONTAL,
            ))
        } else {
            None
        }
    }

    /// Whether the straight segment from `a` to `b` passes no obstacle and runs along no line.
    fn clear(&self, a: Point, b: Point, ends: Ends<'_>) -> bool {
        let Some((nodes, flag)) = Obstacles::segment(a, b) else {
            return false;
        };
        nodes.iter().all(|&(x, y)| !self.is_blocked(x, y, ends))
            && nodes
                .windows(2)
                .all(|w| !(self.uses(w[0], flag) && self.uses(w[1], flag)))
    }

    /// Whether the straight segment from `a` to `b` passes no obstacle (lines aside).
    fn unobstructed(&self, a: Point, b: Point, ends: Ends<'_>) -> bool {
        self.unobstructed_but(a, b, ends, None)
    }

    /// The same, what lies in `own` aside (the room kept for the line's own label).
    pub(crate) fn unobstructed_but(
        &self,
        a: Point,
        b: Point,
        ends: Ends<'_>,
        own: Option<Rect>,
    ) -> bool {
        let in_own = |x: usize, y: usize| {
            own.is_some_and(|r| {
                let (px, py) = (coordinate(x), coordinate(y));
                px >= r.x0 && px <= r.x1 && py >= r.y0 && py <= r.y1
            })
        };
        Obstacles::segment(a, b).is_some_and(|(nodes, _)| {
            (nodes.iter()).all(|&(x, y)| in_own(x, y) || !self.is_blocked(x, y, ends))
        })
    }

    fn uses(&self, (x, y): (usize, usize), flag: u8) -> bool {
        self.used[y * NODES + x] & flag != 0
    }

    /// Whether a whole path is clear.
    fn path_clear(&self, path: &[Point], ends: Ends<'_>) -> bool {
        path.windows(2).all(|w| self.clear(w[0], w[1], ends))
    }

    /// Records the lines of a path, so that later routes keep off them.
    fn mark(&mut self, path: &[Point]) {
        for w in path.windows(2) {
            if let Some((nodes, flag)) = Obstacles::segment(w[0], w[1]) {
                for (x, y) in nodes {
                    self.used[y * NODES + x] |= flag;
                }
            }
        }
    }

    /// A right-angled path from `a` to `b` through the points `via`, corners included,
    /// repeated points removed; `ends` are the centres of the components it joins. With
    /// `planned`, a straight leg between two points is taken when no obstacle is in its way,
    /// even along another line (the layered layout planned its lines' tracks, fans sharing
    /// one). The path is recorded, so that later routes keep off it.
    pub fn route(
        &mut self,
        a: Point,
        b: Point,
        via: &[Point],
        ends: Ends<'_>,
        planned: bool,
    ) -> Vec<Point> {
        let stops: Vec<Point> = std::iter::once(a)
            .chain(via.iter().copied())
            .chain(std::iter::once(b))
            .collect();
        let mut path = vec![a];
        for leg in stops.windows(2) {
            let (from, to) = (leg[0], leg[1]);
            let as_planned = planned && (self.unobstructed(from, to, ends) || is_stub(from, to));
            let piece = if as_planned {
                vec![from, to]
            } else {
                self.leg(from, to, ends)
            };
            path.extend(piece.into_iter().skip(1));
        }
        let mut path = simplify(path);
        if path.len() < 2 {
            // Both ends at one point (components placed by hand on top of each other).
            path.push(path[0]);
        }
        self.mark(&path);
        path
    }

    /// One leg of a route: the straight line, an L or a Z when one is clear, else the
    /// cheapest path the search finds.
    fn leg(&self, a: Point, b: Point, ends: Ends<'_>) -> Vec<Point> {
        let mid_x = (a.0 + b.0).round() / 2.0;
        let mid_y = (a.1 + b.1).round() / 2.0;
        let candidates = [
            vec![a, b],
            vec![a, (b.0, a.1), b],
            vec![a, (a.0, b.1), b],
            vec![a, (mid_x, a.1), (mid_x, b.1), b],
            vec![a, (a.0, mid_y), (b.0, mid_y), b],
        ];
        candidates
            .into_iter()
            .filter(|p| p.windows(2).all(|w| w[0].0 == w[1].0 || w[0].1 == w[1].1))
            .find(|p| self.path_clear(p, ends))
            .or_else(|| self.search(a, b, ends))
            .unwrap_or_else(|| vec![a, (b.0, a.1), b])
    }

    /// The cheapest clear path: searched near the two ends first, then further (not over the
    /// whole grid: what is not found 24 cells around the two ends takes the L).
    fn search(&self, a: Point, b: Point, ends: Ends<'_>) -> Option<Vec<Point>> {
        SEARCH_MARGINS
            .iter()
            .find_map(|&m| self.search_in(a, b, ends, m))
    }

    /// A* over (node, heading) within the rectangle around `a` and `b` grown by `m` nodes; a
    /// step costs 1, a bend [`BEND_COST`] more, a step
    /// along a line [`ALONG_COST`] more and crossing one [`CROSS_COST`] more.
    fn search_in(&self, a: Point, b: Point, ends: Ends<'_>, m: usize) -> Option<Vec<Point>> {
        let (start, goal) = ((node(a.0), node(a.1)), (node(b.0), node(b.1)));
        let (x0, x1, y0, y1) = (
            start.0.min(goal.0).saturating_sub(m),
            (start.0.max(goal.0) + m).min(NODES - 1),
            start.1.min(goal.1).saturating_sub(m),
            (start.1.max(goal.1) + m).min(NODES - 1),
        );
        let w = x1 - x0 + 1;
        const STEPS: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let index = |x: usize, y: usize, d: usize| ((y - y0) * w + (x - x0)) * 4 + d;
        // Steps still to take, and a bend when neither axis is reached yet.
        let estimate = |x: usize, y: usize| {
            let (dx, dy) = (x.abs_diff(goal.0), y.abs_diff(goal.1));
            (dx + dy) as u32 + if dx > 0 && dy > 0 { BEND_COST } else { 0 }
        };
        let states = w * (y1 - y0 + 1) * 4;
        let mut cost = vec![u32::MAX; states];
        let mut from = vec![u32::MAX; states];
        let mut queue = BinaryHeap::new();
        // A state in the queue: its estimate, its cost, then its place and heading packed in
        // that order into one number (12 bytes a state, ordered as the five fields would be).
        let pack = |x: usize, y: usize, d: usize| ((x << 10) | (y << 2) | d) as u32;
        for d in 0..4 {
            cost[index(start.0, start.1, d)] = 0;
            let f = estimate(start.0, start.1);
            queue.push(Reverse((f, 0u32, pack(start.0, start.1, d))));
        }
        while let Some(Reverse((_, c, packed))) = queue.pop() {
            let (x, y, d) = (
                (packed >> 10) as usize,
                ((packed >> 2) & 0xff) as usize,
                (packed & 3) as usize,
            );
            if c > cost[index(x, y, d)] {
                continue;
            }
            if (x, y) == goal {
                let mut points = vec![b];
                let mut at = index(x, y, d);
                while from[at] != u32::MAX {
                    at = from[at] as usize;
                    let n = at / 4;
                    points.push((coordinate(x0 + n % w), coordinate(y0 + n / w)));
                }
                points.push(a);
                points.reverse();
                return Some(points);
            }
            for (nd, (dx, dy)) in STEPS.iter().enumerate() {
                let (nx, ny) = (x as isize + dx, y as isize + dy);
                if nx < x0 as isize || ny < y0 as isize || nx > x1 as isize || ny > y1 as isize {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                if self.is_blocked(nx, ny, ends) && (nx, ny) != goal {
                    continue;
                }
                let flag = if dx != &0 { HORIZONTAL } else { VERTICAL };
                let other = (HORIZONTAL | VERTICAL) ^ flag;
                let here = self.used[y * NODES + x];
                let there = self.used[ny * NODES + nx];
                let along = here & there & flag != 0;
                let crossing = there & other != 0;
                let next = c
                    + 1
                    + if nd == d { 0 } else { BEND_COST }
                    + if along { ALONG_COST } else { 0 }
                    + if crossing { CROSS_COST } else { 0 };
                let at = index(nx, ny, nd);
                if next < cost[at] {
                    cost[at] = next;
                    from[at] = index(x, y, d) as u32;
                    queue.push(Reverse((next + estimate(nx, ny), next, pack(nx, ny, nd))));
                }
            }
        }
        None
    }
}

/// Whether a leg is a planned slanted stub: half a cell across and at most a cell and a half
/// along (the deepest of the three levels beside a footprint), out of a footprint's corner to
/// a track beside it (the layered layout's slots).
fn is_stub(a: Point, b: Point) -> bool {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    dx > 0.0 && dy > 0.0 && dx.min(dy) <= 0.5 && dx.max(dy) <= 1.5
}

/// Drops repeated points and the middle of three points on one straight line, again after
/// each point dropped: a piece that runs out and back along itself (a spike) goes, and the
/// points on either side of it become neighbours.
fn simplify(path: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(path.len());
    for p in path {
        loop {
            if out.last() == Some(&p) {
                break;
            }
            if let [.., a, b] = out[..]
                && ((a.0 == b.0 && b.0 == p.0) || (a.1 == b.1 && b.1 == p.1))
            {
                out.pop();
                continue;
            }
            out.push(p);
            break;
        }
    }
    out
}

/// The corner of a component footprint (index 0 top-left, clockwise) nearest to `toward`.
pub fn nearest_corner(centre: Point, toward: Point) -> (usize, Point) {
    let h = COMPONENT_SIDE / 2.0;
    let corners = [
        (centre.0 - h, centre.1 - h),
        (centre.0 + h, centre.1 - h),
        (centre.0 + h, centre.1 + h),
        (centre.0 - h, centre.1 + h),
    ];
    corners
        .into_iter()
        .enumerate()
        .min_by(|(_, p), (_, q)| distance(*p, toward).total_cmp(&distance(*q, toward)))
        .expect("four corners")
}

/// The half-cell point on (or just outside) a rectangle's border nearest to `toward`.
pub fn border_point(r: Rect, toward: Point) -> Point {
    let x = toward.0.clamp(r.x0, r.x1);
    let y = toward.1.clamp(r.y0, r.y1);
    let to_edge = [
        (x - r.x0).abs(),
        (r.x1 - x).abs(),
        (y - r.y0).abs(),
        (r.y1 - y).abs(),
    ];
    let inside = toward.0 > r.x0 && toward.0 < r.x1 && toward.1 > r.y0 && toward.1 < r.y1;
    let out_down = |v: f64| (v * 2.0 + 1e-9).floor() / 2.0;
    let out_up = |v: f64| (v * 2.0 - 1e-9).ceil() / 2.0;
    let half = |v: f64| (v * 2.0).round() / 2.0;
    let edge = if inside {
        (0..4)
            .min_by(|a, b| to_edge[*a].total_cmp(&to_edge[*b]))
            .expect("four edges")
    } else if toward.1 <= r.y0 {
        2
    } else if toward.1 >= r.y1 {
        3
    } else if toward.0 <= r.x0 {
        0
    } else {
        1
    };
    match edge {
        0 => (out_down(r.x0), half(y)),
        1 => (out_up(r.x1), half(y)),
        2 => (half(x), out_down(r.y0)),
        _ => (half(x), out_up(r.y1)),
    }
}

fn distance(a: Point, b: Point) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

#[cfg(test)]
mod tests {
    use super::{Point, simplify};

    /// Points written `x y, x y, ...`.
    fn points(text: &str) -> Vec<Point> {
        (text.split(','))
            .map(|p| {
                let xy: Vec<f64> = p.split_whitespace().map(|v| v.parse().unwrap()).collect();
                (xy[0], xy[1])
            })
            .collect()
    }

    #[test]
    fn simplify_drops_points_on_a_straight_piece_and_pieces_that_run_back_along_themselves() {
        let cases = [
            (
                "the middle of three points on a line, and a repeated point",
                "0 0, 1 0, 1 0, 2 0, 2 1",
                "0 0, 2 0, 2 1",
            ),
            (
                "a spike out and back (the Jaeger flowchart's line into its SDK): the line \
                 runs on from where the spike began, along no other line there",
                "-2 -8.5, -2 -6, -4 -6, -1.5 -6, -1.5 -3.5",
                "-2 -8.5, -2 -6, -1.5 -6, -1.5 -3.5",
            ),
            (
                "a spike across a straight piece: once it goes, the points either side are on \
                 one line with their neighbours, and go too",
                "-9.5 -3.5, -9.5 -6, -6 -6, -6 -5.5, -6 -6, -2.5 -6, -2.5 -8",
                "-9.5 -3.5, -9.5 -6, -2.5 -6, -2.5 -8",
            ),
            (
                "out and back to the very point it left: one point",
                "0 0, 3 0, 0 0",
                "0 0",
            ),
        ];
        for (case, path, simplified) in cases {
            assert_eq!(simplify(points(path)), points(simplified), "{case}");
        }
    }
}
