//! SVG to PNG through resvg (pure Rust), with the one font shipped in `assets/fonts/`: no
//! system fonts are loaded, so a picture comes out the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::svg::FONT_FAMILY;
use super::{FONT, RenderError};

/// The font database: the shipped font alone, loaded once.
pub(super) fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(FONTS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        fonts.set_sans_serif_family(FONT_FAMILY);
        Arc::new(fonts)
    }))
}

/// Rasterises an SVG (one written by [`super::svg`]) to a PNG of `width` × `height` pixels.
pub fn png(svg: &str, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    let pixmap = pixmap(svg, width, height)?;
    encode(&pixmap).map_err(|e| RenderError(format!("the PNG could not be written: {e}")))
}

/// Rasterises an SVG (one written by [`super::svg`]) to `width` × `height` pixels.
pub fn pixmap(svg: &str, width: u32, height: u32) -> Result<tiny_skia::Pixmap, RenderError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_owned(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| RenderError(format!("the SVG could not be read: {e}")))?;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| RenderError(format!("cannot make a {width}×{height} image")))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// An opaque picture (the SVG paints a white page first) as an RGB PNG, compressed with the
/// png crate's fast setting: several times quicker than its default, for files a little larger.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}
