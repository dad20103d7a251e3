//! Pictures of a scene: SVG written by hand, and PNG rasterised from it by resvg with a
//! shipped font. Used by the server's image route and by `diagtui doc render`. Two views: the
//! flat 2D drawing of the grid, and the isometric 3D one ([`crate::iso`]); [`Picture`] says
//! which, and how large.

mod glyphs;
mod isometric;
mod measure;
mod png;
mod svg;
mod window;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::iso::{Iso, Projection};
use crate::{FOOTPRINT, Rect, Scene};
use svg::{Fit, MARGIN, ROOM};

pub use svg::{FONT_FAMILY, escape, svg};
pub use window::{Highlights, Pixels, Window, render_window};

/// The older hosted default width (1024 × 768), for callers of [`render`], which takes both
/// sides; [`Picture`] defaults to [`PICTURE_WIDTH`] instead.
pub const DEFAULT_WIDTH: u32 = 1024;

/// The older hosted default height, for callers of [`render`] (see [`DEFAULT_WIDTH`]).
pub const DEFAULT_HEIGHT: u32 = 768;

/// The largest width or height, in pixels.
pub const MAX_SIDE: u32 = 8192;

/// The width of a [`Picture`] when none is given (the hosted service's later default), in
/// pixels.
pub const PICTURE_WIDTH: u32 = 1400;

/// The fonts pictures are drawn and their text measured in, subsets of Noto (see
/// `assets/fonts/README.md`): Noto Sans Regular for letters, then Noto Sans Symbols and
/// Symbols 2 for the symbols it lacks (`❤`, `⚙`, `⎈`, `✓`), in the order a character is looked
/// for in them.
const FONTS: [&[u8]; 3] = [
    include_bytes!("../../../../assets/fonts/NotoSans-Regular.ttf"),
    include_bytes!("../../../../assets/fonts/NotoSansSymbols-Regular.ttf"),
    include_bytes!("../../../../assets/fonts/NotoSansSymbols2-Regular.ttf"),
];

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RenderError(pub String);

/// An image format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// PNG, rasterised.
    #[default]
    Png,
    /// SVG text.
    Svg,
}

impl Format {
    /// The format a file name's extension names (`.png`, `.svg`, in any case).
    pub fn of_path(path: &Path) -> Option<Format> {
        path.extension()?.to_str()?.parse().ok()
    }

    /// The format's media type.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Svg => "image/svg+xml",
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        match text.to_ascii_lowercase().as_str() {
            "png" => Ok(Format::Png),
            "svg" => Ok(Format::Svg),
            _ => Err(format!("must be png or svg, got \"{text}\"")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Png => "png",
            Format::Svg => "svg",
        })
    }
}

/// How a picture shows the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The grid from straight above (`2D`).
    Flat,
    /// The isometric view, components as blocks (`3D`, the default).
    #[default]
    Isometric,
}

impl FromStr for View {
    type Err = String;

    fn from_str(text: &str) -> Result<View, String> {
        match text.to_ascii_lowercase().as_str() {
            "2d" => Ok(View::Flat),
            "3d" => Ok(View::Isometric),
            _ => Err(format!("must be 2D or 3D, got \"{text}\"")),
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            View::Flat => "2D",
            View::Isometric => "3D",
        })
    }
}

/// What picture to make of a scene: its view and its size, each side given or following.
///
/// Without `component_size`, the diagram is fitted to `width` ([`PICTURE_WIDTH`] by default)
/// and `height` (by default as high as the diagram's aspect makes it, at most [`MAX_SIDE`]).
/// With it, the diagram is drawn at that many pixels per component side, centred; a side not
/// given is as large as the diagram then needs, and a side the size would push beyond
/// [`MAX_SIDE`] is an error naming `component-size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Picture {
    /// 2D or 3D.
    pub view: View,
    /// Pixels across.
    pub width: Option<u32>,
    /// Pixels down.
    pub height: Option<u32>,
    /// Pixels across one component's footprint (two grid units).
    pub component_size: Option<u32>,
}

/// Why a [`Picture`] could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The component size asked for makes a side larger than [`MAX_SIDE`].
    #[error("component-size: {0}")]
    ComponentSize(String),
    /// The drawing failed.
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl Picture {
    /// The picture's width and height, and the fit of `bounds` (the scene's extent in the
    /// view's units) into it.
    fn frame(&self, bounds: Option<Rect>) -> Result<(u32, u32, Fit), PictureError> {
        let (across, down) = bounds
            .map(|b| b.grown(ROOM))
            .map_or((1.0, 1.0), |b| (b.width(), b.height()));
        let Some(size) = self.component_size else {
            let width = self.width.unwrap_or(PICTURE_WIDTH);
            let height = self
                .height
                .unwrap_or_else(|| following(width, down / across));
            return Ok((width, height, Fit::new(bounds, width, height)));
        };
        let scale = f64::from(size) / FOOTPRINT;
        let (content_w, content_h) = (across * scale, down * scale);
        let margin = MARGIN * content_w.min(content_h) / (1.0 - 2.0 * MARGIN);
        let side = |given: Option<u32>, content: f64| {
            given.map_or_else(|| (content + 2.0 * margin).ceil().max(1.0), f64::from)
        };
        let (width, height) = (side(self.width, content_w), side(self.height, content_h));
        if width > f64::from(MAX_SIDE) || height > f64::from(MAX_SIDE) {
            return Err(PictureError::ComponentSize(format!(
                "{size} pixels a component makes the picture {width} × {height} pixels, \
                 more than {MAX_SIDE} a side"
            )));
        }
        let (width, height) = (width as u32, height as u32);
        Ok((width, height, Fit::with_scale(bounds, scale, width, height)))
    }
}

/// The height of a picture `width` pixels wide of a diagram `aspect` times as high as wide
/// (with the margin the fit keeps): from 1 to [`MAX_SIDE`].
fn following(width: u32, aspect: f64) -> u32 {
    let width = f64::from(width);
    // The margin is a share of the shorter side: the height when that is the height, else
    // the width.
    let low = width * aspect / (1.0 - 2.0 * MARGIN + 2.0 * MARGIN * aspect);
    let height = if low < width {
        low
    } else {
        width * (1.0 - 2.0 * MARGIN) * aspect + 2.0 * MARGIN * width
    };
    height.ceil().clamp(1.0, f64::from(MAX_SIDE)) as u32
}

/// Reads a `component-size`: a whole number of pixels from 1 to [`MAX_SIDE`].
pub fn parse_component_size(text: &str) -> Result<u32, String> {
    parse_side(text)
}

/// Reads an image width or height: a whole number from 1 to [`MAX_SIDE`].
pub fn parse_side(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|side| (1..=MAX_SIDE).contains(side))
        .ok_or_else(|| format!("must be a whole number from 1 to {MAX_SIDE}, got \"{text}\""))
}

/// The scene as an image of `width` × `height` pixels (each 1 to [`MAX_SIDE`]) in `format`.
pub fn render(
    scene: &Scene,
    format: Format,
    width: u32,
    height: u32,
) -> Result<Vec<u8>, RenderError> {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(RenderError(format!(
            "a {width}×{height} image: each side must be from 1 to {MAX_SIDE} pixels"
        )));
    }
    encode(svg(scene, width, height), format, width, height)
}

/// The scene as the picture `picture` says, in `format`.
pub fn render_picture(
    scene: &Scene,
    format: Format,
    picture: &Picture,
) -> Result<Vec<u8>, PictureError> {
    let (svg, width, height) = match picture.view {
        View::Flat => {
            let (width, height, fit) = picture.frame(svg::flat_bounds(scene))?;
            (svg::flat(scene, fit, width, height), width, height)
        }
        View::Isometric => {
            let iso = Iso::of(scene, Projection::isometric());
            let (bounds, above) = isometric::bounds_and_above(scene, &iso);
            let (width, height, fit) = picture.frame(bounds)?;
            (
                isometric::svg(scene, &iso, &above, fit, width, height),
                width,
                height,
            )
        }
    };
    Ok(encode(svg, format, width, height)?)
}

/// An SVG image as `format`.
fn encode(svg: String, format: Format, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    match format {
        Format::Svg => Ok(svg.into_bytes()),
        Format::Png => png::png(&svg, width, height),
    }
}

#[cfg(test)]
mod reading_tests;
#[cfg(test)]
mod tests;
