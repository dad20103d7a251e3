//! The scene's unit tests: each kind of primitive, each kind of bad data, the queries and the
//! sample documents.

use serde_json::{Value, json};

use super::*;
use diagtui_model::Content;

fn content(value: Value) -> Content {
    serde_json::from_value(value).expect("content")
}

fn scene(value: Value) -> Scene {
    Scene::build(&content(value), DEFAULT_STATUS_KEY)
}

fn component_at(x: f64, y: f64) -> Value {
    json!({"type": "component", "data": {"componentId": "database.postgres", "position": {"x": x, "y": y}}})
}

fn attached(id: &str, index: u64) -> Value {
    json!({"type": 1, "id": id, "index": index})
}

fn line(anchors: Value, lines: Value, arrows: Value) -> Value {
    json!({"type": "line-group", "data": {"anchors": anchors, "lines": lines, "arrowAnchorIndices": arrows}})
}

fn shape<'a>(scene: &'a Scene, id: &str) -> &'a Shape {
    &scene.get(id).unwrap_or_else(|| panic!("{id} placed")).shape
}

fn near(a: Point, b: Point) -> bool {
    a.distance(b) < 1e-9
}

#[test]
fn a_component_is_a_titled_footprint_with_a_status() {
    let s = scene(json!({
        "a": {"type": "component", "data": {"componentId": "database.postgres", "name": "orders-db",
              "position": {"x": 8, "y": 4}, "meta": {"status": " Down "}, "opacity": 0.5}},
        "b": {"type": "component", "data": {"componentId": "cache.redis", "name": "  ",
              "position": {"x": 0, "y": 0}, "meta": {"status": "degraded"}}},
        "c": {"type": "component", "data": {"position": {"x": 0, "y": 0}, "meta": {"status": "healthy"}}},
        "d": {"type": "component", "data": {"position": {"x": 0, "y": 0}, "meta": {"status": 1}}},
        "e": {"type": "component", "data": {"componentId": "generic.circle", "name": "",
              "position": {"x": 0, "y": 0}}},
    }));
    let Shape::Component(a) = shape(&s, "a") else {
        panic!()
    };
    assert_eq!(
        (a.title.as_str(), a.status, a.opacity),
        ("orders-db", Status::Error, 0.5)
    );
    assert_eq!(
        a.corners,
        [(7.0, 3.0), (9.0, 3.0), (9.0, 5.0), (7.0, 5.0)].map(|(x, y)| Point::new(x, y))
    );
    assert_eq!(
        s.get("a").unwrap().bounds,
        Rect::new(Point::new(7.0, 3.0), Point::new(9.0, 5.0))
    );
    let title_and_status = |id| match shape(&s, id) {
        Shape::Component(c) => (c.title.clone(), c.status),
        _ => panic!(),
    };
    assert_eq!(title_and_status("b"), ("redis".into(), Status::Warning));
    assert_eq!(title_and_status("c"), ("component".into(), Status::Good));
    assert_eq!(title_and_status("d").1, Status::Unknown);
    assert_eq!(
        title_and_status("e").0,
        "",
        "a name given as \"\" asks for no title"
    );
}

#[test]
fn the_status_key_is_a_parameter() {
    let c = content(json!({"a": {"type": "component", "data": {
        "position": {"x": 0, "y": 0}, "meta": {"status": "up", "health": "critical"}}}}));
    let status = |key| match &Scene::build(&c, key).get("a").unwrap().shape {
        Shape::Component(c) => c.status,
        _ => panic!(),
    };
    assert_eq!(status("status"), Status::Good);
    assert_eq!(status("health"), Status::Error);
    assert_eq!(status("missing"), Status::Unknown);
}

#[test]
fn attached_anchors_follow_their_component_s_position_and_rotation() {
    let s = scene(json!({
        "a": component_at(0.0, 0.0),
        "b": {"type": "component", "data": {"position": {"x": 10, "y": 0},
              "rotation": std::f64::consts::FRAC_PI_2}},
        "l": line(json!([attached("a", 1), attached("b", 0), {"type": 0, "x": 3, "y": -4.5}]),
                  json!([[0, 1], [1, 2]]), json!({"1": true, "2": false})),
    }));
    let Shape::Lines(l) = shape(&s, "l") else {
        panic!()
    };
    assert_eq!(l.segments.len(), 2);
    let first = &l.segments[0];
    assert!(near(first.from.point, Point::new(1.0, -1.0)));
    // b's top-left corner, turned a quarter clockwise about (10, 0), is now top-right.
    assert!(near(first.to.point, Point::new(11.0, -1.0)), "{first:?}");
    assert_eq!(s.primitives()[first.from.attached.unwrap()].id, "a");
    assert_eq!((first.from.arrow, first.to.arrow), (false, true));
    assert_eq!(l.segments[1].to.point, Point::new(3.0, -4.5));
    assert_eq!(l.segments[1].to.attached, None);
    assert_eq!(
        (l.dash, l.colour, l.width),
        (Dash::Solid, Some(Rgb::new(0x33, 0x33, 0x33)), 0.05)
    );
}

#[test]
fn areas_labels_and_placeholders() {
    let s = scene(json!({
        "area": {"type": "area", "data": {"anchors": [{"x": -2, "y": -2}, {"x": 2, "y": -2}, {"x": 0, "y": 2}],
                 "fillColor": "#00000000", "lineColor": "nonsense", "zIndex": 2}},
        "label": {"type": "label", "data": {"text": "eu-west-1", "position": {"x": -12, "y": -11},
                  "dimensions": {"width": 10, "height": 1}, "textAlign": "left", "fontStyle": {"bold": true}}},
        "bare": {"type": "label", "data": {"text": "abcd", "position": {"x": 0, "y": 0}, "fontSize": 1}},
        "icon": {"type": "icon", "data": {"icon": "bolt", "color": "#C00000", "position": {"x": 11, "y": 1}}},
        "image": {"type": "image", "data": {"path": "img/rack.png", "position": {"x": 0, "y": 0},
                  "dimensions": {"width": 2, "height": 1}}},
        "widget": {"type": "widget", "data": {"plotType": "bar", "position": {"x": 0, "y": 0}}},
    }));
    let Shape::Area(area) = shape(&s, "area") else {
        panic!()
    };
    assert_eq!(area.corners.len(), 3);
    assert_eq!(
        (area.fill, area.line),
        (None, Some(Rgb::new(0x60, 0x60, 0x60)))
    );
    assert_eq!(area.z_index, 2.0);

    let Shape::Label(label) = shape(&s, "label") else {
        panic!()
    };
    assert_eq!(
        (label.align, label.bold, label.font_size),
        (Align::Left, true, 0.5)
    );
    assert_eq!(
        s.get("label").unwrap().bounds,
        Rect::new(Point::new(-17.0, -11.5), Point::new(-7.0, -10.5))
    );
    let Shape::Label(bare) = shape(&s, "bare") else {
        panic!()
    };
    assert_eq!((bare.width, bare.height), (2.2, 1.25));

    let caption = |id| match shape(&s, id) {
        Shape::Placeholder(p) => (p.kind, p.caption.clone(), p.colour),
        _ => panic!(),
    };
    assert_eq!(
        caption("icon"),
        (
            PlaceholderKind::Icon,
            "bolt".into(),
            Some(Rgb::new(0xC0, 0, 0))
        )
    );
    assert_eq!(
        caption("image"),
        (PlaceholderKind::Image, "rack.png".into(), None)
    );
    assert_eq!(caption("widget").1, "chart (bar)");
    assert_eq!(
        s.get("image").unwrap().bounds,
        Rect::new(Point::new(0.0, 0.0), Point::new(2.0, 1.0)),
        "an image's position is its top-left corner"
    );
    assert_eq!(
        s.get("widget").unwrap().bounds,
        Rect::centred(Point::default(), 8.875, 4.375)
    );
    assert_eq!(
        s.get("icon").unwrap().kind(),
        diagtui_model::ObjectType::Icon
    );
    assert_eq!(s.unplaced_note(), None);
}

#[test]
fn each_kind_of_bad_data_is_left_out_and_counted() {
    let s = scene(json!({
        "c-ok": component_at(0.0, 0.0),
        "c-no-position": {"type": "component", "data": {"componentId": "x.y"}},
        "c-text-position": {"type": "component", "data": {"position": {"x": "1", "y": 2}}},
        "c-far": component_at(2e6, 0.0),
        "c-position-list": {"type": "component", "data": {"position": [1, 2]}},
        "t-unknown": {"type": "sticker", "data": {"position": {"x": 0, "y": 0}}},
        "l-missing": line(json!([attached("c-ok", 0), attached("gone", 0)]), json!([[0, 1]]), json!({})),
        "l-not-component": line(json!([attached("c-ok", 0), attached("t-label", 0)]), json!([[0, 1]]), json!({})),
        "l-unplaced-target": line(json!([attached("c-ok", 0), attached("c-far", 0)]), json!([[0, 1]]), json!({})),
        "l-corner": line(json!([attached("c-ok", 4), attached("c-ok", 0)]), json!([[0, 1]]), json!({})),
        "l-anchor-type": line(json!([{"type": 7, "x": 0, "y": 0}, {"type": 0, "x": 1, "y": 1}]), json!([[0, 1]]), json!({})),
        "l-free-text": line(json!([{"type": 0, "x": "a", "y": 0}, {"type": 0, "x": 1, "y": 1}]), json!([[0, 1]]), json!({})),
        "l-index": line(json!([{"type": 0, "x": 0, "y": 0}]), json!([[0, 3]]), json!({})),
        "l-pair": line(json!([{"type": 0, "x": 0, "y": 0}]), json!([[0]]), json!({})),
        "l-none": line(json!([]), json!([]), json!({})),
        "a-two": {"type": "area", "data": {"anchors": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]}},
        "a-bad-corner": {"type": "area", "data": {"anchors": [{"x": 0, "y": 0}, {"x": 1, "y": 1}, {"x": null, "y": 1}]}},
        "a-no-anchors": {"type": "area", "data": {"anchors": "many"}},
        "t-label": {"type": "label", "data": {"text": "no place"}},
        "t-icon": {"type": "icon", "data": {"position": {"x": 0}}},
    }));
    assert_eq!(s.primitives().len(), 1, "only c-ok is placed");
    let reasons: Vec<(&str, &str)> = s
        .unplaced()
        .iter()
        .map(|u| (u.id.as_str(), u.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            ("a-bad-corner", "corner 2 is not {x, y} numbers"),
            ("a-no-anchors", "no anchors (the corners)"),
            ("a-two", "2 corners: an area needs 3"),
            ("c-far", "position is not {x, y} numbers"),
            ("c-no-position", "no position"),
            ("c-position-list", "position is not {x, y} numbers"),
            ("c-text-position", "position is not {x, y} numbers"),
            (
                "l-anchor-type",
                "anchor 0: type 7 is neither 0 (free) nor 1 (attached)"
            ),
            (
                "l-corner",
                "anchor 0: an attached anchor's index is not a corner 0–3"
            ),
            (
                "l-free-text",
                "anchor 0: a free anchor's x, y are not numbers"
            ),
            ("l-index", "a line names anchor 3, which does not exist"),
            ("l-missing", "anchor 1: names gone, which does not exist"),
            ("l-none", "no lines"),
            (
                "l-not-component",
                "anchor 1: names t-label, a label, not a component"
            ),
            ("l-pair", "a line is [0], not a pair of anchor indices"),
            (
                "l-unplaced-target",
                "anchor 1: names c-far, which cannot be placed (position is not {x, y} numbers)"
            ),
            ("t-icon", "position is not {x, y} numbers"),
            ("t-label", "no position"),
            ("t-unknown", "unknown type \"sticker\""),
        ]
    );
    assert_eq!(s.unplaced()[0].kind, "area");
    assert_eq!(
        s.unplaced_note().as_deref(),
        Some("19 objects could not be placed")
    );
    let one = scene(json!({"x": {"type": "label", "data": {}}}));
    assert_eq!(
        one.unplaced_note().as_deref(),
        Some("1 object could not be placed")
    );
    assert_eq!(one.bounds(), None);
    assert!(
        one.in_view(Rect::centred(Point::default(), 100.0, 100.0))
            .is_empty()
    );
    assert_eq!(one.pick(Point::default(), 5.0), None);
    assert_eq!(one.next_by_position(None), None);
}

#[test]
fn draw_order_puts_areas_under_components_under_lines_under_labels() {
    let s = scene(json!({
        "1": {"type": "label", "data": {"position": {"x": 0, "y": 0}}},
        "2": component_at(0.0, 0.0),
        "3": {"type": "area", "data": {"anchors": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}], "zIndex": 5}},
        "4": {"type": "area", "data": {"anchors": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}]}},
        "5": line(json!([{"x": 0, "y": 0}, {"x": 1, "y": 1}]), json!([[0, 1]]), json!({})),
    }));
    let order: Vec<&str> = s.in_draw_order().map(|p| p.id.as_str()).collect();
    assert_eq!(order, ["4", "3", "2", "5", "1"]);
}

/// Two components in an area, a line between them, a label below.
fn small_diagram() -> Scene {
    scene(json!({
        "area": {"type": "area", "data": {"anchors": [{"x": -10, "y": -10}, {"x": 10, "y": -10},
                 {"x": 10, "y": 10}, {"x": -10, "y": 10}]}},
        "gw": {"type": "component", "data": {"name": "api-gateway", "position": {"x": -4, "y": 0}}},
        "db": {"type": "component", "data": {"name": "orders-db", "position": {"x": 4, "y": 0}}},
        "out": {"type": "component", "data": {"name": "outside", "position": {"x": 30, "y": 0}}},
        "l1": line(json!([attached("gw", 1), attached("db", 3)]), json!([[0, 1]]), json!({"1": true})),
        "note": {"type": "label", "data": {"text": "note", "position": {"x": 0, "y": 6}}},
    }))
}

#[test]
fn views_pick_and_position_order() {
    let s = small_diagram();
    assert_eq!(
        s.bounds(),
        Some(Rect::new(Point::new(-10.0, -10.0), Point::new(31.0, 10.0)))
    );
    let ids = |found: Vec<&Primitive>| found.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
    let left = Rect::new(Point::new(-6.0, -2.0), Point::new(-3.0, 2.0));
    assert_eq!(ids(s.in_view(left)), ["area", "gw", "l1"]);
    assert_eq!(
        ids(s.in_view(Rect::centred(Point::new(30.0, 0.0), 1.0, 1.0))),
        ["out"]
    );

    let pick = |x, y, tolerance| s.pick(Point::new(x, y), tolerance).map(|p| p.id.as_str());
    assert_eq!(pick(-4.0, 0.0, 0.0), Some("gw"));
    assert_eq!(
        pick(-2.8, 0.0, 0.5),
        Some("gw"),
        "near a component, over an area"
    );
    assert_eq!(
        pick(0.0, -3.0, 0.5),
        Some("area"),
        "only the area is that close"
    );
    assert_eq!(pick(0.0, 0.0, 0.2), Some("l1"), "on the line");
    assert_eq!(pick(0.0, 6.0, 0.0), Some("note"));
    assert_eq!(pick(20.0, 0.0, 1.0), None);

    let mut seen = Vec::new();
    let mut at = None;
    for _ in 0..6 {
        at = s.next_by_position(at).map(|p| p.id.as_str());
        seen.push(at.unwrap());
    }
    assert_eq!(seen, ["area", "gw", "l1", "db", "out", "note"]);
    assert_eq!(
        s.next_by_position(Some("note")).unwrap().id,
        "area",
        "wraps"
    );
    assert_eq!(s.previous_by_position(Some("area")).unwrap().id, "note");
    assert_eq!(s.previous_by_position(None).unwrap().id, "note");
    assert_eq!(s.previous_by_position(Some("l1")).unwrap().id, "gw");
}

#[test]
fn relationships_name_ends_and_count_connections() {
    let s = small_diagram();
    assert_eq!(s.ends("l1").as_deref(), Some("api-gateway → orders-db"));
    assert_eq!(s.ends("gw"), None);
    assert_eq!((s.connection_count("gw"), s.connection_count("db")), (1, 1));
    assert_eq!(
        (s.connection_count("out"), s.connection_count("l1")),
        (0, 0)
    );

    let connections = s.connections("db");
    assert_eq!(connections.len(), 2);
    assert_eq!(connections[0].object.id, "gw");
    let Via::Line {
        line_group,
        direction,
    } = connections[0].via
    else {
        panic!()
    };
    assert_eq!(
        (line_group.id.as_str(), direction),
        ("l1", Direction::Incoming)
    );
    assert_eq!(connections[1].object.id, "area");
    assert_eq!(connections[1].via, Via::EnclosingArea);
    assert!(matches!(
        s.connections("gw")[0].via,
        Via::Line {
            direction: Direction::Outgoing,
            ..
        }
    ));
    assert!(s.connections("out").is_empty());
    assert!(s.connections("area").is_empty());
}

#[test]
fn ends_gather_shared_starts_and_list_the_rest() {
    let free = |x: f64, y: f64| json!({"type": 0, "x": x, "y": y});
    let s = scene(json!({
        "a": {"type": "component", "data": {"name": "lb", "position": {"x": 0, "y": 0}}},
        "b": {"type": "component", "data": {"name": "web-01", "position": {"x": 5, "y": 0}}},
        "c": {"type": "component", "data": {"name": "web-02", "position": {"x": 5, "y": 5}}},
        "fan": line(json!([attached("a", 1), attached("b", 3), attached("a", 1), attached("c", 3)]),
                    json!([[0, 1], [2, 3]]), json!({"1": true, "3": true})),
        "back": line(json!([attached("b", 0), attached("a", 2)]), json!([[0, 1]]), json!({"0": true})),
        "pairs": line(json!([attached("a", 0), attached("b", 0), attached("c", 0), free(3.0, -4.5)]),
                      json!([[0, 1], [2, 3]]), json!({})),
        "mixed": line(json!([attached("a", 0), attached("b", 0), attached("c", 0)]),
                      json!([[0, 1], [0, 2]]), json!({"0": true, "1": true, "2": true})),
    }));
    assert_eq!(s.ends("fan").as_deref(), Some("lb → web-01, web-02"));
    assert_eq!(s.ends("back").as_deref(), Some("lb → web-01"));
    assert_eq!(
        s.ends("pairs").as_deref(),
        Some("lb — web-01; web-02 — (3, -4.5)")
    );
    assert_eq!(s.ends("mixed").as_deref(), Some("lb ↔ web-01, web-02"));
    assert_eq!(s.connection_count("a"), 6);
    let far_end = s.connections("c");
    assert!(
        far_end.iter().any(|c| c.object.id == "pairs"),
        "a free far end is the line itself"
    );
    assert!(matches!(
        s.connections("b")
            .iter()
            .find(|c| matches!(c.via, Via::Line { line_group, .. } if line_group.id == "back"))
            .unwrap()
            .via,
        Via::Line {
            direction: Direction::Incoming,
            ..
        }
    ));
}

#[test]
fn lines_that_bend_read_as_one_path() {
    let free = |x: f64, y: f64| json!({"type": 0, "x": x, "y": y});
    let s = scene(json!({
        "a": {"type": "component", "data": {"name": "lb", "position": {"x": 0, "y": 0}}},
        "b": {"type": "component", "data": {"name": "web-01", "position": {"x": 5, "y": 0}}},
        // Two bends, the lines listed out of order: one path from lb to web-01.
        "bent": line(json!([attached("a", 1), free(2.5, 0.0), free(2.5, 2.0), attached("b", 3)]),
                     json!([[1, 2], [2, 3], [0, 1]]), json!({"3": true})),
        // Lines meeting at a free point where one has a tip are no path: both point at it.
        "tipped": line(json!([attached("a", 1), free(2.5, 0.0), attached("b", 3)]),
                       json!([[0, 1], [1, 2]]), json!({"1": true})),
    }));
    assert_eq!(s.ends("bent").as_deref(), Some("lb → web-01"));
    assert_eq!(s.ends("tipped").as_deref(), Some("lb, web-01 → (2.5, 0)"));
    // A component's connection through a bent line is the component at the path's far end,
    // in the path's direction.
    let from_lb: Vec<(&str, Direction)> = s
        .connections("a")
        .iter()
        .filter_map(|c| match c.via {
            Via::Line {
                line_group,
                direction,
            } if line_group.id == "bent" => Some((c.object.id.as_str(), direction)),
            _ => None,
        })
        .collect();
    assert_eq!(from_lb, [("b", Direction::Outgoing)]);
    let to_web: Vec<&str> = (s.connections("b").iter())
        .filter(|c| matches!(c.via, Via::Line { line_group, .. } if line_group.id == "bent"))
        .map(|c| c.object.id.as_str())
        .collect();
    assert_eq!(to_web, ["a"]);
}

/// The sample documents the server is seeded with.
fn sample(name: &str) -> Scene {
    let text = match name {
        "web-platform" => include_str!("../../../assets/samples/web-platform.json"),
        "data-pipeline" => include_str!("../../../assets/samples/data-pipeline.json"),
        _ => include_str!("../../../assets/samples/edge-network.json"),
    };
    let file: Value = serde_json::from_str(text).unwrap();
    Scene::build(&content(file["content"].clone()), DEFAULT_STATUS_KEY)
}

#[test]
fn the_samples_are_placed_whole_and_read_right() {
    for name in ["web-platform", "data-pipeline", "edge-network"] {
        let s = sample(name);
        assert_eq!(s.unplaced(), [], "{name}");
        for p in s.primitives() {
            if let Shape::Lines(_) = p.shape {
                assert!(!s.ends(&p.id).unwrap().contains('('), "{name} {}", p.id);
            }
        }
    }
    let web = sample("web-platform");
    let ends = |id| web.ends(id).unwrap();
    assert_eq!(ends("0lqu5m2oe-mnu77vtuu"), "CDN → Load balancer");
    assert_eq!(
        ends("0lqu5m2of-j596lguax"),
        "Load balancer → web-01, web-02, web-03"
    );
    assert_eq!(
        ends("0lqu5m2oh-5gxnameyy"),
        "web-01, web-02, web-03 → orders-db"
    );
    let subnet = "0lqu5m2o2-wd25rq4f5";
    let in_subnet = |id| web.connections(id).iter().any(|c| c.object.id == subnet);
    assert!(
        in_subnet("0lqu5m2o8-qmoe95b9e"),
        "web-03 is in the private subnet"
    );
    assert!(!in_subnet("0lqu5m2o7-iom1tma7v"), "web-02 is not");
    assert_eq!(
        web.connection_count("0lqu5m2o5-zb6cn6z43"),
        4,
        "the load balancer"
    );
}
