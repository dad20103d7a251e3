//! The property test: random content never makes the scene or its queries panic, and every
//! object is either placed or listed as unplaced.
//!
//! The content comes from a small seeded generator rather than `proptest`: what matters here
//! is content that is *almost* right (the real property names, anchors naming real and missing
//! ids, numbers at the edges of f64), which a hand-written generator says directly; a fixed
//! seed makes every failure reproducible, and the project takes no new crate for it.

use serde_json::{Map, Value, json};

use super::{DEFAULT_STATUS_KEY, Input, Point, Rect, Scene, Shape};
use diagtui_model::{Content, DiagramObject};

/// xorshift64*: a tiny deterministic generator.
pub struct Random(u64);

impl Random {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Random {
        Random(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of the items.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// A number: mostly on the grid, sometimes at the edges of what JSON and f64 hold.
fn number(r: &mut Random) -> Value {
    match r.below(10) {
        0 => r.pick(&[
            json!(1e300),
            json!(-1e300),
            json!(5e-324),
            json!(u64::MAX),
            json!(i64::MIN),
        ]),
        1 => json!(-0.0),
        2 => json!(r.below(5)),
        _ => json!((r.below(2000) as f64 - 1000.0) / 10.0),
    }
}

/// Any JSON value, nested a little.
fn anything(r: &mut Random, depth: u32) -> Value {
    match r.below(if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(r.below(2) == 0),
        2 => number(r),
        3 => r.pick(&[
            json!(""),
            json!("up"),
            json!("DOWN"),
            json!("#00000000"),
            json!("#12AbEf"),
            json!("\u{0}<&>\""),
        ]),
        4 => json!({"x": number(r), "y": number(r)}),
        5 => Value::Array((0..r.below(4)).map(|_| anything(r, depth + 1)).collect()),
        _ => Value::Object(
            (0..r.below(4))
                .map(|i| (format!("k{i}"), anything(r, depth + 1)))
                .collect(),
        ),
    }
}

/// A value for a property of an object of `kind`: often of the right shape, sometimes anything.
fn property(r: &mut Random, name: &str, kind: &str, ids: &[String]) -> Value {
    if r.below(6) == 0 {
        return anything(r, 0);
    }
    let index = |r: &mut Random| match r.below(12) {
        0 => number(r),
        _ => json!(r.below(4)),
    };
    match name {
        "position" => json!({"x": number(r), "y": number(r)}),
        "anchors" if kind == "area" => Value::Array(
            (0..r.below(6))
                .map(|_| json!({"x": number(r), "y": number(r)}))
                .collect(),
        ),
        "anchors" => Value::Array(
            (0..r.below(6))
                .map(|_| match r.below(10) {
                    0 | 1 => json!({"type": 0, "x": number(r), "y": number(r)}),
                    2 => json!({"type": r.below(3), "id": format!("missing-{}", r.below(3)), "x": number(r)}),
                    _ => json!({"type": 1, "id": r.pick(ids), "index": index(r)}),
                })
                .collect(),
        ),
        "lines" => Value::Array(
            (0..r.below(4))
                .map(|_| json!([index(r), index(r)]))
                .collect(),
        ),
        "arrowAnchorIndices" => json!({"0": true, "1": anything(r, 0), "x": true}),
        "dimensions" => json!({"width": number(r), "height": number(r)}),
        "meta" => json!({"status": r.pick(&[json!("up"), json!("Degraded"), json!("failed"), json!(3)])}),
        "text" | "name" | "componentId" | "icon" | "path" => {
            r.pick(&[json!("web-01"), json!("a.b.c"), json!("."), json!(""), json!("x\ny\u{7}")])
        }
        _ => number(r),
    }
}

const TYPES: [&str; 9] = [
    "component",
    "line-group",
    "area",
    "label",
    "icon",
    "image",
    "widget",
    "sticker",
    "",
];

/// The properties an object of each type is given (where it is first), before a few others.
fn properties(kind: &str) -> &'static [&'static str] {
    match kind {
        "line-group" => &["anchors", "lines", "arrowAnchorIndices", "lineWidth"],
        "area" => &["anchors", "zIndex", "lineWidth"],
        "component" => &[
            "position",
            "meta",
            "name",
            "componentId",
            "rotation",
            "opacity",
        ],
        "label" => &["position", "text", "dimensions", "fontSize", "rotation"],
        _ => &[
            "position",
            "icon",
            "path",
            "dimensions",
            "rotation",
            "fontSize",
        ],
    }
}

const OTHERS: [&str; 6] = ["position", "anchors", "lines", "meta", "text", "zIndex"];

/// A random document of up to 40 objects.
pub fn random_content(r: &mut Random) -> Content {
    let kinds: Vec<&str> = (0..r.below(40) + 1).map(|_| r.pick(&TYPES)).collect();
    let id = |i: usize| format!("obj-{i:02}");
    // Attached anchors mostly name components, sometimes anything.
    let mut targets: Vec<String> = (0..kinds.len())
        .filter(|&i| kinds[i] == "component")
        .map(id)
        .collect();
    targets.push(id(r.below(kinds.len())));
    kinds
        .iter()
        .enumerate()
        .map(|(i, &kind)| {
            let mut names: Vec<&str> = properties(kind)
                .iter()
                .copied()
                .filter(|_| r.below(8) > 0)
                .collect();
            for _ in 0..r.below(3) {
                names.push(r.pick(&OTHERS));
            }
            let data: Map<String, Value> = names
                .into_iter()
                .map(|name| (name.to_owned(), property(r, name, kind, &targets)))
                .collect();
            let kind = kind.to_owned();
            (id(i), DiagramObject { kind, data })
        })
        .collect()
}

/// A point anywhere, near the grid or far off it.
fn random_point(r: &mut Random) -> Point {
    let coordinate = |r: &mut Random| number(r).as_f64().unwrap_or(0.0);
    Point::new(coordinate(r), coordinate(r))
}

#[test]
fn random_content_never_panics_and_every_object_is_accounted_for() {
    let mut r = Random::new(0x5EED_D1A6);
    for round in 0..3_000 {
        let content = random_content(&mut r);
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        assert_eq!(
            scene.primitives().len() + scene.unplaced().len(),
            content.len(),
            "round {round}"
        );
        for p in scene.primitives() {
            assert!(
                p.bounds.min.is_finite() && p.bounds.max.is_finite(),
                "{p:?}"
            );
            scene.ends(&p.id);
            scene.connections(&p.id);
            scene.connection_count(&p.id);
            scene.next_by_position(Some(&p.id));
            scene.previous_by_position(Some(&p.id));
        }
        if let Some(bounds) = scene.bounds() {
            assert_eq!(scene.in_view(bounds).len(), scene.primitives().len());
        }
        for _ in 0..5 {
            let (a, b) = (random_point(&mut r), random_point(&mut r));
            scene.in_view(Rect::new(a, b));
            scene.pick(a, b.x.abs().min(1e6));
        }
    }
}

#[test]
fn data_read_from_its_json_text_gives_the_scene_of_the_parsed_data() {
    let mut r = Random::new(0x7E47_D474);
    for round in 0..1_000 {
        let content = random_content(&mut r);
        let texts: Vec<String> = content
            .values()
            .map(|o| serde_json::to_string(&o.data).expect("a map serializes"))
            .collect();
        let parsed = Scene::build(&content, DEFAULT_STATUS_KEY);
        let objects = content
            .iter()
            .zip(&texts)
            .map(|((id, o), text)| Input::json(id, &o.kind, text));
        let read = Scene::build_from(objects, DEFAULT_STATUS_KEY);
        assert_eq!(parsed.primitives(), read.primitives(), "round {round}");
        assert_eq!(parsed.unplaced(), read.unplaced(), "round {round}");
    }
}

#[test]
fn placing_in_parts_on_several_threads_gives_the_same_scene() {
    let mut r = Random::new(0x7A27_5EED);
    for _ in 0..300 {
        let content = random_content(&mut r);
        let objects = || content.iter().map(|(id, o)| Input::parsed(id, o)).collect();
        let whole = Scene::build_in_parts(objects(), DEFAULT_STATUS_KEY, usize::MAX);
        let parts = Scene::build_in_parts(objects(), DEFAULT_STATUS_KEY, 3);
        assert_eq!(whole.primitives(), parts.primitives());
        assert_eq!(whole.unplaced(), parts.unplaced());
        for p in parts.primitives() {
            if let Shape::Lines(lines) = &p.shape {
                for end in lines.segments.iter().flat_map(|s| [&s.from, &s.to]) {
                    if let Some(i) = end.attached {
                        let component = &parts.primitives()[i];
                        assert!(matches!(component.shape, Shape::Component(_)), "{p:?}");
                    }
                }
            }
        }
    }
}
