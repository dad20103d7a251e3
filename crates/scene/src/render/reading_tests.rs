//! Pictures that read: titles fitted to their bands and legible on them, multi-line text on
//! its lines, components with their glyph and their own colour, markup shown as text. Checked
//! on the laid-out text (resvg's layout with the shipped font), not on the SVG's words alone.

use resvg::usvg;
use serde_json::{Value, json};

use super::glyphs::glyph;
use super::svg::{GLYPH, TEXT_CONTRAST, legible};
use super::*;
use crate::{DEFAULT_STATUS_KEY, Point, Rgb};
use diagtui_model::Content;

fn scene(content: Value) -> Scene {
    let content: Content = serde_json::from_value(content).unwrap();
    Scene::build(&content, DEFAULT_STATUS_KEY)
}

/// The isometric projection of a scene and how its 1000-wide 3D picture fits it.
fn iso_frame(scene: &Scene) -> (crate::iso::Iso, Fit) {
    let picture = Picture {
        view: View::Isometric,
        width: Some(1000),
        ..Picture::default()
    };
    let iso = crate::iso::Iso::of(scene, crate::iso::Projection::isometric());
    let (bounds, _) = isometric::bounds_and_above(scene, &iso);
    let (_, _, fit) = picture.frame(bounds).unwrap();
    (iso, fit)
}

fn svg_of(scene: &Scene, view: View) -> String {
    let picture = Picture {
        view,
        width: Some(1000),
        ..Picture::default()
    };
    String::from_utf8(render_picture(scene, Format::Svg, &picture).unwrap()).unwrap()
}

/// The SVG laid out as resvg draws it, with the shipped fonts.
fn laid_out(svg: &str) -> usvg::Tree {
    usvg::Tree::from_str(svg, &png::options()).unwrap_or_else(|e| panic!("{e}: {svg}"))
}

/// Every text of a tree: its characters, its fill and its box on the picture.
fn texts(tree: &usvg::Tree) -> Vec<(String, Rgb, usvg::Rect)> {
    fn walk(group: &usvg::Group, found: &mut Vec<(String, Rgb, usvg::Rect)>) {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => walk(g, found),
                usvg::Node::Text(text) => {
                    let chunks: Vec<&str> = text.chunks().iter().map(|c| c.text()).collect();
                    let span = &text.chunks()[0].spans()[0];
                    let colour = match span.fill().map(usvg::Fill::paint) {
                        Some(usvg::Paint::Color(c)) => Rgb::new(c.red, c.green, c.blue),
                        other => panic!("text filled with {other:?}"),
                    };
                    found.push((chunks.join("\n"), colour, text.abs_bounding_box()));
                }
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    walk(tree.root(), &mut found);
    found
}

/// A group as the layout makes it: its white area, a band of `band` under it, and its title
/// (white, with a white outline) in a box as wide as the band.
fn group(title: &str, band: &str, band_width: f64) -> Value {
    let corners = |x0: f64, y0: f64, x1: f64, y1: f64| json!([{"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1}, {"x": x0, "y": y1}]);
    json!({
        "vpc": {"type": "area", "data": {"anchors": corners(-6.0, -4.0, 6.0, 4.0),
            "fillColor": "#FFFFFF", "lineColor": band, "zIndex": 0}},
        "vpc:band": {"type": "area", "data": {"anchors": corners(-6.0, 4.0, -6.0 + band_width, 5.0),
            "fillColor": band, "lineColor": band, "zIndex": 0}},
        "vpc:label": {"type": "label", "data": {"text": title,
            "position": {"x": -6.0 + band_width / 2.0, "y": 4.5},
            "dimensions": {"width": band_width, "height": 1.0}, "fontSize": 0.5,
            "textAlign": "center", "color": "#FFFFFF", "fontStyle": {"bold": true, "italic": false},
            "outlineColor": "#FFFFFF", "outlineWidth": 0.075}},
        "web": {"type": "component", "data": {"componentId": "computation.aws-ec2",
            "position": {"x": 0, "y": 0}, "name": "web-01"}},
    })
}

#[test]
fn group_titles_fit_their_band_and_read_on_it_in_2d() {
    // The layout's palette: blue passes with white text, green and purple need other ink.
    for band in ["#1F77B4", "#2CA02C", "#9467BD", "#BCBD22", "#FFFFFF"] {
        for (title, width) in [("Web tier", 4.0), ("Production VPC in eu-west-1", 4.0)] {
            let scene = scene(group(title, band, width));
            let picture = Picture {
                view: View::Flat,
                width: Some(1000),
                ..Picture::default()
            };
            let (_, _, fit) = picture.frame(svg::flat_bounds(&scene)).unwrap();
            let svg = svg_of(&scene, View::Flat);
            let found = texts(&laid_out(&svg));
            let (text, colour, bbox) = found
                .iter()
                .find(|(text, ..)| text == title)
                .unwrap_or_else(|| panic!("{title} is not drawn whole: {found:?}"));
            assert_eq!(text, title);
            let (left, top) = fit.at(Point::new(-6.0, 4.0));
            let (right, bottom) = fit.at(Point::new(-6.0 + width, 5.0));
            assert!(
                bbox.left() >= left as f32 && bbox.right() <= right as f32,
                "{title} on {band}: {bbox:?} is wider than its band {left}..{right}"
            );
            assert!(
                bbox.top() >= top as f32 && bbox.bottom() <= bottom as f32,
                "{title} on {band}: {bbox:?} is taller than its band {top}..{bottom}"
            );
            let ground = Rgb::new(
                u8::from_str_radix(&band[1..3], 16).unwrap(),
                u8::from_str_radix(&band[3..5], 16).unwrap(),
                u8::from_str_radix(&band[5..7], 16).unwrap(),
            );
            assert!(
                colour.contrast(ground) >= TEXT_CONTRAST,
                "{title} in {} on {band}: contrast {:.2}",
                colour.hex(),
                colour.contrast(ground)
            );
            // The halo is never the letters' own colour, which would blur them.
            assert!(!svg.contains(&format!(
                "fill=\"{}\" font-weight=\"bold\" stroke=\"{}\"",
                colour.hex(),
                colour.hex()
            )));
        }
    }
}

#[test]
fn group_titles_hang_on_their_band_in_3d_fitted_and_legible() {
    let title = "Production VPC in eu-west-1";
    let scene = scene(group(title, "#2CA02C", 4.0));
    let (iso, fit) = iso_frame(&scene);
    let svg = svg_of(&scene, View::Isometric);
    let found = texts(&laid_out(&svg));
    let (_, colour, bbox) = found
        .iter()
        .find(|(text, ..)| text == title)
        .expect("the title is drawn whole");
    // The band on the picture: its corners hung over the floor, projected.
    let band: Vec<(f64, f64)> = [(-6.0, 4.0), (-2.0, 4.0), (-2.0, 5.0), (-6.0, 5.0)]
        .into_iter()
        .map(|(x, y)| fit.at(iso.projection.at(Point::new(x, y), isometric::SIGN_HEIGHT)))
        .collect();
    let (min_x, max_x) = band
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = band
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    assert!(
        f64::from(bbox.left()) >= min_x
            && f64::from(bbox.right()) <= max_x
            && f64::from(bbox.top()) >= min_y
            && f64::from(bbox.bottom()) <= max_y,
        "{bbox:?} outside the band {min_x}..{max_x} × {min_y}..{max_y}"
    );
    assert!(colour.contrast(Rgb::new(0x2C, 0xA0, 0x2C)) >= TEXT_CONTRAST);
    // Labels that are no titles on a band still face the viewer, over the blocks.
    let lone = scene_with_lone_label();
    let svg = svg_of(&lone, View::Isometric);
    let block = svg.find("<title>component a</title>").unwrap();
    assert!(svg.find(">a note<").unwrap() > block);
}

/// A group as the layered layout makes it: its title's band inside its top-left corner, and
/// the first component just in front of the band (below it), its name over its block in 3D.
fn group_with_title_behind_a_block(title: &str) -> Value {
    let corners = |x0: f64, y0: f64, x1: f64, y1: f64| json!([{"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1}, {"x": x0, "y": y1}]);
    json!({
        "vpc": {"type": "area", "data": {"anchors": corners(-4.0, -4.0, 6.0, 6.0),
            "fillColor": "#FFFFFF", "lineColor": "#1F77B4", "zIndex": 0}},
        "vpc:band": {"type": "area", "data": {"anchors": corners(-4.0, -4.0, 2.0, -3.0),
            "fillColor": "#EEF2F6", "lineColor": "#1F77B4", "lineWidth": 0.025, "zIndex": 0}},
        "vpc:label": {"type": "label", "data": {"text": title,
            "position": {"x": -1.0, "y": -3.5},
            "dimensions": {"width": 6.0, "height": 1.0}, "fontSize": 0.5,
            "textAlign": "center", "color": "#1F2933", "outlineColor": "#EEF2F6"}},
        "lb": {"type": "component", "data": {"componentId": "networking.haproxy",
            "position": {"x": 0.0, "y": -1.5}, "name": "Load balancer"}},
        "web": {"type": "component", "data": {"componentId": "computation.aws-ec2",
            "position": {"x": -2.5, "y": -1.5}, "name": "web-01"}},
    })
}

#[test]
fn no_block_or_title_in_front_hides_a_group_title_in_3d() {
    let title = "Production VPC";
    let scene = scene(group_with_title_behind_a_block(title));
    let svg = svg_of(&scene, View::Isometric);
    // Drawn after every block, so no block paints over it.
    let at = svg.find(&format!(">{title}<")).expect("the title is drawn");
    for block in [
        "<title>component lb</title>",
        "<title>component web</title>",
    ] {
        assert!(
            svg.find(block).unwrap() < at,
            "{block} is painted over the title"
        );
    }
    // And the blocks' titles stand clear of its text, hung over the floor on the picture: the
    // text's middle line, as wide as the text, across its band.
    let (iso, fit) = iso_frame(&scene);
    let half = super::measure::line_width(title) * 0.5 / 2.0;
    let found = texts(&laid_out(&svg));
    for name in ["Load balancer", "web-01"] {
        let (_, _, b) = found.iter().find(|(t, ..)| t == name).unwrap();
        for i in 0..=20 {
            for dy in [-0.2, 0.0, 0.2] {
                let x = -1.0 - half + 2.0 * half * f64::from(i) / 20.0;
                let at = iso
                    .projection
                    .at(Point::new(x, -3.5 + dy), isometric::SIGN_HEIGHT);
                let (x, y) = fit.at(at);
                let (x, y) = (x as f32, y as f32);
                assert!(
                    !(b.left() <= x && x <= b.right() && b.top() <= y && y <= b.bottom()),
                    "{name} {b:?} lies over the group's title at {x}, {y}"
                );
            }
        }
    }
    // Physically so: nothing on the floor in front of the band reaches the height it hangs at,
    // a block's top and the one-line title over it.
    let projection = crate::iso::Projection::isometric();
    let block_top = projection.lift(crate::iso::BLOCK_HEIGHT);
    let title_top = block_top + svg::TITLE_SIZE * (isometric::TITLE_GAP + super::measure::LINE);
    assert!(projection.lift(isometric::SIGN_HEIGHT) > title_top);
}

#[test]
fn a_group_title_hangs_higher_over_a_name_of_several_lines_in_front() {
    // The first component under the band named in several lines: its title, facing the
    // viewer over its block, reaches up past the height signs hang at; the sign rises clear.
    let title = "Production VPC";
    let long = "Order the policies that affect the objects on the path, most specific first";
    let mut content = group_with_title_behind_a_block(title);
    content["lb"]["data"]["name"] = json!(long);
    let scene = scene(content);
    let svg = svg_of(&scene, View::Isometric);
    let found = texts(&laid_out(&svg));
    let (_, _, sign) = found.iter().find(|(t, ..)| t == title).expect("the title");
    let name: Vec<&usvg::Rect> = (found.iter())
        .filter(|(t, ..)| t.split('\n').any(|line| long.contains(line.trim())) && t != title)
        .map(|(_, _, b)| b)
        .collect();
    assert!(!name.is_empty(), "the long name is drawn");
    let meets = |a: &usvg::Rect, b: &usvg::Rect| {
        a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom()
    };
    for b in name {
        assert!(
            !meets(sign, b),
            "the name {b:?} lies over the group's title {sign:?}"
        );
    }
}

/// A group whose first inner group's band lies two cells in front of its own, with a
/// component in front of the inner band whose title lifts the inner sign (Envoy Gateway's
/// OPA sidecar flowchart, as the layered layout places it).
fn nested_groups_with_bands_close() -> Value {
    let corners = |x0: f64, y0: f64, x1: f64, y1: f64| json!([{"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1}, {"x": x0, "y": y1}]);
    let band = |x0: f64, y0: f64, x1: f64, z: u32| {
        json!({"type": "area", "data": {"anchors": corners(x0, y0, x1, y0 + 1.0),
            "fillColor": "#EEF2F6", "lineColor": "#17BECF", "lineWidth": 0.025, "zIndex": z}})
    };
    let title = |text: &str, x: f64, y: f64, width: f64| {
        json!({"type": "label", "data": {"text": text, "position": {"x": x, "y": y},
            "dimensions": {"width": width, "height": 1.0}, "fontSize": 0.5,
            "textAlign": "center", "color": "#1F2933", "outlineColor": "#EEF2F6"}})
    };
    json!({
        "pod": {"type": "area", "data": {"anchors": corners(-6.5, -16.5, 6.5, 16.5),
            "fillColor": "#FFFFFF", "lineColor": "#17BECF", "zIndex": 0}},
        "pod:band": band(-6.5, -16.5, 0.5, 0),
        "pod:label": title("Envoy Proxy Pod", -3.0, -16.0, 7.0),
        "envoy": {"type": "area", "data": {"anchors": corners(-4.0, -14.5, 4.0, -8.5),
            "fillColor": "#2962FF", "lineColor": "#17BECF", "zIndex": 1}},
        "envoy:band": band(-4.0, -14.5, 4.0, 1),
        "envoy:label": title("Envoy Proxy Container", 0.0, -14.0, 8.0),
        "filter": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0.0, "y": -11.5}, "name": "ext_authz Filter"}},
    })
}

#[test]
fn a_sign_raised_over_a_name_is_not_hung_where_another_groups_sign_hangs() {
    let scene = scene(nested_groups_with_bands_close());
    let iso = crate::iso::Iso::of(&scene, crate::iso::Projection::isometric());
    let (_, above) = isometric::bounds_and_above(&scene, &iso);
    assert_eq!(
        isometric::overlap_on_screen(&above, &iso),
        Some(false),
        "the two group titles' signs lie over each other"
    );
}

#[test]
fn a_links_label_is_moved_clear_of_a_title_standing_over_its_block_in_3d() {
    // Envoy Gateway's OPA sidecar flowchart as the layout places it: the link's label lies
    // clear of the socket's name in 2D, but the name stands over the block in 3D, up and
    // right of the label's place there.
    let name = "Unix Domain Socket\n/shared/opa/opa.sock";
    let socket = ("generic.database", (0.0, -0.5), name);
    let scene = title_and_label(socket, ("Authz check", (0.0, -5.0), 4.0));
    assert_clear_of_title_in_3d(&scene, "Authz check", name);
    // In 2D it stays where the layout put it.
    let flat = texts(&laid_out(&svg_of(&scene, View::Flat)));
    assert!(flat.iter().any(|(t, ..)| t == "Authz check"));
}

#[test]
fn a_label_under_a_title_moves_past_the_titles_gap_to_its_block_in_3d() {
    // Jaeger's architecture flowchart as the layout places it (session 26): the "gRPC" label
    // lies under "Jaeger Query Service" in 3D, and the move up that clears the title's box
    // (which reaches down to its block) is a little more than the label's own height.
    let name = "Jaeger Query Service";
    let query = ("generic.generic-monitoring", (10.0, -6.5), name);
    let scene = title_and_label(query, ("gRPC", (6.0, -8.0), 2.0));
    assert_clear_of_title_in_3d(&scene, "gRPC", name);
}

#[test]
fn a_short_label_under_the_end_of_a_long_title_slides_out_sideways_in_3d() {
    // Gateway API's policy merge flowchart as the layout places it (session 27): "No" lies
    // under the right end of a title of three lines; up or down it would have to move past
    // the whole title, sideways only a little more than its own width.
    let name = "Map the end of the path to\na single policy remaining\nin the stack or none";
    let map = ("generic.server", (5.5, 0.5), name);
    let scene = title_and_label(map, ("No", (3.0, -4.0), 2.0));
    assert_clear_of_title_in_3d(&scene, "No", name);
}

/// A scene of a component (its `componentId`, centre and name) and a link's label (its text,
/// centre and width, a cell high), as the layout places them.
fn title_and_label(
    (component_id, (x, y), name): (&str, (f64, f64), &str),
    (text, (lx, ly), width): (&str, (f64, f64), f64),
) -> Scene {
    scene(json!({
        "component": {"type": "component", "data": {"componentId": component_id,
            "position": {"x": x, "y": y}, "name": name}},
        "label": {"type": "label", "data": {"text": text,
            "position": {"x": lx, "y": ly}, "dimensions": {"width": width, "height": 1.0},
            "fontSize": 0.5, "textAlign": "center", "color": "#333333"}},
    }))
}

/// Asserts that in the 3D picture of `scene` the text `label` lies clear of the text `title`
/// (found by its words: the picture may wrap a title's lines again).
fn assert_clear_of_title_in_3d(scene: &Scene, label: &str, title: &str) {
    let found = texts(&laid_out(&svg_of(scene, View::Isometric)));
    let text = |t: &str| {
        let same = |f: &str| f.split_whitespace().eq(t.split_whitespace());
        found.iter().find(|(f, ..)| same(f)).unwrap().2
    };
    let (label, title) = (text(label), text(title));
    let meets = label.left() < title.right()
        && title.left() < label.right()
        && label.top() < title.bottom()
        && title.top() < label.bottom();
    assert!(!meets, "the label {label:?} lies under the title {title:?}");
}

#[test]
fn links_labels_apart_on_the_floor_do_not_lie_over_each_other_in_3d() {
    // Jaeger's remote sampling flowchart: two links' labels the layout put a cell apart, one
    // over the other; seen at a slant, the floor brings them side by side on the screen.
    let label = |text: &str, x: f64, y: f64| {
        json!({"type": "label", "data": {"text": text, "position": {"x": x, "y": y},
            "dimensions": {"width": 6.0, "height": 1.0}, "fontSize": 0.5,
            "textAlign": "center", "color": "#333333"}})
    };
    let scene = scene(json!({
        "a": label("(2) getStrategy()", 0.0, 0.0),
        "b": label("(3b) getStrategy()", 1.0, -1.0),
    }));
    let meets = |a: &usvg::Rect, b: &usvg::Rect| {
        a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom()
    };
    for view in [View::Flat, View::Isometric] {
        let found = texts(&laid_out(&svg_of(&scene, view)));
        let text = |t: &str| found.iter().find(|(f, ..)| f == t).unwrap().2;
        let (a, b) = (text("(2) getStrategy()"), text("(3b) getStrategy()"));
        assert!(!meets(&a, &b), "{view:?}: the labels {a:?} and {b:?} meet");
    }
}

/// The text of each glyph the picture draws for `text` (a component's name), and whether the
/// fonts had it (glyph 0 is a font's "missing" box, which resvg leaves out).
fn glyphs_of(text: &str) -> Vec<(String, bool)> {
    let scene = scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0, "y": 0}, "name": text}},
    }));
    let tree = laid_out(&svg_of(&scene, View::Flat));
    fn walk(group: &usvg::Group, found: &mut Vec<(String, bool)>) {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => walk(g, found),
                usvg::Node::Text(text) => found.extend(
                    (text.layouted().iter())
                        .flat_map(|span| &span.positioned_glyphs)
                        .map(|g| (g.text.clone(), g.id.0 != 0)),
                ),
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    walk(tree.root(), &mut found);
    found
}

#[test]
fn greek_cyrillic_and_symbols_are_drawn_and_only_emoji_are_left_out() {
    let text = "This ❤ Unicode λ=Ω Привет Łódź Việt ⚙ ⎈ ✓ ★ ⚠ ☁ ½ €";
    let found = glyphs_of(text);
    let missing: Vec<&str> = (found.iter())
        .filter(|(t, drawn)| !drawn && !t.trim().is_empty())
        .map(|(t, _)| t.as_str())
        .collect();
    assert!(missing.is_empty(), "not drawn: {missing:?}");
    let drawn: String = found.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(drawn.replace(' ', ""), text.replace(' ', ""));
    // Emoji are not in the shipped fonts: left out, and said so in docs/pictures.md.
    // A symbol asking for its emoji form (U+FE0F, as Mermaid labels often write them) is
    // drawn in the form the fonts have.
    let gear = glyphs_of("⚙\u{FE0F} Rego");
    assert_eq!(gear.first(), Some(&("⚙".to_string(), true)), "{gear:?}");
    let emoji = glyphs_of("🔐 ext_authz");
    assert!(
        emoji.iter().any(|(t, drawn)| t == "🔐" && !drawn),
        "{emoji:?}"
    );
    // And measured as the picture draws them: a symbol takes room, as a letter does.
    assert!(super::measure::line_width("❤") > 0.5);
    assert!(super::measure::line_width("Ж") > 0.5);
}

fn scene_with_lone_label() -> Scene {
    scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0, "y": 0}, "name": "web"}},
        "l": {"type": "label", "data": {"text": "a note", "position": {"x": 0, "y": 3},
            "dimensions": {"width": 4, "height": 1}, "fontSize": 0.5}},
    }))
}

#[test]
fn long_titles_at_the_edges_are_never_cut_by_the_picture() {
    let name = "Really long text with a line break in an odd shape";
    let scene = scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0, "y": 0}, "name": "web"}},
        "b": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 8, "y": -4}, "name": name}},
        "c": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": -8, "y": 4}, "name": format!("{name}\nand a second line")}},
    }));
    for view in [View::Flat, View::Isometric] {
        let svg = svg_of(&scene, view);
        let found = texts(&laid_out(&svg));
        assert_eq!(found.len(), 3, "{view}: {found:?}");
        for (text, _, bbox) in found {
            assert!(
                bbox.left() >= 0.0 && bbox.right() <= 1000.0 && bbox.top() >= 0.0,
                "{view}: {text:?} cut at {bbox:?}"
            );
        }
    }
}

#[test]
fn text_colours_that_do_not_read_are_replaced_by_ones_that_do() {
    let white = Rgb::new(0xFF, 0xFF, 0xFF);
    let ink = Rgb::new(0x33, 0x33, 0x33);
    // Dark on white and white on dark blue are kept.
    assert_eq!(legible(ink, white, 4.5), ink);
    assert_eq!(legible(white, Rgb::new(0x1F, 0x77, 0xB4), 4.5), white);
    // Every ground gets ink of at least 4.5, whatever the asked colour.
    for r in (0..=255).step_by(15) {
        for g in (0..=255).step_by(15) {
            for b in (0..=255).step_by(15) {
                let ground = Rgb::new(r as u8, g as u8, b as u8);
                for colour in [white, ink, ground] {
                    let chosen = legible(colour, ground, 4.5);
                    assert!(chosen.contrast(ground) >= 4.5, "{}", ground.hex());
                }
            }
        }
    }
}

#[test]
fn multi_line_names_and_labels_are_drawn_on_their_lines() {
    let scene = scene(json!({
        "store": {"type": "component", "data": {"componentId": "generic.database",
            "position": {"x": 0, "y": 0}, "name": "Trace\nStorage"}},
        "note": {"type": "label", "data": {"text": "OTel\nCollector", "position": {"x": 0, "y": 5},
            "dimensions": {"width": 4, "height": 2}, "fontSize": 0.5}},
    }));
    for view in [View::Flat, View::Isometric] {
        let svg = svg_of(&scene, view);
        assert!(svg.contains(">Trace<tspan"), "{view}: {svg}");
        assert!(svg.contains(">Storage</tspan>"), "{view}");
        let found = texts(&laid_out(&svg));
        for text in ["Trace\nStorage", "OTel\nCollector"] {
            let (_, _, bbox) = found
                .iter()
                .find(|(t, ..)| t == text)
                .unwrap_or_else(|| panic!("{view}: {text:?} not in {found:?}"));
            // Two lines: taller than one line of 0.5 units, and each line narrower than both.
            assert!(
                bbox.height() > bbox.width() * 0.3,
                "{view} {text:?}: {bbox:?}"
            );
        }
    }
    // In 3D the last line of a title sits just above its block, the others above it: two
    // blocks as high on the picture, one titled with two lines, one with the second alone.
    let scene = self::scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.database",
            "position": {"x": 0, "y": 0}, "name": "Trace\nStore"}},
        "b": {"type": "component", "data": {"componentId": "generic.database",
            "position": {"x": 4, "y": -4}, "name": "Store"}},
    }));
    let found = texts(&laid_out(&svg_of(&scene, View::Isometric)));
    let bottom = |name: &str| found.iter().find(|(t, ..)| t == name).unwrap().2.bottom();
    assert!(
        (bottom("Trace\nStore") - bottom("Store")).abs() < 1.0,
        "{found:?}"
    );
}

#[test]
fn components_in_2d_carry_their_glyph_and_a_generic_ones_own_colour() {
    let scene = scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.database",
            "position": {"x": 0, "y": 0}, "name": "Storage", "primaryColor": "#0000FF"}},
        "b": {"type": "component", "data": {"componentId": "database.postgres",
            "position": {"x": 4, "y": 0}, "name": "Orders", "primaryColor": "#FF0000"}},
        "c": {"type": "component", "data": {"componentId": "generic.cache",
            "position": {"x": 8, "y": 0}, "name": "Sessions", "primaryColor": "#0000FF",
            "meta": {"status": "down"}}},
    }));
    for view in [View::Flat, View::Isometric] {
        let svg = svg_of(&scene, view);
        // No category written as text on the boxes any more.
        for kind in [">generic<", ">database<", ">cache<"] {
            assert!(!svg.contains(kind), "{view}: {kind}");
        }
        // Each glyph: the database's twice (a generic database and Postgres), the cache's.
        assert_eq!(svg.matches(glyph("database.postgres")).count(), 2, "{view}");
        assert_eq!(svg.matches(glyph("cache.redis")).count(), 1, "{view}");
        // A generic component's primaryColor shows; a product's is not its look; a status
        // wins over both.
        let blue_faces = svg.matches("fill=\"#0000FF\"").count();
        assert!(blue_faces >= 1, "{view}");
        assert!(!svg.contains("fill=\"#FF0000\""), "{view}");
        // The glyph on blue is drawn in a colour that stands out from it.
        assert!(
            svg.contains("stroke=\"#FFFFFF\" stroke-width=\"0.12\""),
            "{view}"
        );
    }
    // The 2D glyph is as large as the 3D one: GLYPH units each side of the centre.
    let svg = svg_of(&scene, View::Flat);
    let picture = Picture {
        view: View::Flat,
        width: Some(1000),
        ..Picture::default()
    };
    let (_, _, fit) = picture.frame(svg::flat_bounds(&scene)).unwrap();
    let glyph_at = format!(
        "d=\"{}\" transform=\"matrix({:.4} 0.0000 ",
        glyph("cache.redis"),
        fit.len(GLYPH)
    );
    assert!(svg.contains(&glyph_at), "{glyph_at} in {svg}");
}

#[test]
fn markup_in_text_is_shown_as_text_and_never_read_as_markup() {
    let text = "<b>Orders</b> & <br/>\"stock\" <script>x</script>";
    let scene = scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0, "y": 0}, "name": text}},
        "l": {"type": "label", "data": {"text": text, "position": {"x": 0, "y": 5},
            "dimensions": {"width": 30, "height": 1}, "fontSize": 0.5}},
    }));
    for view in [View::Flat, View::Isometric] {
        let svg = svg_of(&scene, view);
        assert!(!svg.contains("<b>") && !svg.contains("<script>") && !svg.contains("<br/>"));
        assert!(svg.contains("&lt;b&gt;Orders&lt;/b&gt; &amp; &lt;br/&gt;&quot;stock&quot;"));
        let found = texts(&laid_out(&svg));
        // (A 3D title this long is wrapped over its block.)
        assert_eq!(
            found
                .iter()
                .filter(|(t, ..)| t.replace('\n', " ") == text)
                .count(),
            2,
            "{view}: {found:?}"
        );
    }
}

#[test]
fn long_titles_are_wrapped_over_their_block_in_3d_so_that_neighbours_keep_apart() {
    let long = "Combine pA and pB into policy pX by applying the merge strategy";
    let next = "Pop two policies pA and pB";
    let scene = scene(json!({
        "a": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 0, "y": 0}, "name": long}},
        "b": {"type": "component", "data": {"componentId": "generic.server",
            "position": {"x": 5, "y": 0}, "name": next}},
    }));
    let (_, fit) = iso_frame(&scene);
    let found = texts(&laid_out(&svg_of(&scene, View::Isometric)));
    let title = |name: &str| {
        let (text, _, b) = found
            .iter()
            .find(|(t, ..)| t.replace('\n', " ") == name)
            .unwrap_or_else(|| panic!("{name} is not drawn whole: {found:?}"));
        (text.lines().count(), *b)
    };
    let (lines, a) = title(long);
    assert!(lines > 1, "{long} stands on one line");
    let widest = fit.len(isometric::TITLE_WIDTH) * 1.02;
    assert!(
        f64::from(a.width()) <= widest,
        "{a:?} is wider than {widest}"
    );
    let (_, b) = title(next);
    assert!(
        a.bottom() <= b.top() || b.bottom() <= a.top() || a.right() <= b.left(),
        "{long} {a:?} lies over {next} {b:?}"
    );
}
