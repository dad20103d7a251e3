//! Containers as blocks: a container (the diagram or a group) lays out its own components and
//! inner groups in layers along its own direction, each inner group first laid out as a block
//! of its own (so members stay inside their group's area and sibling areas never overlap),
//! then the group's area around its block with its title on a band at the top-left.

use crate::geometry::{Rect, ceil_half, floor_half, round_half};
use crate::model::{Direction, End, Model, Position};
use crate::place::{Block, GroupLabelPlace, component_block, text_box};
use crate::route::Point;

use super::Gaps;
use super::coords::across;
use super::cycles::back_edges;
use super::layers::{Span, layers, layers_bounded};
use super::order::Proper;

/// The room left and right of a group's title on its band.
const TITLE_PADDING: f64 = 0.25;
/// The room kept beside a long link's line for its label.
const LABEL_OFFSET: f64 = 0.5;

/// What laying out containers needs to hand.
pub(crate) struct Layout<'a> {
    model: &'a Model,
    gaps: &'a Gaps,
    /// Per container (0 the diagram, `g + 1` group `g`): its components laid out automatically.
    components_in: Vec<Vec<usize>>,
    /// Per container: its inner groups.
    groups_in: Vec<Vec<usize>>,
}

/// An edge between two items of a container.
struct ItemEdge {
    from: usize,
    to: usize,
    link: usize,
    min_length: usize,
    label: Option<(f64, f64)>,
}

impl<'a> Layout<'a> {
    /// Ready to lay out `model`'s containers with `gaps`.
    pub(crate) fn new(model: &'a Model, gaps: &'a Gaps) -> Layout<'a> {
        let n = model.groups.len();
        let mut layout = Layout {
            model,
            gaps,
            components_in: vec![Vec::new(); n + 1],
            groups_in: vec![Vec::new(); n + 1],
        };
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

    /// The item of `container` that holds group `g` (or is it), if any.
    fn item_group(&self, container: Option<usize>, mut g: usize) -> Option<usize> {
        loop {
            let parent = self.model.groups[g].parent;
            if parent == container {
                return Some(g);
            }
            g = parent?;
        }
    }

    /// Lays out a container's contents as a block, its top-left at (0, 0).
    pub(crate) fn container(&self, container: Option<usize>) -> Block {
        let slot = container.map_or(0, |g| g + 1);
        let comps = &self.components_in[slot];
        let groups = &self.groups_in[slot];
        let blocks: Vec<Block> = comps
            .iter()
            .map(|&c| component_block(self.model, c))
            .chain(groups.iter().map(|&g| self.group_block(g)))
            .collect();
        let n = blocks.len();
        if n == 0 {
            return Block::default();
        }
        let is_group: Vec<bool> = (0..n).map(|i| i >= comps.len()).collect();
        let item_of = |end: End| -> Option<usize> {
            match end {
                End::Component(c) => {
                    let comp = &self.model.components[c];
                    if comp.position != Position::Auto {
                        return None;
                    }
                    if comp.group == container {
                        return comps.iter().position(|&x| x == c);
                    }
                    let g = self.item_group(container, comp.group?)?;
                    groups.iter().position(|&x| x == g).map(|i| comps.len() + i)
                }
                End::Group(g) if Some(g) == container => None,
                End::Group(g) => {
                    let g = self.item_group(container, g)?;
                    groups.iter().position(|&x| x == g).map(|i| comps.len() + i)
                }
            }
        };
        let direction = self.model.direction_in(container);
        let horizontal = direction.is_horizontal();
        let mut edges = Vec::new();
        for (l, link) in self.model.links.iter().enumerate() {
            let (Some(from), Some(to)) = (item_of(link.from), item_of(link.to)) else {
                continue;
            };
            if from == to {
                continue;
            }
            let label = link
                .label
                .as_deref()
                .filter(|_| self.gaps.label_layers)
                .map(|t| text_box(t, crate::place::COMPONENT_LABEL_FONT));
            let min_length = link.min_length.max(if label.is_some() { 2 } else { 1 });
            edges.push(ItemEdge {
                from,
                to,
                link: l,
                min_length,
                label,
            });
        }
        let size = |b: &Block| if horizontal { (b.h, b.w) } else { (b.w, b.h) };
        let pairs: Vec<(usize, usize)> = edges.iter().map(|e| (e.from, e.to)).collect();
        let reversed = back_edges(n, &pairs);
        let spans: Vec<Span> = edges
            .iter()
            .zip(&reversed)
            .map(|(e, &r)| {
                let (a, b) = if r { (e.to, e.from) } else { (e.from, e.to) };
                (a, b, e.min_length)
            })
            .collect();
        let rank = match self.gaps.bound {
            Some(bound) => {
                let room: Vec<f64> = blocks.iter().map(|b| size(b).0 + self.gaps.node).collect();
                layers_bounded(n, &spans, &room, bound)
            }
            None => layers(n, &spans),
        };
        let upper_lower: Vec<(usize, usize)> = spans.iter().map(|&(a, b, _)| (a, b)).collect();
        let mut proper = Proper::new(n, &rank, &upper_lower);
        proper.reduce_crossings();
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
        let gaps = self.gaps;
        let real = n;
        let gap = |a: usize, b: usize| {
            if a >= real || b >= real {
                gaps.line
            } else if is_group[a] || is_group[b] {
                gaps.margin.max(gaps.node)
            } else {
                gaps.node
            }
        };
        let centres = across(&proper, &breadth, gap, self.gaps.bound);
        // Left edges on half cells, the gaps kept.
        let mut left = vec![0.0; total];
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
        let least = left.iter().copied().fold(f64::INFINITY, f64::min);
        left.iter_mut().for_each(|l| *l -= least);
        let wide = (0..total).map(|v| left[v] + breadth[v]).fold(0.0, f64::max);
        let mut top = Vec::with_capacity(proper.layers.len());
        let mut thick = Vec::with_capacity(proper.layers.len());
        let mut at = 0.0;
        for layer in &proper.layers {
            let t = ceil_half(layer.iter().map(|&v| depth[v]).fold(0.0, f64::max));
            top.push(at);
            thick.push(t);
            at += t + gaps.layer;
        }
        let long = at - gaps.layer;
        let frame = Frame { direction, long };
        let mut block = Block {
            w: if horizontal { long } else { wide },
            h: if horizontal { wide } else { long },
            ..Block::default()
        };
        for (i, b) in blocks.into_iter().enumerate() {
            let l = proper.layer_of[i];
            let along = top[l] + floor_half((thick[l] - depth[i]) / 2.0);
            let r = frame.rect(left[i], along, breadth[i], depth[i]);
            block.take(b, r.x0, r.y0);
        }
        let middle = |v: usize| {
            let l = proper.layer_of[v];
            round_half(top[l] + thick[l] / 2.0)
        };
        for (e, edge) in edges.iter().enumerate() {
            let chain = &proper.chains[e];
            if chain.is_empty() {
                continue;
            }
            let mut points: Vec<Point> = chain
                .iter()
                .map(|&d| frame.point(left[d], middle(d)))
                .collect();
            if reversed[e] {
                points.reverse();
            }
            block.bends.push((edge.link, points));
            if let Some((d, lb, ld)) = label_dummy[e] {
                let r = frame.rect(left[d] + LABEL_OFFSET, middle(d) - ld / 2.0, lb, ld);
                block.label_spots.push((edge.link, r));
            }
        }
        block
    }

    /// A group: its contents inside its padding, its title on a band at its top-left.
    fn group_block(&self, g: usize) -> Block {
        let inner = self.container(Some(g));
        let p = self.gaps.padding;
        let label = self.model.groups[g].label.as_ref();
        let (caption_w, band_h) = label.map_or((0.0, 0.0), |l| {
            let (w, h) = text_box(&l.text, l.font_size.max(0.4));
            ((w + 2.0 * TITLE_PADDING).ceil(), h)
        });
        let w = ceil_half((inner.w + 2.0 * p).max(caption_w));
        let h = ceil_half(band_h + inner.h + 2.0 * p);
        let area = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: w,
            y1: h,
        };
        let mut block = Block {
            w,
            h,
            ..Block::default()
        };
        let inner_w = inner.w;
        block.take(inner, floor_half((w - inner_w) / 2.0), band_h + p);
        block.areas.push((g, area));
        if label.is_some() {
            let band = Rect {
                x0: 0.0,
                y0: 0.0,
                x1: caption_w,
                y1: band_h,
            };
            block.captions.push((
                g,
                GroupLabelPlace {
                    band: Some(band),
                    text: band,
                },
            ));
        }
        block
    }
}

/// Where positions across and along the flow go on the page.
struct Frame {
    direction: Direction,
    /// The length of the container along the flow.
    long: f64,
}

impl Frame {
    /// A point given across and along the flow.
    fn point(&self, across: f64, along: f64) -> Point {
        match self.direction {
            Direction::TopBottom => (across, along),
            Direction::BottomTop => (across, self.long - along),
            Direction::LeftRight => (along, across),
            Direction::RightLeft => (self.long - along, across),
        }
    }

    /// A rectangle given its corner nearest the origin across and along, and its sizes.
    fn rect(&self, across: f64, along: f64, breadth: f64, depth: f64) -> Rect {
        let (a, b) = (
            self.point(across, along),
            self.point(across + breadth, along + depth),
        );
        Rect {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }
}
