//! Pictures of a scene: SVG written by hand, and PNG rasterised from it by resvg with a
//! shipped font. Used by the server's image route and by `diagtui doc render`.

mod png;
mod svg;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::Scene;

pub use svg::{FONT_FAMILY, svg};

/// The default image width, in pixels.
pub const DEFAULT_WIDTH: u32 = 1024;

/// The default image height, in pixels.
pub const DEFAULT_HEIGHT: u32 = 768;

/// The largest width or height, in pixels.
pub const MAX_SIDE: u32 = 8192;

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
    let svg = svg(scene, width, height);
    match format {
        Format::Svg => Ok(svg.into_bytes()),
        Format::Png => png::png(&svg, width, height),
    }
}

#[cfg(test)]
mod tests;
