//! Straightening the routed lines: a line that steps aside from a straight run and back to it
//! (a dip of half a cell between two components in a row, a hook that meets a component's side
//! and runs along it to the corner its anchor ties to) is drawn straight wherever the straight
//! piece is clear: it passes no box, name, title or label's room, runs along no other line,
//! leaves no component along its own side, and crosses no more lines than the piece it
//! replaces. The layered layout plans each line's tracks before it knows which corners the
//! line ties to, so such steps are left over where the corners line up after all.

use crate::geometry::{COMPONENT_SIDE, collinear_overlap, crosses};
use crate::route::{Obstacles, Point};

/// Lengths below this are no length (points are on half cells).
const EPS: f64 = 0.01;

/// Each of `paths` straightened where it can be, in turn (a line straightened first is what
/// the later ones keep clear of); `ends[l]` are the centres of the components line `l` joins
/// (its first point on a corner of the first, its last on a corner of the last).
pub(crate) fn straighten(
    paths: &mut [Option<Vec<Point>>],
    ends: &[Vec<Point>],
    obstacles: &Obstacles,
) {
    for l in 0..paths.len() {
        let Some(mut path) = paths[l].take() else {
            continue;
        };
        while let Some((i, j)) = shortcut(&path, l, &ends[l], paths, obstacles) {
            path.drain(i + 1..j);
        }
        paths[l] = Some(path);
    }
}

/// The first two points of `path` (line `l`, the others in `others`) that a straight piece
/// may join, skipping the points between them: the farthest such point from each point in
/// turn.
fn shortcut(
    path: &[Point],
    l: usize,
    ends: &[Point],
    others: &[Option<Vec<Point>>],
    obstacles: &Obstacles,
) -> Option<(usize, usize)> {
    let last = path.len().checked_sub(1)?;
    for i in 0..last {
        for j in (i + 2..=last).rev() {
            let (a, b) = (path[i], path[j]);
            let straight = (a.0 - b.0).abs() < EPS || (a.1 - b.1).abs() < EPS;
            if straight
                && obstacles.unobstructed(a, b, ends)
                && (i > 0 || leaves(a, b, ends.first()))
                && (j < last || leaves(b, a, ends.last()))
                && keeps_clear(&path[i..=j], l, others)
                && !runs_back(path, i, j)
            {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether a piece from a corner `at` of the component centred at `centre` toward `to` leaves
/// it (rather than running along its side).
fn leaves(at: Point, to: Point, centre: Option<&Point>) -> bool {
    let Some(&(cx, cy)) = centre else {
        // A group's border point: the piece starts outside any component.
        return true;
    };
    let length = (to.0 - at.0).hypot(to.1 - at.1);
    if length < EPS {
        return false;
    }
    let step = 0.25 / length;
    let (x, y) = (at.0 + (to.0 - at.0) * step, at.1 + (to.1 - at.1) * step);
    let h = COMPONENT_SIDE / 2.0;
    (x - cx).abs() > h + EPS || (y - cy).abs() > h + EPS
}

/// Whether the straight piece from the first of `replaced` to its last runs along no other
/// line and crosses no more of them than `replaced` does.
fn keeps_clear(replaced: &[Point], l: usize, others: &[Option<Vec<Point>>]) -> bool {
    let (a, b) = (replaced[0], replaced[replaced.len() - 1]);
    let (mut before, mut after) = (0, 0);
    for (m, other) in others.iter().enumerate() {
        let Some(other) = other.as_deref().filter(|_| m != l) else {
            continue;
        };
        for s in other.windows(2) {
            if collinear_overlap(a, b, s[0], s[1], EPS) {
                return false;
            }
            after += usize::from(crosses(a, b, s[0], s[1]));
            before += (replaced.windows(2))
                .filter(|r| crosses(r[0], r[1], s[0], s[1]))
                .count();
        }
    }
    after <= before
}

/// Whether the straight piece from `path[i]` to `path[j]` would run back along the pieces of
/// its own line on either side of it.
fn runs_back(path: &[Point], i: usize, j: usize) -> bool {
    let (a, b) = (path[i], path[j]);
    let before = i.checked_sub(1).map(|k| (path[k], a));
    let after = path.get(j + 1).map(|&p| (b, p));
    (before.into_iter().chain(after)).any(|(c, d)| {
        // Along the same line, the other way.
        collinear_overlap(a, b, c, d, EPS)
            && (b.0 - a.0) * (d.0 - c.0) + (b.1 - a.1) * (d.1 - c.1) < 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn centres() -> Vec<Point> {
        vec![(-4.0, 0.0), (4.0, 0.0)]
    }

    /// From the top-right corner of the first of [`centres`] to the top-left corner of the
    /// second, half a cell down and back on the way.
    fn dip() -> Vec<Point> {
        vec![
            (-3.0, -1.0),
            (-1.5, -1.0),
            (-1.5, -0.5),
            (1.5, -0.5),
            (1.5, -1.0),
            (3.0, -1.0),
        ]
    }

    #[test]
    fn a_dip_between_two_components_in_a_row_is_drawn_straight() {
        // Temporal's flowcharts: Create Task to Outbound Queue.
        let obstacles = Obstacles::new(&centres());
        let dip = dip();
        let mut paths = vec![Some(dip)];
        straighten(&mut paths, &[centres()], &obstacles);
        assert_eq!(paths[0], Some(vec![(-3.0, -1.0), (3.0, -1.0)]));
    }

    #[test]
    fn a_hook_along_a_side_to_the_corner_is_cut() {
        // Temporal's worker commands: the line comes in at the side's middle and runs up it
        // to the top-right corner.
        let obstacles = Obstacles::new(&[(0.0, 0.0), (8.0, -1.0)]);
        let hook = vec![
            (7.0, -1.0),
            (4.0, -1.0),
            (4.0, 0.5),
            (1.0, 0.5),
            (1.0, -1.0),
        ];
        let mut paths = vec![Some(hook)];
        straighten(&mut paths, &[vec![(8.0, -1.0), (0.0, 0.0)]], &obstacles);
        assert_eq!(paths[0], Some(vec![(7.0, -1.0), (1.0, -1.0)]));
    }

    #[test]
    fn a_step_stays_where_the_straight_piece_is_not_clear() {
        let dip = dip();
        // A component in the way.
        let mut blocked = centres();
        blocked.push((0.0, -2.0));
        let mut paths = vec![Some(dip.clone())];
        straighten(&mut paths, &[centres()], &Obstacles::new(&blocked));
        assert_eq!(paths[0].as_ref(), Some(&dip), "through a component");
        // Another line along the straight piece.
        let obstacles = Obstacles::new(&centres());
        let along = vec![(-0.5, -1.0), (0.5, -1.0)];
        let mut paths = vec![Some(dip.clone()), Some(along)];
        straighten(&mut paths, &[centres(), Vec::new()], &obstacles);
        assert_eq!(paths[0].as_ref(), Some(&dip), "along another line");
        // A line the straight piece would cross and the step does not.
        let across = vec![(0.0, -3.0), (0.0, -0.75)];
        let mut paths = vec![Some(dip.clone()), Some(across)];
        straighten(&mut paths, &[centres(), Vec::new()], &obstacles);
        assert_eq!(paths[0].as_ref(), Some(&dip), "across another line");
    }

    #[test]
    fn a_piece_from_a_corner_never_runs_along_its_own_component() {
        // From the top-right corner of one to the top-right corner of its left neighbour, up
        // and over: straight, it would run along the first one's top.
        let obstacles = Obstacles::new(&[(0.0, 0.0), (-4.0, 0.0)]);
        let over = vec![(1.0, -1.0), (1.0, -2.0), (-3.0, -2.0), (-3.0, -1.0)];
        let mut paths = vec![Some(over.clone())];
        straighten(&mut paths, &[vec![(0.0, 0.0), (-4.0, 0.0)]], &obstacles);
        assert_eq!(paths[0], Some(over));
    }
}
