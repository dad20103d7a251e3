//! The layered layout, for diagrams whose components carry no `tier`: each container (the
//! diagram, each group) lays out its components and inner groups (as blocks) in layers along
//! its flow's direction, as Graphviz dot does: [`cycles`] turns links round so none runs back,
//! [`layers`] gives each node its layer, [`order`] orders each layer to cut crossings (then
//! [`sift`] moves each long link whole, straighter), [`coords`] places the nodes across the
//! flow, and [`clusters`] puts the blocks together, groups inside their areas with their
//! titles, each planning the lines that cross its border. When the diagram does not fit the
//! grid the gaps shrink, step by step, before it is refused. The rules in words:
//! docs/create-diagram.md.

mod channels;
mod clusters;
mod coords;
mod cycles;
mod layers;
mod order;
mod ports;
mod sift;

use crate::error::{LayoutError, LayoutResult};
use crate::geometry::{COMPONENT_SIDE, Rect, ceil_half};
use crate::model::{Model, Position};
use crate::place::{GRID, Placement, bounds, check_by_hand, placement_of};
use crate::settings::Settings;
use crate::stop::Stop;
use order::Orders;

/// The gaps a layout is made with, in cells (half cells at least).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Gaps {
    /// Between neighbours in a layer.
    pub node: f64,
    /// Between layers.
    pub layer: f64,
    /// Between a group and its neighbours.
    pub margin: f64,
    /// Between a group's border and its contents.
    pub padding: f64,
    /// Between a long link's line and its neighbours.
    pub line: f64,
    /// Whether a labelled link spans two layers at least, its label on the layer between.
    pub label_layers: bool,
    /// The most breadth (across the flow) a layer may hold, if bounded.
    pub bound: Option<f64>,
    /// The most tracks a gap between layers grows to hold (each line crossing it gets one of
    /// its own up to there; past it, lines share tracks).
    pub tracks: usize,
    /// Tracks given past `tracks`, in each container, to the channels where most lines share
    /// one: the room a diagram that fits leaves along its flow, spent.
    pub extra_tracks: usize,
}

/// One step of fitting the grid: the gaps' scale, whether labelled links get a layer for their
/// label, the most breadth a layer may hold (too wide a diagram grows longer along its flow
/// instead), the least gap between layers (a cell leaves a line between them free of
/// borders; half a cell only the line under the names), and whether each line gets a track
/// of its own between layers.
type Step = (f64, bool, Option<f64>, f64, usize);

/// The steps tried in turn until the diagram fits: the gaps shrink, then the layers are
/// bounded, and last the lines share the gaps between layers.
const STEPS: [Step; 22] = [
    (1.0, true, None, 1.0, ALL),
    (1.0, false, None, 1.0, ALL),
    (0.6, false, None, 1.0, ALL),
    (0.35, false, None, 1.0, ALL),
    (0.0, false, None, 1.0, ALL),
    (0.35, false, Some(90.0), 1.0, ALL),
    (0.0, false, Some(90.0), 1.0, ALL),
    (0.0, false, Some(75.0), 1.0, ALL),
    (0.0, false, Some(60.0), 1.0, ALL),
    (0.0, false, Some(90.0), 1.0, 3),
    (0.0, false, Some(75.0), 1.0, 3),
    (0.0, false, Some(90.0), 1.0, 2),
    (0.0, false, Some(75.0), 1.0, 2),
    (0.0, false, Some(60.0), 1.0, 2),
    (0.0, false, Some(90.0), 1.0, 1),
    (0.0, false, Some(75.0), 1.0, 1),
    (0.0, false, Some(90.0), 0.5, 1),
    (0.0, false, Some(75.0), 0.5, 1),
    (0.0, false, Some(90.0), 0.5, 0),
    (0.0, false, Some(75.0), 0.5, 0),
    (0.0, false, Some(60.0), 0.5, 0),
    (0.0, false, Some(45.0), 0.5, 0),
];

/// No bound on the tracks a gap between layers holds.
const ALL: usize = usize::MAX;

impl Gaps {
    /// The settings' gaps (`COMP_GAP`, `TIER_GAP`, `GROUP_MARGIN`, `GROUP_PADDING`) times
    /// `scale`: a cell at least between items in a layer (so that a line passes between them),
    /// `least_layer` between layers, half a cell inside a group.
    pub(crate) fn scaled(
        settings: &Settings,
        scale: f64,
        label_layers: bool,
        bound: Option<f64>,
        least_layer: f64,
        tracks: usize,
    ) -> Gaps {
        let g = |v: f64, least: f64| ceil_half(v * scale).max(least);
        Gaps {
            node: g(settings.comp_gap, LEAST_GAPS.0),
            layer: g(settings.tier_gap, least_layer),
            margin: g(settings.group_margin, 1.0),
            padding: g(settings.group_padding, 0.5),
            line: g(1.0, 0.5),
            label_layers,
            bound,
            tracks,
            extra_tracks: 0,
        }
    }
}

/// The least gap between neighbours in a layer and between layers, in cells (the last steps').
const LEAST_GAPS: (f64, f64) = (1.0, 0.5);

/// The most components the grid holds laid out in layers: each takes its 2 × 2 cells and,
/// with the least gaps, a cell beside its neighbour and half a cell from the next layer, so
/// 3 × 2.5 cells of its own (each gap counted half to either side, in a grid grown by half a
/// gap all round): 1,353. More is refused before any layout is tried, which takes seconds
/// a try for thousands of components.
pub fn most_components() -> usize {
    let (node, layer) = LEAST_GAPS;
    let room = (GRID.width() + node) * (GRID.height() + layer);
    (room / ((COMPONENT_SIDE + node) * (COMPONENT_SIDE + layer))) as usize
}

/// Places a checked model in layers, shrinking the gaps until it fits the grid. A diagram that
/// does not fit is refused, naming its size and whether it fits with its flow turned (`LR`
/// instead of `TB`, or back); one with more components to place than the grid can hold
/// ([`most_components`]), at once. Given up between its steps once `stop` is raised.
pub fn place(model: &Model, settings: &Settings, stop: &Stop) -> LayoutResult<Placement> {
    let to_place = (model.components.iter())
        .filter(|c| c.position == Position::Auto)
        .count();
    if to_place > most_components() {
        return Err(LayoutError::input(format!(
            "{to_place} components to lay out: the grid's 100 × 100 cells hold {} at most in \
             layers (each takes 2 × 2 cells and the least gaps around it); split it into \
             several diagrams",
            most_components()
        )));
    }
    let b = match fit(model, settings, stop)? {
        Ok(placement) => return Ok(placement),
        Err(smallest) => smallest,
    };
    let mut turned = model.clone();
    turned.direction = model.direction.turned();
    let (from, to) = (model.direction.name(), turned.direction.name());
    let advice = match fit(&turned, settings, stop)? {
        Ok(_) => format!(
            "laid out {to} instead of {from} it fits: turn the flow (Mermaid's `flowchart {to}`, \
             DOT's `rankdir={to}`, in JSON or CSV a group's `direction` around it all)"
        ),
        Err(t) => format!(
            "laid out {to} instead of {from} it is {} × {} cells, too: split it into several \
             diagrams or shorten the longest labels",
            t.width(),
            t.height()
        ),
    };
    Err(LayoutError::input(format!(
        "the laid-out diagram is {} × {} cells even with the smallest gaps, larger than the \
         grid's 100 × 100; {advice}",
        b.width(),
        b.height()
    )))
}

/// The gaps of each step of fitting the grid, in turn, for a diagram with links labelled or
/// not: a step whose gaps come out the same as the one before (the settings' gaps already at
/// their least, or no label to give a layer) would lay out the same diagram again, and is
/// left out.
fn steps(settings: &Settings, labelled: bool) -> Vec<Gaps> {
    let mut steps: Vec<Gaps> = (STEPS.iter())
        .map(|&(scale, label_layers, bound, least_layer, tracks)| {
            let label_layers = label_layers && labelled;
            Gaps::scaled(settings, scale, label_layers, bound, least_layer, tracks)
        })
        .collect();
    steps.dedup();
    steps
}

/// Tries the steps in turn: the placement of the first that fits the grid, else the bounds of
/// the last one tried; before each, gives up if `stop` is raised.
fn fit(model: &Model, settings: &Settings, stop: &Stop) -> LayoutResult<Result<Placement, Rect>> {
    let mut smallest = None;
    let orders = Orders::default();
    let horizontal = model.direction_in(None).is_horizontal();
    // A bounded step too long along the flow (though narrow enough), its bound and its gaps
    // but for the bound: with the same gaps, a smaller bound only makes it longer, so those
    // steps are skipped.
    let mut too_long: Option<(f64, Gaps)> = None;
    let labelled = model.links.iter().any(|l| l.label.is_some());
    for gaps in steps(settings, labelled) {
        let unbounded = Gaps {
            bound: None,
            ..gaps
        };
        if let (Some(b), Some((longer_than, at))) = (gaps.bound, too_long)
            && b < longer_than
            && at == unbounded
        {
            continue;
        }
        stop.check()?;
        let placement = place_with(model, &gaps, &orders);
        check_by_hand(model, &placement)?;
        match bounds(&placement) {
            Some(b) if !GRID.contains(&b) => {
                let (across, along) = across_and_along(&b, horizontal);
                if let Some(bound) = gaps.bound
                    && across <= GRID.width()
                    && along > GRID.height()
                {
                    too_long = Some((bound, unbounded));
                }
                smallest = Some(b);
            }
            Some(b) if gaps.tracks > 0 && gaps.tracks < ALL => {
                let along = across_and_along(&b, horizontal).1;
                let roomier = spend_room(model, &gaps, &orders, placement, along, stop)?;
                return Ok(Ok(roomier));
            }
            _ => return Ok(Ok(placement)),
        }
    }
    Ok(Err(
        smallest.expect("a diagram that does not fit has bounds")
    ))
}

/// A diagram that fits with its lines sharing tracks, `along` long along its flow: the room
/// the grid leaves along it spent on more tracks where the most lines share one (half a cell
/// each), as many as still fit (halved until they do); given up if `stop` is raised.
fn spend_room(
    model: &Model,
    gaps: &Gaps,
    orders: &Orders,
    placement: Placement,
    along: f64,
    stop: &Stop,
) -> LayoutResult<Placement> {
    let horizontal = model.direction_in(None).is_horizontal();
    let room = GRID.height() - along;
    let mut extra = (room / clusters::TRACK_GAP) as usize;
    while extra > 0 {
        stop.check()?;
        let roomier = Gaps {
            extra_tracks: extra,
            ..*gaps
        };
        let p = place_with(model, &roomier, orders);
        let Some(b) = bounds(&p).filter(|b| !GRID.contains(b)) else {
            return Ok(p);
        };
        let longer = across_and_along(&b, horizontal).1;
        extra = fewer_tracks(extra, (longer - along) / extra as f64, room);
    }
    Ok(placement)
}

/// A diagram's size `b` across its flow and along it (`horizontal`: flowing left or right).
fn across_and_along(b: &Rect, horizontal: bool) -> (f64, f64) {
    if horizontal {
        (b.height(), b.width())
    } else {
        (b.width(), b.height())
    }
}

/// The next count of extra tracks to try after `extra` grew the diagram `growth_per_track`
/// a track and did not fit in `room`: half as many, halved again while that many would grow
/// it past the room at the same rate (each try is a whole layout).
fn fewer_tracks(extra: usize, growth_per_track: f64, room: f64) -> usize {
    let mut fewer = extra / 2;
    while fewer > 0 && fewer as f64 * growth_per_track > room {
        fewer /= 2;
    }
    fewer
}

/// Places a checked model in layers once, with the settings' gaps, whether it fits the grid or
/// not (to measure the layout's phases alone; [`place`] is what create-diagram uses).
pub fn place_once(model: &Model, settings: &Settings) -> Placement {
    let gaps = Gaps::scaled(settings, 1.0, true, None, 1.0, ALL);
    place_with(model, &gaps, &Orders::default())
}

/// Places a checked model in layers with these gaps, whether it fits or not, reusing the
/// layers' orders found before.
fn place_with(model: &Model, gaps: &Gaps, orders: &Orders) -> Placement {
    let root = clusters::Layout::new(model, gaps, orders).container(None, &[]);
    let unplanned = root.unplanned.clone();
    let mut placement = placement_of(model, root, true);
    if gaps.tracks > 0 {
        placement.planned.fill(true);
        for l in unplanned {
            placement.planned[l] = false;
        }
    }
    placement
}

#[cfg(test)]
mod tests;
