//! Where a link's label goes once every line is routed: on the room its layer kept for it, or
//! beside its own line (right or left of a vertical piece, above or below a horizontal one),
//! on the grid and over no box taken. Of those places, crossed by no line, the first whose own
//! line passes nearer its centre than any other by [`CLEAR`] is taken, else the one whose own
//! line is nearest by the most; failing that, the first free place, else the middle of the
//! longest piece.

use crate::geometry::{Rect, distance_to_path, round_half, segment_meets};
use crate::place::GRID;
use crate::route::Point;

/// How much nearer a label's own line passes than any other for the label to read as its
/// own at a glance, in cells: the first place beside the line that clears this is taken, else
/// the clearest.
const CLEAR: f64 = 1.0;

/// Every routed line of the diagram, by link (`None` for one not drawn).
pub(crate) struct Lines<'a>(pub &'a [Option<Vec<Point>>]);

impl Lines<'_> {
    /// How clearly `r`, a label of link `own`, reads as that link's: how much nearer its
    /// centre its own line passes than the nearest other line; `None` when a line crosses it.
    fn clearance(&self, r: &Rect, own: usize) -> Option<f64> {
        let centre = r.centre();
        let near = distance_to_path(centre, self.0[own].as_deref()?);
        // Touching its edge is not crossing it: a line beside a label may run along its box.
        let inner = r.inset(0.01);
        let mut clearance = f64::INFINITY;
        for (l, line) in self.0.iter().enumerate() {
            let Some(line) = line else { continue };
            if line.windows(2).any(|s| segment_meets(s[0], s[1], &inner)) {
                return None;
            }
            if l != own {
                clearance = clearance.min(distance_to_path(centre, line) - near);
            }
        }
        Some(clearance)
    }

    /// Where the label (`w` × `h`) of link `own`, whose line runs along `path`, goes: `spot`
    /// (the room its layer kept) or a place beside the line, clear of `taken`, as the module
    /// says.
    pub(crate) fn place(
        &self,
        own: usize,
        path: &[Point],
        (w, h): (f64, f64),
        spot: Option<Rect>,
        taken: &[Rect],
    ) -> Rect {
        let free = |r: &Rect| GRID.contains(r) && !taken.iter().any(|t| t.overlaps(r));
        let places: Vec<Rect> = spot
            .into_iter()
            .chain(beside(path, w, h))
            .filter(|r| free(r))
            .collect();
        // The first place clear by [`CLEAR`] ends the search; else the clearest one seen (the
        // last of equals).
        let mut best: Option<(Rect, f64)> = None;
        for r in &places {
            let Some(c) = self.clearance(r, own).filter(|&c| c > 0.01) else {
                continue;
            };
            if c >= CLEAR {
                return *r;
            }
            if best.is_none_or(|(_, b)| c >= b) {
                best = Some((*r, c));
            }
        }
        (best.map(|(r, _)| r))
            .or(places.first().copied())
            .unwrap_or_else(|| {
                let m = middle_of_longest(path);
                Rect::centred(m.0, m.1, w, h)
            })
    }
}

/// The boxes of `w` × `h` beside a path, on half cells: the longest pieces first, their
/// middles first.
fn beside(path: &[Point], w: f64, h: f64) -> impl Iterator<Item = Rect> {
    let mut pieces: Vec<(Point, Point)> = path.windows(2).map(|p| (p[0], p[1])).collect();
    let length = |(a, b): &(Point, Point)| (a.0 - b.0).abs() + (a.1 - b.1).abs();
    pieces.sort_by(|p, q| length(q).total_cmp(&length(p)));
    pieces.into_iter().flat_map(move |(a, b)| {
        [0.5, 0.3, 0.7, 0.15, 0.85].into_iter().flat_map(move |t| {
            let p = (
                round_half(a.0 + (b.0 - a.0) * t),
                round_half(a.1 + (b.1 - a.1) * t),
            );
            if a.0 == b.0 {
                [
                    Rect::centred(p.0 + 0.5 + w / 2.0, p.1, w, h),
                    Rect::centred(p.0 - 0.5 - w / 2.0, p.1, w, h),
                ]
            } else {
                [
                    Rect::centred(p.0, p.1 - h / 2.0, w, h),
                    Rect::centred(p.0, p.1 + h / 2.0, w, h),
                ]
            }
        })
    })
}

/// The half-cell point in the middle of a path's longest segment.
pub(crate) fn middle_of_longest(path: &[Point]) -> Point {
    let (a, b) = path
        .windows(2)
        .map(|w| (w[0], w[1]))
        .max_by(|(a, b), (c, d)| {
            let l = |p: Point, q: Point| (p.0 - q.0).abs() + (p.1 - q.1).abs();
            l(*a, *b).total_cmp(&l(*c, *d))
        })
        .unwrap_or((path[0], path[0]));
    ((a.0 + b.0).round() / 2.0, (a.1 + b.1).round() / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_goes_where_no_other_line_is_nearer() {
        // Its own line runs down at x = 0; another turns just right of its middle.
        let own = vec![(0.0, -6.0), (0.0, 6.0)];
        let other = vec![(-4.0, 1.5), (2.0, 1.5), (2.0, 8.0)];
        let lines = [Some(own.clone()), Some(other)];
        let r = Lines(&lines).place(0, &own, (3.0, 1.0), None, &[]);
        let centre = r.centre();
        let mine = distance_to_path(centre, &own);
        let theirs = distance_to_path(centre, lines[1].as_ref().unwrap());
        assert!(mine < theirs, "{r:?}: {mine} against {theirs}");
        assert!(!segment_meets((-4.0, 1.5), (2.0, 1.5), &r), "{r:?}");
        // The middle (0, 0), right of the line, is nearer the other line's turn: another
        // place along the line is taken.
        assert_ne!(r, Rect::centred(2.0, 0.0, 3.0, 1.0));
    }

    #[test]
    fn a_kept_spot_is_left_when_another_line_crosses_it() {
        let own = vec![(0.0, -6.0), (0.0, 6.0)];
        let crossing = vec![(-1.0, -4.0), (6.0, -4.0)];
        let lines = [Some(own.clone()), Some(crossing)];
        let spot = Rect::centred(2.0, -4.0, 3.0, 1.0);
        let r = Lines(&lines).place(0, &own, (3.0, 1.0), Some(spot), &[]);
        assert_ne!(r, spot);
        // Where no place reads as its own (a second line on top of it), the first free one.
        let lines = [Some(own.clone()), Some(own.clone())];
        assert_eq!(
            Lines(&lines).place(0, &own, (3.0, 1.0), Some(spot), &[]),
            spot
        );
    }
}
