//! The spatial queries: what lies in a view, what is under a point, what comes next by position.

use super::geometry::{Point, Rect, polygon_contains};
use super::{Primitive, Rgb, Scene, Shape};

impl Scene {
    /// The objects whose bounds meet `view`, bottom to top: what a map must draw for that view.
    pub fn in_view(&self, view: Rect) -> Vec<&Primitive> {
        self.grid
            .candidates(view)
            .into_iter()
            .map(|rank| &self.primitives[self.draw_order[rank as usize] as usize])
            .filter(|p| p.bounds.intersects(view))
            .collect()
    }

    /// The object at `point`, else the nearest one within `tolerance` grid units: what a click
    /// or the centre cross selects. Areas count only when nothing else is that close (they lie
    /// under everything); among the rest the closest wins, and of equally close ones the
    /// topmost.
    pub fn pick(&self, point: Point, tolerance: f64) -> Option<&Primitive> {
        let tolerance = tolerance.max(0.0);
        let reach = Rect::new(point, point).grown(tolerance);
        self.grid
            .candidates(reach)
            .into_iter()
            .rev()
            .map(|rank| &self.primitives[self.draw_order[rank as usize] as usize])
            .filter(|p| p.bounds.grown(tolerance).contains(point))
            .map(|p| (p, p.distance_to(point)))
            .filter(|&(_, distance)| distance <= tolerance)
            .min_by(|(a, da), (b, db)| {
                let area = |p: &Primitive| matches!(p.shape, Shape::Area(_));
                area(a).cmp(&area(b)).then(da.total_cmp(db))
            })
            .map(|(p, _)| p)
    }

    /// The topmost filled area under `point`: what a label there is drawn on; `None` where
    /// no filled area is (the page).
    pub fn area_under(&self, point: Point) -> Option<&Primitive> {
        self.grid
            .candidates(Rect::new(point, point))
            .into_iter()
            .rev()
            .map(|rank| &self.primitives[self.draw_order[rank as usize] as usize])
            .find(|p| match &p.shape {
                Shape::Area(area) => {
                    area.fill.is_some()
                        && p.bounds.contains(point)
                        && polygon_contains(&area.corners, point)
                }
                _ => false,
            })
    }

    /// The fill of [`Scene::area_under`] `point`.
    pub fn fill_under(&self, point: Point) -> Option<Rgb> {
        match &self.area_under(point)?.shape {
            Shape::Area(area) => area.fill,
            _ => None,
        }
    }

    /// The object after `id` in position order (top to bottom, then left to right), wrapping
    /// round; the first one when `id` is `None` or not placed.
    pub fn next_by_position(&self, id: Option<&str>) -> Option<&Primitive> {
        self.step_by_position(id, true)
    }

    /// The object before `id` in position order, wrapping round; the last one when `id` is
    /// `None` or not placed.
    pub fn previous_by_position(&self, id: Option<&str>) -> Option<&Primitive> {
        self.step_by_position(id, false)
    }

    fn step_by_position(&self, id: Option<&str>, forward: bool) -> Option<&Primitive> {
        let count = self.position_order.len();
        if count == 0 {
            return None;
        }
        let rank = match id.and_then(|id| self.position(id)) {
            Some(i) => {
                let rank = self.position_rank[i] as usize;
                if forward {
                    (rank + 1) % count
                } else {
                    (rank + count - 1) % count
                }
            }
            None if forward => 0,
            None => count - 1,
        };
        Some(&self.primitives[self.position_order[rank] as usize])
    }
}
