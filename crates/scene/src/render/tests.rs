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

#[test]
fn views_read_from_text_in_any_case() {
    assert_eq!("2d".parse(), Ok(View::Flat));
    assert_eq!("3D".parse(), Ok(View::Isometric));
    assert_eq!(View::default(), View::Isometric);
    assert_eq!(View::Flat.to_string(), "2D");
    assert_eq!(
        "4d".parse::<View>(),
        Err("must be 2D or 3D, got \"4d\"".to_owned())
    );
}

#[test]
fn a_picture_is_1400_wide_and_as_high_as_the_diagram_unless_told() {
    let scene = web_platform();
    let bounds = scene.bounds().unwrap().grown(svg::ROOM);
    let flat = Picture {
        view: View::Flat,
        ..Picture::default()
    };
    let (width, height, fit) = flat.frame(scene.bounds()).unwrap();
    assert_eq!(width, PICTURE_WIDTH);
    // The diagram fills the width less the margins, and the height follows: both margins are
    // a share of the shorter side, here the height.
    let margins = 2.0 * svg::MARGIN * f64::from(height);
    let drawn = bounds.height() * fit.scale;
    assert!(height < width && (f64::from(height) - drawn - margins).abs() < 2.0);
    assert!((bounds.width() * fit.scale - (1400.0 - margins)).abs() < 2.0);
    // Given sides are kept.
    let given = Picture {
        width: Some(300),
        height: Some(900),
        ..flat
    };
    let (width, height, _) = given.frame(scene.bounds()).unwrap();
    assert_eq!((width, height), (300, 900));
    // A tall diagram is at most MAX_SIDE high.
    assert_eq!(following(1400, 100.0), MAX_SIDE);
    assert!(following(1000, 1.0) >= 1000);
}

#[test]
fn component_size_sets_the_scale_and_a_side_too_large_names_it() {
    let scene = web_platform();
    let picture = Picture {
        view: View::Flat,
        component_size: Some(40),
        ..Picture::default()
    };
    let (width, height, fit) = picture.frame(scene.bounds()).unwrap();
    assert_eq!(fit.scale, 20.0, "40 pixels across a footprint of 2 units");
    let bounds = scene.bounds().unwrap().grown(svg::ROOM);
    assert!(f64::from(width) > bounds.width() * 20.0 && f64::from(width) < bounds.width() * 22.0);
    assert!(f64::from(height) > bounds.height() * 20.0);
    let fixed = Picture {
        width: Some(500),
        ..picture
    };
    assert_eq!(fixed.frame(scene.bounds()).unwrap().0, 500);
    let huge = Picture {
        component_size: Some(4000),
        ..picture
    };
    let error = render_picture(&scene, Format::Svg, &huge).unwrap_err();
    assert!(matches!(error, PictureError::ComponentSize(_)));
    assert!(
        error.to_string().starts_with("component-size: 4000 pixels"),
        "{error}"
    );
}

#[test]
fn the_3d_picture_shows_every_title_over_blocks_and_walls_in_painters_order() {
    let scene = web_platform();
    let svg = String::from_utf8(render_picture(&scene, Format::Svg, &Picture::default()).unwrap())
        .unwrap();
    let tree = parses(&svg);
    assert_eq!(tree.size().width(), 1400.0);
    let last_block = svg.rfind("<title>component ").unwrap();
    for title in [
        "CDN",
        "Load balancer",
        "orders-db replica",
        "web-03 CPU high: investigate",
    ] {
        let at = svg
            .find(&format!(">{title}<"))
            .unwrap_or_else(|| panic!("{title}"));
        assert!(at > last_block, "{title} is drawn after every block");
    }
    // The sample's ten components, each a block.
    assert_eq!(svg.matches("<title>component ").count(), 10);
    let png = render_picture(&scene, Format::Png, &Picture::default()).unwrap();
    assert_eq!(png_size(&png).0, 1400);
}

#[test]
fn walls_and_opacity_show_in_3d() {
    let scene = scene(json!({
        "zone": {"type": "area", "data": {"areaType": 1, "wallColor": "#3366CC", "wallHeight": 1,
            "anchors": [{"x": -4, "y": -4}, {"x": 4, "y": -4}, {"x": 4, "y": 4}, {"x": -4, "y": 4}]}},
        "c": {"type": "component", "data": {"position": {"x": 0, "y": 0}, "opacity": 0.5}},
    }));
    let svg = svg_of(&scene, View::Isometric);
    parses(&svg);
    assert!(svg.contains("<g opacity=\"0.50\">"));
    // Four sides of 8 units in pieces of one, the wall colour shaded by which way they face:
    // the two sides across the view lighter (0.885) than the two along it (0.715).
    assert_eq!(svg.matches("fill=\"#2D5AB5\"").count(), 16);
    assert_eq!(svg.matches("fill=\"#244992\"").count(), 16);
    let flat = svg_of(&scene, View::Flat);
    assert!(!flat.contains("#2D5AB5"), "no walls in 2D");
}

fn svg_of(scene: &Scene, view: View) -> String {
    let picture = Picture {
        view,
        ..Picture::default()
    };
    String::from_utf8(render_picture(scene, Format::Svg, &picture).unwrap()).unwrap()
}

#[test]
fn random_content_always_renders_to_3d_svg_that_parses() {
    let mut r = Random::new(0x3D_0A11);
    for _ in 0..200 {
        let scene = Scene::build(&random_content(&mut r), DEFAULT_STATUS_KEY);
        let picture = Picture {
            width: Some(64),
            height: Some(48),
            ..Picture::default()
        };
        parses(&String::from_utf8(render_picture(&scene, Format::Svg, &picture).unwrap()).unwrap());
    }
}
