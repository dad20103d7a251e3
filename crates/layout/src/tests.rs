//! The layout's rules, checked on the objects it makes.

use serde_json::{Value, json};

use super::*;
use crate::geometry::{COMPONENT_SIDE, Rect};

fn lay(body: Value) -> Objects {
    lay_out(
        body.to_string().as_bytes(),
        Format::Json,
        &Settings::default(),
    )
    .unwrap()
    .objects
}

fn refusal(body: Value) -> LayoutError {
    lay_out(
        body.to_string().as_bytes(),
        Format::Json,
        &Settings::default(),
    )
    .unwrap_err()
}

fn get<'a>(objects: &'a Objects, id: &str) -> &'a Map {
    &objects
        .iter()
        .find(|(i, _)| i == id)
        .unwrap_or_else(|| panic!("no object {id}"))
        .1
        .data
}

type Map = serde_json::Map<String, Value>;

fn footprint(data: &Map) -> Rect {
    let p = &data["position"];
    Rect::centred(
        p["x"].as_f64().unwrap(),
        p["y"].as_f64().unwrap(),
        COMPONENT_SIDE,
        COMPONENT_SIDE,
    )
}

fn area(data: &Map) -> Rect {
    let a = data["anchors"].as_array().unwrap();
    let xs: Vec<f64> = a.iter().map(|p| p["x"].as_f64().unwrap()).collect();
    let ys: Vec<f64> = a.iter().map(|p| p["y"].as_f64().unwrap()).collect();
    Rect {
        x0: xs.iter().cloned().fold(f64::MAX, f64::min),
        y0: ys.iter().cloned().fold(f64::MAX, f64::min),
        x1: xs.iter().cloned().fold(f64::MIN, f64::max),
        y1: ys.iter().cloned().fold(f64::MIN, f64::max),
    }
}

fn label_box(data: &Map) -> Rect {
    let (p, d) = (&data["position"], &data["dimensions"]);
    Rect::centred(
        p["x"].as_f64().unwrap(),
        p["y"].as_f64().unwrap(),
        d["width"].as_f64().unwrap(),
        d["height"].as_f64().unwrap(),
    )
}

fn of_kind<'a>(
    objects: &'a Objects,
    kind: &'a str,
) -> impl Iterator<Item = (&'a String, &'a Map)> + 'a {
    objects
        .iter()
        .filter(move |(_, o)| o.kind == kind)
        .map(|(id, o)| (id, &o.data))
}

/// A diagram with groups nested two deep, several tiers and labels everywhere (one component
/// gives its tier, so the tier layout lays it out).
fn busy() -> Value {
    let mut body = busy_layered();
    body["c0"]["tier"] = json!(2);
    body
}

/// The same diagram without any `tier`: the layered layout lays it out.
fn busy_layered() -> Value {
    let mut body = serde_json::Map::new();
    for i in 0..24 {
        let kind = [
            "generic.server",
            "database.postgres",
            "networking.haproxy",
            "messaging.kafka",
        ][i % 4];
        let groups = match i % 3 {
            0 => json!(["cloud", "apps"]),
            1 => json!(["cloud"]),
            _ => json!([]),
        };
        body.insert(
            format!("c{i}"),
            json!({"type": "component", "componentType": kind, "groups": groups,
                "label": format!("component number {i}"), "connections": [format!("c{}", (i + 5) % 24)]}),
        );
    }
    body.insert(
        "cloud".into(),
        json!({"type": "group", "label": "The cloud"}),
    );
    body.insert(
        "apps".into(),
        json!({"type": "group", "label": "Apps", "labelStyle": "inline", "labelPosition": "top"}),
    );
    Value::Object(body)
}

#[test]
fn no_two_components_overlap_and_no_label_overlaps_a_component() {
    for body in [busy(), busy_layered()] {
        no_overlaps(lay(body));
    }
}

fn no_overlaps(objects: Objects) {
    let comps: Vec<Rect> = of_kind(&objects, "component")
        .map(|(_, d)| footprint(d))
        .collect();
    assert_eq!(comps.len(), 24);
    for (i, a) in comps.iter().enumerate() {
        for b in &comps[i + 1..] {
            assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
        }
    }
    // Captions: the group labels, and each component's name in the box under it.
    let mut labels: Vec<Rect> = of_kind(&objects, "label")
        .map(|(_, d)| label_box(d))
        .collect();
    assert_eq!(labels.len(), 2);
    for (_, d) in of_kind(&objects, "component") {
        let name = d["name"].as_str().expect("a label becomes the name");
        let c = footprint(d);
        let (w, h) = place::component_label_size(Some(name)).unwrap();
        labels.push(Rect::centred((c.x0 + c.x1) / 2.0, c.y1 + h / 2.0, w, h));
    }
    for (i, l) in labels.iter().enumerate() {
        for c in &comps {
            assert!(!l.overlaps(c), "label {l:?} overlaps component {c:?}");
        }
        for m in &labels[i + 1..] {
            assert!(!l.overlaps(m), "label {l:?} overlaps label {m:?}");
        }
    }
}

#[test]
fn every_area_encloses_its_members_with_its_padding() {
    let objects = lay(busy());
    let pad = Settings::default().group_padding;
    let cloud = area(get(&objects, "cloud"));
    let apps = area(get(&objects, "apps"));
    assert!(
        cloud.contains(&apps),
        "the inner group lies inside the outer one"
    );
    for i in 0..24 {
        let c = footprint(get(&objects, &format!("c{i}")));
        let padded = Rect {
            x0: c.x0 - pad,
            y0: c.y0 - pad,
            x1: c.x1 + pad,
            y1: c.y1 + pad,
        };
        match i % 3 {
            0 => assert!(apps.contains(&padded), "c{i}"),
            1 => {
                assert!(cloud.contains(&padded), "c{i}");
                assert!(!apps.overlaps(&c), "c{i} is outside apps");
            }
            _ => assert!(!cloud.overlaps(&c), "c{i} is outside every group"),
        }
    }
    // The block label's band sticks out below the bottom edge; the inline one sits on the top.
    let band = area(get(&objects, "cloud:band"));
    assert_eq!(band.y0, cloud.y1);
    assert_eq!(band.x0, cloud.x0);
    let inline = label_box(get(&objects, "apps:label"));
    assert!(inline.y0 <= apps.y0 && apps.y0 <= inline.y1);
}

#[test]
fn positions_sit_on_the_grid_steps() {
    for body in [busy(), busy_layered()] {
        on_the_grid_steps(lay(body));
    }
}

fn on_the_grid_steps(objects: Objects) {
    let on = |v: &Value, step: f64| (v.as_f64().unwrap() / step).fract() == 0.0;
    for (_, d) in of_kind(&objects, "component").chain(of_kind(&objects, "label")) {
        assert!(
            on(&d["position"]["x"], 0.5) && on(&d["position"]["y"], 0.5),
            "{d:?}"
        );
    }
    for (_, d) in of_kind(&objects, "area") {
        for p in d["anchors"].as_array().unwrap() {
            assert!(on(&p["x"], 0.125) && on(&p["y"], 0.125), "{p}");
        }
    }
    for (_, d) in of_kind(&objects, "line-group") {
        for p in d["anchors"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["type"] == 0)
        {
            assert!(on(&p["x"], 0.5) && on(&p["y"], 0.5), "{p}");
        }
    }
}

#[test]
fn tiers_stack_from_rear_at_the_top_to_front_at_the_bottom_in_rows() {
    let objects = lay(json!({
        "pc": {"type": "component", "componentType": "generic.pc"},
        "db": {"type": "component", "componentType": "database.mysql"},
        "app": {"type": "component", "componentType": "generic.server"},
        "x": {"type": "component", "componentType": "generic.server", "tier": -1},
    }));
    let y = |id: &str| get(&objects, id)["position"]["y"].as_f64().unwrap();
    assert!(y("db") < y("app") && y("app") < y("pc") && y("pc") < y("x"));
    assert_eq!(
        y("app") - y("db"),
        COMPONENT_SIDE + Settings::default().tier_gap
    );
    let wide: serde_json::Map<String, Value> = (0..12)
        .map(|i| {
            (
                format!("s{i}"),
                json!({"type": "component", "componentType": "generic.server", "tier": 2}),
            )
        })
        .collect();
    let objects = lay(Value::Object(wide));
    let row = |id: &str| get(&objects, id)["position"]["y"].as_f64().unwrap();
    assert_eq!(row("s0"), row("s9"));
    assert!(
        row("s10") > row("s9"),
        "the eleventh wraps onto a second row"
    );
    let x = |id: &str| get(&objects, id)["position"]["x"].as_f64().unwrap();
    assert_eq!(
        x("s1") - x("s0"),
        COMPONENT_SIDE + Settings::default().comp_gap
    );
}

#[test]
fn lines_go_around_components_and_carry_arrows() {
    // a, b and c in one row: the line from a to c must not cross b.
    let objects = lay(json!({
        "a": {"type": "component", "componentType": "generic.server", "connections": "c", "arrowsTo": "all"},
        "b": {"type": "component", "componentType": "generic.server"},
        "c": {"type": "component", "componentType": "generic.server"},
    }));
    let line = get(&objects, "a->c");
    let anchors = line["anchors"].as_array().unwrap();
    assert_eq!(
        anchors[0],
        json!({"type": 1, "id": "a", "index": anchors[0]["index"]})
    );
    assert_eq!(anchors.last().unwrap()["id"], "c");
    assert_eq!(
        line["arrowAnchorIndices"],
        json!({(anchors.len() - 1).to_string(): true})
    );
    assert_eq!(line["lines"].as_array().unwrap().len(), anchors.len() - 1);
    let b = footprint(get(&objects, "b"));
    let points: Vec<(f64, f64)> = anchors
        .iter()
        .map(|a| match a["type"].as_i64() {
            Some(0) => (a["x"].as_f64().unwrap(), a["y"].as_f64().unwrap()),
            _ => {
                let c = footprint(get(&objects, a["id"].as_str().unwrap()));
                let i = a["index"].as_u64().unwrap();
                [(c.x0, c.y0), (c.x1, c.y0), (c.x1, c.y1), (c.x0, c.y1)][i as usize]
            }
        })
        .collect();
    for w in points.windows(2) {
        let (p, q) = (w[0], w[1]);
        assert!(p.0 == q.0 || p.1 == q.1, "right-angled");
        let seg = Rect {
            x0: p.0.min(q.0),
            y0: p.1.min(q.1),
            x1: p.0.max(q.0),
            y1: p.1.max(q.1),
        };
        let inner = b; // touching its border counts too
        let crosses =
            seg.x0 <= inner.x1 && inner.x0 <= seg.x1 && seg.y0 <= inner.y1 && inner.y0 <= seg.y1;
        assert!(
            !crosses,
            "segment {p:?}-{q:?} runs through or along b {b:?}"
        );
    }
}

#[test]
fn connection_entries_style_the_link_and_one_line_per_pair() {
    let objects = lay(json!({
        "web": {"type": "component", "componentType": "generic.server", "connections": ["db"], "groups": ["vpc"]},
        "db": {"type": "component", "componentType": "database.mysql", "connections": "web", "groups": "vpc",
               "meta-size": "large", "meta": {"tier": 1}},
        "w2d": {"type": "connection", "from": "db", "to": "web", "lineDash": "dashed", "arrowStart": true,
                "lineColor": "#112233", "component": "generic.cache", "label": "cache"},
        "to-vpc": {"type": "connection", "from": "web", "to": "vpc", "arrowEnd": true},
    }));
    assert_eq!(of_kind(&objects, "line-group").count(), 2);
    let line = get(&objects, "w2d");
    assert_eq!(line["lineDash"], 2);
    assert_eq!(line["strokeStyle"], "#112233");
    // The link runs web -> db as first declared; arrowStart on db -> web puts the tip at db.
    let last = line["anchors"].as_array().unwrap().len() - 1;
    assert_eq!(line["anchors"][last]["id"], "db");
    assert_eq!(line["arrowAnchorIndices"], json!({last.to_string(): true}));
    assert_eq!(
        get(&objects, "w2d:component")["componentId"],
        "generic.cache"
    );
    assert_eq!(get(&objects, "w2d:label")["text"], "cache");
    assert_eq!(
        get(&objects, "db")["meta"],
        json!({"tier": 1, "size": "large"})
    );
    let to_group = get(&objects, "to-vpc");
    assert_eq!(
        to_group["anchors"].as_array().unwrap().last().unwrap()["type"],
        0,
        "a free anchor on the border"
    );
    assert_eq!(get(&objects, "vpc")["fillColor"], "#FFFFFF");
}

#[test]
fn positions_by_hand_absolute_and_relative() {
    let objects = lay(json!({
        "a": {"type": "component", "componentType": "generic.server", "groups": ["g"]},
        "abs": {"type": "component", "componentType": "generic.server", "positionType": "absolute", "positionX": 20, "positionY": -10.25},
        "rel": {"type": "component", "componentType": "generic.server", "positionType": "relative", "positionRelativeTo": "abs", "positionX": 3, "positionY": 0},
        "relg": {"type": "component", "componentType": "generic.server", "positionType": "relative", "positionRelativeTo": "g",
                 "positionPointX": "right", "positionPointY": "top", "positionX": 2, "positionY": -2},
    }));
    let pos = |id: &str| {
        (
            get(&objects, id)["position"]["x"].as_f64().unwrap(),
            get(&objects, id)["position"]["y"].as_f64().unwrap(),
        )
    };
    assert_eq!(pos("abs"), (20.0, -10.5));
    assert_eq!(pos("rel"), (23.0, -10.5));
    let g = area(get(&objects, "g"));
    assert_eq!(
        pos("relg"),
        (
            ((g.x1 + 2.0) * 2.0).round() / 2.0,
            ((g.y0 - 2.0) * 2.0).round() / 2.0
        )
    );
}

#[test]
fn csv_bodies_read_like_json() {
    let csv = "id,type,componentType,groups,connections,label,tier,areaType,lineWidth\n\
               lb,component,networking.haproxy,,\"app1, app2\",,,,\n\
               app1,component,generic.server,\"vpc, apps\",,App one,,,\n\
               app2,component,generic.server,\"vpc, apps\",,,3,,\n\
               vpc,group,,,,Main VPC,,1,0.2\n";
    let objects = lay_out(csv.as_bytes(), Format::Csv, &Settings::default())
        .unwrap()
        .objects;
    assert_eq!(get(&objects, "vpc")["areaType"], 1);
    assert_eq!(get(&objects, "vpc")["lineWidth"], 0.2);
    assert_eq!(
        get(&objects, "app1")["name"],
        "App one",
        "a label is the component's name"
    );
    assert!(objects.iter().any(|(id, _)| id == "lb->app2"));
    let y = |id: &str| get(&objects, id)["position"]["y"].as_f64().unwrap();
    assert!(y("app2") < y("app1"), "tier 3 lies behind tier 2");
}

/// A component entry of type `generic.server` with `extra` fields.
fn server(extra: Value) -> Value {
    let mut e = json!({"type": "component", "componentType": "generic.server"});
    e.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    e
}

/// Each body is refused naming its entry and field.
fn assert_refused_naming(cases: Vec<(Value, &str, &str)>) {
    for (body, entry, field) in cases {
        let e = refusal(body.clone());
        assert_eq!(
            (e.entry.as_deref(), e.field.as_deref()),
            (Some(entry), Some(field)),
            "{body}: {e}"
        );
    }
}

#[test]
fn a_refused_type_link_or_group_names_the_entry_and_the_field() {
    assert_refused_naming(vec![
        (json!({"a": {"type": "box"}}), "a", "type"),
        (
            json!({"a": {"componentType": "generic.server"}}),
            "a",
            "type",
        ),
        (json!({"a": {"type": "image"}}), "a", "type"),
        (json!({"a": {"type": "component"}}), "a", "componentType"),
        (
            json!({"a": server(json!({"connections": ["nope"]}))}),
            "a",
            "connections",
        ),
        (
            json!({"a": server(json!({"connections": ["a"]}))}),
            "a",
            "connections",
        ),
        (
            json!({"a": server(json!({"arrowsTo": ["b"]})), "b": server(json!({}))}),
            "a",
            "arrowsTo",
        ),
        (
            json!({"a": server(json!({})), "c": {"type": "connection", "from": "a", "to": "zz"}}),
            "c",
            "to",
        ),
        (
            json!({"a": server(json!({})), "c": {"type": "connection", "to": "a"}}),
            "c",
            "from",
        ),
        (
            json!({"a": server(json!({"groups": ["b"]})), "b": server(json!({}))}),
            "a",
            "groups",
        ),
        (
            json!({"a": server(json!({"groups": ["x", "y"]})), "b": server(json!({"groups": ["y", "x"]}))}),
            "a",
            "groups",
        ),
        (
            json!({"a": server(json!({"groups": ["x", "y"]})), "b": server(json!({"groups": ["z", "y"]}))}),
            "b",
            "groups",
        ),
    ]);
}

#[test]
fn a_refused_position_or_property_names_the_entry_and_the_field() {
    assert_refused_naming(vec![
        (
            json!({"a": server(json!({"positionType": "relative", "positionRelativeTo": "b", "positionX": 1, "positionY": 1})),
                "b": server(json!({"positionType": "relative", "positionRelativeTo": "a", "positionX": 1, "positionY": 1}))}),
            "a",
            "positionRelativeTo",
        ),
        (
            json!({"a": server(json!({"positionType": "relative", "positionRelativeTo": "q", "positionX": 1, "positionY": 1}))}),
            "a",
            "positionRelativeTo",
        ),
        (
            json!({"a": server(json!({"positionType": "absolute", "positionY": 1}))}),
            "a",
            "positionX",
        ),
        (
            json!({"a": server(json!({"positionType": "sideways"}))}),
            "a",
            "positionType",
        ),
        (
            json!({"a": server(json!({"positionType": "absolute", "positionX": 90, "positionY": 1}))}),
            "a",
            "positionX",
        ),
        (json!({"a": server(json!({"tier": "front"}))}), "a", "tier"),
        (
            json!({"a": server(json!({"opacity": "half"}))}),
            "a",
            "opacity",
        ),
        (
            json!({"a": server(json!({"meta": {"x": [1]}}))}),
            "a",
            "meta.x",
        ),
        (
            json!({"g": {"type": "group", "lineColor": "red"}}),
            "g",
            "lineColor",
        ),
        (
            json!({"g": {"type": "group", "labelStyle": "fancy"}}),
            "g",
            "labelStyle",
        ),
        (
            json!({"a": server(json!({})), "b": server(json!({})), "c": {"type": "connection", "from": "a", "to": "b", "lineDash": "wavy"}}),
            "c",
            "lineDash",
        ),
        (
            json!({"a": server(json!({})), "b": server(json!({})),
                "c": {"type": "connection", "from": "a", "to": "b", "minLength": 1.5}}),
            "c",
            "minLength",
        ),
        (
            json!({"g": {"type": "group", "label": "x"}, "g:label": server(json!({}))}),
            "g:label",
            "id",
        ),
    ]);
}

#[test]
fn a_refused_id_or_document_names_what_is_wrong() {
    let long = "x".repeat(61);
    let e = refusal(json!({long.clone(): server(json!({}))}));
    assert_eq!(e.field.as_deref(), Some("id"));
    // A duplicate id in a JSON map, which a plain map would hide.
    let e = lay_out(
        br#"{"a": {"type": "group"}, "a": {"type": "group"}}"#,
        Format::Json,
        &Settings::default(),
    )
    .unwrap_err();
    assert_eq!(
        (e.entry.as_deref(), e.field.as_deref()),
        (Some("a"), Some("id"))
    );
    let e = lay_out(b"[1]", Format::Json, &Settings::default()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("[0]"));
    assert!(lay_out(b"{", Format::Json, &Settings::default()).is_err());
}

#[test]
fn too_big_for_the_grid_is_refused_naming_the_size() {
    let many: serde_json::Map<String, Value> = (0..400)
        .map(|i| {
            (
                format!("s{i}"),
                json!({"type": "component", "componentType": "generic.server", "tier": 2}),
            )
        })
        .collect();
    let e = refusal(Value::Object(many));
    assert!(e.message.contains("larger than the grid"), "{e}");
    assert!(e.message.contains(" × "), "{e}");
}

#[test]
fn a_refusal_says_whether_the_turned_flow_fits() {
    let chain = |direction: &str, n: usize| {
        let links: Vec<String> = (1..n).map(|i| format!("  n{i} --> n{}", i + 1)).collect();
        format!("flowchart {direction}\n{}\n", links.join("\n"))
    };
    let refused = |text: String| {
        lay_out(text.as_bytes(), Format::Mermaid, &Settings::default())
            .unwrap_err()
            .message
    };
    // 30 nodes in a chain are too long top to bottom (their names under them) and fit across.
    let e = refused(chain("TB", 30));
    assert!(e.contains("larger than the grid"), "{e}");
    assert!(e.contains("laid out LR instead of TB it fits"), "{e}");
    assert!(
        lay_out(
            chain("LR", 30).as_bytes(),
            Format::Mermaid,
            &Settings::default()
        )
        .is_ok()
    );
    // 60 fit neither way: both sizes are named.
    let e = refused(chain("RL", 60));
    assert!(e.contains("laid out BT instead of RL it is "), "{e}");
    assert!(e.contains("split it into several diagrams"), "{e}");
}

#[test]
fn a_list_of_entries_works_as_a_map() {
    let objects = lay(json!([{"id": "a", "type": "component", "componentType": "generic.server"}]));
    assert_eq!(objects[0].0, "a");
}

#[test]
fn components_placed_on_one_another_by_hand_still_get_their_line() {
    let objects = lay(json!({
        "a": {"type": "component", "componentType": "generic.server", "positionType": "absolute",
              "positionX": 0, "positionY": 0, "connections": "b"},
        "b": {"type": "component", "componentType": "generic.server", "positionType": "absolute",
              "positionX": 0, "positionY": 0},
    }));
    assert_eq!(
        get(&objects, "a->b")["anchors"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn a_link_from_a_component_to_itself_is_a_loop_beside_it_clear_of_the_others() {
    let body = "flowchart TB\n  A --> A\n  A -->|next| B\n  B -- again --> B\n  C --> B\n";
    let laid = lay_out(body.as_bytes(), Format::Mermaid, &Settings::default()).unwrap();
    assert!(laid.notes.is_empty(), "{:?}", laid.notes);
    let objects = laid.objects;
    for (id, of) in [("A->A", "A"), ("B->B", "B")] {
        let data = get(&objects, id);
        let anchors = data["anchors"].as_array().unwrap();
        assert_eq!(anchors.len(), 4, "{id}: {anchors:?}");
        let (first, last) = (&anchors[0], &anchors[3]);
        for end in [first, last] {
            assert_eq!((&end["type"], &end["id"]), (&json!(1), &json!(of)), "{id}");
        }
        let (i, j) = (
            first["index"].as_u64().unwrap(),
            last["index"].as_u64().unwrap(),
        );
        assert_eq!(j, (i + 1) % 4, "{id}: from a corner to the next, clockwise");
        assert_eq!(data["arrowAnchorIndices"], json!({"3": true}), "{id}");
        // Half a cell out from its component, on no other component and no name.
        let own = footprint(get(&objects, of));
        let outer = Map::from_iter([("anchors".to_owned(), json!(anchors[1..3].to_vec()))]);
        let strip = area(&outer).union(&own);
        for (other, o) in of_kind(&objects, "component") {
            if other != of {
                assert!(!footprint(o).overlaps(&strip), "{id} runs over {other}");
            }
        }
        for (other, l) in of_kind(&objects, "label") {
            assert!(
                !label_box(l).overlaps(&strip) || *other == format!("{id}:label"),
                "{id} runs over the label {other}"
            );
        }
    }
    assert_eq!(get(&objects, "B->B:label")["text"], "again");
    // A group's link to itself is still refused: there is no corner to loop from.
    let e = refusal(json!({
        "g": {"type": "group"},
        "a": {"type": "component", "componentType": "generic.server", "groups": ["g"]},
        "l": {"type": "connection", "from": "g", "to": "g"},
    }));
    assert!(
        e.to_string().contains("names the same group as from"),
        "{e}"
    );
}
