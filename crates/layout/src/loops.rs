//! A link from a component to itself (`A --> A`): a small loop along one side of the
//! component, from one of its corners to the next, half a cell out. Line groups attach only at
//! corners, and the same component may be named by two anchors with different corners, so
//! both ends stay on the component wherever it is moved. The side is the first of right, top,
//! left, bottom (under it is its name) that no component, name, title, label or line drawn
//! before comes near; where every side is taken, the one with the fewest in the way.

use crate::geometry::{COMPONENT_SIDE, Rect};
use crate::route::Point;

/// How far out from its component a loop runs.
const REACH: f64 = 0.5;

/// How far past the loop a box still counts as in its way (one touching the loop does).
const CLEAR: f64 = 0.01;

/// A loop beside a component: its path (first and last point on the component's corners) and
/// the corners' indexes (0 top-left, then clockwise), and the strip it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Loop {
    /// The points, from the first corner out, along the side and back in to the second.
    pub path: Vec<Point>,
    /// The corner it leaves and the corner it comes back to.
    pub corners: (usize, usize),
    /// The strip beside the side that the loop takes, and a hair more outwards.
    pub strip: Rect,
}

/// The loop beside the component centred at `centre`, keeping clear of the boxes `taken`
/// (other than the component's own) and of the `lines` drawn before, as far as a side allows.
pub fn beside(centre: Point, taken: &[Rect], lines: &[Vec<Point>]) -> Loop {
    let own = Rect::centred(centre.0, centre.1, COMPONENT_SIDE, COMPONENT_SIDE);
    let in_the_way = |l: &Loop| {
        let boxes = taken
            .iter()
            .filter(|t| **t != own && t.overlaps(&l.strip))
            .count();
        let crossing = lines
            .iter()
            .flat_map(|path| path.windows(2))
            .filter(|piece| meets(&l.strip, &own, piece[0], piece[1]))
            .count();
        boxes + crossing
    };
    sides(centre)
        .into_iter()
        .enumerate()
        .min_by_key(|(order, l)| (in_the_way(l), *order))
        .map(|(_, l)| l)
        .expect("four sides")
}

/// The loops along the right, top, left and bottom sides.
fn sides((x, y): Point) -> [Loop; 4] {
    let h = COMPONENT_SIDE / 2.0;
    let (l, t, r, b) = (x - h, y - h, x + h, y + h);
    let side = |path: [Point; 4], corners| {
        // The outer points a hair further out, away from the corner each leaves.
        let out = |p: f64, from: f64| p + (p - from).clamp(-CLEAR, CLEAR);
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (i, (px, py)) in path.into_iter().enumerate() {
            let (px, py) = match i {
                1 => (out(px, path[0].0), out(py, path[0].1)),
                2 => (out(px, path[3].0), out(py, path[3].1)),
                _ => (px, py),
            };
            (x0, y0, x1, y1) = (x0.min(px), y0.min(py), x1.max(px), y1.max(py));
        }
        Loop {
            path: path.to_vec(),
            corners,
            strip: Rect { x0, y0, x1, y1 },
        }
    };
    [
        side([(r, t), (r + REACH, t), (r + REACH, b), (r, b)], (1, 2)),
        side([(l, t), (l, t - REACH), (r, t - REACH), (r, t)], (0, 1)),
        side([(l, b), (l - REACH, b), (l - REACH, t), (l, t)], (3, 0)),
        side([(r, b), (r, b + REACH), (l, b + REACH), (l, b)], (2, 3)),
    ]
}

/// Whether the straight piece `a`–`b` meets the strip anywhere but on the component's own
/// border (where the lines of its other links leave its corners).
fn meets(strip: &Rect, own: &Rect, a: Point, b: Point) -> bool {
    let (x0, x1) = (a.0.min(b.0).max(strip.x0), a.0.max(b.0).min(strip.x1));
    let (y0, y1) = (a.1.min(b.1).max(strip.y0), a.1.max(b.1).min(strip.y1));
    if x0 > x1 || y0 > y1 {
        return false;
    }
    !own.contains(&Rect { x0, y0, x1, y1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_component_loops_on_its_right_from_corner_one_to_two() {
        let l = beside((0.0, 0.0), &[], &[]);
        assert_eq!(l.corners, (1, 2));
        assert_eq!(
            l.path,
            vec![(1.0, -1.0), (1.5, -1.0), (1.5, 1.0), (1.0, 1.0)]
        );
    }

    #[test]
    fn the_loop_keeps_off_a_neighbour_and_a_line_leaving_a_corner() {
        // A neighbour half a cell to the right: the loop goes over the top.
        let neighbour = Rect::centred(2.5, 0.0, 2.0, 2.0);
        let own = Rect::centred(0.0, 0.0, 2.0, 2.0);
        let l = beside((0.0, 0.0), &[own, neighbour], &[]);
        assert_eq!(l.corners, (0, 1));
        // And a line leaving the top-left corner upwards, along the top strip's left edge:
        // the left side then.
        let up = vec![(-1.0, -1.0), (-1.0, -6.0)];
        let l = beside((0.0, 0.0), &[own, neighbour], &[up]);
        assert_eq!(l.corners, (3, 0), "{l:?}");
        // A line that only touches the component's border does not count.
        let touching = vec![(1.0, 1.0), (1.0, 6.0)];
        assert_eq!(beside((0.0, 0.0), &[own], &[touching]).corners, (1, 2));
    }

    #[test]
    fn where_every_side_is_taken_the_least_taken_wins() {
        let own = Rect::centred(0.0, 0.0, 2.0, 2.0);
        let around: Vec<Rect> = [(2.5, 0.0), (0.0, -2.5), (-2.5, 0.0), (0.0, 2.5), (2.5, 1.0)]
            .into_iter()
            .map(|(x, y)| Rect::centred(x, y, 2.0, 2.0))
            .chain([own])
            .collect();
        // Right has two in the way, the others one each: the top.
        assert_eq!(beside((0.0, 0.0), &around, &[]).corners, (0, 1));
    }
}
