//! Placing a [`Model`]: tiers of rows inside the tree of groups, groups as areas around their
//! contents, labels under components and on groups, then the components placed by hand
//! (absolute or relative). See docs/create-diagram.md for the rules in words.

use crate::error::{LayoutError, LayoutResult};
use crate::geometry::{
    COMPONENT_SIDE, GRID_HALF, Rect, ceil_half, floor_half, outward_eighths, round_half, text_width,
};
use crate::model::{Anchor, Model, Position};
use crate::route::Point;
use crate::settings::Settings;
use crate::tiers::FALLBACK_TIER;

/// The font size of a component's label.
pub const COMPONENT_LABEL_FONT: f64 = 0.5;
/// The height of a component's label box, under the component.
const COMPONENT_LABEL_HEIGHT: f64 = 1.0;

/// Where everything goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// Each component's centre, on half cells.
    pub components: Vec<(f64, f64)>,
    /// Each component's label box, if it has a label.
    pub component_labels: Vec<Option<Rect>>,
    /// Each group's area, corners on eighths.
    pub groups: Vec<Rect>,
    /// Each group's caption, if it has one.
    pub group_labels: Vec<Option<GroupLabelPlace>>,
    /// Each link's points to pass through, in order from its `from` end (the layered
    /// layout's long links; empty otherwise).
    pub bends: Vec<Vec<Point>>,
    /// Each link's box kept for its label by the layout, if any.
    pub label_spots: Vec<Option<Rect>>,
    /// Whether the layered layout made it (captions on a light band at the area's top).
    pub layered: bool,
    /// Per link, whether its `bends` are a whole path planned on tracks of its own (the
    /// layered layout's, when its gaps could hold them): their legs are taken as they are.
    pub planned: Vec<bool>,
}

/// Where a group's caption goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupLabelPlace {
    /// The coloured band of a block label.
    pub band: Option<Rect>,
    /// The text's box, its centre on half cells.
    pub text: Rect,
}

/// A laid-out container (a group's contents, or the whole diagram) in its own coordinates:
/// its size and what it holds.
#[derive(Default)]
pub(crate) struct Block {
    /// Width.
    pub(crate) w: f64,
    /// Height.
    pub(crate) h: f64,
    /// Component index and centre.
    pub(crate) components: Vec<(usize, f64, f64)>,
    /// Component index and its label's box.
    pub(crate) labels: Vec<(usize, Rect)>,
    /// Group index and its area.
    pub(crate) areas: Vec<(usize, Rect)>,
    /// Group index and its caption.
    pub(crate) captions: Vec<(usize, GroupLabelPlace)>,
    /// Link index and the points its line passes (the layered layout's long links).
    pub(crate) bends: Vec<(usize, Vec<Point>)>,
    /// Link index and the box kept for its label.
    pub(crate) label_spots: Vec<(usize, Rect)>,
    /// Links whose planned tracks would run along another line's (routed by the search).
    pub(crate) unplanned: Vec<usize>,
    /// The pieces of lines inside groups, from a group's border to the member they run to
    /// (the layered layout's lines crossing a group's border, where the group flows as its
    /// container does), which the container joining both ends of the line puts before or
    /// after its own.
    pub(crate) legs: Vec<Leg>,
    /// Of a laid-out group: each line planned inside it to its border, and where it crosses
    /// the border across the group's flow (from the block's corner). Read by the container
    /// the group is an item of; not taken into it.
    pub(crate) ports: Vec<(usize, f64)>,
}

/// A piece of a line inside a group, between the group's border and the member the line runs
/// to, in the order of the group's flow: from its border on its upstream side in, or out to
/// its border on its downstream side.
pub(crate) struct Leg {
    /// The link.
    pub(crate) link: usize,
    /// The group whose border it starts or ends at.
    pub(crate) group: usize,
    /// Whether it crosses the group's upstream side (else its downstream side).
    pub(crate) upstream: bool,
    /// Whether it lies at the link's `from` end (else at its `to` end).
    pub(crate) at_from: bool,
    /// Its points, along the group's flow.
    pub(crate) points: Vec<Point>,
}

impl Leg {
    /// Its points in the order the line passes them from its `from` end.
    fn in_link_order(mut self) -> Vec<Point> {
        // Along the flow, an upstream leg runs toward the member: the link's way when the
        // member is its `to` end; a downstream leg away from it: the link's way from `from`.
        if self.upstream == self.at_from {
            self.points.reverse();
        }
        self.points
    }
}

impl Block {
    /// Moves everything in `other` by (`dx`, `dy`) into this block.
    pub(crate) fn take(&mut self, other: Block, dx: f64, dy: f64) {
        self.unplanned.extend(other.unplanned);
        self.legs.extend(other.legs.into_iter().map(|leg| Leg {
            points: shifted(leg.points, dx, dy),
            ..leg
        }));
        self.bends
            .extend((other.bends.into_iter()).map(|(i, points)| (i, shifted(points, dx, dy))));
        self.label_spots.extend(
            other
                .label_spots
                .into_iter()
                .map(|(i, r)| (i, r.shifted(dx, dy))),
        );
        self.components.extend(
            other
                .components
                .into_iter()
                .map(|(i, x, y)| (i, x + dx, y + dy)),
        );
        self.labels.extend(
            other
                .labels
                .into_iter()
                .map(|(i, r)| (i, r.shifted(dx, dy))),
        );
        self.areas
            .extend(other.areas.into_iter().map(|(i, r)| (i, r.shifted(dx, dy))));
        self.captions
            .extend(other.captions.into_iter().map(|(i, c)| {
                (
                    i,
                    GroupLabelPlace {
                        band: c.band.map(|b| b.shifted(dx, dy)),
                        text: c.text.shifted(dx, dy),
                    },
                )
            }));
    }
}

/// `points` moved by (`dx`, `dy`).
fn shifted(points: Vec<Point>, dx: f64, dy: f64) -> Vec<Point> {
    points.into_iter().map(|(x, y)| (x + dx, y + dy)).collect()
}

/// Each link's points: the legs inside groups at its `from` end (the innermost group's
/// first), the points of the container joining its ends, then the legs at its `to` end (the
/// outermost group's first).
fn stitched(model: &Model, bends: Vec<(usize, Vec<Point>)>, legs: Vec<Leg>) -> Vec<Vec<Point>> {
    let mut out = vec![Vec::new(); model.links.len()];
    for (i, points) in bends {
        out[i] = points;
    }
    let mut legs = legs;
    // The innermost first at a `from` end, the outermost first at a `to` end: in the order
    // the line passes them.
    legs.sort_by_key(|leg| {
        let d = model.depth(leg.group);
        (
            leg.link,
            !leg.at_from,
            if leg.at_from { usize::MAX - d } else { d },
        )
    });
    let mut by_link: Vec<(Vec<Point>, Vec<Point>)> = vec![Default::default(); model.links.len()];
    for leg in legs {
        let (before, after) = &mut by_link[leg.link];
        if leg.at_from {
            before.extend(leg.in_link_order());
        } else {
            after.extend(leg.in_link_order());
        }
    }
    for (points, (mut before, after)) in out.iter_mut().zip(by_link) {
        if before.is_empty() && after.is_empty() {
            continue;
        }
        before.append(points);
        before.extend(after);
        *points = before;
    }
    out
}

/// One item of a container's rows: a component or a group.
struct Item {
    key: usize,
    tier: f64,
    component: bool,
    block: Block,
}

/// Places a checked model in tiers.
pub fn place(model: &Model, settings: &Settings) -> LayoutResult<Placement> {
    let placer = Placer::new(model, settings);
    let placement = placement_of(model, placer.lay(None), false);
    check_fits(model, &placement)?;
    Ok(placement)
}

/// The placement of a laid-out root block, centred on the grid's middle, with the
/// components placed by hand added.
pub(crate) fn placement_of(model: &Model, mut root: Block, layered: bool) -> Placement {
    let (dx, dy) = (floor_half(-root.w / 2.0), floor_half(-root.h / 2.0));
    let mut all = Block::default();
    all.take(std::mem::take(&mut root), dx, dy);
    let mut placement = Placement {
        components: vec![(0.0, 0.0); model.components.len()],
        component_labels: vec![None; model.components.len()],
        groups: vec![Rect::centred(0.0, 0.0, 0.0, 0.0); model.groups.len()],
        group_labels: vec![None; model.groups.len()],
        bends: vec![Vec::new(); model.links.len()],
        label_spots: vec![None; model.links.len()],
        layered,
        planned: vec![false; model.links.len()],
    };
    placement.bends = stitched(
        model,
        std::mem::take(&mut all.bends),
        std::mem::take(&mut all.legs),
    );
    for (i, r) in all.label_spots {
        placement.label_spots[i] = Some(r);
    }
    for (i, x, y) in all.components {
        placement.components[i] = (x, y);
    }
    for (i, r) in all.labels {
        placement.component_labels[i] = Some(r);
    }
    for (i, r) in all.areas {
        placement.groups[i] = r;
    }
    for (i, c) in all.captions {
        placement.group_labels[i] = Some(c);
    }
    let mut done: Vec<bool> = model
        .components
        .iter()
        .map(|c| c.position == Position::Auto)
        .collect();
    for i in 0..model.components.len() {
        place_by_hand(model, i, &mut placement, &mut done);
    }
    placement
}

/// What placing needs to hand: the model, the settings, and each container's contents.
struct Placer<'a> {
    model: &'a Model,
    settings: &'a Settings,
    /// Per container (index 0 the root, `g + 1` group `g`): its auto components and child groups.
    components_in: Vec<Vec<usize>>,
    groups_in: Vec<Vec<usize>>,
    /// Per group: the first component (input order) inside it, and the frontmost tier.
    first: Vec<usize>,
    tier: Vec<f64>,
}

impl<'a> Placer<'a> {
    fn new(model: &'a Model, settings: &'a Settings) -> Placer<'a> {
        let n = model.groups.len();
        let mut placer = Placer {
            model,
            settings,
            components_in: vec![Vec::new(); n + 1],
            groups_in: vec![Vec::new(); n + 1],
            first: (0..n).map(|g| usize::MAX - n + g).collect(),
            tier: vec![f64::INFINITY; n],
        };
        for (g, group) in model.groups.iter().enumerate() {
            placer.groups_in[group.parent.map_or(0, |p| p + 1)].push(g);
        }
        for (i, c) in model.components.iter().enumerate() {
            if c.position != Position::Auto {
                continue;
            }
            placer.components_in[c.group.map_or(0, |g| g + 1)].push(i);
            let mut at = c.group;
            while let Some(g) = at {
                placer.first[g] = placer.first[g].min(i);
                placer.tier[g] = placer.tier[g].min(c.tier);
                at = model.groups[g].parent;
            }
        }
        for t in &mut placer.tier {
            if t.is_infinite() {
                *t = FALLBACK_TIER;
            }
        }
        placer
    }

    /// Lays out a container's contents: tiers from rear (top) to front (bottom), each in rows.
    fn lay(&self, container: Option<usize>) -> Block {
        let slot = container.map_or(0, |g| g + 1);
        let mut items: Vec<Item> = self.components_in[slot]
            .iter()
            .map(|&c| Item {
                key: c,
                tier: self.model.components[c].tier,
                component: true,
                block: self.component_block(c),
            })
            .chain(self.groups_in[slot].iter().map(|&g| Item {
                key: self.first[g],
                tier: self.tier[g],
                component: false,
                block: self.group_block(g),
            }))
            .collect();
        items.sort_by(|a, b| b.tier.total_cmp(&a.tier).then(a.key.cmp(&b.key)));
        let s = self.settings;
        let (comp_gap, margin, tier_gap) = (
            ceil_half(s.comp_gap),
            ceil_half(s.group_margin),
            ceil_half(s.tier_gap),
        );
        // Rows: runs of one tier, at most MAX_COMPONENTS_PER_TIER items each.
        let mut rows: Vec<Vec<Item>> = Vec::new();
        for item in items {
            match rows.last_mut() {
                Some(row) if row.len() < s.max_components_per_tier && row[0].tier == item.tier => {
                    row.push(item)
                }
                _ => rows.push(vec![item]),
            }
        }
        let gap = |a: &Item, b: &Item| {
            if a.component && b.component {
                comp_gap
            } else {
                margin
            }
        };
        let width = |row: &[Item]| -> f64 {
            row.iter().map(|i| i.block.w).sum::<f64>()
                + row.windows(2).map(|w| gap(&w[0], &w[1])).sum::<f64>()
        };
        let w = rows.iter().map(|r| width(r)).fold(0.0, f64::max);
        let mut block = Block {
            w,
            ..Block::default()
        };
        let mut y = 0.0;
        let mut rows = rows.into_iter().peekable();
        while let Some(row) = rows.next() {
            let mut x = floor_half((w - width(&row)) / 2.0);
            let h = row.iter().map(|i| i.block.h).fold(0.0, f64::max);
            let tier = row[0].tier;
            let mut previous: Option<bool> = None;
            for item in row {
                if let Some(component) = previous {
                    x += if component && item.component {
                        comp_gap
                    } else {
                        margin
                    };
                }
                let iw = item.block.w;
                previous = Some(item.component);
                block.take(item.block, x, y);
                x += iw;
            }
            y += h;
            if let Some(next) = rows.peek() {
                y += if next[0].tier == tier {
                    comp_gap
                } else {
                    tier_gap
                };
            }
        }
        block.h = y;
        block
    }

    /// A component with its label underneath.
    fn component_block(&self, c: usize) -> Block {
        component_block(self.model, c)
    }

    /// A group: its contents inside its padding, its area around them and its caption.
    fn group_block(&self, g: usize) -> Block {
        let inner = self.lay(Some(g));
        let s = self.settings;
        let pad = s.group_padding;
        let p = ceil_half(pad);
        let label = self.model.groups[g].label.as_ref();
        let text_w = label.map_or(0.0, |l| text_width(l.text.chars().count(), l.font_size));
        // Room outside and inside the top and bottom edges, and the caption's width.
        let (mut top_out, mut top_in, mut bottom_in, mut bottom_out, mut caption_w) =
            (0.0, 0.0, 0.0, 0.0, 0.0);
        let inline_h = label.map_or(0.0, |l| ceil_half(l.font_size * 2.5));
        match label {
            Some(l) if l.block => {
                bottom_out = ceil_half(s.label_height);
                caption_w = text_w + 2.0 * s.label_padding;
            }
            Some(l) => {
                caption_w = ceil_half(text_w + 0.5);
                let (outward, on) = match (l.top, l.placement) {
                    (true, "above") | (false, "below") => (true, false),
                    (_, "on") => (false, true),
                    _ => (false, false),
                };
                let (out, inside) = (outward || on, !outward || on);
                if l.top {
                    top_out = if out { inline_h } else { 0.0 };
                    top_in = if inside { inline_h } else { 0.0 };
                } else {
                    bottom_out = if out { inline_h } else { 0.0 };
                    bottom_in = if inside { inline_h } else { 0.0 };
                }
            }
            None => {}
        }
        let (cx, cy) = (p, top_out + p + top_in);
        let area = outward_eighths(Rect {
            x0: cx - pad,
            y0: cy - top_in - pad,
            x1: cx + inner.w + pad,
            y1: cy + inner.h + bottom_in + pad,
        });
        let mut block = Block {
            w: (inner.w + 2.0 * p).max(ceil_half(caption_w + p)),
            h: cy + inner.h + bottom_in + p + bottom_out,
            ..Block::default()
        };
        block.take(inner, cx, cy);
        block.areas.push((g, area));
        if let Some(l) = label {
            let caption = if l.block {
                let band = outward_eighths(Rect {
                    x0: area.x0,
                    y0: area.y1,
                    x1: area.x0 + caption_w,
                    y1: area.y1 + s.label_height,
                });
                let centre = (
                    round_half((band.x0 + band.x1) / 2.0),
                    round_half((band.y0 + band.y1) / 2.0),
                );
                GroupLabelPlace {
                    band: Some(band),
                    text: Rect::centred(centre.0, centre.1, caption_w, s.label_height),
                }
            } else {
                let edge = if l.top { area.y0 } else { area.y1 };
                let y = match l.placement {
                    "above" => edge - inline_h / 2.0,
                    "below" => edge + inline_h / 2.0,
                    _ => edge,
                };
                let x = match l.align {
                    "left" => area.x0 + caption_w / 2.0,
                    "center" => (area.x0 + area.x1) / 2.0,
                    _ => area.x1 - caption_w / 2.0,
                };
                GroupLabelPlace {
                    band: None,
                    text: Rect::centred(round_half(x), round_half(y), caption_w, inline_h),
                }
            };
            block.captions.push((g, caption));
        }
        block
    }
}

/// Places component `i` by hand (absolute, or relative to what is placed first).
fn place_by_hand(model: &Model, i: usize, placement: &mut Placement, done: &mut [bool]) {
    if done[i] {
        return;
    }
    done[i] = true;
    let component = &model.components[i];
    let (x, y) = match component.position {
        Position::Auto => return,
        Position::Absolute { x, y } => (x, y),
        Position::Relative {
            to: Anchor::Component(c),
            x,
            y,
        } => {
            place_by_hand(model, c, placement, done);
            let (cx, cy) = placement.components[c];
            (cx + x, cy + y)
        }
        Position::Relative {
            to: Anchor::Group(g, fx, fy),
            x,
            y,
        } => {
            let r = placement.groups[g];
            (r.x0 + fx * r.width() + x, r.y0 + fy * r.height() + y)
        }
    };
    let (x, y) = (round_half(x), round_half(y));
    placement.components[i] = (x, y);
    placement.component_labels[i] = component_label_size(component.label.as_deref())
        .map(|(lw, lh)| Rect::centred(x, y + COMPONENT_SIDE / 2.0 + lh / 2.0, lw, lh));
}

/// A component with its label underneath, its footprint centred at the top.
pub(crate) fn component_block(model: &Model, c: usize) -> Block {
    let label = component_label_size(model.components[c].label.as_deref());
    let w = label.map_or(0.0, |(lw, _)| lw).max(COMPONENT_SIDE);
    let half = COMPONENT_SIDE / 2.0;
    let mut block = Block {
        w,
        h: COMPONENT_SIDE + label.map_or(0.0, |(_, lh)| lh),
        components: vec![(c, w / 2.0, half)],
        ..Block::default()
    };
    if let Some((lw, lh)) = label {
        block
            .labels
            .push((c, Rect::centred(w / 2.0, COMPONENT_SIDE + lh / 2.0, lw, lh)));
    }
    block
}

/// The size of a component's label box: whole cells (so that it centres on a half cell), as
/// wide as its longest line and a cell high for the first line, three quarters for each next.
pub(crate) fn component_label_size(label: Option<&str>) -> Option<(f64, f64)> {
    label.map(|text| text_box(text, COMPONENT_LABEL_FONT))
}

/// The box of whole cells a text of one or more lines (`\n` between them) takes at this
/// font size.
pub(crate) fn text_box(text: &str, font_size: f64) -> (f64, f64) {
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let lines = text.lines().count().max(1);
    let w = (text_width(longest, font_size) + 0.5).ceil().max(1.0);
    let h = (COMPONENT_LABEL_HEIGHT + 1.5 * font_size * (lines - 1) as f64).ceil();
    (w, h)
}

/// The grid: −50 to 50 on both axes.
pub(crate) const GRID: Rect = Rect {
    x0: -GRID_HALF,
    y0: -GRID_HALF,
    x1: GRID_HALF,
    y1: GRID_HALF,
};

/// Refuses a component placed by hand outside the grid, naming it.
pub(crate) fn check_by_hand(model: &Model, placement: &Placement) -> LayoutResult<()> {
    for (i, &(x, y)) in placement.components.iter().enumerate() {
        let r = Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE);
        if model.components[i].position != Position::Auto && !GRID.contains(&r) {
            return Err(LayoutError::field(
                &model.components[i].id,
                "positionX",
                format!(
                    "puts the component at ({x}, {y}), outside the grid (−50 to 50 on both axes)"
                ),
            ));
        }
    }
    Ok(())
}

/// The rectangle around everything placed, if anything is.
pub(crate) fn bounds(placement: &Placement) -> Option<Rect> {
    let mut bounds: Option<Rect> = None;
    let mut grow = |r: Rect| bounds = Some(bounds.map_or(r, |b| b.union(&r)));
    for &(x, y) in &placement.components {
        grow(Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE));
    }
    placement
        .component_labels
        .iter()
        .flatten()
        .for_each(|r| grow(*r));
    placement.groups.iter().for_each(|r| grow(*r));
    for c in placement.group_labels.iter().flatten() {
        grow(c.text);
        if let Some(b) = c.band {
            grow(b);
        }
    }
    placement
        .label_spots
        .iter()
        .flatten()
        .for_each(|r| grow(*r));
    bounds
}

/// Refuses a diagram that does not fit the grid, naming its size (or the component placed by
/// hand outside it).
fn check_fits(model: &Model, placement: &Placement) -> LayoutResult<()> {
    check_by_hand(model, placement)?;
    match bounds(placement) {
        Some(b) if !GRID.contains(&b) => Err(LayoutError::input(format!(
            "the laid-out diagram is {} × {} cells, larger than the grid's 100 × 100: lower \
             MAX_COMPONENTS_PER_TIER, COMP_GAP, TIER_GAP, GROUP_MARGIN or GROUP_PADDING, or split it",
            b.width(),
            b.height()
        ))),
        _ => Ok(()),
    }
}
