//! Placing a [`Model`]: tiers of rows inside the tree of groups, groups as areas around their
//! contents, labels under components and on groups, then the components placed by hand
//! (absolute or relative). See docs/create-diagram.md for the rules in words.

use crate::error::{LayoutError, LayoutResult};
use crate::geometry::{
    COMPONENT_SIDE, GRID_HALF, Rect, ceil_half, floor_half, outward_eighths, round_half, text_width,
};
use crate::model::{Anchor, Model, Position};
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
struct Block {
    w: f64,
    h: f64,
    components: Vec<(usize, f64, f64)>,
    labels: Vec<(usize, Rect)>,
    areas: Vec<(usize, Rect)>,
    captions: Vec<(usize, GroupLabelPlace)>,
}

impl Block {
    /// Moves everything in `other` by (`dx`, `dy`) into this block.
    fn take(&mut self, other: Block, dx: f64, dy: f64) {
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

/// One item of a container's rows: a component or a group.
struct Item {
    key: usize,
    tier: f64,
    component: bool,
    block: Block,
}

/// Places a checked model.
pub fn place(model: &Model, settings: &Settings) -> LayoutResult<Placement> {
    let placer = Placer::new(model, settings);
    let mut root = placer.lay(None);
    let (dx, dy) = (floor_half(-root.w / 2.0), floor_half(-root.h / 2.0));
    let mut all = Block::default();
    all.take(std::mem::take(&mut root), dx, dy);
    let mut placement = Placement {
        components: vec![(0.0, 0.0); model.components.len()],
        component_labels: vec![None; model.components.len()],
        groups: vec![Rect::centred(0.0, 0.0, 0.0, 0.0); model.groups.len()],
        group_labels: vec![None; model.groups.len()],
    };
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
        placer.place_by_hand(i, &mut placement, &mut done);
    }
    check_fits(model, &placement)?;
    Ok(placement)
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
        let label = component_label_width(self.model.components[c].label.as_deref());
        let w = label.unwrap_or(0.0).max(COMPONENT_SIDE);
        let half = COMPONENT_SIDE / 2.0;
        let mut block = Block {
            w,
            h: COMPONENT_SIDE + label.map_or(0.0, |_| COMPONENT_LABEL_HEIGHT),
            components: vec![(c, w / 2.0, half)],
            ..Block::default()
        };
        if let Some(lw) = label {
            block.labels.push((
                c,
                Rect::centred(
                    w / 2.0,
                    COMPONENT_SIDE + COMPONENT_LABEL_HEIGHT / 2.0,
                    lw,
                    COMPONENT_LABEL_HEIGHT,
                ),
            ));
        }
        block
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

    /// Places component `i` by hand (absolute, or relative to what is placed first).
    fn place_by_hand(&self, i: usize, placement: &mut Placement, done: &mut [bool]) {
        if done[i] {
            return;
        }
        done[i] = true;
        let component = &self.model.components[i];
        let (x, y) = match component.position {
            Position::Auto => return,
            Position::Absolute { x, y } => (x, y),
            Position::Relative {
                to: Anchor::Component(c),
                x,
                y,
            } => {
                self.place_by_hand(c, placement, done);
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
        placement.component_labels[i] =
            component_label_width(component.label.as_deref()).map(|lw| {
                Rect::centred(
                    x,
                    y + COMPONENT_SIDE / 2.0 + COMPONENT_LABEL_HEIGHT / 2.0,
                    lw,
                    COMPONENT_LABEL_HEIGHT,
                )
            });
    }
}

/// The width of a component's label box: whole cells, so that it centres on a half cell.
pub(crate) fn component_label_width(label: Option<&str>) -> Option<f64> {
    label.map(|text| {
        (text_width(text.chars().count(), COMPONENT_LABEL_FONT) + 0.5)
            .ceil()
            .max(1.0)
    })
}

/// Refuses a diagram that does not fit the grid, naming its size (or the component placed by
/// hand outside it).
fn check_fits(model: &Model, placement: &Placement) -> LayoutResult<()> {
    let grid = Rect {
        x0: -GRID_HALF,
        y0: -GRID_HALF,
        x1: GRID_HALF,
        y1: GRID_HALF,
    };
    let mut bounds: Option<Rect> = None;
    let mut grow = |r: Rect| bounds = Some(bounds.map_or(r, |b| b.union(&r)));
    for (i, &(x, y)) in placement.components.iter().enumerate() {
        let r = Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE);
        if model.components[i].position != Position::Auto && !grid.contains(&r) {
            return Err(LayoutError::field(
                &model.components[i].id,
                "positionX",
                format!(
                    "puts the component at ({x}, {y}), outside the grid (−50 to 50 on both axes)"
                ),
            ));
        }
        grow(r);
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
    match bounds {
        Some(b) if !grid.contains(&b) => Err(LayoutError::input(format!(
            "the laid-out diagram is {} × {} cells, larger than the grid's 100 × 100: lower \
             MAX_COMPONENTS_PER_TIER, COMP_GAP, TIER_GAP, GROUP_MARGIN or GROUP_PADDING, or split it",
            b.width(),
            b.height()
        ))),
        _ => Ok(()),
    }
}
