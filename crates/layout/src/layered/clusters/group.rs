//! A group as a block: its contents inside its padding, its title on a band along its top,
//! placed where no line crossing the top border runs through it.

use crate::geometry::{Rect, ceil_half, floor_half};
use crate::model::Direction;
use crate::place::{Block, GroupLabelPlace, text_box};

use super::border::{Crossing, to_border};
use super::{Layout, TITLE_PADDING};

/// The least room between a line crossing a group's top border and the title's band.
const TITLE_CLEARANCE: f64 = 0.5;

/// Where a group's contents and its title go across its top: the contents' left edge, the
/// group's width, and the band's left edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TitlePlace {
    /// The contents' left edge.
    pub(super) inner_x: f64,
    /// The group's width.
    pub(super) w: f64,
    /// The band's left edge.
    pub(super) band_x: f64,
}

/// Where a group's contents (`inner_w` wide, `padding` each side) and its title's band
/// (`caption_w` wide) go, given where lines cross the group's top border (`crossings`,
/// across from the contents' left edge): the contents centred and the band at the top-left,
/// unless a line would run through the band there. Then the band moves right, to the first
/// place clear of the lines; where the group is too narrow for that, it widens to hold the
/// band right of the last line.
pub(super) fn title_place(
    inner_w: f64,
    padding: f64,
    caption_w: f64,
    crossings: &[f64],
) -> TitlePlace {
    let w = ceil_half((inner_w + 2.0 * padding).max(caption_w));
    let inner_x = floor_half((w - inner_w) / 2.0);
    let centred = TitlePlace {
        inner_x,
        w,
        band_x: 0.0,
    };
    if caption_w <= 0.0 || crossings.is_empty() {
        return centred;
    }
    let on_border: Vec<f64> = crossings.iter().map(|x| x + inner_x).collect();
    let clear = |band_x: f64| {
        on_border
            .iter()
            .all(|&x| x <= band_x - TITLE_CLEARANCE || x >= band_x + caption_w + TITLE_CLEARANCE)
    };
    let beside_lines = on_border.iter().map(|&x| ceil_half(x + TITLE_CLEARANCE));
    let fitting = std::iter::once(0.0)
        .chain(beside_lines)
        .filter(|&band_x| band_x + caption_w <= w)
        .find(|&band_x| clear(band_x));
    if let Some(band_x) = fitting {
        return TitlePlace { band_x, ..centred };
    }
    // No room beside the lines: the band right of them all, the group widened to hold it
    // (the contents stay where the container planned their lines: moving them right of a
    // band at the left moved the lines' ports, and crossed them with their neighbours').
    let rightmost = on_border.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let band_x = ceil_half(rightmost + TITLE_CLEARANCE);
    TitlePlace {
        w: w.max(band_x + caption_w),
        band_x,
        ..centred
    }
}

impl Layout<'_> {
    /// A group: its contents inside its padding, its title on a band along its top (at the
    /// left where no line crosses the top border there, [`title_place`]); `crossing`: the
    /// lines crossing its border.
    pub(super) fn group_block(&self, g: usize, crossing: &[Crossing]) -> Block {
        let mut inner = self.container(Some(g), crossing);
        let p = self.gaps.padding;
        let label = self.model.groups[g].label.as_ref();
        let (caption_w, band_h) = label.map_or((0.0, 0.0), |l| {
            let (w, h) = text_box(&l.text, l.font_size.max(0.4));
            ((w + 2.0 * TITLE_PADDING).ceil(), h)
        });
        let direction = self.model.direction_in(Some(g));
        // The lines crossing the top border: into a group flowing down, out of one flowing up.
        let crossings: Vec<f64> = (inner.legs.iter())
            .filter(|leg| leg.group == g)
            .filter_map(|leg| match (direction, leg.upstream) {
                (Direction::TopBottom, true) => leg.points.first(),
                (Direction::BottomTop, false) => leg.points.last(),
                _ => None,
            })
            .map(|point| point.0)
            .collect();
        let place = title_place(inner.w, p, caption_w, &crossings);
        let (w, h) = (place.w, ceil_half(band_h + inner.h + 2.0 * p));
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
        let offset = (place.inner_x, band_h + p);
        let ports = std::mem::take(&mut inner.ports);
        block.take(inner, offset.0, offset.1);
        block.ports = to_border(g, direction, &mut block.legs, ports, offset, (w, h));
        block.areas.push((g, area));
        if label.is_some() {
            let band = Rect {
                x0: place.band_x,
                y0: 0.0,
                x1: place.band_x + caption_w,
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

#[cfg(test)]
mod tests {
    use super::{TitlePlace, title_place};

    #[test]
    fn a_title_keeps_the_top_left_unless_a_line_crosses_the_top_border_under_it() {
        // No line: the contents centred, the band at the left.
        let alone = title_place(2.0, 1.0, 7.0, &[]);
        assert_eq!(
            alone,
            TitlePlace {
                inner_x: 2.5,
                w: 7.0,
                band_x: 0.0
            }
        );
        // A line right of the band: as before.
        assert_eq!(title_place(12.0, 1.0, 4.0, &[10.0]).band_x, 0.0);
        // A line under the band's left end, room right of it: the band moves right of it.
        let moved = title_place(12.0, 1.0, 4.0, &[0.5]);
        assert_eq!((moved.inner_x, moved.w, moved.band_x), (1.0, 14.0, 2.0));
        // One member under a long title, its line into the top: the group widens to hold
        // the band right of the line.
        let widened = title_place(2.0, 1.0, 7.0, &[2.0]);
        assert_eq!(
            widened,
            TitlePlace {
                inner_x: 2.5,
                w: 12.0,
                band_x: 5.0
            }
        );
        // Lines across a wide group, no gap for the band between them: right of the last.
        let across = title_place(10.0, 0.5, 3.0, &[1.0, 3.0, 5.0, 7.0, 9.5]);
        assert_eq!((across.inner_x, across.w, across.band_x), (0.5, 13.5, 10.5));
    }
}
