//! SVG to PNG through resvg (pure Rust), with the fonts shipped in `assets/fonts/`: no system
//! fonts are loaded, so a picture comes out the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};
use skrifa::MetadataProvider;

use super::svg::FONT_FAMILY;
use super::{FONTS, RenderError};

/// How resvg reads our SVG: with the shipped fonts alone ([`fonts`]), a character the first
/// lacks taken from the next that has it, quietly (resvg's own fallback logs a warning each
/// time, which the server's log showed for every picture with a symbol).
pub(super) fn options() -> usvg::Options<'static> {
    let fallback: usvg::FallbackSelectionFn<'static> = Box::new(|c, used, fonts| {
        (fonts.faces())
            .find(|face| !used.contains(&face.id) && has_char(fonts, face.id, c))
            .map(|face| face.id)
    });
    usvg::Options {
        font_family: FONT_FAMILY.to_owned(),
        fontdb: fonts(),
        font_resolver: usvg::FontResolver {
            select_font: usvg::FontResolver::default_font_selector(),
            select_fallback: fallback,
        },
        ..usvg::Options::default()
    }
}

/// Whether font `id` of `fonts` has a glyph for `c`.
fn has_char(fonts: &usvg::fontdb::Database, id: usvg::fontdb::ID, c: char) -> bool {
    fonts
        .with_face_data(id, |data, index| {
            let font = skrifa::FontRef::from_index(data, index).ok()?;
            font.charmap().map(c)
        })
        .flatten()
        .is_some()
}

/// The font database: the shipped fonts alone, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DATABASE: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(DATABASE.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        for font in FONTS {
            fonts.load_font_data(font.to_vec());
        }
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
    let tree = usvg::Tree::from_str(svg, &options())
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
