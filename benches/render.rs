//! Building scenes, querying them and rendering pictures of generated documents. Run with
//! `cargo bench --bench render`; prints the mean time of each.
//!
//! The documents are realistic (`diagtui_testkit::diagram`): clusters of six components in an area,
//! joined by line groups, with labels, icons, widgets and images.

use std::hint::black_box;
use std::time::Instant;

use diagtui_model::Content;
use diagtui_scene::render::{self, Format};
use diagtui_scene::{DEFAULT_STATUS_KEY, Point, Rect, Scene};
use serde_json::{Value, json};

use diagtui_testkit::diagram::document;
use diagtui_testkit::timing::measure;

fn main() {
    let big = document(100_000);
    // Each scene is dropped after the clock stops: the figure is the build alone.
    let runs = 10;
    let mut scenes = Vec::with_capacity(runs);
    let start = Instant::now();
    for _ in 0..runs {
        scenes.push(Scene::build(black_box(&big), DEFAULT_STATUS_KEY));
    }
    let mean = start.elapsed() / runs as u32;
    let name = format!("build the scene of {} objects", big.len());
    println!("{name:<52} {mean:>12.2?} per run ({runs} runs)");
    drop(scenes);

    let ten = document(10_000);
    let scene = Scene::build(&ten, DEFAULT_STATUS_KEY);
    assert!(scene.unplaced().is_empty(), "{:?}", scene.unplaced());
    let bounds = scene.bounds().expect("placed");
    // A 200×60 terminal in braille is 400×240 dots; at 8 dots a grid unit the view is 50×30
    // units, about four clusters.
    let view = Rect::centred(bounds.centre(), 50.0, 30.0);
    let seen = scene.in_view(view).len();
    measure(
        &format!("in_view: 50×30-unit view of 10,000 ({seen} found)"),
        10_000,
        || {
            black_box(scene.in_view(view));
        },
    );
    measure("in_view: the whole 10,000-object scene", 200, || {
        black_box(scene.in_view(bounds));
    });
    measure("pick at a point (tolerance 1 unit)", 10_000, || {
        black_box(scene.pick(Point::new(bounds.centre().x, bounds.centre().y), 1.0));
    });

    let thousand = Scene::build(&document(1_000), DEFAULT_STATUS_KEY);
    measure("1,000 objects to a 1024×768 PNG", 20, || {
        black_box(render::render(&thousand, Format::Png, 1024, 768).expect("png"));
    });
    measure("10,000 objects to SVG (1024×768)", 20, || {
        black_box(render::render(&scene, Format::Svg, 1024, 768).expect("svg"));
    });
    let iso = render::Picture::default();
    measure("1,000 objects to a 1400-wide 3D PNG", 20, || {
        black_box(render::render_picture(&thousand, Format::Png, &iso).expect("png"));
    });
    measure("10,000 objects to a 1400-wide 3D SVG", 20, || {
        black_box(render::render_picture(&scene, Format::Svg, &iso).expect("svg"));
    });
    measure("10,000 objects: content to scene to SVG", 20, || {
        let scene = Scene::build(&ten, DEFAULT_STATUS_KEY);
        black_box(render::render(&scene, Format::Svg, 1024, 768).expect("svg"));
    });
    let titled = Scene::build(&under_titles(10_000, 500, 1.5), DEFAULT_STATUS_KEY);
    measure(
        "10,000 components under 500 group titles to a 3D SVG",
        10,
        || {
            black_box(render::render_picture(&titled, Format::Svg, &iso).expect("svg"));
        },
    );
    // Packed closer than create-diagram ever places them, as a user's document may be: each
    // group title's band spans many cells of the scene's grid.
    let packed = Scene::build(&under_titles(30_000, 1_000, 0.3), DEFAULT_STATUS_KEY);
    measure(
        "30,000 components 0.3 apart under 1,000 titles to a 3D SVG",
        3,
        || {
            black_box(render::render_picture(&packed, Format::Svg, &iso).expect("svg"));
        },
    );
}

/// `components` components named in several words, `apart` units from each other in rows of a
/// hundred, and `titles` group titles spread over them as create-diagram draws them (a label on
/// a light band), which the 3D picture hangs over the floor clear of the names in front of them.
fn under_titles(components: usize, titles: usize, apart: f64) -> Content {
    let corners = |x: f64, y: f64, w: f64, h: f64| json!([{"x": x, "y": y}, {"x": x + w, "y": y}, {"x": x + w, "y": y + h}, {"x": x, "y": y + h}]);
    let mut objects = serde_json::Map::new();
    for i in 0..components {
        let (x, y) = (
            (i % 100) as f64 * apart - 75.0,
            (i / 100) as f64 * apart - 75.0,
        );
        objects.insert(
            format!("c{i}"),
            json!({"type": "component", "data": {"componentId": "generic.server",
                "position": {"x": x, "y": y}, "name": format!("the service number {i} of many")}}),
        );
    }
    for i in 0..titles {
        // 25 to a row, the rows spread over the components' height.
        let (width, height) = (100.0 * apart, (components / 100) as f64 * apart);
        let rows = titles.div_ceil(25) as f64;
        let x = (i % 25) as f64 * width / 25.0 - 75.0;
        let y = (i / 25) as f64 * height / rows - 76.0;
        objects.insert(
            format!("g{i}:band"),
            json!({"type": "area", "data": {"anchors": corners(x, y, 4.0, 0.75),
                "fillColor": "#EEF2F6", "lineColor": "#1F77B4", "zIndex": 0}}),
        );
        objects.insert(
            format!("g{i}:label"),
            json!({"type": "label", "data": {"text": format!("Group {i}"),
                "position": {"x": x + 2.0, "y": y + 0.375},
                "dimensions": {"width": 4.0, "height": 0.75}, "fontSize": 0.5,
                "color": "#1F2933", "outlineColor": "#EEF2F6"}}),
        );
    }
    serde_json::from_value(Value::Object(objects)).expect("content")
}
