//! The lines that cross a group's border: the group plans their way inside, from a port on
//! its border (a node of its own in a layer before the first, or after the last, pinned in the
//! order of where the lines run on outside), on dummies beside its own items, so that they
//! take their place in its layers' order as dot's lines into a cluster do. The container the
//! group is an item of runs the line to that port, and the container joining the line's two
//! ends puts the pieces together (`place::stitched`). Only where the group's flow runs as its
//! container's: a group turned across has its lines run in to its members as before.

use crate::layered::layers::Span;
use crate::layered::ports::{Ports, Side};
use crate::model::Direction;
use crate::place::{Block, Leg};
use crate::route::Point;

use super::{ItemEdge, Layered, Layout};

/// A line crossing the border of the container laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Crossing {
    /// The link.
    pub link: usize,
    /// The side it crosses: `In` from upstream, `Out` downstream.
    pub side: Side,
    /// Where it runs on outside, as an order across the flow among the group's lines on that
    /// side (once the container round it has its layers' order).
    pub hint: Option<f64>,
}

/// A line crossing the border of the container laid out, and the item inside it holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Through {
    /// The link.
    pub link: usize,
    /// The side of the container it crosses.
    pub side: Side,
    /// The item of the container its end inside lies in.
    pub item: usize,
    /// Whether that end is the link's `from` end.
    pub at_from: bool,
    /// Its [`Crossing::hint`].
    pub hint: Option<f64>,
}

/// The lines crossing the border of group item `item` of a container flowing `direction`,
/// with the side of the group each crosses: each edge of the container at the item (its
/// upper end leaves by the group's `Out` side), and each line crossing the container's own
/// border to it (by the same side). None when the group flows another way (`inner`).
pub(crate) fn handed(
    item: usize,
    inner: Direction,
    direction: Direction,
    edges: &[ItemEdge],
    reversed: &[bool],
    through: &[Through],
) -> Vec<Crossing> {
    if inner != direction {
        return Vec::new();
    }
    let from_edges = edges.iter().zip(reversed).filter_map(|(edge, &r)| {
        let upper = if r { edge.to } else { edge.from };
        let lower = if r { edge.from } else { edge.to };
        let side = if upper == item {
            Side::Out
        } else if lower == item {
            Side::In
        } else {
            return None;
        };
        Some(Crossing {
            link: edge.link,
            side,
            hint: None,
        })
    });
    let from_border = through.iter().filter(|t| t.item == item).map(|t| Crossing {
        link: t.link,
        side: t.side,
        hint: None,
    });
    from_edges.chain(from_border).collect()
}

/// The lines crossing a container's border, as edges of its layers.
pub(crate) struct BorderLines {
    /// The lines, upstream ones first, each in the order of its hint.
    pub chained: Vec<Through>,
    /// Per line, an edge from its port node to its item, or back: the `k`th line's port is
    /// node `n + k`, after the `n` items.
    pub edges: Vec<ItemEdge>,
    /// Whether the hints order the upstream ports whole, and the downstream ones.
    pub pinned: (bool, bool),
    /// Whether the first layer holds upstream ports, and the last downstream ones.
    pub port_layers: (bool, bool),
}

/// The lines of `through` crossing the border of a container of `n` items, each with a port
/// node of its own, upstream ports in a layer before the first, downstream ones after the
/// last (`rank`, each item's layer, moved on and given the ports').
pub(crate) fn border_lines(n: usize, through: &[Through], rank: &mut Vec<usize>) -> BorderLines {
    let mut chained = through.to_vec();
    chained.sort_by(|a, b| {
        let key = |t: &Through| (t.side == Side::Out, t.hint.unwrap_or(f64::INFINITY));
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
    });
    let on = |side: Side| chained.iter().filter(move |t| t.side == side);
    let hinted = |side: Side| on(side).next().is_some() && on(side).all(|t| t.hint.is_some());
    let pinned = (hinted(Side::In), hinted(Side::Out));
    let port_layers = (
        on(Side::In).next().is_some(),
        on(Side::Out).next().is_some(),
    );
    let upstream = port_layers.0;
    let last = rank.iter().copied().max().unwrap_or(0) + usize::from(upstream);
    if upstream {
        rank.iter_mut().for_each(|r| *r += 1);
    }
    let edges = (chained.iter().enumerate())
        .map(|(k, t)| {
            let port = n + k;
            let (from, to, r) = match t.side {
                Side::In => (port, t.item, 0),
                Side::Out => (t.item, port, last + 1),
            };
            rank.push(r);
            ItemEdge {
                from,
                to,
                link: t.link,
                min_length: 1,
                label: None,
            }
        })
        .collect();
    BorderLines {
        chained,
        edges,
        pinned,
        port_layers,
    }
}

/// Whether a group's ports (`ports`: each line's link and where it crosses the border) lie,
/// on each side, in the order of their lines' hints (`lines`), where the hints order the
/// side whole; a side they do not order is in order as it is.
pub(crate) fn in_order(ports: &[(usize, f64)], lines: &[Crossing]) -> bool {
    [Side::In, Side::Out].into_iter().all(|side| {
        let on_side: Vec<&Crossing> = lines.iter().filter(|c| c.side == side).collect();
        let Some(hints) = on_side.iter().map(|c| c.hint).collect::<Option<Vec<f64>>>() else {
            return true;
        };
        let at = |link: usize| ports.iter().find(|p| p.0 == link).map(|p| p.1);
        // The ports there are (a line to the group itself has none), by their lines' hints.
        let mut by_hint: Vec<(f64, f64)> = (hints.into_iter())
            .zip(on_side.iter().map(|c| at(c.link)))
            .filter_map(|(hint, port)| Some((hint, port?)))
            .collect();
        by_hint.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Along the border as the hints go (ties in either order).
        by_hint
            .windows(2)
            .all(|w| w[0].1 <= w[1].1 || w[0].0 == w[1].0)
    })
}

/// Keeps line `line`'s points inside `container` (`points`, crossing its border at `border`
/// across its flow) as a leg, and the port it crosses at.
pub(crate) fn keep_leg(
    block: &mut Block,
    container: Option<usize>,
    line: Through,
    border: f64,
    points: Vec<Point>,
) {
    let Some(group) = container else {
        return;
    };
    block.ports.push((line.link, border));
    block.legs.push(Leg {
        link: line.link,
        group,
        upstream: line.side == Side::In,
        at_from: line.at_from,
        points,
    });
}

/// Group `g`'s own lines laid out inside it (`legs` whose `group` is `g`), run on to the
/// group's border (`w` × `h`, flowing `direction`) once the group's block is made round
/// them; and the `ports` they cross it at, moved by the group's padding (`dx`, `dy`).
pub(crate) fn to_border(
    g: usize,
    direction: Direction,
    legs: &mut [Leg],
    ports: Vec<(usize, f64)>,
    (dx, dy): (f64, f64),
    (w, h): (f64, f64),
) -> Vec<(usize, f64)> {
    for leg in legs.iter_mut().filter(|leg| leg.group == g) {
        if leg.upstream {
            let border = border_point(direction, true, leg.points[0], (w, h));
            leg.points.insert(0, border);
        } else {
            let last = leg.points[leg.points.len() - 1];
            leg.points
                .push(border_point(direction, false, last, (w, h)));
        }
    }
    let shift = if direction.is_horizontal() { dy } else { dx };
    ports
        .into_iter()
        .map(|(link, across)| (link, across + shift))
        .collect()
}

/// The point of a block's border (`w` × `h`, flowing `direction`) straight up- or downstream
/// of `at`.
fn border_point(direction: Direction, upstream: bool, at: Point, (w, h): (f64, f64)) -> Point {
    let start = upstream;
    match direction {
        Direction::TopBottom => (at.0, if start { 0.0 } else { h }),
        Direction::BottomTop => (at.0, if start { h } else { 0.0 }),
        Direction::LeftRight => (if start { 0.0 } else { w }, at.1),
        Direction::RightLeft => (if start { w } else { 0.0 }, at.1),
    }
}

/// Item `v`'s block, when it is a group (`is_group`), and where `link`'s line crosses its
/// border, across the flow from the block's corner, when the group planned it.
fn port_of<'b>(
    blocks: &'b [Block],
    is_group: &[bool],
    v: usize,
    link: usize,
) -> Option<(&'b Block, f64)> {
    let block = blocks.get(v).filter(|_| is_group[v])?;
    let &(_, across) = block.ports.iter().find(|p| p.0 == link)?;
    Some((block, across))
}

/// Per edge of `layered`, at each end (upper, lower) that is a group item which planned the
/// line inside it: where the line crosses the item's border, across the container's flow
/// (`ports`: where the items lie).
pub(crate) fn ported(layered: &Layered, blocks: &[Block], ports: &Ports) -> Vec<[Option<f64>; 2]> {
    let port_of = |v: usize, link: usize| {
        let (_, across) = port_of(blocks, &layered.is_group, v, link)?;
        Some(ports.left[v] + across)
    };
    (layered.routes.iter().zip(&layered.edges))
        .map(|(r, edge)| [port_of(r[0], edge.link), port_of(r[r.len() - 1], edge.link)])
        .collect()
}

/// How much of a place in its layer a group's ports spread over, in the order of the layers
/// (under one, so that they stay inside the group's own place).
const PORT_SPREAD: f64 = 0.9;

/// Per edge (`spans`: upper and lower end; `edges`: its link), where it meets each end for
/// the order of the layers (the `ends` of
/// [`Proper::sharing`](crate::layered::order::Proper::sharing)): at a group item's port for
/// its line, by the port's place among the group's (only their order counts), else in the
/// middle. None at all without `blocks` (the groups' ports not in order yet).
pub(crate) fn port_ends(
    blocks: Option<&[Block]>,
    is_group: &[bool],
    spans: &[Span],
    edges: &[ItemEdge],
) -> Vec<(f64, f64)> {
    let Some(blocks) = blocks else {
        return Vec::new();
    };
    let port_at = |v: usize, link: usize| {
        let (block, across) = port_of(blocks, is_group, v, link)?;
        let before = block.ports.iter().filter(|p| p.1 < across).count();
        let place = (before as f64 + 0.5) / block.ports.len() as f64;
        Some(PORT_SPREAD * (place - 0.5))
    };
    (spans.iter().zip(edges))
        .map(|(&(a, b, _), e)| {
            let at = |v| port_at(v, e.link).unwrap_or(0.0);
            (at(a), at(b))
        })
        .collect()
}

/// Whether channel `c` of `channels` runs between a port layer and its neighbour (it takes
/// no room: the lines there are not drawn), given whether the first and the last layer hold
/// ports.
pub(crate) fn port_channels(
    (upstream, downstream): (bool, bool),
    channels: usize,
) -> impl Fn(usize) -> bool {
    move |c| (upstream && c == 0) || (downstream && c + 1 == channels)
}

impl Layout<'_> {
    /// The lines of `crossing` (crossing `container`'s border), each with the item of the
    /// container (its components `comps`, then its inner groups `groups`) that holds its end
    /// inside.
    pub(super) fn through(
        &self,
        container: Option<usize>,
        comps: &[usize],
        groups: &[usize],
        crossing: &[Crossing],
    ) -> Vec<Through> {
        crossing
            .iter()
            .filter_map(|c| {
                let link = &self.model.links[c.link];
                let item = |end| self.item_of(container, comps, groups, end);
                let (item, at_from) = match (item(link.from), item(link.to)) {
                    (Some(i), None) => (i, true),
                    (None, Some(i)) => (i, false),
                    _ => return None,
                };
                Some(Through {
                    link: c.link,
                    side: c.side,
                    item,
                    at_from,
                    hint: c.hint,
                })
            })
            .collect()
    }

    /// Each group item's lines (`handed`, per inner group: the items after the `groups_from`
    /// components) with their hints: where each runs on from the item across the flow (the
    /// place of its next node, or of its member or port in the group item it runs to), in
    /// the container laid out once with the groups' lines unordered (`layered`, `blocks`,
    /// the items placed at `ports`).
    pub(super) fn hinted(
        &self,
        layered: &Layered,
        blocks: &[Block],
        ports: &Ports,
        handed: &[Vec<Crossing>],
        groups_from: usize,
    ) -> Vec<Vec<Crossing>> {
        // Where the lines run to, not the ports of the groups they enter: those follow.
        let lines = self.lines(layered, ports, vec![[None; 2]; layered.routes.len()]);
        let member = lines.group_members(blocks);
        let ported_by = |v: usize, link: usize| {
            layered.is_group.get(v) == Some(&true) && blocks[v].ports.iter().any(|p| p.0 == link)
        };
        let next = |item: usize, c: &Crossing| {
            let e = layered.edges.iter().position(|e| e.link == c.link)?;
            let r = &layered.routes[e];
            let before = r[r.len().saturating_sub(2)];
            match c.side {
                // Downstream: toward the member the line runs to in another group, even past
                // a long line's bends on the way (they follow the ports), else its next node.
                Side::Out if r[0] == item => {
                    let last = r[r.len() - 1];
                    let to = if member[e][1].is_some() { last } else { r[1] };
                    Some(lines.other_end(&member, e, 1, to))
                }
                // Upstream: from a component, a bend or a member of a group turned across. A
                // line from another group's port leaves this side free: that group orders its
                // ports by where they run to, and the two would swap past each other if each
                // followed the other.
                Side::In if r[r.len() - 1] == item && !ported_by(before, c.link) => {
                    Some(lines.other_end(&member, e, 0, before))
                }
                _ => None,
            }
        };
        (handed.iter().enumerate())
            .map(|(j, crossing)| {
                let item = groups_from + j;
                (crossing.iter())
                    .map(|c| Crossing {
                        hint: next(item, c),
                        ..*c
                    })
                    .collect()
            })
            .collect()
    }
}
