//! Checks of rendered pictures: their sizes, read from PNG and SVG, and their colours.

use diagtui_scene::render::FONT_FAMILY;
use resvg::{tiny_skia, usvg};

/// A PNG's width and height, read from its signature and IHDR chunk.
pub fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.len() > 24, "too short for a PNG: {} bytes", png.len());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    assert_eq!(&png[12..16], b"IHDR", "the first chunk is IHDR");
    let number = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

/// An SVG's width and height, after checking that it parses and names our font.
pub fn svg_size(svg: &str) -> (f32, f32) {
    assert!(svg.contains(FONT_FAMILY), "{svg}");
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("the SVG does not parse ({e}): {svg}"));
    (tree.size().width(), tree.size().height())
}

/// The share of a PNG's pixels within `tolerance` (per channel) of the colour `rgb`.
pub fn share_of_colour(png: &[u8], rgb: [u8; 3], tolerance: u8) -> f64 {
    let pixmap = tiny_skia::Pixmap::decode_png(png).expect("a PNG");
    let near = pixmap
        .pixels()
        .iter()
        .filter(|pixel| {
            let pixel = pixel.demultiply();
            [pixel.red(), pixel.green(), pixel.blue()]
                .iter()
                .zip(rgb)
                .all(|(got, want)| got.abs_diff(want) <= tolerance)
        })
        .count();
    near as f64 / pixmap.pixels().len() as f64
}
