//! Rectangles and the grid's steps: components, labels and anchors on half cells, area corners
//! on eighths. y grows downwards, as in the scene.

/// The side of a component's square footprint, as the scene draws it (`diagtui_scene::FOOTPRINT`).
pub const COMPONENT_SIDE: f64 = 2.0;

/// The grid runs from −50 to 50 on both axes.
pub const GRID_HALF: f64 = 50.0;

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    /// The rectangle of `w` × `h` with its centre at (`x`, `y`).
    pub fn centred(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect {
            x0: x - w / 2.0,
            y0: y - h / 2.0,
            x1: x + w / 2.0,
            y1: y + h / 2.0,
        }
    }

    /// Its centre.
    pub fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }

    /// Shrunk by `d` on every side (grown when `d` is negative).
    pub fn inset(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 + d,
            y0: self.y0 + d,
            x1: self.x1 - d,
            y1: self.y1 - d,
        }
    }

    /// Moved by (`dx`, `dy`).
    pub fn shifted(self, dx: f64, dy: f64) -> Rect {
        Rect {
            x0: self.x0 + dx,
            y0: self.y0 + dy,
            x1: self.x1 + dx,
            y1: self.y1 + dy,
        }
    }

    /// Whether the two overlap with some area (touching edges do not).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Whether `other` lies inside this one, edges included.
    pub fn contains(&self, other: &Rect) -> bool {
        self.x0 <= other.x0 && self.y0 <= other.y0 && other.x1 <= self.x1 && other.y1 <= self.y1
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// Width.
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    /// Height.
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

/// Rounded up to the next half cell.
pub fn ceil_half(v: f64) -> f64 {
    (v * 2.0 - 1e-9).ceil() / 2.0
}

/// Rounded down to a half cell.
pub fn floor_half(v: f64) -> f64 {
    (v * 2.0 + 1e-9).floor() / 2.0
}

/// Rounded to the nearest half cell.
pub fn round_half(v: f64) -> f64 {
    (v * 2.0).round() / 2.0
}

/// Grown outwards so that every corner sits on an eighth of a cell.
pub fn outward_eighths(r: Rect) -> Rect {
    let down = |v: f64| (v * 8.0 + 1e-9).floor() / 8.0;
    let up = |v: f64| (v * 8.0 - 1e-9).ceil() / 8.0;
    Rect {
        x0: down(r.x0),
        y0: down(r.y0),
        x1: up(r.x1),
        y1: up(r.y1),
    }
}

/// The width a text of `chars` characters takes at `font_size` (an average character is
/// about 0.6 of the font size wide).
pub fn text_width(chars: usize, font_size: f64) -> f64 {
    chars as f64 * font_size * 0.6
}

/// Twice the signed area of the triangle `a`, `b`, `c`: which side of the line through `a`
/// and `b` `c` lies on (0 on it).
fn orient(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// Whether two segments cross at a point inside both (touching does not count).
pub fn crosses(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let (o1, o2, o3, o4) = (
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    );
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

/// Whether two segments lie on one line and share more than `eps` of length.
pub fn collinear_overlap(
    a: (f64, f64),
    b: (f64, f64),
    c: (f64, f64),
    d: (f64, f64),
    eps: f64,
) -> bool {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    if len <= eps {
        return false;
    }
    // Distance of c and d from the line through a and b.
    if orient(a, b, c).abs() / len > eps || orient(a, b, d).abs() / len > eps {
        return false;
    }
    let (ux, uy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
    let t = |p: (f64, f64)| (p.0 - a.0) * ux + (p.1 - a.1) * uy;
    let (t0, t1) = (t(c).min(t(d)), t(c).max(t(d)));
    t1.min(len) - t0.max(0.0) > eps
}

/// Whether the segment from `a` to `b` meets the rectangle, edges included (Liang–Barsky
/// clipping).
pub fn segment_meets(a: (f64, f64), b: (f64, f64), r: &Rect) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 <= t1
}

/// The distance from `p` to the nearest point of the line through `path`'s points.
pub fn distance_to_path(p: (f64, f64), path: &[(f64, f64)]) -> f64 {
    let to_segment = |a: (f64, f64), b: (f64, f64)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx * dx + dy * dy;
        let t = if length == 0.0 {
            0.0
        } else {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length).clamp(0.0, 1.0)
        };
        (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
    };
    match path {
        [only] => to_segment(*only, *only),
        _ => path
            .windows(2)
            .map(|s| to_segment(s[0], s[1]))
            .fold(f64::INFINITY, f64::min),
    }
}
