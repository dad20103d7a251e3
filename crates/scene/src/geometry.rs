//! Points, rectangles and the distances the queries need, in grid units (y grows downwards).

/// A point on the diagram's grid, in grid units; y grows downwards (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    /// Across, left to right.
    pub x: f64,
    /// Down, top to bottom.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The straight-line distance to another point.
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// This point turned by `angle` radians about `centre`: clockwise on the picture, since y
    /// grows downwards.
    pub fn rotated(self, centre: Point, angle: f64) -> Point {
        if angle == 0.0 {
            return self;
        }
        let (sin, cos) = angle.sin_cos();
        let (dx, dy) = (self.x - centre.x, self.y - centre.y);
        Point::new(
            centre.x + dx * cos - dy * sin,
            centre.y + dx * sin + dy * cos,
        )
    }

    /// Whether both coordinates are finite numbers.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// An axis-aligned rectangle on the grid: `min` is its top-left corner, `max` its bottom-right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// The top-left corner (smallest x and y).
    pub min: Point,
    /// The bottom-right corner (largest x and y).
    pub max: Point,
}

impl Rect {
    /// The rectangle between two opposite corners, in either order.
    pub fn new(a: Point, b: Point) -> Rect {
        Rect {
            min: Point::new(a.x.min(b.x), a.y.min(b.y)),
            max: Point::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }

    /// The rectangle of `width` × `height` centred on `centre`.
    pub fn centred(centre: Point, width: f64, height: f64) -> Rect {
        let (hw, hh) = (width / 2.0, height / 2.0);
        Rect::new(
            Point::new(centre.x - hw, centre.y - hh),
            Point::new(centre.x + hw, centre.y + hh),
        )
    }

    /// The smallest rectangle holding every point; `None` for no points.
    pub fn around(points: impl IntoIterator<Item = Point>) -> Option<Rect> {
        let mut points = points.into_iter();
        let first = points.next()?;
        Some(points.fold(Rect::new(first, first), |r, p| r.union(Rect::new(p, p))))
    }

    /// The smallest rectangle holding both.
    pub fn union(self, other: Rect) -> Rect {
        Rect {
            min: Point::new(self.min.x.min(other.min.x), self.min.y.min(other.min.y)),
            max: Point::new(self.max.x.max(other.max.x), self.max.y.max(other.max.y)),
        }
    }

    /// This rectangle grown by `by` on every side.
    pub fn grown(self, by: f64) -> Rect {
        Rect {
            min: Point::new(self.min.x - by, self.min.y - by),
            max: Point::new(self.max.x + by, self.max.y + by),
        }
    }

    /// This rectangle moved by `dx` across and `dy` down.
    pub fn shifted(self, dx: f64, dy: f64) -> Rect {
        Rect {
            min: Point::new(self.min.x + dx, self.min.y + dy),
            max: Point::new(self.max.x + dx, self.max.y + dy),
        }
    }

    /// Its width.
    pub fn width(self) -> f64 {
        self.max.x - self.min.x
    }

    /// Its height.
    pub fn height(self) -> f64 {
        self.max.y - self.min.y
    }

    /// Its centre.
    pub fn centre(self) -> Point {
        Point::new(
            (self.min.x + self.max.x) / 2.0,
            (self.min.y + self.max.y) / 2.0,
        )
    }

    /// Whether the two overlap (touching edges count).
    pub fn intersects(self, other: Rect) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Whether the point lies inside or on the edge.
    pub fn contains(self, p: Point) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }
}

/// The distance from `p` to the segment from `a` to `b`.
pub fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    if length_squared == 0.0 {
        return p.distance(a);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length_squared).clamp(0.0, 1.0);
    p.distance(Point::new(a.x + t * dx, a.y + t * dy))
}

/// Whether `p` lies inside the closed polygon with these corners (even-odd rule).
pub fn polygon_contains(corners: &[Point], p: Point) -> bool {
    let mut inside = false;
    let mut previous = match corners.last() {
        Some(&last) => last,
        None => return false,
    };
    for &corner in corners {
        if (corner.y > p.y) != (previous.y > p.y) {
            let crossing =
                corner.x + (p.y - corner.y) / (previous.y - corner.y) * (previous.x - corner.x);
            if p.x < crossing {
                inside = !inside;
            }
        }
        previous = corner;
    }
    inside
}

/// The distance from `p` to a closed polygon: 0 inside, else to its nearest edge.
pub fn distance_to_polygon(corners: &[Point], p: Point) -> f64 {
    if polygon_contains(corners, p) {
        return 0.0;
    }
    edges(corners)
        .map(|(a, b)| distance_to_segment(p, a, b))
        .fold(f64::INFINITY, f64::min)
}

/// The edges of a closed polygon: each corner to the next, the last back to the first.
pub fn edges(corners: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    corners
        .iter()
        .zip(corners.iter().cycle().skip(1))
        .map(|(&a, &b)| (a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: [Point; 4] = [
        Point::new(0.0, 0.0),
        Point::new(2.0, 0.0),
        Point::new(2.0, 2.0),
        Point::new(0.0, 2.0),
    ];

    #[test]
    fn a_quarter_turn_is_clockwise_on_the_picture() {
        let turned = Point::new(1.0, 0.0).rotated(Point::default(), std::f64::consts::FRAC_PI_2);
        assert!(turned.distance(Point::new(0.0, 1.0)) < 1e-12, "{turned:?}");
    }

    #[test]
    fn polygons_contain_their_inside_only() {
        assert!(polygon_contains(&SQUARE, Point::new(1.0, 1.0)));
        assert!(!polygon_contains(&SQUARE, Point::new(3.0, 1.0)));
        assert_eq!(distance_to_polygon(&SQUARE, Point::new(1.0, 1.5)), 0.0);
        assert_eq!(distance_to_polygon(&SQUARE, Point::new(5.0, 1.0)), 3.0);
        assert!(!polygon_contains(&[], Point::default()));
    }

    #[test]
    fn segment_distance_clamps_to_the_ends() {
        let (a, b) = (Point::new(0.0, 0.0), Point::new(4.0, 0.0));
        assert_eq!(distance_to_segment(Point::new(2.0, 3.0), a, b), 3.0);
        assert_eq!(distance_to_segment(Point::new(7.0, 4.0), a, b), 5.0);
        assert_eq!(distance_to_segment(Point::new(0.0, 1.0), a, a), 1.0);
    }

    #[test]
    fn rectangles() {
        let r = Rect::around(SQUARE).unwrap();
        assert_eq!(
            (r.width(), r.height(), r.centre()),
            (2.0, 2.0, Point::new(1.0, 1.0))
        );
        assert!(r.intersects(Rect::centred(Point::new(3.0, 1.0), 2.0, 2.0)));
        assert!(!r.intersects(Rect::centred(Point::new(3.5, 1.0), 2.0, 2.0)));
        assert!(r.contains(Point::new(2.0, 0.0)) && !r.grown(-0.5).contains(Point::new(2.0, 0.0)));
        assert_eq!(Rect::around([]), None);
    }
}
