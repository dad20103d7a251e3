//! Straightening the routed lines: a line that steps aside from a straight run and back to it
//! (a dip of half a cell between two components in a row, a hook that meets a component's side
//! and runs along it to the corner its anchor ties to, a step to the middle of a group's side
//! it could meet level) is drawn straight wherever the straight piece is clear: it passes no
//! box, name, title or other line's label room (its own label then goes beside it), runs along
//! no other line and no group's border, leaves no component along its own side, and crosses no
//! more lines and no more groups' borders than the piece it replaces. The layered layout plans
//! each line's tracks before it knows which corners the line ties to, so such steps are left
//! over where the corners line up after all.

use crate::geometry::{COMPONENT_SIDE, Rect, collinear_overlap, crosses};
use crate::route::{Obstacles, Point};

/// Lengths below this are no length (points are on half cells).
const EPS: f64 = 0.01;

/// How far from a group's corner a line may meet its border.
const FROM_CORNER: f64 = 0.5;

/// What a line joins: the centres of the components it ties to (its first point on a corner
/// of the first, its last on a corner of the last), and the area of the group at each end
/// that is a group's (its point there free on the border).
#[derive(Debug, Clone, Default)]
pub(crate) struct Joins {
    /// The components' centres.
    pub components: Vec<Point>,
    /// The group's area at the first end and at the last.
    pub groups: [Option<Rect>; 2],
    /// The room kept for its label, which it may cross (the label then goes beside it).
    pub label_room: Option<Rect>,
}

impl Joins {
    /// The centre of the component at end `end` (0 the first, 1 the last), when that end is a
    /// component's corner rather than a point on a group's border.
    fn component_at(&self, end: usize) -> Option<&Point> {
        match (self.groups[end], end) {
            (Some(_), _) => None,
            (None, 0) => self.components.first(),
            (None, _) => self.components.last(),
        }
    }
}

/// A straight piece a line may take instead of some of its points.
#[derive(Debug)]
enum Shortcut {
    /// From its point `i` to its point `j`, the points between dropped.
    Between(usize, usize),
    /// From its point `i` to the group it ends on, at this point of the same border: the
    /// points after `i` replaced.
    ToGroup(usize, Point),
    /// From the group it starts on, at this point of the same border, to its point `j`: the
    /// points before `j` replaced.
    FromGroup(Point, usize),
}

/// What a straight piece keeps clear of besides the router's obstacles: the other lines, and
/// the groups' borders (a piece crosses no more of either than the points it replaces did, so
/// that a line planned round a group it has no business in does not cut through it).
struct Around<'a> {
    /// The lines, each line's own left out when it is straightened.
    lines: &'a [Option<Vec<Point>>],
    /// The four sides of every group's area.
    borders: &'a [(Point, Point)],
}

/// Each of `paths` straightened where it can be, in turn (a line straightened first is what
/// the later ones keep clear of); `joins[l]` is what line `l` joins, `groups` the groups'
/// areas.
pub(crate) fn straighten(
    paths: &mut [Option<Vec<Point>>],
    joins: &[Joins],
    groups: &[Rect],
    obstacles: &Obstacles,
) {
    let borders: Vec<(Point, Point)> = (groups.iter())
        .flat_map(|r| {
            let corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)];
            (0..4).map(move |k| (corners[k], corners[(k + 1) % 4]))
        })
        .collect();
    for l in 0..paths.len() {
        let Some(mut path) = paths[l].take() else {
            continue;
        };
        let around = Around {
            lines: paths,
            borders: &borders,
        };
        while let Some(cut) = shortcut(&path, l, &joins[l], &around, obstacles) {
            match cut {
                Shortcut::Between(i, j) => {
                    path.drain(i + 1..j);
                }
                Shortcut::ToGroup(i, at) => {
                    path.truncate(i + 1);
                    path.push(at);
                }
                Shortcut::FromGroup(at, j) => {
                    path.splice(..j, [at]);
                }
            }
        }
        paths[l] = Some(path);
    }
}

/// The first straight piece `path` (line `l`; what it keeps clear of in `around`) may take:
/// between two of its points (the farthest such point from each point in turn), else to or
/// from a group's border at another point of the same side.
fn shortcut(
    path: &[Point],
    l: usize,
    joins: &Joins,
    around: &Around,
    obstacles: &Obstacles,
) -> Option<Shortcut> {
    let last = path.len().checked_sub(1)?;
    let ends = &joins.components[..];
    let clear = |a: Point, b: Point, i: usize, j: usize| {
        obstacles.unobstructed_but(a, b, ends, joins.label_room)
            && (i > 0 || leaves(a, b, joins.component_at(0)))
            && (j < last || leaves(b, a, joins.component_at(1)))
            && keeps_clear((a, b), &path[i..=j], l, around)
            && !runs_back(path, (a, b), i, j)
    };
    for i in 0..last {
        for j in (i + 2..=last).rev() {
            let (a, b) = (path[i], path[j]);
            if aligned(a, b) && clear(a, b, i, j) {
                return Some(Shortcut::Between(i, j));
            }
        }
    }
    if let Some(group) = joins.groups[1] {
        for i in 0..last.saturating_sub(1) {
            let at = on_side(group, path[last - 1], path[last], path[i]);
            if let Some(at) = at.filter(|&at| clear(path[i], at, i, last)) {
                return Some(Shortcut::ToGroup(i, at));
            }
        }
    }
    if let Some(group) = joins.groups[0] {
        for j in (2..=last).rev() {
            let at = on_side(group, path[1], path[0], path[j]);
            if let Some(at) = at.filter(|&at| clear(at, path[j], 0, j)) {
                return Some(Shortcut::FromGroup(at, j));
            }
        }
    }
    None
}

/// Whether `a` and `b` lie on one line across or down.
fn aligned(a: Point, b: Point) -> bool {
    (a.0 - b.0).abs() < EPS || (a.1 - b.1).abs() < EPS
}

/// Where a straight piece from `from` meets the side of `group` that a line's piece from
/// `before` to `end` (on that side) meets, the same way: level with `from`, at least
/// [`FROM_CORNER`] from the side's corners; `None` when it cannot.
fn on_side(group: Rect, before: Point, end: Point, from: Point) -> Option<Point> {
    let way = (end.0 - before.0, end.1 - before.1);
    let (at, along, lo, hi) = if way.1.abs() < EPS && way.0.abs() > EPS {
        ((end.0, from.1), from.1, group.y0, group.y1)
    } else if way.0.abs() < EPS && way.1.abs() > EPS {
        ((from.0, end.1), from.0, group.x0, group.x1)
    } else {
        return None;
    };
    let same_way = (at.0 - from.0) * way.0 + (at.1 - from.1) * way.1 > EPS;
    let on_it = along >= lo + FROM_CORNER - EPS && along <= hi - FROM_CORNER + EPS;
    (same_way && on_it && at != end).then_some(at)
}

/// Whether a piece from a corner `at` of the component centred at `centre` toward `to` leaves
/// it (rather than running along its side); a piece from a group's border (no `centre`)
/// starts outside any component.
fn leaves(at: Point, to: Point, centre: Option<&Point>) -> bool {
    let Some(&(cx, cy)) = centre else {
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

/// Whether the straight piece `(a, b)` runs along no other line and no group's border, and
/// crosses no more of them than the points it replaces (`replaced`, from the first to
/// the last) do.
fn keeps_clear((a, b): (Point, Point), replaced: &[Point], l: usize, around: &Around) -> bool {
    let lines = (around.lines.iter().enumerate())
        .filter(|&(m, _)| m != l)
        .filter_map(|(_, line)| line.as_deref())
        .flat_map(|line| line.windows(2).map(|s| (s[0], s[1])));
    let mut pieces = Vec::new();
    for s in lines.chain(around.borders.iter().copied()) {
        if collinear_overlap(a, b, s.0, s.1, EPS) {
            return false;
        }
        pieces.push(s);
    }
    let (mut before, mut after) = (0, 0);
    for (c, d) in pieces {
        after += usize::from(crosses(a, b, c, d));
        before += (replaced.windows(2))
            .filter(|r| crosses(r[0], r[1], c, d))
            .count();
    }
    after <= before
}

/// Whether the straight piece `(a, b)` from `path[i]`'s place to `path[j]`'s would run back
/// along the pieces of its own line on either side of it.
fn runs_back(path: &[Point], (a, b): (Point, Point), i: usize, j: usize) -> bool {
    let before = i.checked_sub(1).map(|k| (path[k], path[i]));
    let after = path.get(j + 1).map(|&p| (path[j], p));
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

    /// A line tied to the components centred at `components` at both ends.
    fn tied(components: Vec<Point>) -> Joins {
        Joins {
            components,
            ..Joins::default()
        }
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
        straighten(&mut paths, &[tied(centres())], &[], &obstacles);
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
        straighten(
            &mut paths,
            &[tied(vec![(8.0, -1.0), (0.0, 0.0)])],
            &[],
            &obstacles,
        );
        assert_eq!(paths[0], Some(vec![(7.0, -1.0), (1.0, -1.0)]));
    }

    #[test]
    fn a_step_stays_where_the_straight_piece_is_not_clear() {
        let dip = dip();
        // A component in the way.
        let mut blocked = centres();
        blocked.push((0.0, -2.0));
        let mut paths = vec![Some(dip.clone())];
        straighten(
            &mut paths,
            &[tied(centres())],
            &[],
            &Obstacles::new(&blocked),
        );
        assert_eq!(paths[0].as_ref(), Some(&dip), "through a component");
        // The dip straightened beside another line (`other`).
        let obstacles = Obstacles::new(&centres());
        let beside = |other: Vec<Point>| {
            let mut paths = vec![Some(dip.clone()), Some(other)];
            let joins = [tied(centres()), Joins::default()];
            straighten(&mut paths, &joins, &[], &obstacles);
            paths.swap_remove(0)
        };
        // Another line along the straight piece.
        let along = vec![(-0.5, -1.0), (0.5, -1.0)];
        assert_eq!(beside(along).as_ref(), Some(&dip), "along another line");
        // A line the straight piece would cross and the step does not.
        let across = vec![(0.0, -3.0), (0.0, -0.75)];
        assert_eq!(beside(across).as_ref(), Some(&dip), "across another line");
    }

    #[test]
    fn a_piece_from_a_corner_never_runs_along_its_own_component() {
        // From the top-right corner of one to the top-right corner of its left neighbour, up
        // and over: straight, it would run along the first one's top.
        let obstacles = Obstacles::new(&[(0.0, 0.0), (-4.0, 0.0)]);
        let over = vec![(1.0, -1.0), (1.0, -2.0), (-3.0, -2.0), (-3.0, -1.0)];
        let mut paths = vec![Some(over.clone())];
        straighten(
            &mut paths,
            &[tied(vec![(0.0, 0.0), (-4.0, 0.0)])],
            &[],
            &obstacles,
        );
        assert_eq!(paths[0], Some(over));
    }

    #[test]
    fn a_line_into_a_group_meets_its_border_level_with_the_corner_it_leaves() {
        // Temporal's atomic transaction: State A's top-right corner to the group's left
        // border, down half a cell on the way to meet it at its middle.
        let obstacles = Obstacles::new(&[(-6.0, 0.0)]);
        let group = Rect {
            x0: 0.0,
            y0: -4.0,
            x1: 8.0,
            y1: 4.0,
        };
        let to_middle = vec![(-5.0, -1.0), (-3.0, -1.0), (-3.0, 0.0), (-0.5, 0.0)];
        let joins = Joins {
            components: vec![(-6.0, 0.0)],
            groups: [None, Some(group)],
            label_room: None,
        };
        let mut paths = vec![Some(to_middle.clone())];
        straighten(
            &mut paths,
            std::slice::from_ref(&joins),
            &[group],
            &obstacles,
        );
        assert_eq!(paths[0], Some(vec![(-5.0, -1.0), (-0.5, -1.0)]));
        // The same line out of the group, the other way.
        let from_middle: Vec<Point> = to_middle.iter().rev().copied().collect();
        let joins = Joins {
            groups: [Some(group), None],
            ..joins
        };
        let mut paths = vec![Some(from_middle)];
        straighten(&mut paths, &[joins], &[group], &obstacles);
        assert_eq!(paths[0], Some(vec![(-0.5, -1.0), (-5.0, -1.0)]));
        // Level with a corner of the group, it keeps to the middle.
        let short = Rect { y0: -1.25, ..group };
        let joins = Joins {
            components: vec![(-6.0, 0.0)],
            groups: [None, Some(short)],
            label_room: None,
        };
        let mut paths = vec![Some(to_middle.clone())];
        straighten(&mut paths, &[joins], &[group], &obstacles);
        assert_eq!(paths[0], Some(to_middle));
    }

    #[test]
    fn a_line_may_cross_the_room_kept_for_its_own_label_only() {
        // Temporal's worker commands: Dispatch to Control Queue went up and over the room
        // kept for its label "3" on the straight way.
        let room = Rect {
            x0: -1.0,
            y0: -1.5,
            x1: 1.0,
            y1: -0.5,
        };
        let mut obstacles = Obstacles::new(&centres());
        obstacles.block(room, false);
        let over = vec![
            (-3.0, -1.0),
            (-2.0, -1.0),
            (-2.0, -2.5),
            (2.0, -2.5),
            (2.0, -1.0),
            (3.0, -1.0),
        ];
        let mut paths = vec![Some(over.clone())];
        straighten(&mut paths, &[tied(centres())], &[], &obstacles);
        assert_eq!(paths[0].as_ref(), Some(&over), "another line's room");
        let own = Joins {
            label_room: Some(room),
            ..tied(centres())
        };
        straighten(&mut paths, &[own], &[], &obstacles);
        assert_eq!(paths[0], Some(vec![(-3.0, -1.0), (3.0, -1.0)]));
    }

    #[test]
    fn a_line_planned_round_a_group_does_not_cut_through_it() {
        // Mermaid's subgraph directions: `outside --> top` of another group ran round the
        // bottom of a group in between; straight, it would cross that group.
        let obstacles = Obstacles::new(&centres());
        let between = Rect {
            x0: -1.0,
            y0: -6.0,
            x1: 1.0,
            y1: -0.5,
        };
        let round = vec![
            (-3.0, -1.0),
            (-2.0, -1.0),
            (-2.0, 1.5),
            (2.0, 1.5),
            (2.0, -1.0),
            (3.0, -1.0),
        ];
        let mut paths = vec![Some(round.clone())];
        straighten(&mut paths, &[tied(centres())], &[between], &obstacles);
        assert_eq!(paths[0], Some(round));
    }
}
