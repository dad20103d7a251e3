//! Where lines meet a component, in its container's frame (across and along the flow). Line
//! anchors tie only to a footprint's four corners, and lines that leave one corner the same way
//! would be drawn on top of each other; so each line gets a slot of its own: from the corner
//! straight on (slot 0), or by a short slanted piece to a point beside the footprint, then
//! outwards on a track of its own (slots 1, 2). On the side where the component's name lies
//! (below it on the page), slot 0 runs along the name's border to the item's edge. The lines of
//! one side are split between its two corners and nested, so that they do not cross; past the
//! slots a corner has, lines share its outermost one.

use crate::geometry::COMPONENT_SIDE;
use crate::model::Direction;

/// Which side of an item a line meets it by: towards the next layer (out) or the layer
/// before (in).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Side {
    In,
    Out,
}

/// A line's slot at an item: at the corner low or high across the flow, and which one (at a
/// group, the line's place among the `of` lines meeting that side, which are spread across it,
/// unless it runs straight in to a member).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub(crate) struct Slot {
    pub high: bool,
    pub k: usize,
    pub of: usize,
    /// At a group, the place across where the line runs in to its member, if it has one.
    pub at: Option<f64>,
    /// At a group, the member (a component) the line runs in to, when `high` and `k` are the
    /// line's slot at the member (its [`Footprint`]'s).
    pub member: Option<usize>,
}

/// The distance between neighbouring slots' tracks.
const STEP: f64 = 0.5;

/// The items of a container's layers, as far as ports need them.
pub(crate) struct Ports<'a> {
    pub direction: Direction,
    pub left: &'a [f64],
    pub breadth: &'a [f64],
    /// How many nodes are real (the others are long links' bends).
    pub real: usize,
    pub is_group: &'a [bool],
}

/// Levels beside a footprint, between its two corners along the flow, where slanted slots end:
/// shared by the lines in (from one end) and out (from the other).
const LEVELS: usize = 3;

/// How many lines meet a component on each side.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Demand {
    pub lines_in: usize,
    pub lines_out: usize,
}

/// How `m` lines on one side are split between the low and the high corner (one line: either).
fn split(direction: Direction, m: usize) -> (usize, usize) {
    match m {
        0 => (0, 0),
        1 => (1, 1),
        _ if direction.is_horizontal() => (m - 1, 1),
        _ => (m.div_ceil(2), m / 2),
    }
}

/// The most slot a corner has on a side (slots `0..=cap`): `(low corner, high corner)`. The
/// levels beside the footprint are shared between the two sides, the lines out first; across a
/// horizontal flow the name lies past the high corner, which has its straight slot only.
pub(crate) fn caps(direction: Direction, side: Side, demand: Demand) -> (usize, usize) {
    let (ins, outs) = (
        split(direction, demand.lines_in),
        split(direction, demand.lines_out),
    );
    let corner = |want_in: usize, want_out: usize| {
        let (want_in, want_out) = (want_in.saturating_sub(1), want_out.saturating_sub(1));
        let out = want_out.min(LEVELS - want_in.min(1));
        let inn = want_in.min(LEVELS - out);
        if side == Side::Out { out } else { inn }
    };
    let low = corner(ins.0, outs.0);
    if direction.is_horizontal() {
        (low, 0)
    } else {
        (low, corner(ins.1, outs.1))
    }
}

/// Whether a component's name lies on this side of it along the flow (below it on the page).
pub(crate) fn name_side(direction: Direction, side: Side) -> bool {
    match direction {
        Direction::TopBottom => side == Side::Out,
        Direction::BottomTop => side == Side::In,
        Direction::LeftRight | Direction::RightLeft => false,
    }
}

/// The slots of `m` lines meeting one side of a group, given the across positions of their
/// other ends: spread across it in the order of their other ends.
pub(crate) fn group_slots(others: &[f64]) -> Vec<Slot> {
    let m = others.len();
    let mut out = vec![Slot::default(); m];
    for (rank, i) in sorted(others).into_iter().enumerate() {
        out[i] = Slot {
            k: rank,
            of: m,
            ..Slot::default()
        };
    }
    out
}

/// The indices of `values`, ascending by value.
fn sorted(values: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    order
}

/// The slots of `m` lines meeting one side of a component, given the across positions of their
/// other ends (in any order), in that order. `middle` is where the component's two corners
/// divide across the flow.
pub(crate) fn slots(
    direction: Direction,
    side: Side,
    others: &[f64],
    middle: f64,
    demand: Demand,
) -> Vec<Slot> {
    let m = others.len();
    let (low_cap, high_cap) = caps(direction, side, demand);
    let order = sorted(others);
    let lows = if m == 1 {
        usize::from(others[0] < middle)
    } else if direction.is_horizontal() {
        m - 1
    } else {
        m.div_ceil(2)
    };
    let mut out = vec![Slot::default(); m];
    for (rank, &i) in order.iter().enumerate() {
        out[i] = if rank < lows {
            Slot {
                k: (lows - 1 - rank).min(low_cap),
                of: m,
                ..Slot::default()
            }
        } else {
            Slot {
                high: true,
                k: (rank - lows).min(high_cap),
                of: m,
                ..Slot::default()
            }
        };
    }
    out
}

/// How far the slots of the lines meeting a component reach out of it across the flow:
/// `(low, high)`, for the gaps beside it.
pub(crate) fn reach(direction: Direction, demand: Demand) -> (f64, f64) {
    let mut out = (0.0f64, 0.0f64);
    for (side, m) in [(Side::In, demand.lines_in), (Side::Out, demand.lines_out)] {
        if m < 2 {
            continue;
        }
        let (low_cap, high_cap) = caps(direction, side, demand);
        let (lows, highs) = split(direction, m);
        out.0 = out.0.max(STEP * (lows - 1).min(low_cap) as f64);
        out.1 = out
            .1
            .max(STEP * highs.saturating_sub(1).min(high_cap) as f64);
    }
    out
}

impl Ports<'_> {
    /// The middle of a node across the flow.
    pub(crate) fn centre(&self, v: usize) -> f64 {
        if v >= self.real {
            self.left[v]
        } else {
            self.left[v] + self.breadth[v] / 2.0
        }
    }

    /// Where a component's two corners divide across the flow.
    pub(crate) fn middle(&self, v: usize) -> f64 {
        if self.direction.is_horizontal() {
            self.left[v] + COMPONENT_SIDE / 2.0
        } else {
            self.centre(v)
        }
    }

    /// Whether node `v` is a component (not a long link's bend nor a group).
    pub(crate) fn is_component(&self, v: usize) -> bool {
        v < self.real && !self.is_group[v]
    }

    /// A component's footprint and name across the flow, and its footprint along it, for an
    /// item `depth` long from `along`.
    fn footprint(&self, v: usize, along: f64, depth: f64) -> Footprint {
        let corner_low = if self.direction.is_horizontal() {
            self.left[v]
        } else {
            self.centre(v) - COMPONENT_SIDE / 2.0
        };
        let start = match self.direction {
            Direction::TopBottom => along,
            Direction::BottomTop => along + depth - COMPONENT_SIDE,
            Direction::LeftRight | Direction::RightLeft => {
                along + depth / 2.0 - COMPONENT_SIDE / 2.0
            }
        };
        Footprint {
            corner_low,
            item: (self.left[v], self.left[v] + self.breadth[v]),
            start,
        }
    }

    /// Where the line in `slot` of node `v`'s `side` runs along the flow, across.
    pub(crate) fn across(&self, v: usize, side: Side, slot: Slot) -> f64 {
        if v >= self.real {
            return self.left[v];
        }
        if self.is_group[v] {
            if let Some(at) = slot.at {
                return at;
            }
            let share = self.breadth[v] * (slot.k + 1) as f64 / (slot.of + 1) as f64;
            return crate::geometry::round_half(self.left[v] + share);
        }
        self.footprint(v, 0.0, 0.0)
            .track(self.direction, side, slot)
    }

    /// The points a line in `slot` takes between the footprint's corner and where it runs
    /// along the flow, from the corner out, for an item `depth` long from `along`.
    pub(crate) fn stub(
        &self,
        v: usize,
        side: Side,
        slot: Slot,
        along: f64,
        depth: f64,
    ) -> Vec<(f64, f64)> {
        if !self.is_component(v) {
            return Vec::new();
        }
        (self.footprint(v, along, depth)).stub(self.direction, side, slot)
    }
}

/// Where a component's footprint lies in its container's frame, as its lines need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Footprint {
    /// Its low corners' place across the flow.
    pub corner_low: f64,
    /// The low and high edges of the component with its name, across the flow.
    pub item: (f64, f64),
    /// Where it starts along the flow.
    pub start: f64,
}

impl Footprint {
    /// The footprint of a component whose middle lies at `across`, `along`, its name
    /// `breadth` wide.
    pub(crate) fn around(across: f64, along: f64, breadth: f64) -> Footprint {
        let half = breadth.max(COMPONENT_SIDE) / 2.0;
        Footprint {
            corner_low: across - COMPONENT_SIDE / 2.0,
            item: (across - half, across + half),
            start: along - COMPONENT_SIDE / 2.0,
        }
    }

    /// The corner's place across the flow.
    fn corner(&self, slot: Slot) -> f64 {
        if slot.high {
            self.corner_low + COMPONENT_SIDE
        } else {
            self.corner_low
        }
    }

    /// Where the line in `slot` of this `side` runs along the flow, across: straight on from
    /// the corner, or beside it (on the name's side, beside the name).
    pub(crate) fn track(&self, direction: Direction, side: Side, slot: Slot) -> f64 {
        let outward = if slot.high { STEP } else { -STEP };
        let base = if name_side(direction, side) {
            if slot.high { self.item.1 } else { self.item.0 }
        } else {
            self.corner(slot)
        };
        base + outward * slot.k as f64
    }

    /// The points a line in `slot` takes between the corner and where it runs along the flow,
    /// from the corner out.
    pub(crate) fn stub(&self, direction: Direction, side: Side, slot: Slot) -> Vec<(f64, f64)> {
        // The footprint's edge on this side, and the way back into its band.
        let (edge, back) = match side {
            Side::Out => (self.start + COMPONENT_SIDE, -STEP),
            Side::In => (self.start, STEP),
        };
        let corner = self.corner(slot);
        let track = self.track(direction, side, slot);
        if slot.k == 0 {
            return vec![(corner, edge), (track, edge)];
        }
        let outward = if slot.high { STEP } else { -STEP };
        let level = edge + back * slot.k as f64;
        vec![(corner, edge), (corner + outward, level), (track, level)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_side_split_between_the_corners_nested() {
        // Four lines leaving the bottom of a component in a top-down flow: the two leftmost
        // targets at the low corner, the leftmost outermost.
        let demand = Demand {
            lines_in: 1,
            lines_out: 4,
        };
        let s = slots(
            Direction::TopBottom,
            Side::Out,
            &[9.0, -5.0, 1.0, -9.0],
            0.0,
            demand,
        );
        let at = |s: &Slot| (s.high, s.k);
        assert_eq!(
            s.iter().map(at).collect::<Vec<_>>(),
            vec![(true, 1), (false, 0), (true, 0), (false, 1)]
        );
    }

    #[test]
    fn one_line_takes_the_corner_on_its_side_and_many_share_the_last_slot() {
        let one = Demand {
            lines_in: 1,
            lines_out: 0,
        };
        let s = slots(Direction::TopBottom, Side::In, &[-3.0], 0.0, one);
        assert_eq!((s[0].high, s[0].k), (false, 0));
        // Twelve lines in and as many out: each corner's levels go to the lines out first,
        // one to the lines in.
        let busy = Demand {
            lines_in: 12,
            lines_out: 12,
        };
        let others: Vec<f64> = (0..12).map(f64::from).collect();
        let s = slots(Direction::TopBottom, Side::In, &others, 0.0, busy);
        assert_eq!(s.iter().filter(|s| !s.high).map(|s| s.k).max(), Some(1));
        let s = slots(Direction::TopBottom, Side::Out, &others, 0.0, busy);
        assert_eq!(s.iter().filter(|s| !s.high).map(|s| s.k).max(), Some(2));
    }

    #[test]
    fn slots_reach_out_as_far_as_their_tracks() {
        let demand = |lines_in, lines_out| Demand {
            lines_in,
            lines_out,
        };
        assert_eq!(reach(Direction::TopBottom, demand(1, 1)), (0.0, 0.0));
        assert_eq!(reach(Direction::TopBottom, demand(0, 5)), (1.0, 0.5));
        assert_eq!(reach(Direction::TopBottom, demand(0, 9)), (1.5, 1.5));
        assert_eq!(reach(Direction::LeftRight, demand(4, 0)), (1.0, 0.0));
    }
}
