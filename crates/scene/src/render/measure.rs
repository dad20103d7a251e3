//! How wide text is in the shipped fonts, and a label's text fitted to its box: wrapped at
//! spaces when the box has room for more lines, else made smaller, so that it is never cut
//! (a title's part past its band would stand on another colour, often unreadable).

use std::collections::HashMap;
use std::sync::OnceLock;

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

use super::FONTS;

/// A line's height, as a share of the text's size (the SVG writer's line spacing).
pub(super) const LINE: f64 = 1.2;

/// Each character of the shipped fonts and its advance, in ems: in the first font that has
/// it, as the picture draws it.
fn advances() -> &'static HashMap<u32, f64> {
    static ADVANCES: OnceLock<HashMap<u32, f64>> = OnceLock::new();
    ADVANCES.get_or_init(|| {
        let mut advances = HashMap::new();
        for font in FONTS.iter().filter_map(|data| FontRef::new(data).ok()) {
            let metrics = font.glyph_metrics(Size::new(1.0), LocationRef::default());
            for (c, glyph) in font.charmap().mappings() {
                if let Some(advance) = metrics.advance_width(glyph) {
                    advances.entry(c).or_insert(f64::from(advance));
                }
            }
        }
        advances
    })
}

/// The width of one line of text, in ems. Characters no font has are not drawn, so take no
/// room.
pub(super) fn line_width(line: &str) -> f64 {
    let advances = advances();
    line.chars()
        .map(|c| advances.get(&u32::from(c)).copied().unwrap_or(0.0))
        .sum()
}

/// The width of the widest line of a text, in ems.
pub(super) fn widest(text: &str) -> f64 {
    text.lines().map(line_width).fold(0.0, f64::max)
}

/// Text fitted to a box: its lines and its size.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fitted {
    /// The lines, top to bottom.
    pub(super) lines: Vec<String>,
    /// The text's size, in the box's units.
    pub(super) size: f64,
}

/// `text` at `size` fitted into `width` × `height` (all in one unit): as it is when it fits;
/// else wrapped at spaces when that fits; else made smaller until it does. Its own line
/// breaks are kept.
pub(super) fn fit(text: &str, size: f64, width: f64, height: f64) -> Fitted {
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let fits = |lines: &[String], size: f64| {
        let widest = lines.iter().map(|l| line_width(l)).fold(0.0, f64::max);
        // (Lines wrapped here have no line breaks of their own.)
        widest * size <= width + 1e-9 && lines.len().max(1) as f64 * LINE * size <= height + 1e-9
    };
    if fits(&lines, size) {
        return Fitted { lines, size };
    }
    let wrapped: Vec<String> = lines.iter().flat_map(|l| wrap(l, width / size)).collect();
    if wrapped.len() > lines.len() && fits(&wrapped, size) {
        return Fitted {
            lines: wrapped,
            size,
        };
    }
    let widest = lines.iter().map(|l| line_width(l)).fold(0.0, f64::max);
    let tallest = lines.len().max(1) as f64 * LINE;
    let size = size
        .min(if widest > 0.0 { width / widest } else { size })
        .min(height / tallest)
        .max(0.0);
    Fitted { lines, size }
}

/// A line broken at spaces into lines at most `room` ems wide (a word wider than that stands
/// alone).
pub(super) fn wrap(line: &str, room: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty() || line_width(&candidate) <= room {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_owned()));
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_font() {
        // Noto Sans: "i" is narrow, "W" wide; a space takes room, a missing character none.
        assert!(line_width("i") < 0.3);
        assert!(line_width("W") > 0.8);
        assert!(line_width(" ") > 0.2);
        assert_eq!(line_width("\u{1F510}"), 0.0);
        let word = line_width("Production VPC");
        assert!((line_width("Production VPC\u{1F510}") - word).abs() < 1e-9);
    }

    #[test]
    fn text_that_fits_stays_as_it_is() {
        let fitted = fit("Web tier", 0.5, 10.0, 1.0);
        assert_eq!(fitted.lines, ["Web tier"]);
        assert_eq!(fitted.size, 0.5);
    }

    #[test]
    fn text_too_wide_wraps_when_the_box_is_tall_enough() {
        let fitted = fit("Jaeger Storage Extension", 0.5, 5.0, 2.0);
        assert_eq!(fitted.lines, ["Jaeger Storage", "Extension"]);
        assert_eq!(fitted.size, 0.5);
    }

    #[test]
    fn text_too_wide_for_one_line_of_its_box_shrinks_to_its_width() {
        let fitted = fit("Production VPC", 0.5, 3.0, 1.0);
        assert_eq!(fitted.lines, ["Production VPC"]);
        assert!(fitted.size < 0.5);
        assert!((line_width("Production VPC") * fitted.size - 3.0).abs() < 1e-9);
    }

    #[test]
    fn its_own_lines_are_kept_and_shrink_to_the_height() {
        let fitted = fit("Trace\nStorage", 0.5, 10.0, 0.9);
        assert_eq!(fitted.lines, ["Trace", "Storage"]);
        assert!((fitted.size - 0.9 / (2.0 * LINE)).abs() < 1e-9);
    }
}
