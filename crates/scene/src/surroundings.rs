//! What lies around an object, for its name: what an area encloses (the labels that title it,
//! the components drawn inside it) and what an icon, image or widget sits on.

use super::geometry::{Point, Rect, polygon_contains};
use super::{Primitive, Scene, Shape};

/// The most objects an area may lie over for [`Scene::enclosed`] to look at them.
pub const ENCLOSED_AT_MOST: usize = 2048;

/// What an area encloses, each part in position order (top to bottom, then left to right).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Enclosed<'a> {
    /// The texts of the labels whose centre lies inside it.
    pub labels: Vec<&'a str>,
    /// The components whose centre lies inside it.
    pub objects: Vec<&'a Primitive>,
}

impl Scene {
    /// What the area `id` encloses (labels and components); `None` when `id` is no placed area,
    /// or one over more than [`ENCLOSED_AT_MOST`] objects (its name is asked for each row drawn:
    /// the work stays bounded in a crowded diagram).
    pub fn enclosed(&self, id: &str) -> Option<Enclosed<'_>> {
        let area = self.get(id)?;
        let Shape::Area(shape) = &area.shape else {
            return None;
        };
        if self.grid.crowd(area.bounds) > ENCLOSED_AT_MOST {
            return None;
        }
        let mut inside: Vec<(u32, &Primitive)> = self
            .in_view(area.bounds)
            .into_iter()
            .filter(|p| placed_centre(p).is_some_and(|c| polygon_contains(&shape.corners, c)))
            .filter_map(|p| Some((self.position_rank[self.position(&p.id)?], p)))
            .collect();
        inside.sort_unstable_by_key(|(rank, _)| *rank);
        let mut enclosed = Enclosed::default();
        for (_, p) in inside {
            match &p.shape {
                Shape::Label(label) => enclosed.labels.push(label.text.as_str()),
                Shape::Component(_) => enclosed.objects.push(p),
                _ => {}
            }
        }
        Some(enclosed)
    }

    /// What the object `id` (an icon, image or widget) sits on: the topmost component, icon,
    /// image, widget or area drawn under it whose shape holds its centre. `None` for other
    /// types, or when it sits on nothing.
    pub fn beneath(&self, id: &str) -> Option<&Primitive> {
        let me = self.get(id)?;
        if !matches!(me.shape, Shape::Placeholder(_)) {
            return None;
        }
        let centre = me.bounds.centre();
        let mut below = None;
        for p in self.in_view(Rect::new(centre, centre)) {
            if p.id == me.id {
                break;
            }
            let holds = matches!(
                p.shape,
                Shape::Area(_) | Shape::Component(_) | Shape::Placeholder(_)
            ) && p.distance_to(centre) == 0.0;
            if holds {
                below = Some(p);
            }
        }
        below
    }
}

/// Where an object that an area may enclose is: the centre of a component or a label; `None`
/// for the other types.
fn placed_centre(p: &Primitive) -> Option<Point> {
    match &p.shape {
        Shape::Component(c) => Some(c.centre),
        Shape::Label(label) => Some(label.centre),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::{DEFAULT_STATUS_KEY, Scene};
    use diagtui_model::Content;
    use serde_json::json;

    #[test]
    fn an_area_encloses_labels_and_components_by_position_and_an_icon_sits_on_the_topmost() {
        let square = |half: f64| {
            json!([{"x": -half, "y": -half}, {"x": half, "y": -half},
                   {"x": half, "y": half}, {"x": -half, "y": half}])
        };
        let content: Content = serde_json::from_value(json!({
            "a-outer": {"type": "area", "data": {"anchors": square(10.0)}},
            "a-inner": {"type": "area", "data": {"anchors": square(5.0), "zIndex": 1}},
            "c-low": {"type": "component", "data": {"componentId": "x.b", "position": {"x": -2, "y": 3}}},
            "c-high": {"type": "component", "data": {"componentId": "x.a", "position": {"x": 2, "y": -3}}},
            "c-out": {"type": "component", "data": {"componentId": "x.c", "position": {"x": 30, "y": 0}}},
            "t-title": {"type": "label", "data": {"text": "Title", "position": {"x": 0, "y": -8}}},
            "i-on": {"type": "icon", "data": {"icon": "bolt", "position": {"x": 2, "y": -3}}},
            "i-area": {"type": "icon", "data": {"icon": "star", "position": {"x": 0, "y": 8}}},
        }))
        .unwrap();
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let outer = scene.enclosed("a-outer").unwrap();
        assert_eq!(outer.labels, ["Title"]);
        let ids: Vec<&str> = outer.objects.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["c-high", "c-low"], "top to bottom; nothing outside");
        assert!(scene.enclosed("c-low").is_none(), "only areas enclose");
        assert_eq!(scene.beneath("i-on").map(|p| p.id.as_str()), Some("c-high"));
        assert_eq!(
            scene.beneath("i-area").map(|p| p.id.as_str()),
            Some("a-outer")
        );
        assert!(
            scene.beneath("c-low").is_none(),
            "a component sits on nothing"
        );
    }

    #[test]
    fn an_area_over_too_many_objects_is_not_searched() {
        let mut content: Content = serde_json::from_value(json!({
            "a": {"type": "area", "data": {"anchors": [{"x": 0, "y": 0}, {"x": 100, "y": 0}, {"x": 100, "y": 100}]}},
        }))
        .unwrap();
        for i in 0..=super::ENCLOSED_AT_MOST {
            let data = json!({"componentId": "x.y", "position": {"x": 99, "y": (i % 100) as f64}});
            content.insert(
                format!("c{i:05}"),
                serde_json::from_value(json!({"type": "component", "data": data})).unwrap(),
            );
        }
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        assert!(scene.enclosed("a").is_none());
    }
}
