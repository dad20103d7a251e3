//! Containers as blocks: a container (the diagram or a group) lays out its own components and
//! inner groups in layers along its own direction, each inner group first laid out as a block
//! of its own (so members stay inside their group's area and sibling areas never overlap),
//! then the group's area around its block with its title on a band along its top
//! ([`group`]). The lines crossing a group's border are planned inside the group, to ports on
//! its border ([`border`]).

use std::collections::HashMap;

use crate::geometry::round_half;
use crate::model::{Direction, End, Model, Position};
use crate::place::{Block, component_block};
use crate::route::Point;

use super::Gaps;
use super::channels::{Piece, given_tracks, merged_channels, tracks};
use super::coords::across;
use super::cycles::back_edges;
use super::layers::{Span, layers, layers_bounded};
use super::order::{Orders, Proper};
use super::ports::{Demand, Ports, Side, Slot, group_slots, reach, slots};
use border::{
    Crossing, Through, border_lines, handed, in_order, keep_leg, port_channels, port_ends, ported,
};
use frame::{Frame, layer_tops, start_in_layer};
use members::{Lines, member_places, member_stub};

/// The room left and right of a group's title on its band.
const TITLE_PADDING: f64 = 0.25;
mod border;
mod frame;
mod group;
mod items;
mod members;

/// The distance between a channel's tracks, and between its outer tracks and its layers.
pub(crate) const TRACK_GAP: f64 = 0.5;

/// Per edge, the edge whose line it leaves its upper end by: of the shared edges that pass the
/// next layer by one dummy, the first (they leave as one line, in its slot); else itself.
fn leaders(proper: &Proper, routes: &[Vec<usize>]) -> Vec<usize> {
    let mut first_by_dummy: HashMap<usize, usize> = HashMap::new();
    (0..routes.len())
        .map(|e| {
            if proper.shared[e] && routes[e].len() > 2 {
                *first_by_dummy.entry(routes[e][1]).or_insert(e)
            } else {
                e
            }
        })
        .collect()
}

/// How many lines meet each of the `n` items on each side (for the room their slots take
/// beside it), given each edge's nodes from its upper end down (`routes`) and the edge it
/// leaves its upper end with (`leader`: shared lines leave as one).
fn demand(n: usize, routes: &[Vec<usize>], leader: &[usize]) -> Vec<Demand> {
    let mut demand = vec![Demand::default(); n];
    for (e, r) in routes.iter().enumerate() {
        if leader[e] == e
            && let Some(d) = demand.get_mut(r[0])
        {
            d.lines_out += 1;
        }
        if let Some(d) = demand.get_mut(r[r.len() - 1]) {
            d.lines_in += 1;
        }
    }
    demand
}

/// How far a channel's first track lies from the layer above: [`TRACK_GAP`], or, between
/// layers only half a cell apart, none: the track runs along the upper layer's edge, where
/// only the deepest names' bottom borders lie (lines may run along a name's border).
fn first_track(gaps: &Gaps) -> f64 {
    if gaps.layer < 2.0 * TRACK_GAP {
        0.0
    } else {
        TRACK_GAP
    }
}

/// The room kept beside a long link's line for its label.
const LABEL_OFFSET: f64 = 0.5;

/// What laying out containers needs to hand.
pub(crate) struct Layout<'a> {
    model: &'a Model,
    gaps: &'a Gaps,
    /// The layers' orders found by earlier steps of fitting the grid.
    orders: &'a Orders,
    /// Per container (0 the diagram, `g + 1` group `g`): its components laid out automatically.
    components_in: Vec<Vec<usize>>,
    /// Per container: its inner groups.
    groups_in: Vec<Vec<usize>>,
    /// Per component: whether a link joins it to another component of its own group.
    linked_inside: Vec<bool>,
}

/// An edge between two items of a container.
#[derive(Clone)]
struct ItemEdge {
    from: usize,
    to: usize,
    link: usize,
    min_length: usize,
    label: Option<(f64, f64)>,
}

/// A container's items before layering: their blocks, which are groups, the edges between
/// them (and which run against the flow), and the lines crossing the container's border.
struct Items<'b> {
    blocks: &'b [Block],
    is_group: Vec<bool>,
    edges: Vec<ItemEdge>,
    reversed: Vec<bool>,
    through: &'b [Through],
    /// Whether the order of the layers takes the groups' ports into account (once they are
    /// in the order of where their lines run on outside).
    at_ports: bool,
}

/// A container's items in layers: what the steps after layering share.
struct Layered {
    /// The container (`None`: the diagram).
    container: Option<usize>,
    /// Per item: whether it is an inner group (else a component).
    is_group: Vec<bool>,
    /// The lines crossing the container's border, planned inside it ([`border_lines`]): the last
    /// edges, each from or to a port node of its own (the nodes after the items), in a
    /// layer before the first or after the last.
    chained: Vec<Through>,
    /// Whether the first layer holds the ports upstream, and the last those downstream.
    port_layers: (bool, bool),
    /// The container's direction.
    direction: Direction,
    /// The edges between items.
    edges: Vec<ItemEdge>,
    /// Per edge: whether it was turned to run with the flow.
    reversed: Vec<bool>,
    /// Per edge: its upper and lower item, and its least length in layers.
    spans: Vec<Span>,
    /// The layers, with a dummy node where a long edge crosses one.
    proper: Proper,
    /// Per node: its breadth across the flow.
    breadth: Vec<f64>,
    /// Per node: its depth along the flow.
    depth: Vec<f64>,
    /// Per edge: the dummy its label sits beside, with the label's breadth and depth.
    label_dummy: Vec<Option<(usize, f64, f64)>>,
    /// Per edge: its nodes from its upper end down.
    routes: Vec<Vec<usize>>,
    /// Per edge: the edge it leaves its upper end with ([`leaders`]).
    leader: Vec<usize>,
    /// Per item: how many lines meet it on each side.
    demand: Vec<Demand>,
}

impl Layered {
    /// The port nodes of the lines crossing the border ([`Self::chained`]), after the items:
    /// not drawn, so where they lie takes no room.
    fn port_nodes(&self) -> std::ops::Range<usize> {
        self.is_group.len()..self.is_group.len() + self.chained.len()
    }

    /// Where the items lie, their nodes' left edges at `left`, as ports need it.
    fn ports<'x>(&'x self, left: &'x [f64]) -> Ports<'x> {
        Ports {
            direction: self.direction,
            left,
            breadth: &self.breadth,
            real: self.is_group.len(),
            is_group: &self.is_group,
        }
    }

    /// How broad the layers are, their nodes' left edges at `left` (port nodes aside).
    fn wide(&self, left: &[f64]) -> f64 {
        let ports = self.port_nodes();
        (0..self.proper.layer_of.len())
            .filter(|v| !ports.contains(v))
            .map(|v| left[v] + self.breadth[v])
            .fold(0.0, f64::max)
    }
}

/// The channels between a container's layers, and the edges' pieces in them.
struct Channels {
    /// Per edge: its pieces, (channel, where it leaves the upper layer and enters the lower),
    /// from its upper end down.
    pieces: Vec<Vec<(usize, Piece)>>,
    /// Per edge, per piece: its track in its channel.
    track: Vec<Vec<usize>>,
    /// Per channel: its width along the flow.
    gap: Vec<f64>,
    /// Per channel: how many tracks its lines would take, each bus one of its own.
    wanted: Vec<usize>,
    /// The links whose lines the tracks cannot keep apart, left to the search.
    unplanned: Vec<usize>,
}

impl<'a> Layout<'a> {
    /// Ready to lay out `model`'s containers with `gaps`, reusing `orders`.
    pub(crate) fn new(model: &'a Model, gaps: &'a Gaps, orders: &'a Orders) -> Layout<'a> {
        let n = model.groups.len();
        let mut layout = Layout {
            model,
            gaps,
            orders,
            components_in: vec![Vec::new(); n + 1],
            groups_in: vec![Vec::new(); n + 1],
            linked_inside: vec![false; model.components.len()],
        };
        for link in &model.links {
            if let (End::Component(a), End::Component(b)) = (link.from, link.to)
                && a != b
                && model.components[a].group == model.components[b].group
            {
                layout.linked_inside[a] = true;
                layout.linked_inside[b] = true;
            }
        }
        for (g, group) in model.groups.iter().enumerate() {
            layout.groups_in[group.parent.map_or(0, |p| p + 1)].push(g);
        }
        for (i, c) in model.components.iter().enumerate() {
            if c.position == Position::Auto {
                layout.components_in[c.group.map_or(0, |g| g + 1)].push(i);
            }
        }
        layout
    }

    /// Lays out a container's contents as a block, its top-left at (0, 0); `crossing`: the
    /// lines that cross its border, with the side each crosses (none for the diagram).
    pub(crate) fn container(&self, container: Option<usize>, crossing: &[Crossing]) -> Block {
        let slot = container.map_or(0, |g| g + 1);
        let comps = &self.components_in[slot];
        let groups = &self.groups_in[slot];
        let n = comps.len() + groups.len();
        if n == 0 {
            return Block::default();
        }
        let edges = self.item_edges(container, comps, groups);
        let pairs: Vec<(usize, usize)> = edges.iter().map(|e| (e.from, e.to)).collect();
        let reversed = back_edges(n, &pairs);
        let direction = self.model.direction_in(container);
        let through = self.through(container, comps, groups, crossing);
        let handed: Vec<Vec<Crossing>> = (groups.iter().enumerate())
            .map(|(j, &g)| {
                let inner = self.model.direction_in(Some(g));
                handed(
                    comps.len() + j,
                    inner,
                    direction,
                    &edges,
                    &reversed,
                    &through,
                )
            })
            .collect();
        let is_group: Vec<bool> = (0..n).map(|i| i >= comps.len()).collect();
        let layered_with = |blocks: &[Block], at_ports: bool| {
            let items = Items {
                blocks,
                is_group: is_group.clone(),
                edges: edges.clone(),
                reversed: reversed.clone(),
                through: &through,
                at_ports,
            };
            self.layered(items, container, direction)
        };
        let mut blocks: Vec<Block> = (comps.iter())
            .map(|&c| component_block(self.model, c))
            .chain((groups.iter().zip(&handed)).map(|(&g, lines)| self.group_block(g, lines)))
            .collect();
        let mut layered = layered_with(&blocks, false);
        let mut left = self.left_edges(&layered);
        if handed.iter().any(|lines| lines.len() > 1) {
            // Again, each group whose lines' ports are not in the order of where the lines
            // run on outside, with its ports pinned in that order.
            let ports = layered.ports(&left);
            let hinted = self.hinted(&layered, &blocks, &ports, &handed, comps.len());
            let mut again = false;
            for (j, (&g, lines)) in groups.iter().zip(&hinted).enumerate() {
                let item = &mut blocks[comps.len() + j];
                if !in_order(&item.ports, lines) {
                    *item = self.group_block(g, lines);
                    again = true;
                }
            }
            if again {
                layered = layered_with(&blocks, true);
                left = self.left_edges(&layered);
            }
        }
        let ports = layered.ports(&left);
        let slot_at = self.line_slots(&layered, &blocks, &ports);
        let channels = self.channels(&layered, &ports, &slot_at);
        self.assemble(blocks, &layered, &ports, &slot_at, channels)
    }

    /// The items (`blocks`) in layers along `direction`: the edges turned to run with the flow,
    /// the layers made proper with a dummy node per layer a long edge crosses and ordered, a
    /// long link's label given room beside its middle dummy, and how many lines meet each item.
    fn layered(&self, items: Items<'_>, container: Option<usize>, direction: Direction) -> Layered {
        let Items {
            blocks,
            is_group,
            mut edges,
            mut reversed,
            through,
            at_ports,
        } = items;
        let n = blocks.len();
        let horizontal = direction.is_horizontal();
        let size = |b: &Block| if horizontal { (b.h, b.w) } else { (b.w, b.h) };
        let mut spans: Vec<Span> = edges
            .iter()
            .zip(&reversed)
            .map(|(e, &r)| {
                let (a, b) = if r { (e.to, e.from) } else { (e.from, e.to) };
                (a, b, e.min_length)
            })
            .collect();
        // Once layers are bounded, the lines that leave one node the way of the flow (with no
        // label needing a layer) pass the layers as one until they part.
        let mut shared: Vec<bool> = edges
            .iter()
            .zip(&reversed)
            .map(|(e, &r)| self.gaps.bound.is_some() && !r && e.label.is_none())
            .collect();
        let mut rank = match self.gaps.bound {
            Some(bound) => {
                let room: Vec<f64> = blocks.iter().map(|b| size(b).0 + self.gaps.node).collect();
                layers_bounded(n, &spans, &room, self.gaps.line, &shared, bound)
            }
            None => layers(n, &spans),
        };
        // The lines crossing the border: each from (or to) a port node of its own, in a layer
        // before the first (or after the last).
        let border = border_lines(n, through, &mut rank);
        for edge in &border.edges {
            reversed.push(false);
            spans.push((edge.from, edge.to, edge.min_length));
            shared.push(false);
        }
        edges.extend(border.edges);
        let chained = border.chained;
        let upper_lower: Vec<(usize, usize)> = spans.iter().map(|&(a, b, _)| (a, b)).collect();
        let ends = port_ends(at_ports.then_some(blocks), &is_group, &spans, &edges);
        let mut proper = Proper::sharing(n + chained.len(), &rank, &upper_lower, &shared, &ends);
        proper.pinned = border.pinned;
        proper.labelled = edges.iter().map(|edge| edge.label.is_some()).collect();
        proper.reduce_crossings_once(self.orders, &upper_lower);
        let total = proper.layer_of.len();
        let mut breadth = vec![0.0; total];
        let mut depth = vec![0.0; total];
        for (i, b) in blocks.iter().enumerate() {
            (breadth[i], depth[i]) = size(b);
        }
        // The label of a long link sits beside its middle dummy, which keeps room for it.
        let mut label_dummy: Vec<Option<(usize, f64, f64)>> = vec![None; edges.len()];
        for (e, edge) in edges.iter().enumerate() {
            let chain = &proper.chains[e];
            if let (Some((w, h)), false) = (edge.label, chain.is_empty()) {
                let d = chain[chain.len() / 2];
                let (lb, ld) = if horizontal { (h, w) } else { (w, h) };
                breadth[d] = lb + LABEL_OFFSET;
                depth[d] = ld;
                label_dummy[e] = Some((d, lb, ld));
            }
        }
        // Each edge's nodes from its upper end down, and how many lines meet each component
        // on each side (for the room their slots take beside it).
        let routes: Vec<Vec<usize>> = (spans.iter().enumerate())
            .map(|(e, &(a, b, _))| proper.path(e, a, b))
            .collect();
        let leader = leaders(&proper, &routes);
        let demand = demand(n, &routes, &leader);
        Layered {
            container,
            is_group,
            chained,
            port_layers: border.port_layers,
            direction,
            edges,
            reversed,
            spans,
            proper,
            breadth,
            depth,
            label_dummy,
            routes,
            leader,
            demand,
        }
    }

    /// Each node's left edge across the flow, on half cells, the least at 0: where
    /// [`across`] centres it, moved on where that would narrow a gap (each gap leaves room
    /// for the slots of the lines that meet a component there).
    fn left_edges(&self, layered: &Layered) -> Vec<f64> {
        let Layered {
            is_group,
            direction,
            proper,
            breadth,
            demand,
            ..
        } = layered;
        let gaps = self.gaps;
        let real = is_group.len();
        let room: Vec<(f64, f64)> = (0..real)
            .map(|v| {
                if is_group[v] {
                    (0.0, 0.0)
                } else {
                    reach(*direction, demand[v])
                }
            })
            .collect();
        let gap = |a: usize, b: usize| {
            let base = if a >= real || b >= real {
                gaps.line
            } else if is_group[a] || is_group[b] {
                gaps.margin.max(gaps.node)
            } else {
                gaps.node
            };
            let after = if a < real { room[a].1 } else { 0.0 };
            let before = if b < real { room[b].0 } else { 0.0 };
            base + after + before
        };
        let centres = across(proper, breadth, gap, self.gaps.bound);
        // Left edges on half cells, the gaps kept.
        let mut left = vec![0.0; proper.layer_of.len()];
        for layer in &proper.layers {
            let mut previous: Option<usize> = None;
            for &v in layer {
                let mut l = round_half(centres[v] - breadth[v] / 2.0);
                if let Some(p) = previous {
                    l = l.max(left[p] + breadth[p] + gap(p, v));
                }
                left[v] = l;
                previous = Some(v);
            }
        }
        let ports = layered.port_nodes();
        let least = (left.iter().enumerate())
            .filter(|(v, _)| !ports.contains(v))
            .map(|(_, &l)| l)
            .fold(f64::INFINITY, f64::min);
        left.iter_mut().for_each(|l| *l -= least);
        left
    }

    /// A container's lines, as finding the members (or the ports) they run to needs them.
    fn lines<'x>(
        &'x self,
        layered: &'x Layered,
        ports: &'x Ports,
        ported: Vec<[Option<f64>; 2]>,
    ) -> Lines<'x> {
        Lines {
            model: self.model,
            direction: layered.direction,
            is_group: &layered.is_group,
            links: layered.edges.iter().map(|e| e.link).collect(),
            reversed: &layered.reversed,
            routes: &layered.routes,
            ports,
            linked_inside: &self.linked_inside,
            ported,
        }
    }

    /// Each edge's slot at its upper and its lower end: spread over the side of the component
    /// it meets there, or, at a group item, at the member it runs to ([`Self::member_slots`]).
    fn line_slots(&self, layered: &Layered, blocks: &[Block], ports: &Ports) -> Vec<[Slot; 2]> {
        let Layered {
            is_group,
            direction,
            routes,
            demand,
            ..
        } = layered;
        let lines = self.lines(layered, ports, ported(layered, blocks, ports));
        let member = lines.group_members(blocks);
        let other_end = |e, k, w| lines.other_end(&member, e, k, w);
        // Each line's slot at each component it meets.
        let mut slot_at: Vec<[Slot; 2]> = vec![[Slot::default(); 2]; routes.len()];
        for v in 0..is_group.len() {
            for side in [Side::Out, Side::In] {
                // Shared lines leave as one, in their leader's slot (below).
                let (meets, others): (Vec<usize>, Vec<f64>) = routes
                    .iter()
                    .enumerate()
                    .filter_map(|(e, r)| match side {
                        Side::Out if r[0] == v && layered.leader[e] == e => {
                            Some((e, other_end(e, 1, r[1])))
                        }
                        Side::In if r[r.len() - 1] == v => {
                            Some((e, other_end(e, 0, r[r.len() - 2])))
                        }
                        _ => None,
                    })
                    .unzip();
                if meets.is_empty() {
                    continue;
                }
                let got = if is_group[v] {
                    group_slots(&others)
                } else {
                    slots(*direction, side, &others, ports.middle(v), demand[v])
                };
                for (e, slot) in meets.into_iter().zip(got) {
                    slot_at[e][usize::from(side == Side::In)] = slot;
                }
            }
        }
        for (e, &first) in layered.leader.iter().enumerate() {
            slot_at[e][0] = slot_at[first][0];
        }
        lines.member_slots(&member, &mut slot_at);
        // A line a group item planned inside it runs to the item's port for it.
        for (e, [upper, lower]) in lines.ported.iter().enumerate() {
            for (k, at) in [(0, upper), (1, lower)] {
                if let Some(at) = at {
                    slot_at[e][k] = Slot {
                        at: Some(*at),
                        ..Slot::default()
                    };
                }
            }
        }
        slot_at
    }

    /// Each edge cut into its pieces between layers, and each channel's tracks for them.
    fn channels(&self, layered: &Layered, ports: &Ports, slot_at: &[[Slot; 2]]) -> Channels {
        let Layered {
            edges,
            proper,
            routes,
            ..
        } = layered;
        let gaps = self.gaps;
        // Each edge's pieces: (channel, where it leaves the upper layer and enters the lower,
        // across the flow), from its upper end down.
        let pieces: Vec<Vec<(usize, Piece)>> = routes
            .iter()
            .enumerate()
            .map(|(e, nodes)| {
                let last = nodes.len() - 2;
                nodes
                    .windows(2)
                    .enumerate()
                    .map(|(k, w)| {
                        let out = if k == 0 {
                            slot_at[e][0]
                        } else {
                            Slot::default()
                        };
                        let inn = if k == last {
                            slot_at[e][1]
                        } else {
                            Slot::default()
                        };
                        let piece = Piece {
                            upper: ports.across(w[0], Side::Out, out),
                            lower: ports.across(w[1], Side::In, inn),
                        };
                        (proper.layer_of[w[0]], piece)
                    })
                    .collect()
            })
            .collect();
        // Each channel's tracks.
        let channels = proper.layers.len().saturating_sub(1);
        let port_channel = port_channels(layered.port_layers, channels);
        let mut in_channel: Vec<Vec<(usize, usize)>> = vec![Vec::new(); channels];
        for (e, ps) in pieces.iter().enumerate() {
            for (k, &(c, _)) in ps.iter().enumerate() {
                if !port_channel(c) {
                    in_channel[c].push((e, k));
                }
            }
        }
        let mut track = vec![Vec::new(); edges.len()];
        for (e, ps) in pieces.iter().enumerate() {
            track[e] = vec![0; ps.len()];
        }
        let mut wanted = vec![0; channels];
        let mut unplanned = Vec::new();
        for (c, members) in in_channel.iter().enumerate() {
            let list: Vec<Piece> = members.iter().map(|&(e, k)| pieces[e][k].1).collect();
            let (t, count) = tracks(&list);
            wanted[c] = count;
            for (&(e, k), t) in members.iter().zip(t) {
                track[e][k] = t;
            }
            // Where no order of tracks keeps two runs along the flow apart (a piece ends where
            // another starts, and that one ends where the first starts), the search routes
            // one of the two lines.
            for (i, &(e, k)) in members.iter().enumerate() {
                for &(f, j) in &members[i + 1..] {
                    let (p, q) = (pieces[e][k].1, pieces[f][j].1);
                    let (tp, tq) = (track[e][k], track[f][j]);
                    let bent = p.upper != p.lower && q.upper != q.lower;
                    if bent && ((p.lower == q.upper && tp < tq) || (q.lower == p.upper && tq < tp))
                    {
                        unplanned.push(edges[f].link);
                    }
                }
            }
        }
        let gap = given_tracks(&wanted, gaps.tracks, gaps.extra_tracks)
            .into_iter()
            .enumerate()
            .map(|(c, given)| match port_channel(c) {
                true => 0.0,
                false => gaps.layer.max(first_track(gaps) + TRACK_GAP * given as f64),
            })
            .collect();
        Channels {
            pieces,
            track,
            gap,
            wanted,
            unplanned,
        }
    }

    /// The container's block: its layers one after the other along the flow with their
    /// channels between them, each item in its layer, each edge's line from slot to slot
    /// through its tracks, and each long link's label beside its middle dummy.
    fn assemble(
        &self,
        blocks: Vec<Block>,
        layered: &Layered,
        ports: &Ports,
        slot_at: &[[Slot; 2]],
        channels: Channels,
    ) -> Block {
        let Layered {
            direction,
            edges,
            reversed,
            spans,
            proper,
            breadth,
            depth,
            label_dummy,
            ..
        } = layered;
        let left = ports.left;
        let horizontal = direction.is_horizontal();
        let wide = layered.wide(left);
        let (top, thick, long) = layer_tops(proper, depth, &channels.gap);
        let frame = Frame {
            direction: *direction,
            long,
        };
        let mut block = Block {
            w: if horizontal { long } else { wide },
            h: if horizontal { wide } else { long },
            unplanned: channels.unplanned,
            ..Block::default()
        };
        let along_of = |v: usize| {
            let l = proper.layer_of[v];
            top[l] + start_in_layer(*direction, thick[l], depth[v])
        };
        let alongs: Vec<f64> = (0..blocks.len()).map(along_of).collect();
        let members = member_places(*direction, &blocks, left, depth, &alongs);
        let at_member = |side, slot| member_stub(self.model, *direction, side, slot, &members);
        for (i, b) in blocks.into_iter().enumerate() {
            let r = frame.rect(left[i], along_of(i), breadth[i], depth[i]);
            block.take(b, r.x0, r.y0);
        }
        let middle = |v: usize| {
            let l = proper.layer_of[v];
            round_half(top[l] + thick[l] / 2.0)
        };
        let first = first_track(self.gaps);
        let port_channel = port_channels(layered.port_layers, channels.gap.len());
        let chained_from = edges.len() - layered.chained.len();
        let merged = merged_channels(&channels.pieces, &channels.track, &channels.wanted, |c| {
            ((channels.gap[c] - first) / TRACK_GAP) as usize
        });
        for (e, edge) in edges.iter().enumerate() {
            let (a, b, _) = spans[e];
            let ps = &channels.pieces[e];
            let mut points = ports.stub(a, Side::Out, slot_at[e][0], along_of(a), depth[a]);
            points.extend(at_member(Side::Out, slot_at[e][0]));
            let mut border = 0.0;
            for (k, &(c, piece)) in ps.iter().enumerate() {
                if port_channel(c) {
                    // A line crossing the border starts (or ends) there, at its first dummy
                    // (or its last): the port layer and its channel take no room.
                    border = if k == 0 { piece.lower } else { piece.upper };
                    points.push((border, top[c] + thick[c]));
                    continue;
                }
                // Without room for every track, neighbouring tracks merge into the tracks
                // there are, in their order, so that sharing adds no crossing.
                let t = merged[c][channels.track[e][k]];
                let y = top[c] + thick[c] + first + TRACK_GAP * t as f64;
                points.push((piece.upper, y));
                points.push((piece.lower, y));
            }
            let mut entering = ports.stub(b, Side::In, slot_at[e][1], along_of(b), depth[b]);
            entering.extend(at_member(Side::In, slot_at[e][1]));
            entering.reverse();
            points.extend(entering);
            let mut points: Vec<Point> = points
                .into_iter()
                .map(|(across, along)| frame.point(across, along))
                .collect();
            if reversed[e] {
                points.reverse();
            }
            match e.checked_sub(chained_from).map(|k| layered.chained[k]) {
                Some(line) => keep_leg(&mut block, layered.container, line, border, points),
                None => block.bends.push((edge.link, points)),
            }
            if let Some((d, lb, ld)) = label_dummy[e] {
                let r = frame.rect(left[d] + LABEL_OFFSET, middle(d) - ld / 2.0, lb, ld);
                block.label_spots.push((edge.link, r));
            }
        }
        block
    }
}
