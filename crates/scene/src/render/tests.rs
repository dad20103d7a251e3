//! The renderer's tests: formats and sizes, SVG that parses, PNGs of the asked size, and
//! random content that always renders.

use resvg::usvg;
use serde_json::{Value, json};

use super::*;
use crate::DEFAULT_STATUS_KEY;
use crate::random_content_tests::{Random, random_content};
use diagtui_model::Content;

fn scene(content: Value) -> Scene {
    let content: Content = serde_json::from_value(content).unwrap();
    Scene::build(&content, DEFAULT_STATUS_KEY)
}

fn web_platform() -> Scene {
    let file: Value =
        serde_json::from_str(include_str!("../../../../assets/samples/web-platform.json")).unwrap();
    scene(file["content"].clone())
}

/// A PNG's width and height, from its IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let number = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

fn parses(svg: &str) -> usvg::Tree {
    usvg::Tree::from_str(svg, &usvg::Options::default()).unwrap_or_else(|e| panic!("{e}: {svg}"))
}

#[test]
fn formats_and_sides_read_from_text() {
    assert_eq!("PNG".parse(), Ok(Format::Png));
    assert_eq!("svg".parse(), Ok(Format::Svg));
    assert_eq!(
        "jpg".parse::<Format>(),
        Err("must be png or svg, got \"jpg\"".to_owned())
    );
    assert_eq!(Format::of_path(Path::new("out/web.SVG")), Some(Format::Svg));
    assert_eq!(Format::of_path(Path::new("web")), None);
    assert_eq!(Format::Png.content_type(), "image/png");
    assert_eq!(parse_side("8192"), Ok(8192));
    for bad in ["0", "8193", "-1", "1.5", "", "wide"] {
        assert_eq!(
            parse_side(bad),
            Err(format!(
                "must be a whole number from 1 to 8192, got \"{bad}\""
            ))
        );
    }
    assert!(render(&Scene::default(), Format::Svg, 0, 10).is_err());
}

#[test]
fn a_sample_renders_to_svg_and_to_a_png_of_the_asked_size() {
    let scene = web_platform();
    let svg = String::from_utf8(render(&scene, Format::Svg, 800, 600).unwrap()).unwrap();
    let tree = parses(&svg);
    assert_eq!((tree.size().width(), tree.size().height()), (800.0, 600.0));
    for title in [
        "CDN",
        "Load balancer",
        "orders-db replica",
        "web-03 CPU high: investigate",
    ] {
        assert!(svg.contains(&format!(">{title}<")), "{title}");
    }
    let png = render(&scene, Format::Png, 320, 200).unwrap();
    assert_eq!(png_size(&png), (320, 200));
    assert_eq!(
        png_size(&render(&scene, Format::Png, 1, 1).unwrap()),
        (1, 1)
    );
}

/// How many pixels of a PNG are darker than mid-grey.
fn dark_pixels(png: &[u8]) -> usize {
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
    pixmap
        .pixels()
        .iter()
        .filter(|p| u16::from(p.red()) + u16::from(p.green()) + u16::from(p.blue()) < 384)
        .count()
}

#[test]
fn text_is_drawn_with_the_shipped_font_alone() {
    let label = |text: &str| {
        let label = json!({"type": "label", "data": {"text": text, "position": {"x": 0, "y": 0},
            "fontSize": 2, "dimensions": {"width": 8, "height": 2}}});
        render(&scene(json!({ "t": label })), Format::Png, 200, 100).unwrap()
    };
    assert!(dark_pixels(&label("Shipped font")) > 100);
    assert_eq!(dark_pixels(&label("")), 0);
    assert_eq!(
        dark_pixels(&label("\u{2192}")),
        0,
        "the font has no arrows, and no other is used"
    );
}

#[test]
fn what_cannot_be_placed_is_noted_and_the_rest_drawn() {
    let scene = scene(json!({
        "a": {"type": "component", "data": {"name": "kept", "position": {"x": 0, "y": 0}}},
        "b": {"type": "component", "data": {"name": "lost"}},
        "c": {"type": "label", "data": {"text": "<&>\u{1}", "position": {"x": 0, "y": 3}}},
    }));
    let svg = svg(&scene, 400, 300);
    parses(&svg);
    assert!(svg.contains(">kept<") && !svg.contains(">lost<"));
    assert!(svg.contains(">&lt;&amp;&gt;<"));
    assert!(svg.contains(">1 object could not be placed<"));
    parses(&super::svg(&Scene::default(), 10, 10));
}

#[test]
fn random_content_always_renders_to_svg_that_parses() {
    let mut r = Random::new(0xD1A6_0A11);
    for _ in 0..300 {
        let scene = Scene::build(&random_content(&mut r), DEFAULT_STATUS_KEY);
        parses(&svg(&scene, 64, 48));
    }
}
