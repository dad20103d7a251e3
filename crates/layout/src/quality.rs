//! Measures of a drawn graph, to compare layouts (ours against Graphviz dot's on the same
//! graph, scripts/layout-quality.sh): line crossings, lines through a component, overlapping
//! components, lines drawn along another line, links that follow the flow, members outside
//! their group's area, sibling areas overlapping and labels nearer another line than their
//! own. Pure geometry: a [`Drawing`] is made from
//! our objects here, or from any other layout's output by its caller.

use std::collections::HashMap;

use serde_json::Value;

use crate::geometry::{
    COMPONENT_SIDE, Rect, collinear_overlap, crosses, distance_to_path, segment_meets,
};
use crate::model::{Direction, End, Model};
use crate::objects::Objects;
use crate::route::Point;

/// A drawn graph: boxes for the components, areas for the groups, lines for the links (the
/// model's indices), in one unit with y growing downwards.
#[derive(Debug, Clone, Default)]
pub struct Drawing {
    /// Each component's box, if drawn.
    pub components: Vec<Option<Rect>>,
    /// Each group's area, if drawn.
    pub groups: Vec<Option<Rect>>,
    /// Each link's line (a polyline), if drawn.
    pub links: Vec<Option<Vec<Point>>>,
    /// Each link's label's centre, if it has a label drawn.
    pub labels: Vec<Option<Point>>,
    /// Lengths under which two things count as touching, in the drawing's unit.
    pub tolerance: f64,
}

/// The measures of a drawing.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Measures {
    /// Pairs of pieces of two different lines that cross.
    pub crossings: usize,
    /// (Line, component) pairs where the line passes through a component it does not join.
    pub through: usize,
    /// Pairs of components whose boxes overlap.
    pub overlapping: usize,
    /// Pairs of lines that run along each other for some length.
    pub along: usize,
    /// Links drawn whose target lies further along the flow than their source.
    pub following: usize,
    /// Links drawn between two different places.
    pub links: usize,
    /// (Component, group) pairs where a member's box is not inside the group's area.
    pub outside: usize,
    /// Pairs of sibling groups whose areas overlap.
    pub sibling_overlaps: usize,
    /// Link labels whose centre is nearer another line than their own (read as the other's).
    pub astray: usize,
}

impl Measures {
    /// The share of links that follow the flow, in percent (100 without links).
    pub fn following_percent(&self) -> f64 {
        if self.links == 0 {
            100.0
        } else {
            100.0 * self.following as f64 / self.links as f64
        }
    }

    /// The sums of two measures.
    pub fn add(&mut self, other: &Measures) {
        self.crossings += other.crossings;
        self.through += other.through;
        self.overlapping += other.overlapping;
        self.along += other.along;
        self.following += other.following;
        self.links += other.links;
        self.outside += other.outside;
        self.sibling_overlaps += other.sibling_overlaps;
        self.astray += other.astray;
    }
}

impl Drawing {
    /// The drawing our objects make of `model`.
    pub fn of_objects(model: &Model, objects: &Objects) -> Drawing {
        let by_id = data_by_id(objects);
        let xy = |v: &Value| Some((v["x"].as_f64()?, v["y"].as_f64()?));
        let centre = |id: &str| by_id.get(id).and_then(|d| xy(&d["position"]));
        let components = model
            .components
            .iter()
            .map(|c| {
                centre(&c.id).map(|(x, y)| Rect::centred(x, y, COMPONENT_SIDE, COMPONENT_SIDE))
            })
            .collect();
        let groups = model
            .groups
            .iter()
            .map(|g| {
                let anchors = by_id.get(g.id.as_str())?["anchors"].as_array()?;
                let points: Vec<Point> = anchors.iter().filter_map(xy).collect();
                bounding(&points)
            })
            .collect();
        let links = model
            .links
            .iter()
            .map(|l| {
                let data = by_id.get(l.id.as_str())?;
                let anchors = data["anchors"].as_array()?;
                anchors
                    .iter()
                    .map(|a| match a["type"].as_i64() {
                        Some(1) => {
                            let (x, y) = centre(a["id"].as_str()?)?;
                            let h = COMPONENT_SIDE / 2.0;
                            let corner = [(-h, -h), (h, -h), (h, h), (-h, h)]
                                [a["index"].as_u64()? as usize % 4];
                            Some((x + corner.0, y + corner.1))
                        }
                        _ => xy(a),
                    })
                    .collect::<Option<Vec<Point>>>()
            })
            .collect();
        let labels = model
            .links
            .iter()
            .map(|l| centre(&format!("{}:label", l.id)))
            .collect();
        Drawing {
            components,
            groups,
            links,
            labels,
            tolerance: 0.01,
        }
    }

    /// The measures of this drawing of `model`.
    pub fn measure(&self, model: &Model) -> Measures {
        let mut m = Measures::default();
        let eps = self.tolerance;
        let lines: Vec<(usize, &Vec<Point>)> = self
            .links
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.as_ref().map(|l| (i, l)))
            .collect();
        for (a, &(_, la)) in lines.iter().enumerate() {
            for &(_, lb) in &lines[a + 1..] {
                let mut along = false;
                for sa in la.windows(2) {
                    for sb in lb.windows(2) {
                        if crosses(sa[0], sa[1], sb[0], sb[1]) {
                            m.crossings += 1;
                        }
                        along |= collinear_overlap(sa[0], sa[1], sb[0], sb[1], eps);
                    }
                }
                m.along += usize::from(along);
            }
        }
        for &(i, line) in &lines {
            let link = &model.links[i];
            for (c, r) in self.components.iter().enumerate() {
                let Some(r) = r else { continue };
                if link.from == End::Component(c) || link.to == End::Component(c) {
                    continue;
                }
                let inner = r.inset(eps);
                if line.windows(2).any(|s| segment_meets(s[0], s[1], &inner)) {
                    m.through += 1;
                }
            }
            let (Some(a), Some(b)) = (self.centre(link.from), self.centre(link.to)) else {
                continue;
            };
            m.links += 1;
            let along = match model.direction_in(common_container(model, link.from, link.to)) {
                Direction::TopBottom => b.1 - a.1,
                Direction::BottomTop => a.1 - b.1,
                Direction::LeftRight => b.0 - a.0,
                Direction::RightLeft => a.0 - b.0,
            };
            if along > eps {
                m.following += 1;
            }
        }
        m.astray = self.astray_labels();
        let boxes: Vec<Rect> = self.components.iter().flatten().copied().collect();
        for (i, a) in boxes.iter().enumerate() {
            m.overlapping += boxes[i + 1..]
                .iter()
                .filter(|b| overlap_beyond(a, b, eps))
                .count();
        }
        for (c, comp) in model.components.iter().enumerate() {
            let Some(r) = self.components[c] else {
                continue;
            };
            let mut at = comp.group;
            while let Some(g) = at {
                if let Some(area) = self.groups[g] {
                    let grown = area.inset(-eps);
                    if !grown.contains(&r) {
                        m.outside += 1;
                    }
                }
                at = model.groups[g].parent;
            }
        }
        for (g, group) in model.groups.iter().enumerate() {
            for (h, other) in model.groups.iter().enumerate().skip(g + 1) {
                if group.parent != other.parent {
                    continue;
                }
                if let (Some(a), Some(b)) = (self.groups[g], self.groups[h])
                    && overlap_beyond(&a, &b, eps)
                {
                    m.sibling_overlaps += 1;
                }
            }
        }
        m
    }

    /// How many labels have another line nearer their centre than their own.
    fn astray_labels(&self) -> usize {
        let eps = self.tolerance;
        let astray = |(own, centre): (usize, Point)| {
            let Some(Some(line)) = self.links.get(own) else {
                return false;
            };
            let near = distance_to_path(centre, line);
            self.links.iter().enumerate().any(|(l, other)| {
                l != own
                    && other
                        .as_ref()
                        .is_some_and(|o| distance_to_path(centre, o) + eps < near)
            })
        };
        (self.labels.iter().enumerate())
            .filter_map(|(l, c)| Some((l, (*c)?)))
            .filter(|&pair| astray(pair))
            .count()
    }

    fn centre(&self, e: End) -> Option<Point> {
        let r = match e {
            End::Component(c) => self.components[c]?,
            End::Group(g) => self.groups[g]?,
        };
        Some(r.centre())
    }
}

/// Our objects' data by id.
fn data_by_id(objects: &Objects) -> HashMap<&str, &serde_json::Map<String, Value>> {
    (objects.iter())
        .map(|(id, o)| (id.as_str(), &o.data))
        .collect()
}

/// The links of `model` whose labels, among our `objects`, lie across a group's border
/// (partly inside its area, partly outside): such a label reads as the group's.
pub fn labels_across_borders(model: &Model, objects: &Objects) -> Vec<String> {
    let by_id = data_by_id(objects);
    let areas: Vec<Rect> = (Drawing::of_objects(model, objects).groups)
        .into_iter()
        .flatten()
        .collect();
    let label_box = |d: &serde_json::Map<String, Value>| {
        let (at, size) = (d.get("position")?, d.get("dimensions")?);
        let (x, y) = (at["x"].as_f64()?, at["y"].as_f64()?);
        Some(Rect::centred(
            x,
            y,
            size["width"].as_f64()?,
            size["height"].as_f64()?,
        ))
    };
    (model.links.iter())
        .filter(|l| {
            let label = by_id.get(format!("{}:label", l.id).as_str()).copied();
            label.and_then(label_box).is_some_and(|r| {
                let r = r.inset(0.01);
                areas.iter().any(|a| a.overlaps(&r) && !a.contains(&r))
            })
        })
        .map(|l| l.id.clone())
        .collect()
}

/// The innermost group holding both ends (an end that is a group counts as inside itself).
fn common_container(model: &Model, a: End, b: End) -> Option<usize> {
    let chain = |e: End| {
        let mut at = match e {
            End::Component(c) => model.components[c].group,
            End::Group(g) => Some(g),
        };
        let mut out = Vec::new();
        while let Some(g) = at {
            out.push(g);
            at = model.groups[g].parent;
        }
        out
    };
    let (ca, cb) = (chain(a), chain(b));
    ca.into_iter().find(|g| cb.contains(g))
}

fn bounding(points: &[Point]) -> Option<Rect> {
    let first = points.first()?;
    Some(points.iter().fold(
        Rect {
            x0: first.0,
            y0: first.1,
            x1: first.0,
            y1: first.1,
        },
        |r, p| Rect {
            x0: r.x0.min(p.0),
            y0: r.y0.min(p.1),
            x1: r.x1.max(p.0),
            y1: r.y1.max(p.1),
        },
    ))
}

fn overlap_beyond(a: &Rect, b: &Rect, eps: f64) -> bool {
    a.x0 + eps < b.x1 && b.x0 + eps < a.x1 && a.y0 + eps < b.y1 && b.y0 + eps < a.y1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cross_touch_and_run_along() {
        assert!(crosses((0.0, 0.0), (2.0, 0.0), (1.0, -1.0), (1.0, 1.0)));
        assert!(!crosses((0.0, 0.0), (2.0, 0.0), (2.0, -1.0), (2.0, 1.0)));
        assert!(collinear_overlap(
            (0.0, 0.0),
            (2.0, 0.0),
            (1.0, 0.0),
            (3.0, 0.0),
            0.01
        ));
        assert!(!collinear_overlap(
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 0.0),
            (3.0, 0.0),
            0.01
        ));
        let r = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
        };
        assert!(segment_meets((-1.0, 0.5), (2.0, 0.5), &r));
        assert!(!segment_meets((-1.0, 2.0), (2.0, 2.0), &r));
    }
}
