//! A part of a scene as a scene of its own: the objects that meet a rectangle, with the
//! components their lines are attached to, indexed anew. A picture of one view of a large
//! diagram (the terminal map's) draws only that part.

use super::geometry::Rect;
use super::{Primitive, Scene, Shape};

impl Scene {
    /// The scene of the objects whose bounds meet `view`, and of the components their line
    /// ends are attached to (so that the lines still end at their blocks). Nothing in it is
    /// unplaced: the note on what could not be placed belongs to the whole scene.
    pub fn part(&self, view: Rect) -> Scene {
        let mut kept: Vec<usize> = self
            .in_view(view)
            .iter()
            .map(|p| self.index_of(p))
            .collect();
        let attached: Vec<usize> = kept
            .iter()
            .filter_map(|&i| match &self.primitives()[i].shape {
                Shape::Lines(lines) => Some(lines),
                _ => None,
            })
            .flat_map(|lines| &lines.segments)
            .flat_map(|s| [s.from.attached, s.to.attached])
            .flatten()
            .collect();
        kept.extend(attached);
        // Indexes follow id order, as a scene's primitives must.
        kept.sort_unstable();
        kept.dedup();
        let primitives = kept
            .iter()
            .map(|&i| {
                let mut p = self.primitives()[i].clone();
                if let Shape::Lines(lines) = &mut p.shape {
                    for end in lines
                        .segments
                        .iter_mut()
                        .flat_map(|s| [&mut s.from, &mut s.to])
                    {
                        end.attached = end.attached.and_then(|at| kept.binary_search(&at).ok());
                    }
                }
                p
            })
            .collect::<Vec<Primitive>>();
        Scene::index(primitives, Vec::new())
    }

    /// The index in [`Scene::primitives`] of one of them.
    fn index_of(&self, p: &Primitive) -> usize {
        self.position(&p.id).expect("a primitive of this scene")
    }
}

#[cfg(test)]
mod tests {
    use crate::{DEFAULT_STATUS_KEY, Point, Rect, Scene, Shape};
    use serde_json::json;

    #[test]
    fn a_part_keeps_what_meets_it_and_the_blocks_its_lines_end_at() {
        let component = |x: f64, y: f64| json!({"type": "component", "data": {"componentId": "generic.server", "position": {"x": x, "y": y}}});
        let anchor = |id: &str| json!({"type": 1, "id": id, "index": 1});
        let content = serde_json::from_value(json!({
            "a": component(0.0, 0.0),
            "b": component(40.0, 0.0),
            "far": component(90.0, 90.0),
            "l": {"type": "line-group", "data": {"anchors": [anchor("a"), anchor("b")], "lines": [[0, 1]]}},
        }))
        .unwrap();
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let part = scene.part(Rect::new(Point::new(-3.0, -3.0), Point::new(10.0, 3.0)));
        let ids: Vec<&str> = part.primitives().iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "l"], "b is kept: the line ends at it");
        let Shape::Lines(lines) = &part.get("l").unwrap().shape else {
            panic!("a line group");
        };
        let ends = [
            lines.segments[0].from.attached,
            lines.segments[0].to.attached,
        ];
        let named = ends.map(|at| at.map(|i| part.primitives()[i].id.as_str()));
        assert_eq!(
            named,
            [Some("a"), Some("b")],
            "attached ends point into the part"
        );
        assert_eq!(part.unplaced_note(), None);
    }
}
