//! The layered layout's rules, checked on the objects it makes.

use serde_json::{Value, json};

use crate::geometry::{COMPONENT_SIDE, Rect};
use crate::model::Direction;
use crate::quality::Drawing;
use crate::{Format, LayoutError, Objects, Settings, Stop, check, lay_out};

fn lay(body: &Value) -> Objects {
    lay_out(
        body.to_string().as_bytes(),
        Format::Json,
        &Settings::default(),
    )
    .unwrap()
    .objects
}

fn refusal(body: &Value) -> LayoutError {
    lay_out(
        body.to_string().as_bytes(),
        Format::Json,
        &Settings::default(),
    )
    .unwrap_err()
}

fn data<'a>(objects: &'a Objects, id: &str) -> &'a serde_json::Map<String, Value> {
    &objects
        .iter()
        .find(|(i, _)| i == id)
        .unwrap_or_else(|| panic!("no object {id}"))
        .1
        .data
}

fn centre(objects: &Objects, id: &str) -> (f64, f64) {
    let p = &data(objects, id)["position"];
    (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap())
}

fn rect_of(d: &serde_json::Map<String, Value>) -> Rect {
    if let Some(a) = d.get("anchors").and_then(Value::as_array) {
        let xs: Vec<f64> = a.iter().filter_map(|p| p["x"].as_f64()).collect();
        let ys: Vec<f64> = a.iter().filter_map(|p| p["y"].as_f64()).collect();
        return Rect {
            x0: xs.iter().copied().fold(f64::MAX, f64::min),
            y0: ys.iter().copied().fold(f64::MAX, f64::min),
            x1: xs.iter().copied().fold(f64::MIN, f64::max),
            y1: ys.iter().copied().fold(f64::MIN, f64::max),
        };
    }
    let (p, s) = (&d["position"], &d["dimensions"]);
    Rect::centred(
        p["x"].as_f64().unwrap(),
        p["y"].as_f64().unwrap(),
        s["width"].as_f64().unwrap(),
        s["height"].as_f64().unwrap(),
    )
}

fn component(groups: &[&str]) -> Value {
    json!({"type": "component", "componentType": "generic.server", "groups": groups})
}

fn link(from: &str, to: &str) -> Value {
    json!({"type": "connection", "from": from, "to": to, "arrowEnd": true})
}

/// The measures of a JSON body's layout.
fn measures(body: &Value) -> crate::quality::Measures {
    measured(body, &lay(body))
}

/// The measures of `objects`, laid out from a JSON body.
fn measured(body: &Value, objects: &Objects) -> crate::quality::Measures {
    let entries = crate::input::parse_json(body.to_string().as_bytes()).unwrap();
    let model = check::check(entries, Direction::TopBottom).unwrap();
    Drawing::of_objects(&model, objects).measure(&model)
}

#[test]
fn a_chain_runs_down_its_layers_and_a_cycle_still_flows() {
    let chain = json!({
        "a": component(&[]), "b": component(&[]), "c": component(&[]),
        "ab": link("a", "b"), "bc": link("b", "c"),
    });
    let objects = lay(&chain);
    let (a, b, c) = (
        centre(&objects, "a"),
        centre(&objects, "b"),
        centre(&objects, "c"),
    );
    assert!(a.1 < b.1 && b.1 < c.1, "{a:?} {b:?} {c:?}");
    assert_eq!((a.0, b.0), (b.0, c.0), "a chain runs straight");
    let mut body = chain.clone();
    body["ca"] = link("c", "a");
    let objects = lay(&body);
    let (a, b, c) = (
        centre(&objects, "a"),
        centre(&objects, "b"),
        centre(&objects, "c"),
    );
    assert!(a.1 < b.1 && b.1 < c.1, "{a:?} {b:?} {c:?}");
    let m = measured(&body, &objects);
    assert_eq!((m.through, m.overlapping, m.along), (0, 0, 0));
    assert_eq!(m.following, 2, "only the link closing the cycle runs back");
}

#[test]
fn min_length_keeps_layers_between_the_ends() {
    let body = json!({
        "a": component(&[]), "b": component(&[]), "c": component(&[]), "d": component(&[]),
        "ab": link("a", "b"), "bc": link("b", "c"),
        "ad": {"type": "connection", "from": "a", "to": "d", "minLength": 3},
    });
    let objects = lay(&body);
    let (a, c, d) = (
        centre(&objects, "a"),
        centre(&objects, "c"),
        centre(&objects, "d"),
    );
    assert!(
        d.1 > c.1,
        "d three layers below a, under c: {a:?} {c:?} {d:?}"
    );
    let bad = json!({"a": component(&[]), "b": component(&[]),
        "ab": {"type": "connection", "from": "a", "to": "b", "minLength": 0}});
    let e = refusal(&bad);
    assert_eq!(
        (e.entry.as_deref(), e.field.as_deref()),
        (Some("ab"), Some("minLength"))
    );
}

#[test]
fn the_flow_follows_the_direction_and_groups_their_own() {
    let mut body = json!({
        "a": component(&[]), "b": component(&["g"]), "c": component(&["g"]),
        "g": {"type": "group", "label": "Own direction", "direction": "TB"},
        "ab": link("a", "b"), "bc": link("b", "c"),
    });
    let parsed = crate::input::parse_json(body.to_string().as_bytes()).unwrap();
    let objects = crate::lay_out_entries(
        parsed,
        Direction::LeftRight,
        &Settings::default(),
        &Stop::default(),
    )
    .unwrap();
    let (a, b, c) = (
        centre(&objects, "a"),
        centre(&objects, "b"),
        centre(&objects, "c"),
    );
    assert!(a.0 < b.0, "LR: {a:?} then {b:?}");
    assert!(
        b.1 < c.1 && b.0 == c.0,
        "the group runs TB inside: {b:?} {c:?}"
    );
    body["g"]["direction"] = json!("RL");
    let parsed = crate::input::parse_json(body.to_string().as_bytes()).unwrap();
    let objects = crate::lay_out_entries(
        parsed,
        Direction::TopBottom,
        &Settings::default(),
        &Stop::default(),
    )
    .unwrap();
    let (b, c) = (centre(&objects, "b"), centre(&objects, "c"));
    assert!(b.0 > c.0 && b.1 == c.1, "RL inside: {b:?} {c:?}");
}

#[test]
fn groups_hold_their_members_and_siblings_never_overlap() {
    let mut body = serde_json::Map::new();
    for i in 0..12 {
        let groups: Vec<&str> = match i % 4 {
            0 => vec!["outer", "left"],
            1 => vec!["outer", "right"],
            2 => vec!["outer"],
            _ => vec![],
        };
        body.insert(format!("c{i}"), component(&groups));
        body.insert(
            format!("l{i}"),
            link(&format!("c{i}"), &format!("c{}", (i * 5 + 3) % 12)),
        );
    }
    body.insert(
        "left".into(),
        json!({"type": "group", "label": "Left side", "direction": "LR"}),
    );
    body.insert("right".into(), json!({"type": "group", "label": "Right"}));
    body.insert(
        "outer".into(),
        json!({"type": "group", "label": "Everything inside"}),
    );
    let body = Value::Object(body);
    let objects = lay(&body);
    let m = measured(&body, &objects);
    assert_eq!(
        (m.outside, m.sibling_overlaps, m.overlapping, m.through),
        (0, 0, 0, 0),
        "{m:?}"
    );
    let (left, right) = (
        rect_of(data(&objects, "left")),
        rect_of(data(&objects, "right")),
    );
    assert!(!left.overlaps(&right));
    let outer = rect_of(data(&objects, "outer"));
    assert!(outer.contains(&left) && outer.contains(&right));
}

#[test]
fn titles_are_dark_on_a_light_band_with_room_and_no_line_crosses_them() {
    let body = json!({
        "a": component(&[]), "b": component(&["g"]), "c": component(&["g"]), "d": component(&[]),
        "g": {"type": "group", "label": "A rather long title for a small group"},
        "ab": link("a", "b"), "ac": link("a", "c"), "cd": link("c", "d"), "ad": link("a", "d"),
    });
    let objects = lay(&body);
    let band = data(&objects, "g:band");
    assert_eq!(band["fillColor"], "#EEF2F6");
    let label = data(&objects, "g:label");
    assert_eq!(label["color"], "#1F2933");
    let text = rect_of(label);
    let area = rect_of(data(&objects, "g"));
    assert!(
        area.contains(&text),
        "the whole title inside its area: {text:?} {area:?}"
    );
    let chars = "A rather long title for a small group".len() as f64;
    assert!(
        text.width() >= chars * 0.5 * 0.6,
        "room for the whole title"
    );
    for (id, o) in &objects {
        if o.kind != "line-group" {
            continue;
        }
        for p in line_points(&objects, &o.data).windows(2) {
            assert!(!meets_inside(p[0], p[1], &text), "{id} crosses the title");
        }
    }
}

#[test]
fn a_line_into_a_group_under_a_long_title_enters_straight_beside_the_band() {
    // One member under a title broader than the member: its line from above used to meet the
    // band across the whole top and go round the group, in through its side.
    let body = json!({
        "a": component(&[]), "b": component(&["g"]),
        "g": {"type": "group", "label": "User Application"},
        "ab": link("a", "b"),
    });
    let objects = lay(&body);
    let area = rect_of(data(&objects, "g"));
    let band = rect_of(data(&objects, "g:band"));
    assert_eq!(
        band.y0, area.y0,
        "the band along the top: {band:?} {area:?}"
    );
    let points = line_points(&objects, data(&objects, "ab"));
    // Where the line crosses the top border: not under the band, and nowhere else out.
    let inside = |p: &(f64, f64)| {
        area.inset(0.01)
            .contains(&Rect::centred(p.0, p.1, 0.0, 0.0))
    };
    let first_in = points
        .iter()
        .position(inside)
        .expect("the line ends inside");
    assert!(points[first_in..].iter().all(inside), "{points:?}");
    let (above, below) = (points[first_in - 1], points[first_in]);
    assert_eq!(above.0, below.0, "straight down across the top: {points:?}");
    assert!(above.1 <= area.y0 && below.1 > area.y0, "{points:?}");
    assert!(
        below.0 >= band.x1 + 0.5 || below.0 <= band.x0 - 0.5,
        "clear of the band {band:?}: {points:?}"
    );
    assert!(area.contains(&band), "{band:?} {area:?}");
}

/// A line's points, attached anchors at their component's corner.
fn line_points(objects: &Objects, d: &serde_json::Map<String, Value>) -> Vec<(f64, f64)> {
    d["anchors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            if a["type"] == 1 {
                let c = centre(objects, a["id"].as_str().unwrap());
                let h = COMPONENT_SIDE / 2.0;
                let k = [(-h, -h), (h, -h), (h, h), (-h, h)][a["index"].as_u64().unwrap() as usize];
                (c.0 + k.0, c.1 + k.1)
            } else {
                (a["x"].as_f64().unwrap(), a["y"].as_f64().unwrap())
            }
        })
        .collect()
}

/// Whether an axis-parallel segment passes the inside of a rectangle.
fn meets_inside(a: (f64, f64), b: (f64, f64), r: &Rect) -> bool {
    let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
    let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
    x0 < r.x1
        && r.x0 < x1.max(x0 + 1e-9)
        && y0 < r.y1
        && r.y0 < y1.max(y0 + 1e-9)
        && !(x0 == x1 && (x0 <= r.x0 || x0 >= r.x1))
        && !(y0 == y1 && (y0 <= r.y0 || y0 >= r.y1))
}

#[test]
fn parallel_lines_keep_apart_and_labels_sit_beside_their_line() {
    // Four sources each linked to the same four targets: sixteen lines between two layers.
    let mut body = serde_json::Map::new();
    for i in 0..4 {
        body.insert(format!("s{i}"), component(&[]));
        body.insert(format!("t{i}"), component(&[]));
    }
    for i in 0..4 {
        for j in 0..4 {
            let mut l = link(&format!("s{i}"), &format!("t{j}"));
            if i == j {
                l["label"] = json!(format!("label {i}"));
            }
            body.insert(format!("l{i}{j}"), l);
        }
    }
    let body = Value::Object(body);
    let objects = lay(&body);
    let m = measured(&body, &objects);
    assert_eq!((m.along, m.through, m.overlapping), (0, 0, 0), "{m:?}");
    let labels: Vec<Rect> = objects
        .iter()
        .filter(|(id, o)| o.kind == "label" && id.ends_with(":label"))
        .map(|(_, o)| rect_of(&o.data))
        .collect();
    assert_eq!(labels.len(), 4);
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!a.overlaps(b), "labels apart: {a:?} {b:?}");
        }
        for (id, o) in &objects {
            if o.kind == "component" {
                let c = centre(&objects, id);
                let f = Rect::centred(c.0, c.1, COMPONENT_SIDE, COMPONENT_SIDE);
                assert!(!a.overlaps(&f), "a label over {id}");
            }
        }
    }
}

#[test]
fn several_connections_for_one_pair_and_invisible_links() {
    let body = json!({
        "a": component(&[]), "b": component(&[]), "c": component(&[]),
        "a->b": link("a", "b"),
        "a->b#2": {"type": "connection", "from": "a", "to": "b", "label": "again"},
        "b~c": {"type": "connection", "from": "b", "to": "c", "invisible": true},
    });
    let objects = lay(&body);
    assert!(objects.iter().any(|(id, _)| id == "a->b"));
    assert!(objects.iter().any(|(id, _)| id == "a->b#2"));
    assert!(
        !objects.iter().any(|(id, _)| id.starts_with("b~c")),
        "invisible: not drawn"
    );
    let (b, c) = (centre(&objects, "b"), centre(&objects, "c"));
    assert!(c.1 > b.1, "but laid out: c below b");
    let a1 = line_points(&objects, data(&objects, "a->b"));
    let a2 = line_points(&objects, data(&objects, "a->b#2"));
    assert_ne!(a1, a2, "two lines, not one on the other");
}

#[test]
fn a_tall_diagram_shrinks_its_gaps_to_fit_and_a_huge_one_is_refused_by_its_size() {
    let chain = |n: usize| {
        let mut body = serde_json::Map::new();
        for i in 0..n {
            body.insert(format!("c{i}"), component(&[]));
            if i > 0 {
                body.insert(
                    format!("l{i}"),
                    link(&format!("c{}", i - 1), &format!("c{i}")),
                );
            }
        }
        Value::Object(body)
    };
    // 25 layers of 2 cells do not fit with the default gap of 3, but do with smaller ones.
    let objects = lay(&chain(25));
    for i in 0..25 {
        let (x, y) = centre(&objects, &format!("c{i}"));
        assert!(x.abs() <= 49.0 && y.abs() <= 49.0, "c{i} at ({x}, {y})");
        assert_eq!((x * 2.0).fract(), 0.0);
        assert_eq!((y * 2.0).fract(), 0.0);
    }
    let e = refusal(&chain(60));
    assert!(
        e.message.contains("cells even with the smallest gaps"),
        "{}",
        e.message
    );
    assert!(e.message.contains("split it"), "{}", e.message);
}

#[test]
fn more_components_than_the_grid_holds_in_layers_are_refused_before_any_layout() {
    // 33 components a layer (3 cells each but the last's gap) and 40 layers (2.5 cells each
    // but the last's gap) fill the grid with the least gaps: 1,320; the bound counts the
    // gaps half to each side, so it is a little above.
    assert_eq!(super::most_components(), 1353);
    assert!(33 * 40 <= super::most_components());
    // No step lays out with gaps under the least ones the bound counts on.
    for gaps in super::steps(&Settings::default(), true) {
        assert!(gaps.node >= super::LEAST_GAPS.0 && gaps.layer >= super::LEAST_GAPS.1);
    }
    // One more than the bound, without links: refused by its count, naming it.
    let mut body = serde_json::Map::new();
    for i in 0..=super::most_components() {
        body.insert(format!("c{i}"), component(&[]));
    }
    let e = refusal(&Value::Object(body));
    assert!(
        e.message.starts_with("1354 components to lay out"),
        "{}",
        e.message
    );
    assert!(e.message.contains("hold 1353 at most"), "{}", e.message);
}

#[test]
fn a_step_of_fitting_with_the_gaps_of_the_one_before_is_not_laid_out_again() {
    let all = super::STEPS.len();
    // The settings' own gaps at their least: the first steps, which only scale the gaps, give
    // the same ones; without a labelled link, so do the first two.
    let tight = Settings::from_pairs([
        ("COMP_GAP", "0.5"),
        ("TIER_GAP", "0.5"),
        ("GROUP_MARGIN", "0.5"),
        ("GROUP_PADDING", "0.5"),
    ])
    .unwrap();
    let steps = super::steps(&tight, false);
    assert!(steps.len() < all - 3, "{} of {all}", steps.len());
    assert!(steps.windows(2).all(|w| w[0] != w[1]));
    assert_eq!(
        steps.last(),
        super::steps(&Settings::default(), true).last()
    );
    // A labelled link: the first step gives its label a layer, the second does not.
    let labelled = super::steps(&Settings::default(), true);
    assert!(labelled[0].label_layers && !labelled[1].label_layers);
    assert_eq!(super::steps(&Settings::default(), false).len(), all - 1);
}

#[test]
fn extra_tracks_that_would_grow_past_the_room_are_not_tried() {
    // 6 tracks grew the diagram 15 cells, 2.5 a track: 3 would take 7.5, more than the 3
    // cells of room, so 1 is next.
    assert_eq!(super::fewer_tracks(6, 2.5, 3.0), 1);
    // Half a cell a track: 3 fit the room, and are tried.
    assert_eq!(super::fewer_tracks(6, 0.5, 3.0), 3);
    assert_eq!(super::fewer_tracks(1, 0.5, 3.0), 0);
    assert_eq!(super::fewer_tracks(8, 4.0, 3.0), 0);
}

#[test]
fn a_fan_out_of_one_component_neither_crosses_nor_shares_a_piece() {
    // One source linked to six targets on the layer below: no two lines share a piece, none
    // crosses another, and each starts at a corner of the source.
    let mut body = serde_json::Map::new();
    body.insert("s".into(), component(&[]));
    for i in 0..6 {
        body.insert(format!("t{i}"), component(&[]));
        body.insert(format!("l{i}"), link("s", &format!("t{i}")));
    }
    let body = Value::Object(body);
    let objects = lay(&body);
    let m = measured(&body, &objects);
    assert_eq!((m.crossings, m.along, m.through), (0, 0, 0), "{m:?}");
    for i in 0..6 {
        let anchors = data(&objects, &format!("l{i}"))["anchors"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(anchors[0]["type"], 1, "l{i} starts at a corner of s");
        assert_eq!(anchors[0]["id"], "s");
    }
}

#[test]
fn a_line_to_a_member_of_a_group_runs_straight_in_at_its_corner() {
    // a above a group holding b (untitled: a title's band at the top-left would stand in the
    // way): the line's last piece runs down into b's top corner, and the whole line bends at
    // most twice (down, across, down).
    let body = json!({
        "a": component(&[]),
        "b": component(&["g"]),
        "g": {"type": "group"},
        "l": link("a", "b"),
    });
    let objects = lay(&body);
    let points = line_points(&objects, data(&objects, "l"));
    let (last, before) = (points[points.len() - 1], points[points.len() - 2]);
    let b = centre(&objects, "b");
    assert_eq!(
        last.1,
        b.1 - COMPONENT_SIDE / 2.0,
        "ends on b's top: {points:?}"
    );
    assert_eq!(before.0, last.0, "runs down into b: {points:?}");
    assert!(points.len() <= 4, "bends at most twice: {points:?}");
}

#[test]
fn lines_from_one_member_to_members_of_another_group_neither_cross_nor_run_along() {
    // Crossplane's namespaced XR diagram: a member of one group linked to three members of the
    // next group, left to right. The three lines leave the member's two corners on that side,
    // the middle one beside its footprint, without crossing or running along each other.
    let text = "flowchart LR\n  subgraph ns [my-namespace]\n    direction LR\n    \
                subgraph user [Platform User Concern]\n      xr[\"Application (XR)\"]\n    end\n    \
                subgraph team [Platform Team Concern]\n      dply[Deployment]\n      svc[Service]\n      \
                rds[\"RDSInstance (MR)\"]\n    end\n  end\n  xr --> dply\n  xr --> svc\n  xr --> rds\n";
    let parsed = Format::Mermaid.parse(text.as_bytes()).unwrap();
    let laid = crate::lay_out_parsed(parsed.clone(), &Settings::default()).unwrap();
    let model = check::check(parsed.entries, parsed.direction.unwrap_or_default()).unwrap();
    let m = Drawing::of_objects(&model, &laid.objects).measure(&model);
    assert_eq!((m.crossings, m.along, m.through), (0, 0, 0), "{m:?}");
}

/// A tree `depth` levels below its root, each component feeding `fan`, all named by
/// `label_chars` characters.
fn tree(depth: usize, fan: usize, label_chars: usize) -> Value {
    let named = |id: &str| {
        let label = format!("{id:-<label_chars$}");
        json!({"type": "component", "componentType": "generic.server", "label": label})
    };
    let mut body = serde_json::Map::new();
    body.insert("n".into(), named("n"));
    let mut level = vec!["n".to_string()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for parent in &level {
            for k in 0..fan {
                let id = format!("{parent}{k}");
                body.insert(id.clone(), named(&id));
                body.insert(format!("to-{id}"), link(parent, &id));
                next.push(id);
            }
        }
        level = next;
    }
    Value::Object(body)
}

#[test]
fn a_tree_too_wide_for_a_track_per_line_shares_tracks_without_crossing() {
    // 121 components, each feeding three: too wide and too long for every line to have a
    // track of its own, so the lines of a gap share its tracks. Neighbouring tracks merge, in
    // their order, so no two lines cross (wrapping them round put 2,260 crossings here).
    let m = measures(&tree(4, 3, 12));
    assert_eq!(m.links, 120, "{m:?}");
    assert_eq!((m.crossings, m.through, m.overlapping), (0, 0, 0), "{m:?}");
}

#[test]
fn a_wide_fan_out_folded_below_its_source_runs_down_as_one_line() {
    // 259 components: 43 feed six each, 216 leaves. The layers hold 90 cells at most, so the
    // leaves fold into the layers below their sources; each source's lines then pass those
    // layers as one line, parting at each leaf. Counted one line apiece, the lines passing
    // filled the layers, pushing more leaves down, and the tree was refused at 111 × 675 cells.
    let body = tree(3, 6, 10);
    let objects = lay(&body);
    let m = measured(&body, &objects);
    assert_eq!(m.links, 258, "{m:?}");
    assert_eq!((m.crossings, m.through, m.overlapping), (0, 0, 0), "{m:?}");
    // The lines that run down as one also leave their source as one: of n00's six, those to
    // leaves folded below share their way out of its corner.
    let ways_out: std::collections::BTreeSet<String> = (0..6)
        .map(|k| {
            let anchors = &data(&objects, &format!("to-n00{k}"))["anchors"];
            format!("{} {}", anchors[0], anchors[1])
        })
        .collect();
    assert!(ways_out.len() < 6, "{ways_out:?}");
}

#[test]
fn lines_into_and_out_of_groups_run_inside_them_beside_the_members_they_pass() {
    // The core of a shop's architecture: the API in the middle of its group, fed from outside
    // past the storefront, feeding three stores in another group past the worker, and one
    // store feeding the worker back. Each group plans the lines crossing its border on its
    // own layers, in the order of where they run on outside; searched round the members, as
    // they were, they crossed once and two ran along another.
    let text = "flowchart TB\n  admin toapi@--> api\n  lb --> web & api\n  subgraph apps\n    \
                web --> api --> worker\n  end\n  subgraph data\n    db\n    cache\n    \
                queue\n  end\n  api --> db & cache & queue\n  worker --> db\n  \
                queue --> worker\n";
    let parsed = Format::Mermaid.parse(text.as_bytes()).unwrap();
    let laid = crate::lay_out_parsed(parsed.clone(), &Settings::default()).unwrap();
    let model = check::check(parsed.entries, parsed.direction.unwrap_or_default()).unwrap();
    let m = Drawing::of_objects(&model, &laid.objects).measure(&model);
    assert_eq!((m.crossings, m.through, m.outside), (0, 0, 0), "{m:?}");
    assert!(m.along <= 1, "{m:?}");
    // admin's line crosses the border of `apps` once, on its top, and runs down beside web
    // (no point of it inside web's box).
    let line = line_points(&laid.objects, data(&laid.objects, "toapi"));
    let apps = rect_of(data(&laid.objects, "apps"));
    let (x, y) = centre(&laid.objects, "web");
    let web = Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE);
    let inside =
        |p: &(f64, f64)| (apps.x0..=apps.x1).contains(&p.0) && (apps.y0..=apps.y1).contains(&p.1);
    let entries = line
        .windows(2)
        .filter(|w| !inside(&w[0]) && inside(&w[1]))
        .count();
    assert_eq!(entries, 1, "{line:?} {apps:?}");
    assert!(
        line.windows(2).all(|w| !meets_inside(w[0], w[1], &web)),
        "{line:?}"
    );
}

#[test]
fn a_group_below_one_turned_across_takes_its_lines_in_the_order_of_their_members() {
    // g1 runs left to right inside a top-to-bottom diagram, so its members' lines leave from
    // where the members lie (it plans no ports); g2 below orders the ports of the lines
    // coming in by those places: a's line on the left, c's on the right, no crossing.
    let text = "flowchart TB\n  x --> b & c\n  subgraph g1\n    direction LR\n    \
                a --> b --> c\n  end\n  subgraph g2\n    d --> e\n  end\n  c --> e\n  a --> d\n";
    let parsed = Format::Mermaid.parse(text.as_bytes()).unwrap();
    let laid = crate::lay_out_parsed(parsed.clone(), &Settings::default()).unwrap();
    let model = check::check(parsed.entries, parsed.direction.unwrap_or_default()).unwrap();
    let m = Drawing::of_objects(&model, &laid.objects).measure(&model);
    assert_eq!((m.crossings, m.through, m.outside), (0, 0, 0), "{m:?}");
}

#[test]
fn a_layers_components_stand_in_a_row_however_long_their_names() {
    // One name of three lines beside names of one: down the page (and up it) the squares line
    // up, the names hanging below them; across the page too (the names lie across the flow).
    for direction in ["TD", "BT", "LR", "RL"] {
        let text = format!(
            "flowchart {direction}\n s --> a[A]\n s --> b[\"one<br>two<br>three\"]\n \
             s --> c[C]\n a --> d\n b --> d"
        );
        let objects = lay_out(text.as_bytes(), Format::Mermaid, &Settings::default())
            .unwrap()
            .objects;
        let across = |id: &str| {
            let (x, y) = centre(&objects, id);
            if direction == "LR" || direction == "RL" {
                x
            } else {
                y
            }
        };
        let row = [across("a"), across("b"), across("c")];
        assert!(
            row.iter().all(|&v| v == row[0]),
            "{direction}: the squares of one layer at {row:?}"
        );
    }
}

#[test]
fn no_links_label_lies_where_the_3d_picture_hangs_a_group_title() {
    // Two nested groups with a labelled link into the inner one's member from below its
    // titles, and others round it: the 3D picture hangs each title over the floor up and left
    // of its band, and a label there was drawn over the title.
    let text = "graph TD\n L[\"Client library\"] --> |push spans| R\n \
                R[\"Span receiver\"] --> DB[Store]\n R --> |write| P[Writer]\n \
                R --> |pull rules| L\n P --> DB\n Q[Search] --> DB\n Q --> |read| P\n \
                W[Web UI] --> |HTTP| Q\n subgraph Machine\n subgraph Program\n L\n end\n end";
    let objects = lay_out(text.as_bytes(), Format::Mermaid, &Settings::default())
        .unwrap()
        .objects;
    let shift = diagtui_model::picture::SIGN_HEIGHT;
    let signs: Vec<Rect> = (objects.iter())
        .filter(|(id, _)| id.ends_with(":band"))
        .map(|(_, o)| rect_of(&o.data).shifted(-shift, -shift).inset(-0.5))
        .collect();
    assert_eq!(signs.len(), 2);
    let lines: Vec<&str> = (objects.iter())
        .filter(|(_, o)| o.kind == "line-group")
        .map(|(id, _)| id.as_str())
        .collect();
    let mut labels = 0;
    for (id, o) in &objects {
        let Some(line) = id.strip_suffix(":label") else {
            continue;
        };
        if !lines.contains(&line) {
            continue;
        }
        labels += 1;
        let r = rect_of(&o.data);
        for s in &signs {
            assert!(!r.overlaps(s), "{id} at {r:?} under a title hung at {s:?}");
        }
    }
    assert_eq!(labels, 5);
}

#[test]
fn a_raised_stop_gives_the_layout_up_before_its_first_step() {
    let body = b"flowchart TD\n  a --> b\n  b --> c\n";
    let stop = Stop::default();
    let settings = Settings::default();
    assert!(crate::lay_out_unless_stopped(body, Format::Mermaid, &settings, &stop).is_ok());
    stop.raise();
    let refused = crate::lay_out_unless_stopped(body, Format::Mermaid, &settings, &stop)
        .expect_err("stopped");
    assert!(refused.message.contains("stopped"), "{refused}");
}
