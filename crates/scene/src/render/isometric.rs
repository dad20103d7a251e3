//! The 3D picture: the scene in the isometric projection ([`crate::iso`]) as SVG. The floor is
//! the 2D drawing of the areas, images, widgets, lines (their attached ends moved to the foot of
//! their blocks, [`iso::on_floor`]) and icons, which lie flat, mapped onto the floor by one
//! transform; then the posts of the signs; then the blocks and walls in painter's order; then
//! the signs: the titles that lie on a band of their own (create-diagram's group titles), band
//! and title together, lying flat as in 2D but hung at [`SIGN_HEIGHT`] over where they lie, on
//! posts, so that no block in front of them and no title over such a block hides them; then
//! the other labels and the components' titles, facing the viewer over everything (labels keep
//! their rotation on the screen), so that none is lost behind a block and all read as in 2D.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::glyphs;
use super::measure::{self, LINE};
use super::svg::{
    self, Fit, GLYPH, PAPER, SMALLEST_GLYPH, TEXT, TITLE_SIZE, component_colours, escape,
    glyph_colour, halo, points,
};
use crate::index::Grid;
use crate::iso::{self, BLOCK_HEIGHT, Iso, Piece, PieceKind};
use crate::{Component, Label, Point, Primitive, Rect, Rgb, Scene, Shape};

/// The space between a block's top and its title, as a share of the title's size.
pub(super) const TITLE_GAP: f64 = 0.35;

/// The widest a component's title stands over its block, in grid units (two and a half
/// blocks): longer lines are wrapped at spaces. In 2D a name has the room the layout kept under
/// its box; in 3D the floor is seen at a slant, neighbours' titles come closer, and long ones
/// would lie over each other.
pub(super) const TITLE_WIDTH: f64 = 5.0;

/// A component's title as it stands over its block: each line wrapped at spaces to
/// [`TITLE_WIDTH`] (a word wider than that stands alone).
fn upright(title: &str) -> String {
    title
        .lines()
        .flat_map(|line| measure::wrap(line, TITLE_WIDTH / TITLE_SIZE))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How high a title on a band of its own hangs over the floor ([`diagtui_model::picture`]).
pub(super) const SIGN_HEIGHT: f64 = diagtui_model::picture::SIGN_HEIGHT;

/// A title on a band of its own (create-diagram's group titles) with its band, as the 3D
/// picture hangs it: how high over the floor.
pub(super) struct Sign<'a> {
    /// The band (the areas under the title) and the title, in drawing order.
    parts: Vec<&'a Primitive>,
    /// How high it hangs: [`SIGN_HEIGHT`], or higher where a component's title (drawn over
    /// everything, a name of several lines reaching up past it) would lie over it there.
    height: f64,
}

impl Sign<'_> {
    /// Its band's and title's bounds on the floor.
    fn floor(&self) -> Option<Rect> {
        self.parts.iter().map(|p| p.bounds).reduce(Rect::union)
    }

    /// The floor that the screen shows where it hangs at `height`: its floor moved back by
    /// the step that rising by `height` looks like ([`iso::Projection::rise`]). Two signs
    /// overlap on the screen exactly where these overlap.
    fn seen_floor(&self, iso: &Iso, height: f64) -> Option<Rect> {
        let step = iso.projection.rise(height);
        Some(self.floor()?.shifted(step.x, step.y))
    }

    /// Where it lies on the screen (the projection's units) hung at `height`.
    fn on_screen(&self, iso: &Iso, height: f64) -> Option<Rect> {
        let b = self.floor()?;
        let corners = [
            b.min,
            Point::new(b.max.x, b.min.y),
            Point::new(b.min.x, b.max.y),
            b.max,
        ];
        Rect::around(corners.map(|p| iso.projection.at(p, height)))
    }
}

/// How many times a sign rises past the titles it would lie behind, at most.
const RAISES: usize = 3;

/// The screen's room kept between a sign and a component's title under it.
const SIGN_CLEARANCE: f64 = 0.1;

/// The signs of the scene, in drawing order, each at [`SIGN_HEIGHT`] ([`hang`] raises them).
fn signs(scene: &Scene) -> Vec<Sign<'_>> {
    let mut signs = Vec::new();
    for primitive in scene.in_draw_order() {
        if let Shape::Label(label) = &primitive.shape
            && svg::on_band(scene, label)
        {
            let mut parts: Vec<&Primitive> = scene.area_under(label.centre).into_iter().collect();
            parts.push(primitive);
            signs.push(Sign {
                parts,
                height: SIGN_HEIGHT,
            });
        }
    }
    signs
}

/// What the 3D picture draws over the floor, worked out once for its bounds and its drawing:
/// the components' titles on the screen, filed to find those near a place, and the signs hung
/// clear of them.
pub(super) struct Above<'a> {
    /// The signs, hung.
    signs: Vec<Sign<'a>>,
    /// Each component's title on the screen ([`titles`]).
    titles: Vec<Rect>,
    /// The titles, filed.
    near: NearTitles,
}

impl<'a> Above<'a> {
    /// The scene's titles and signs; the titles (the work) only when there is a label, sign or
    /// other, that must keep clear of them, or when `bounds` want them all the same.
    fn of(scene: &'a Scene, iso: &Iso, bounds: bool) -> Above<'a> {
        let labels = (scene.primitives().iter()).any(|p| matches!(p.shape, Shape::Label(_)));
        let titles = if labels || bounds {
            titles(scene, iso)
        } else {
            Vec::new()
        };
        let near = NearTitles::new(&titles);
        let mut signs = signs(scene);
        hang(&mut signs, iso, &titles, &near);
        Above {
            signs,
            titles,
            near,
        }
    }
}

/// The scene's titles and signs, each sign hung clear of the titles.
pub(super) fn above<'a>(scene: &'a Scene, iso: &Iso) -> Above<'a> {
    Above::of(scene, iso, false)
}

/// Each sign hung clear of the components' titles (`titles`, on the screen) and of the signs
/// hung before it: raised past the titles its band would lie behind and past the signs it
/// would lie over or under, until none (or [`RAISES`] times). A sign raised over a title lands
/// where another group's title hangs further back (a group's and its first inner group's):
/// drawn over it, it hid the other.
fn hang(signs: &mut [Sign], iso: &Iso, titles: &[Rect], near_titles: &NearTitles) {
    let per_height = iso.projection.lift(1.0);
    let mut hung: Vec<Rect> = Vec::new();
    for sign in signs {
        // Each raise clears what it would meet; past a few (a crowd of names in front of it)
        // it stays where the last raise put it.
        for _ in 0..RAISES {
            let (Some(at), Some(seen)) = (
                sign.on_screen(iso, sign.height),
                sign.seen_floor(iso, sign.height),
            ) else {
                break;
            };
            let past_titles = near_titles.over(titles, at) / per_height;
            let past_signs = (hung.iter())
                .map(|other| raise_past(iso, seen, *other))
                .fold(0.0, f64::max);
            let raise = past_titles.max(past_signs);
            if raise <= 0.0 {
                break;
            }
            sign.height += raise;
        }
        hung.extend(sign.seen_floor(iso, sign.height));
    }
}

/// The components' titles on the screen, filed to find those near a sign.
struct NearTitles {
    /// The titles filed by the middle of their bottom edge (a title is broad for the grid's
    /// cells); none without titles.
    grid: Option<Grid>,
    /// The broadest half title across.
    half: f64,
    /// The tallest title.
    tall: f64,
}

impl NearTitles {
    fn new(titles: &[Rect]) -> NearTitles {
        let feet: Vec<Rect> = (titles.iter())
            .map(|t| {
                Rect::new(
                    Point::new(t.centre().x, t.max.y),
                    Point::new(t.centre().x, t.max.y),
                )
            })
            .collect();
        NearTitles {
            grid: (feet.iter().copied().reduce(Rect::union)).map(|all| Grid::new(all, &feet)),
            half: titles.iter().map(|t| t.width() / 2.0).fold(0.0, f64::max),
            tall: titles.iter().map(|t| t.height()).fold(0.0, f64::max),
        }
    }

    /// How far up the screen `at` must move to clear the titles it meets; 0 when it meets none.
    fn over(&self, titles: &[Rect], at: Rect) -> f64 {
        (self.meeting(titles, at))
            .map(|t| at.max.y - t.min.y + SIGN_CLEARANCE)
            .fold(0.0, f64::max)
    }

    /// The titles that meet `at` (those that may meet it have their foot in it grown by the
    /// broadest half title across and the tallest title down).
    fn meeting<'t>(&self, titles: &'t [Rect], at: Rect) -> impl Iterator<Item = Rect> + 't {
        let near = Rect::new(
            Point::new(at.min.x - self.half, at.min.y),
            Point::new(at.max.x + self.half, at.max.y + self.tall),
        );
        let candidates = match &self.grid {
            Some(grid) => grid.candidates(near),
            None => Vec::new(),
        };
        (candidates.into_iter())
            .map(|t| titles[t as usize])
            .filter(move |t| t.intersects(at))
    }
}

/// Whether the two signs of a scene with two, each hung at its height, lie over each other on
/// the screen (`None` for another count).
#[cfg(test)]
pub(super) fn overlap_on_screen(above: &Above, iso: &Iso) -> Option<bool> {
    let [a, b] = &above.signs[..] else {
        return None;
    };
    Some(
        match (a.seen_floor(iso, a.height), b.seen_floor(iso, b.height)) {
            (Some(a), Some(b)) => a.intersects(b),
            _ => false,
        },
    )
}

/// How much higher a sign whose seen floor ([`Sign::seen_floor`]) is `seen` must hang to clear
/// a sign whose seen floor is `other`: 0 when they do not meet. Rising moves the seen floor
/// back along [`iso::Projection::rise`], so it clears `other` once it has passed it along x
/// or along y, whichever comes first.
fn raise_past(iso: &Iso, seen: Rect, other: Rect) -> f64 {
    if !seen.intersects(other) {
        return 0.0;
    }
    let step = iso.projection.rise(1.0);
    let past = |step: f64, min: f64, max: f64, other_min: f64, other_max: f64| {
        if step < 0.0 {
            (max - other_min) / -step
        } else if step > 0.0 {
            (other_max - min) / step
        } else {
            f64::INFINITY
        }
    };
    let along_x = past(step.x, seen.min.x, seen.max.x, other.min.x, other.max.x);
    let along_y = past(step.y, seen.min.y, seen.max.y, other.min.y, other.max.y);
    along_x.min(along_y) + SIGN_CLEARANCE / iso.projection.lift(1.0)
}

/// Each component's title on the screen (the projection's units), facing the viewer over its
/// block ([`title`]).
fn titles(scene: &Scene, iso: &Iso) -> Vec<Rect> {
    let primitives = scene.primitives();
    (iso.pieces.iter())
        .filter_map(|piece| match &primitives[piece.index].shape {
            Shape::Component(component) => title_extent(iso, piece, component),
            _ => None,
        })
        .collect()
}

/// The highest point of a block's top on the screen (the least y).
fn highest(top: &iso::Face) -> f64 {
    top.corners
        .iter()
        .map(|c| c.y)
        .fold(f64::INFINITY, f64::min)
}

/// Where a component's title lies on the screen, over its block's top.
fn title_extent(iso: &Iso, piece: &Piece, component: &Component) -> Option<Rect> {
    let highest = highest(piece.faces.last()?);
    let x = iso.projection.at(component.centre, BLOCK_HEIGHT).x;
    let (width, height) = svg::title_extent(&upright(&component.title));
    let height = height + TITLE_GAP * TITLE_SIZE;
    Some(Rect::new(
        Point::new(x - width / 2.0, highest - height),
        Point::new(x + width / 2.0, highest),
    ))
}

/// The scene seen as `iso`, as an SVG image of `width` × `height` pixels placed by `fit`
/// (which maps the projection's screen units to pixels).
pub(super) fn svg(
    scene: &Scene,
    iso: &Iso,
    above: &Above,
    fit: Fit,
    width: u32,
    height: u32,
) -> String {
    let signs = &above.signs;
    let mut out = svg::open(scene, width, height);
    let [a, b, c, d] = iso.projection.floor();
    let _ = writeln!(
        out,
        "<g transform=\"matrix({a:.6} {b:.6} {c:.6} {d:.6} {:.2} {:.2})\">",
        fit.dx, fit.dy
    );
    let on_floor = Fit {
        dx: 0.0,
        dy: 0.0,
        ..fit
    };
    let mut no_titles = String::new();
    let parts: HashSet<*const Primitive> = (signs.iter())
        .flat_map(|s| s.parts.iter().map(|&part| std::ptr::from_ref(part)))
        .collect();
    let is_sign = |p: &Primitive| parts.contains(&std::ptr::from_ref(p));
    for primitive in scene.in_draw_order() {
        match &primitive.shape {
            _ if is_sign(primitive) => {}
            Shape::Component(_) | Shape::Label(_) => {}
            Shape::Lines(lines) => {
                let moved = Primitive {
                    shape: Shape::Lines(iso::on_floor(scene, lines)),
                    ..primitive.clone()
                };
                svg::draw(&mut out, &mut no_titles, on_floor, scene, &moved);
            }
            _ => svg::draw(&mut out, &mut no_titles, on_floor, scene, primitive),
        }
    }
    out.push_str("</g>\n");
    posts(&mut out, iso, fit, signs);
    let primitives = scene.primitives();
    for piece in &iso.pieces {
        let primitive = &primitives[piece.index];
        match (&primitive.shape, piece.kind) {
            (Shape::Component(component), PieceKind::Block) => {
                let _ = write!(out, "<g><title>component {}</title>", escape(&primitive.id));
                block(&mut out, iso, fit, piece, component);
                out.push_str("</g>\n");
            }
            (Shape::Area(area), PieceKind::Wall) => {
                if let Some(colour) = area.wall.and_then(|w| w.colour) {
                    let line = area.line.unwrap_or(colour);
                    faces(&mut out, fit, piece, colour, line);
                }
            }
            _ => {}
        }
    }
    // The signs: as on the floor, lifted.
    for sign in signs {
        let _ = writeln!(
            out,
            "<g transform=\"matrix({a:.6} {b:.6} {c:.6} {d:.6} {:.2} {:.2})\">",
            fit.dx,
            fit.dy - fit.len(iso.projection.lift(sign.height))
        );
        for primitive in &sign.parts {
            svg::draw(&mut out, &mut no_titles, on_floor, scene, primitive);
        }
        out.push_str("</g>\n");
    }
    facing_labels(&mut out, scene, iso, fit, above, &is_sign);
    for piece in &iso.pieces {
        if let Shape::Component(component) = &primitives[piece.index].shape {
            title(&mut out, iso, fit, piece, component);
        }
    }
    svg::close(out, scene, height)
}

/// The labels that are no signs, facing the viewer over everything, each where it lies on the
/// floor, or moved a little where a component's title (drawn after it, over its block) or a
/// label drawn before it would lie over it there ([`clear_of`]).
fn facing_labels(
    out: &mut String,
    scene: &Scene,
    iso: &Iso,
    fit: Fit,
    above: &Above,
    is_sign: &dyn Fn(&Primitive) -> bool,
) {
    let labels: Vec<(&Primitive, &Label, Rect)> = (scene.in_draw_order())
        .filter_map(|primitive| match &primitive.shape {
            Shape::Label(label) if !is_sign(primitive) => {
                Some((primitive, label, on_screen(iso, label)))
            }
            _ => None,
        })
        .collect();
    // Where each label may end up (its furthest move and the gap), filed to find the labels
    // placed before one that it could meet.
    let reach: Vec<Rect> = (labels.iter())
        .map(|(_, _, at)| at.grown(moves(*at)[2] + SIGN_CLEARANCE))
        .collect();
    let near_labels = (reach.iter().copied().reduce(Rect::union)).map(|all| Grid::new(all, &reach));
    let mut placed: Vec<Rect> = Vec::with_capacity(labels.len());
    for (i, &(primitive, label, at)) in labels.iter().enumerate() {
        let titles: Vec<Rect> = (above.near)
            .meeting(&above.titles, reach[i].grown(SIGN_CLEARANCE))
            .collect();
        let earlier = near_labels.as_ref().map_or_else(Vec::new, |grid| {
            let found = grid.candidates(reach[i]).into_iter();
            found
                .take_while(|&j| (j as usize) < i)
                .map(|j| placed[j as usize])
                .collect()
        });
        let everything: Vec<Rect> = titles.iter().chain(&earlier).copied().collect();
        // Clear of the titles and the labels before it; else of the titles alone; by the
        // least move of [`moves`] that clears them.
        let moved = moves(at)
            .into_iter()
            .find_map(|reach| {
                clear_of(at, reach, &everything).or_else(|| clear_of(at, reach, &titles))
            })
            .unwrap_or(at);
        placed.push(moved);
        let centre = iso.projection.at(label.centre, 0.0);
        let facing = Label {
            centre: Point::new(
                centre.x + moved.min.x - at.min.x,
                centre.y + moved.min.y - at.min.y,
            ),
            ..label.clone()
        };
        let _ = write!(out, "<g><title>label {}</title>", escape(&primitive.id));
        // Drawn on what lies on the floor under the label.
        svg::draw_label(out, fit, &facing, svg::ground(scene, label));
        out.push_str("</g>\n");
    }
}

/// How far a label at `at` (on the screen) may move to clear what lies over it, tried in turn:
/// its height and the gap, which clears a text of its height lying right over it; that and a
/// title's gap, as a title's box reaches down to its block under its text (Jaeger's "gRPC"
/// under "Jaeger Query Service"); and three times the first, where nothing nearer clears it,
/// so that a short label under the end of a title of several lines slides out sideways
/// (Gateway API's "No" under "Map the end of the path to a single policy remaining in the
/// stack or none").
fn moves(at: Rect) -> [f64; 3] {
    let most = at.height() + SIGN_CLEARANCE;
    [most, most + TITLE_GAP * TITLE_SIZE, 3.0 * most]
}

/// A label's text facing the viewer where it lies on the floor, on the screen (unrotated).
fn on_screen(iso: &Iso, label: &Label) -> Rect {
    let centre = iso.projection.at(label.centre, 0.0);
    let [left, top, right, bottom] = svg::label_text_edges(label);
    Rect::new(
        Point::new(centre.x + left, centre.y + top),
        Point::new(centre.x + right, centre.y + bottom),
    )
}

/// A label's box facing the viewer at `at` (on the screen), moved up, down, left or right by
/// the least that clears the boxes of `others` it meets (the components' titles, the labels
/// placed before it), if that is at most `most`; `None` where no such move clears them. In 3D
/// a title stands over its block, above where the name lies in 2D, so a link's label the
/// layout put clear of the names can lie under a title there (Envoy Gateway's "Authz check"
/// under `/shared/opa/opa.sock`); and labels the layout put apart on the floor can come
/// together on the screen, the floor seen at a slant (Jaeger's remote sampling: "(2)
/// getStrategy()" and "(3b) getStrategy()").
fn clear_of(at: Rect, most: f64, others: &[Rect]) -> Option<Rect> {
    let gap = SIGN_CLEARANCE;
    let meets = |r: Rect| others.iter().any(|t| t.intersects(r));
    if !meets(at) {
        return Some(at);
    }
    let mut moves: Vec<(f64, f64)> = (others.iter())
        .filter(|t| t.intersects(at))
        .flat_map(|t| {
            [
                (0.0, t.min.y - at.max.y - gap),
                (0.0, t.max.y - at.min.y + gap),
                (t.min.x - at.max.x - gap, 0.0),
                (t.max.x - at.min.x + gap, 0.0),
            ]
        })
        .filter(|(dx, dy)| dx.abs().max(dy.abs()) <= most)
        .collect();
    moves.sort_by(|a, b| (a.0.abs() + a.1.abs()).total_cmp(&(b.0.abs() + b.1.abs())));
    (moves.into_iter())
        .map(|(dx, dy)| at.shifted(dx, dy))
        .find(|r| !meets(*r))
}

/// The posts a sign stands on: a thin line in its band's outline colour from each corner of
/// the band on the floor up to the sign, so that a sign reads as its area's (a nested group's
/// hangs over its parent's area). Drawn before the blocks, which stand in front of them.
fn posts(out: &mut String, iso: &Iso, fit: Fit, signs: &[Sign]) {
    for sign in signs {
        for part in &sign.parts {
            let Shape::Area(band) = &part.shape else {
                continue;
            };
            let colour = band.line.or(band.fill).unwrap_or(TEXT);
            for &corner in &band.corners {
                let (x, y0) = fit.at(iso.projection.at(corner, 0.0));
                let (_, y1) = fit.at(iso.projection.at(corner, sign.height));
                let _ = writeln!(
                    out,
                    "<line x1=\"{x:.2}\" y1=\"{y0:.2}\" x2=\"{x:.2}\" y2=\"{y1:.2}\" \
                     stroke=\"{}\" stroke-width=\"{:.2}\"/>",
                    colour.hex(),
                    fit.stroke(0.025)
                );
            }
        }
    }
}

/// The rectangle around what the 3D picture draws, in the projection's units: the blocks,
/// walls and floor, the components' titles above their blocks, which may be wider, and the
/// signs hung over the floor (so that no title is cut at the picture's edge); and what stands
/// above the floor ([`Above`], worked out once for both).
pub(super) fn bounds_and_above<'a>(scene: &'a Scene, iso: &Iso) -> (Option<Rect>, Above<'a>) {
    let above = Above::of(scene, iso, true);
    let bounds = (above.titles.iter().copied())
        .chain((above.signs.iter()).filter_map(|sign| sign.on_screen(iso, sign.height)))
        .fold(iso.bounds, |all, r| Some(all.map_or(r, |all| all.union(r))));
    (bounds, above)
}

/// A colour darkened by a shade (1 keeps it).
fn shaded(colour: Rgb, shade: f64) -> Rgb {
    let scale = |v: u8| (f64::from(v) * shade).round().clamp(0.0, 255.0) as u8;
    Rgb::new(scale(colour.r), scale(colour.g), scale(colour.b))
}

/// A piece's faces as polygons of `fill` shaded by each face, outlined in `line`.
fn faces(out: &mut String, fit: Fit, piece: &Piece, fill: Rgb, line: Rgb) {
    for face in &piece.faces {
        let _ = write!(
            out,
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{:.2}\" \
             stroke-linejoin=\"round\"/>",
            points(fit, &face.corners),
            shaded(fill, face.shade).hex(),
            line.hex(),
            fit.stroke(0.05)
        );
    }
}

/// A component's block, coloured by its status (else its own colour), with its category's
/// glyph on its top.
fn block(out: &mut String, iso: &Iso, fit: Fit, piece: &Piece, component: &Component) {
    let (fill, line) = component_colours(component);
    if component.opacity < 1.0 {
        let _ = write!(out, "<g opacity=\"{:.2}\">", component.opacity);
    }
    faces(out, fit, piece, fill, line);
    let size = fit.len(GLYPH);
    if size * 2.0 >= SMALLEST_GLYPH {
        // The glyph lies on the top, turned with the block: the floor's map times the turn.
        let [a, b, c, d] = iso.projection.floor();
        let [c0, c1, ..] = component.corners;
        let (sin, cos) = (c1.y - c0.y).atan2(c1.x - c0.x).sin_cos();
        let m = [
            (a * cos + c * sin) * size,
            (b * cos + d * sin) * size,
            (c * cos - a * sin) * size,
            (d * cos - b * sin) * size,
        ];
        let (x, y) = fit.at(iso.projection.at(component.centre, BLOCK_HEIGHT));
        // The top is the fill's lightest face.
        let top = piece.faces.last().map_or(1.0, |face| face.shade);
        glyphs::draw(
            out,
            &component.component_id,
            [m[0], m[1], m[2], m[3], x, y],
            glyph_colour(shaded(fill, top), line),
        );
    }
    if component.opacity < 1.0 {
        out.push_str("</g>");
    }
}

/// A component's title, facing the viewer just above its block's top (its last line there,
/// the others above it).
fn title(out: &mut String, iso: &Iso, fit: Fit, piece: &Piece, component: &Component) {
    let Some(top) = piece.faces.last() else {
        return;
    };
    let size = fit.len(TITLE_SIZE);
    let x = fit.at(iso.projection.at(component.centre, BLOCK_HEIGHT)).0;
    let (_, y) = fit.at(Point::new(0.0, highest(top)));
    let style = format!("fill=\"{}\" {}", TEXT.hex(), halo(PAPER, size * 0.25));
    let title = upright(&component.title);
    let above = (title.lines().count().max(1) - 1) as f64 * size * LINE;
    svg::text(
        out,
        &title,
        (x, y - size * TITLE_GAP - above),
        size,
        "middle",
        &style,
    );
}
