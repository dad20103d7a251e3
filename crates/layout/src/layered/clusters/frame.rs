//! Where a container's layers lie along its flow, and where positions across and along the
//! flow go on the page.

use crate::geometry::{Rect, ceil_half, floor_half};
use crate::layered::order::Proper;
use crate::model::Direction;
use crate::route::Point;

/// Where each layer starts along the flow, how thick it is (its deepest node's depth), and
/// the length of them all with the channels' gaps (`gap`) between them.
pub(super) fn layer_tops(proper: &Proper, depth: &[f64], gap: &[f64]) -> (Vec<f64>, Vec<f64>, f64) {
    let mut top = Vec::with_capacity(proper.layers.len());
    let mut thick = Vec::with_capacity(proper.layers.len());
    let mut at = 0.0;
    for (l, layer) in proper.layers.iter().enumerate() {
        let t = ceil_half(layer.iter().map(|&v| depth[v]).fold(0.0, f64::max));
        top.push(at);
        thick.push(t);
        at += t + gap.get(l).copied().unwrap_or(0.0);
    }
    (top, thick, at)
}

/// Where an item `depth` long starts in a layer `thick` thick, from the layer's start along
/// the flow. Down the page (or up it) the items line up at the side their squares are on, so
/// that a layer's components stand in a row with their names below, however long the names;
/// across the page they are centred (their names lie across the flow, not along it).
pub(super) fn start_in_layer(direction: Direction, thick: f64, depth: f64) -> f64 {
    match direction {
        Direction::TopBottom => 0.0,
        Direction::BottomTop => thick - depth,
        Direction::LeftRight | Direction::RightLeft => floor_half((thick - depth) / 2.0),
    }
}

/// Where positions across and along the flow go on the page.
pub(super) struct Frame {
    pub(super) direction: Direction,
    /// The length of the container along the flow.
    pub(super) long: f64,
}

impl Frame {
    /// A point given across and along the flow.
    pub(super) fn point(&self, across: f64, along: f64) -> Point {
        match self.direction {
            Direction::TopBottom => (across, along),
            Direction::BottomTop => (across, self.long - along),
            Direction::LeftRight => (along, across),
            Direction::RightLeft => (self.long - along, across),
        }
    }

    /// A rectangle given its corner nearest the origin across and along, and its sizes.
    pub(super) fn rect(&self, across: f64, along: f64, breadth: f64, depth: f64) -> Rect {
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
