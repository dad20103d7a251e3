//! What connects to what: the named ends of a line group, a component's connections through
//! lines and the areas that enclose it.

use super::geometry::{Point, Rect, polygon_contains};
use super::index::Buckets;
use super::{End, Primitive, Scene, Segment, Shape};

/// A line end attached to a component: which line group, which of its segments, which end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Link {
    /// The line group's index among the primitives.
    line_group: u32,
    /// The segment's index in the line group.
    segment: u32,
    /// Whether the attached end is the segment's `from` end.
    at_from: bool,
}

/// Files every attached line end under the component it is attached to.
pub fn links(primitives: &[Primitive]) -> Buckets<Link> {
    let mut pairs = Vec::new();
    for (line_group, p) in primitives.iter().enumerate() {
        let Shape::Lines(lines) = &p.shape else {
            continue;
        };
        for (segment, s) in lines.segments.iter().enumerate() {
            for (end, at_from) in [(&s.from, true), (&s.to, false)] {
                if let Some(component) = end.attached {
                    let link = Link {
                        line_group: line_group as u32,
                        segment: segment as u32,
                        at_from,
                    };
                    pairs.push((component as u32, link));
                }
            }
        }
    }
    Buckets::new(primitives.len(), &pairs)
}

/// Which way a line runs, seen from one of its ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Its only arrow tip is at the other end.
    Outgoing,
    /// Its only arrow tip is at this end.
    Incoming,
    /// Arrow tips at both ends.
    Both,
    /// No arrow tips.
    Undirected,
}

impl Direction {
    /// The direction of a segment seen from its `from` end (`at_from`) or its `to` end.
    fn of(segment: &Segment, at_from: bool) -> Direction {
        match (segment.from.arrow, segment.to.arrow) {
            (true, true) => Direction::Both,
            (false, false) => Direction::Undirected,
            (head_at_from, _) if head_at_from == at_from => Direction::Incoming,
            _ => Direction::Outgoing,
        }
    }
}

/// How an object is connected to a component.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Via<'a> {
    /// Through a segment of this line group.
    Line {
        /// The line group.
        line_group: &'a Primitive,
        /// Which way it runs, seen from the component.
        direction: Direction,
    },
    /// The object is an area that encloses the component.
    EnclosingArea,
}

/// An object connected to a component, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Connection<'a> {
    /// The object at the other end: a component, the line group itself when its far end is a
    /// free anchor, or an enclosing area.
    pub object: &'a Primitive,
    /// How it is connected.
    pub via: Via<'a>,
}

impl Scene {
    /// How many line ends are attached to the component `id` (0 for anything else).
    pub fn connection_count(&self, id: &str) -> usize {
        self.position(id).map_or(0, |i| self.links.get(i).len())
    }

    /// The objects connected to the component `id`: through each line attached to it (in line
    /// group order), then the areas enclosing it (bottom to top). Empty for anything else.
    pub fn connections(&self, id: &str) -> Vec<Connection<'_>> {
        let Some(i) = self.position(id) else {
            return Vec::new();
        };
        let Shape::Component(component) = &self.primitives[i].shape else {
            return Vec::new();
        };
        let mut found: Vec<Connection<'_>> = self
            .links
            .get(i)
            .iter()
            .filter_map(|link| self.line_connection(link))
            .collect();
        found.extend(
            self.enclosing_areas(component.centre)
                .map(|area| Connection {
                    object: area,
                    via: Via::EnclosingArea,
                }),
        );
        found
    }

    /// The connection a link makes: the line's far end, seen from the linked component. A
    /// line that bends (its free end where the next one's free start is) is followed to the
    /// end of its path, as [`Scene::ends`] reads it, and its direction is the path's.
    fn line_connection(&self, link: &Link) -> Option<Connection<'_>> {
        let line_group = &self.primitives[link.line_group as usize];
        let Shape::Lines(lines) = &line_group.shape else {
            return None;
        };
        let path = path_through(&lines.segments, link.segment as usize)?;
        let far = if link.at_from { &path.to } else { &path.from };
        let object = far
            .attached
            .and_then(|i| self.primitives.get(i))
            .unwrap_or(line_group);
        Some(Connection {
            object,
            via: Via::Line {
                line_group,
                direction: Direction::of(&path, link.at_from),
            },
        })
    }

    /// The areas whose polygon holds `point`, bottom to top.
    fn enclosing_areas(&self, point: Point) -> impl Iterator<Item = &Primitive> + '_ {
        self.in_view(Rect::new(point, point)).into_iter().filter(
            move |p| matches!(&p.shape, Shape::Area(a) if polygon_contains(&a.corners, point)),
        )
    }

    /// The line group `id`'s ends by name, following its arrows: `api-gateway → orders-db`.
    /// Lines that bend (one's free end where the next one's free start is) read as one path
    /// from its first end to its last; paths sharing a start or an end are gathered (`lb →
    /// web-01, web-02`), others listed (`a → b; c → d`). A free end reads as its point, `(3, -4.5)`; `↔` joins ends with two
    /// tips, `—` ends with none. `None` when `id` is no placed line group.
    pub fn ends(&self, id: &str) -> Option<String> {
        let Shape::Lines(lines) = &self.get(id)?.shape else {
            return None;
        };
        let named: Vec<(String, &str, String)> = paths(&lines.segments)
            .iter()
            .map(|s| {
                let (tail, head) = if s.from.arrow && !s.to.arrow {
                    (&s.to, &s.from)
                } else {
                    (&s.from, &s.to)
                };
                let joint = match (s.from.arrow, s.to.arrow) {
                    (true, true) => "↔",
                    (false, false) => "—",
                    _ => "→",
                };
                (self.end_name(tail), joint, self.end_name(head))
            })
            .collect();
        let joint = named.first()?.1;
        let tails = distinct(named.iter().map(|n| n.0.as_str()));
        let heads = distinct(named.iter().map(|n| n.2.as_str()));
        Some(
            if named.iter().all(|n| n.1 == joint) && (tails.len() == 1 || heads.len() == 1) {
                format!("{} {joint} {}", tails.join(", "), heads.join(", "))
            } else {
                named
                    .iter()
                    .map(|(tail, joint, head)| format!("{tail} {joint} {head}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            },
        )
    }

    /// A line end's name: its component's title, or its point.
    fn end_name(&self, end: &End) -> String {
        match end.attached.and_then(|i| self.primitives.get(i)) {
            Some(Primitive {
                shape: Shape::Component(c),
                ..
            }) => c.title.clone(),
            _ => format!("({}, {})", end.point.x, end.point.y),
        }
    }
}

/// The paths the segments draw: segments joined end to start where the one's end and the
/// other's start are free anchors at the same point (a bend), in the order of their first
/// segments.
fn paths(segments: &[Segment]) -> Vec<Segment> {
    let mut paths: Vec<Segment> = Vec::with_capacity(segments.len());
    let mut left: Vec<&Segment> = segments.iter().collect();
    while !left.is_empty() {
        let mut path = left.remove(0).clone();
        grow(&mut path, &mut left);
        paths.push(path);
    }
    paths
}

/// The path the segment at `at` is part of: its bends followed both ways.
fn path_through(segments: &[Segment], at: usize) -> Option<Segment> {
    let mut path = segments.get(at)?.clone();
    let mut left: Vec<&Segment> = (segments.iter().enumerate())
        .filter(|&(k, _)| k != at)
        .map(|(_, s)| s)
        .collect();
    grow(&mut path, &mut left);
    Some(path)
}

/// Extends `path` by the segments of `left` that go on from its free ends (taking them out).
fn grow(path: &mut Segment, left: &mut Vec<&Segment>) {
    while let Some(at) = left.iter().position(|next| bends_into(path, next)) {
        path.to = left.remove(at).to.clone();
    }
    while let Some(at) = left.iter().position(|before| bends_into(before, path)) {
        path.from = left.remove(at).from.clone();
    }
}

/// Whether `next` goes on from where `path` ends, at a free bend.
fn bends_into(path: &Segment, next: &Segment) -> bool {
    path.to.attached.is_none()
        && next.from.attached.is_none()
        && !path.to.arrow
        && !next.from.arrow
        && path.to.point == next.from.point
}

/// The names in their first-seen order, each once.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}
