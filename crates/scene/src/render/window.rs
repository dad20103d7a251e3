//! A picture of one view of a scene, for a terminal that shows pixels (the TUI's map): the
//! part of the grid the view shows, in 2D or 3D, at the pixel size of the map's cells, with
//! the objects the map emphasises outlined and its centre cross, as RGBA pixels (no file
//! format: the terminal protocol encodes them).
//!
//! Only the part of the scene in view is drawn ([`Scene::part`]), so a close view of a large
//! diagram costs what its few objects cost. In 2D the picture shows the view's rectangle as the
//! map does (scaled by its width, centred); in 3D it shows the objects of that rectangle (and
//! of a margin around it) seen isometrically, the rectangle's projection fitted to the picture
//! and centred on the view's centre, so that panning and zooming move the 3D view as they move
//! the 2D one.

use std::fmt::Write as _;

use super::svg::{Fit, flat};
use super::{RenderError, View, isometric, png};
use crate::iso::{BLOCK_HEIGHT, Iso, Projection};
use crate::{Point, Rect, Rgb, Scene, Shape};

/// The selected object's outline.
const SELECTED: Rgb = Rgb::new(0x00, 0x5F, 0xD7);
/// The outline of a marked object or a selector preview's match.
const MARKED: Rgb = Rgb::new(0xE0, 0x6C, 0x00);
/// The centre cross.
const CROSS: Rgb = Rgb::new(0x40, 0x40, 0x40);

/// Which view, of what, how large.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// 2D or 3D.
    pub view: View,
    /// The rectangle of the grid the view shows.
    pub region: Rect,
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
}

/// What a picture of a view emphasises, by object id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    /// The selected object: a solid outline.
    pub selected: Option<String>,
    /// Marked objects and a selector preview's matches: a dashed outline.
    pub marked: Vec<String>,
}

/// An opaque picture as 8-bit RGBA pixels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// Four bytes a pixel.
    pub rgba: Vec<u8>,
}

/// The picture of `window` of `scene`, `highlights` outlined, with a cross at its centre.
pub fn render_window(
    scene: &Scene,
    window: &Window,
    highlights: &Highlights,
) -> Result<Pixels, RenderError> {
    let (width, height) = (window.width, window.height);
    if !(1..=super::MAX_SIDE).contains(&width) || !(1..=super::MAX_SIDE).contains(&height) {
        return Err(RenderError(format!(
            "a {width}×{height} picture: each side must be from 1 to {} pixels",
            super::MAX_SIDE
        )));
    }
    let region = window.region;
    let (mut svg, outline): (String, Box<dyn Fn(Rect, f64) -> Rect>) = match window.view {
        View::Flat => {
            let part = scene.part(region);
            let fit = centred(region, f64::from(width) / region.width(), window);
            let svg = flat(&part, fit, width, height);
            let outline = move |b: Rect, _| Rect::new(point(fit, b.min), point(fit, b.max));
            (svg, Box::new(outline))
        }
        View::Isometric => {
            let part = scene.part(region.grown(region.width().max(region.height()) / 2.0));
            let projection = Projection::isometric();
            let shown = projected(projection, region, 0.0);
            let scale = (f64::from(width) / shown.width()).min(f64::from(height) / shown.height());
            let fit = centred(shown, scale, window);
            let mut iso = Iso::of(&part, projection);
            // The walls of a large area run far out of view: only the pieces in it are drawn.
            iso.pieces.retain(|piece| {
                piece.faces.iter().any(|face| {
                    let corners = face.corners.iter().map(|&c| Rect::new(c, c));
                    corners
                        .reduce(Rect::union)
                        .is_some_and(|r| r.intersects(shown))
                })
            });
            let above = isometric::above(&part, &iso);
            let svg = isometric::svg(&part, &iso, &above, fit, width, height);
            let outline = move |b: Rect, z: f64| {
                let lifted = projected(projection, b, 0.0).union(projected(projection, b, z));
                Rect::new(point(fit, lifted.min), point(fit, lifted.max))
            };
            (svg, Box::new(outline))
        }
    };
    let mut marks = String::new();
    let height_of = |shape: &Shape| match shape {
        Shape::Component(_) => BLOCK_HEIGHT,
        Shape::Area(area) => area.wall.map_or(0.0, |w| w.height),
        _ => 0.0,
    };
    let wanted = highlights
        .marked
        .iter()
        .map(|id| (id, MARKED, "stroke-dasharray=\"6 3\""))
        .chain(highlights.selected.iter().map(|id| (id, SELECTED, "")));
    for (id, colour, dash) in wanted {
        if let Some(p) = scene.get(id) {
            let at = outline(p.bounds, height_of(&p.shape)).grown(3.0);
            let _ = write!(
                marks,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" \
                 stroke=\"{}\" stroke-width=\"3\" {dash}/>",
                at.min.x,
                at.min.y,
                at.width(),
                at.height(),
                colour.hex()
            );
        }
    }
    let (x, y) = (f64::from(width / 2), f64::from(height / 2));
    let _ = write!(
        marks,
        "<path d=\"M{:.1} {y:.1}H{:.1}M{x:.1} {:.1}V{:.1}\" stroke=\"{}\" stroke-width=\"2\" shape-rendering=\"crispEdges\"/>",
        x - 7.0,
        x + 7.0,
        y - 7.0,
        y + 7.0,
        CROSS.hex()
    );
    let end = svg.rfind("</svg>").unwrap_or(svg.len());
    svg.insert_str(end, &marks);
    let rgba = png::pixmap(&svg, width, height)?.take();
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}

/// `shown`'s centre at the window's centre, at `scale` pixels a unit.
fn centred(shown: Rect, scale: f64, window: &Window) -> Fit {
    let centre = shown.centre();
    Fit {
        scale,
        dx: f64::from(window.width) / 2.0 - centre.x * scale,
        dy: f64::from(window.height) / 2.0 - centre.y * scale,
    }
}

/// A point in pixels.
fn point(fit: Fit, p: Point) -> Point {
    let (x, y) = fit.at(p);
    Point::new(x, y)
}

/// The rectangle around `rect`'s corners at height `z` on the screen of `projection`.
fn projected(projection: Projection, rect: Rect, z: f64) -> Rect {
    let corners = [
        rect.min,
        Point::new(rect.max.x, rect.min.y),
        rect.max,
        Point::new(rect.min.x, rect.max.y),
    ];
    corners
        .iter()
        .map(|&c| {
            let p = projection.at(c, z);
            Rect::new(p, p)
        })
        .reduce(Rect::union)
        .expect("four corners")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DEFAULT_STATUS_KEY;
    use serde_json::json;

    /// A failing component at (0, 0) and a healthy one at (40, 0).
    fn scene() -> Scene {
        let component = |x: f64, status: &str| {
            json!({"type": "component", "data": {"componentId": "database.postgres",
                "position": {"x": x, "y": 0}, "meta": {"status": status}}})
        };
        let content = serde_json::from_value(json!({
            "down": component(0.0, "down"),
            "up": component(40.0, "up"),
        }))
        .unwrap();
        Scene::build(&content, DEFAULT_STATUS_KEY)
    }

    fn window(view: View, centre: Point, across: f64) -> Window {
        Window {
            view,
            region: Rect::centred(centre, across, across * 0.75),
            width: 320,
            height: 240,
        }
    }

    fn pixel(pixels: &Pixels, x: u32, y: u32) -> Rgb {
        let at = ((y * pixels.width + x) * 4) as usize;
        Rgb::new(pixels.rgba[at], pixels.rgba[at + 1], pixels.rgba[at + 2])
    }

    fn holds(pixels: &Pixels, colour: Rgb) -> bool {
        pixels
            .rgba
            .chunks_exact(4)
            .any(|p| (p[0], p[1], p[2]) == (colour.r, colour.g, colour.b))
    }

    const DOWN_FILL: Rgb = Rgb::new(0xFD, 0xE2, 0xE1);
    const UP_FILL: Rgb = Rgb::new(0xE2, 0xF0, 0xD9);

    #[test]
    fn a_2d_window_shows_its_region_only() {
        let scene = scene();
        let none = Highlights::default();
        // 16 units across: the failing box fills the middle, the healthy one is out of view.
        let near = render_window(
            &scene,
            &window(View::Flat, Point::new(0.0, 0.0), 16.0),
            &none,
        )
        .unwrap();
        assert_eq!(
            (near.width, near.height, near.rgba.len()),
            (320, 240, 320 * 240 * 4)
        );
        assert_eq!(
            pixel(&near, 150, 105),
            DOWN_FILL,
            "inside the box, off the cross"
        );
        assert!(!holds(&near, UP_FILL));
        // Panned onto the other one.
        let there = render_window(
            &scene,
            &window(View::Flat, Point::new(40.0, 0.0), 16.0),
            &none,
        )
        .unwrap();
        assert_eq!(pixel(&there, 150, 105), UP_FILL);
        assert!(!holds(&there, DOWN_FILL));
    }

    #[test]
    fn the_selection_and_the_marked_are_outlined_in_2d_and_3d() {
        let scene = scene();
        let highlights = Highlights {
            selected: Some("down".into()),
            marked: vec!["up".into()],
        };
        for view in [View::Flat, View::Isometric] {
            let whole = window(view, Point::new(20.0, 0.0), 60.0);
            let plain = render_window(&scene, &whole, &Highlights::default()).unwrap();
            let marked = render_window(&scene, &whole, &highlights).unwrap();
            for colour in [SELECTED, MARKED] {
                assert!(!holds(&plain, colour), "{view}: nothing emphasised");
                assert!(holds(&marked, colour), "{view}: {colour:?} drawn");
            }
            assert!(holds(&plain, CROSS), "{view}: the centre cross");
        }
    }

    #[test]
    fn a_3d_window_draws_the_blocks_in_view() {
        let scene = scene();
        let none = Highlights::default();
        let near = window(View::Isometric, Point::new(0.0, 0.0), 16.0);
        let pixels = render_window(&scene, &near, &none).unwrap();
        assert!(holds(&pixels, DOWN_FILL), "the block's top");
        assert!(!holds(&pixels, UP_FILL), "the other block is far away");
        let bad = Window { width: 0, ..near };
        assert!(render_window(&scene, &bad, &none).is_err());
    }
}
