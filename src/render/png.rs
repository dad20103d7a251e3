//! SVG to PNG through resvg (pure Rust), with the one font shipped in `assets/fonts/`: no
//! system fonts are loaded, so a picture comes out the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::RenderError;
use super::svg::FONT_FAMILY;

/// Noto Sans Regular, subset (see `assets/fonts/README.md`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSans-Regular.ttf");

/// The font database: the shipped font alone, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
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
    pixmap
        .encode_png()
        .map_err(|e| RenderError(format!("the PNG could not be written: {e}")))
}
