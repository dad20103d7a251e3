//! The lines that run to a member of a group item: which member each meets, where members
//! lie in their container's frame, and the lines' slots there, as a component's own lines get
//! theirs ([`Footprint`]).

use std::collections::BTreeMap;

use crate::layered::ports::{Demand, Footprint, Ports, Side, Slot, name_side, slots};
use crate::model::{Direction, End, Model};
use crate::place::{Block, component_block};

/// A container's lines, as finding the members they run to needs them.
pub(in crate::layered) struct Lines<'a> {
    /// The model laid out.
    pub model: &'a Model,
    /// The container's direction.
    pub direction: Direction,
    /// Per item: whether it is an inner group.
    pub is_group: &'a [bool],
    /// Per edge: its link.
    pub links: Vec<usize>,
    /// Per edge: whether it was turned to run with the flow.
    pub reversed: &'a [bool],
    /// Per edge: its nodes from its upper end down.
    pub routes: &'a [Vec<usize>],
    /// Where the items lie.
    pub ports: &'a Ports<'a>,
    /// Per component: whether a link joins it to another component of its own group.
    pub linked_inside: &'a [bool],
    /// Per edge, at each end (upper, lower): where it crosses the border of a group item that
    /// planned it inside, if one did (it runs to no member here).
    pub ported: Vec<[Option<f64>; 2]>,
}

impl Lines<'_> {
    /// Per edge, at each end (upper, lower) that is a group item: the member the line runs to
    /// there, and where its middle lies across the flow.
    pub(in crate::layered) fn group_members(&self, blocks: &[Block]) -> Members {
        let mut member: Members = vec![[None; 2]; self.routes.len()];
        for (e, r) in self.routes.iter().enumerate() {
            let link = &self.model.links[self.links[e]];
            let (upper_end, lower_end) = if self.reversed[e] {
                (link.to, link.from)
            } else {
                (link.from, link.to)
            };
            for (k, v, end) in [(0, r[0], upper_end), (1, r[r.len() - 1], lower_end)] {
                if self.is_group.get(v) != Some(&true) || self.ported[e][k].is_some() {
                    continue;
                }
                let End::Component(c) = end else { continue };
                if let Some(&(_, x, y)) = blocks[v].components.iter().find(|m| m.0 == c) {
                    let across = if self.direction.is_horizontal() { y } else { x };
                    member[e][k] = Some((c, self.ports.left[v] + across));
                }
            }
        }
        member
    }

    /// The slots of the lines that run to members of group items. They meet a member as lines
    /// meet a component of this container, split between its two corners on that side and
    /// nested, the second at a corner running in beside the footprint and ending on a slanted
    /// piece to the corner; but on the side its name lies, or where lines inside its group meet
    /// it too (their slots are not known here), a line runs straight in at the member's corner
    /// nearest its other end, where no other line of that side of the group does (the others
    /// keep their place spread across the group's side).
    pub(in crate::layered) fn member_slots(&self, member: &Members, slot_at: &mut [[Slot; 2]]) {
        let direction = self.direction;
        let mut at_member: BTreeMap<(usize, usize, usize), Vec<(usize, f64)>> = BTreeMap::new();
        for (e, r) in self.routes.iter().enumerate() {
            for (k, v, toward) in [(0, r[0], r[1]), (1, r[r.len() - 1], r[r.len() - 2])] {
                if let Some((c, _)) = member[e][k] {
                    let other = self.other_end(member, e, 1 - k, toward);
                    at_member.entry((v, k, c)).or_default().push((e, other));
                }
            }
        }
        let mut taken: Vec<Vec<f64>> = vec![Vec::new(); 2 * self.is_group.len()];
        for (&(v, k, c), lines) in &at_member {
            let side = if k == 0 { Side::Out } else { Side::In };
            let centre = member[lines[0].0][k].map_or(0.0, |(_, across)| across);
            if name_side(direction, side) || self.linked_inside[c] {
                let half = crate::geometry::COMPONENT_SIDE / 2.0;
                for &(e, other) in lines {
                    let corner = if other < centre {
                        centre - half
                    } else {
                        centre + half
                    };
                    if !taken[2 * v + k].contains(&corner) {
                        taken[2 * v + k].push(corner);
                        slot_at[e][k].at = Some(corner);
                    }
                }
                continue;
            }
            let count = |k: usize| at_member.get(&(v, k, c)).map_or(0, Vec::len);
            let demand = Demand {
                lines_in: count(1),
                lines_out: count(0),
            };
            let others: Vec<f64> = lines.iter().map(|&(_, o)| o).collect();
            let got = slots(direction, side, &others, centre, demand);
            let footprint = member_footprint(self.model, c, centre, 0.0);
            for (&(e, _), mut slot) in lines.iter().zip(got) {
                // The group's padding keeps a slot's room beside the member, not more.
                slot.k = slot.k.min(1);
                slot.at = Some(footprint.track(direction, side, slot));
                slot.member = Some(c);
                slot_at[e][k] = slot;
            }
        }
    }

    /// Where node `w`, end `k` of edge `e` or a bend of it, lies across the flow: a member's
    /// middle if the edge runs to one there.
    pub(in crate::layered) fn other_end(
        &self,
        member: &Members,
        e: usize,
        k: usize,
        w: usize,
    ) -> f64 {
        let route = &self.routes[e];
        let at_end = w == route[k * (route.len() - 1)];
        let ported = self.ported[e][k].filter(|_| at_end);
        let member = member[e][k].filter(|_| at_end).map(|(_, across)| across);
        ported.or(member).unwrap_or(self.ports.centre(w))
    }
}

/// The footprint of component `c` of `model`, a member of a group item, its middle at
/// `across` and `along` in its container's frame.
fn member_footprint(model: &Model, c: usize, across: f64, along: f64) -> Footprint {
    Footprint::around(across, along, component_block(model, c).w)
}

/// The points a line in `slot` at a member of a group item takes between the member's corner
/// and where it runs along the flow, from the corner out, as a component's own lines do; none
/// for a line that does not end at a member (`members`: where each lies, [`member_places`]).
pub(in crate::layered) fn member_stub(
    model: &Model,
    direction: Direction,
    side: Side,
    slot: Slot,
    members: &BTreeMap<usize, (f64, f64)>,
) -> Vec<(f64, f64)> {
    let Some(c) = slot.member else {
        return Vec::new();
    };
    let Some(&(across, along)) = members.get(&c) else {
        return Vec::new();
    };
    member_footprint(model, c, across, along).stub(direction, side, slot)
}

/// Where each component of the items `blocks` lies in their container's frame: its middle
/// across and along the flow (`left` and `along`: each item's place, `depth`: its length
/// along the flow).
pub(in crate::layered) fn member_places(
    direction: Direction,
    blocks: &[Block],
    left: &[f64],
    depth: &[f64],
    along: &[f64],
) -> BTreeMap<usize, (f64, f64)> {
    let mut places = BTreeMap::new();
    for (i, b) in blocks.iter().enumerate() {
        for &(c, x, y) in &b.components {
            let (across, inside) = match direction {
                Direction::TopBottom => (x, y),
                Direction::BottomTop => (x, depth[i] - y),
                Direction::LeftRight => (y, x),
                Direction::RightLeft => (y, depth[i] - x),
            };
            places.insert(c, (left[i] + across, along[i] + inside));
        }
    }
    places
}

/// Per edge, at each end (upper, lower): the group item's member the line runs to there, and
/// where its middle lies across the flow.
pub(in crate::layered) type Members = Vec<[Option<(usize, f64)>; 2]>;
