//! The map in pixels, where the terminal shows pictures: `App::update` asks for the picture of
//! the view (drawn off the input loop), shows braille until it comes, drops one of an older
//! view, and `v` switches 2D and 3D. The picture itself is checked in a real terminal by
//! `pictures_e2e.rs`.

use diagtui_scene::render::View;
use diagtui_tui::document::picture::{Graphics, PictureJob, PixelProtocol};
use diagtui_tui::{Effect, Msg};

use crate::harness::*;

/// A sixel terminal with cells of 10 × 20 pixels.
const SIXEL: Graphics = Graphics {
    protocol: PixelProtocol::Sixel,
    cell: (10, 20),
    tmux: false,
};

/// The picture jobs among `effects`.
fn jobs(effects: &[Effect]) -> Vec<PictureJob> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::DrawPicture(job) => Some(PictureJob::clone(job)),
            _ => None,
        })
        .collect()
}

/// The map on a terminal that shows pixels, drawn at the size every check reads, and the job
/// of its first picture.
fn on_pixels() -> (Harness, PictureJob) {
    let mut h = Harness::on_map();
    let effects = h.app.use_graphics(Some(SIXEL));
    h.screen();
    let [job] = jobs(&effects).try_into().expect("one picture asked for");
    (h, job)
}

/// Whether the screen holds a sixel picture (a cell whose text holds a sixel sequence: from
/// `ESC P` to `ESC \\`).
fn shows_a_picture(h: &mut Harness) -> bool {
    let buffer = h.buffer(200, 50);
    buffer
        .content()
        .iter()
        .any(|cell| cell.symbol().contains("\u{1b}P") && cell.symbol().ends_with("\u{1b}\\"))
}

/// Whether the screen shows braille (only the map draws it).
fn shows_braille(h: &mut Harness) -> bool {
    h.screen()
        .chars()
        .any(|c| ('\u{2801}'..='\u{28FF}').contains(&c))
}

#[test]
fn the_map_shows_braille_until_the_picture_of_its_view_is_drawn() {
    let (mut h, job) = on_pixels();
    assert_eq!(job.view(), View::Flat, "2D first");
    h.expect("3 Map · Network overview · 2D");
    assert!(!shows_a_picture(&mut h));
    assert!(shows_braille(&mut h));
    let drawn = job.run().expect("drawn: nothing newer was asked for");
    h.send(Msg::Picture(drawn));
    assert!(shows_a_picture(&mut h));
    assert!(!shows_braille(&mut h), "the picture in braille's place");
    // The selection moves: a new picture, braille meanwhile.
    let effects = h.press("n");
    assert_eq!(jobs(&effects).len(), 1);
    assert!(!shows_a_picture(&mut h));
    assert!(shows_braille(&mut h));
}

#[test]
fn a_picture_of_an_older_view_is_dropped_and_its_job_gives_up() {
    let (mut h, old) = on_pixels();
    let old_drawn = old.clone().run().expect("drawn before the view moved");
    let [zoomed] = jobs(&h.press("+"))
        .try_into()
        .expect("the zoomed view's picture");
    assert!(old.run().is_none(), "superseded: the job gives up");
    h.send(Msg::Picture(old_drawn));
    assert!(!shows_a_picture(&mut h), "not the view shown");
    h.send(Msg::Picture(zoomed.run().expect("drawn")));
    assert!(shows_a_picture(&mut h));
    // Back to the first view: asked again, since the one drawn was dropped.
    assert_eq!(jobs(&h.press("-")).len(), 1);
}

#[test]
fn v_switches_the_picture_between_2d_and_3d() {
    let (mut h, _) = on_pixels();
    let [job] = jobs(&h.press("v")).try_into().expect("the 3D picture");
    assert_eq!(job.view(), View::Isometric);
    h.expect("3 Map · Network overview · 3D");
    h.expect("the map's picture in 3D");
    h.send(Msg::Picture(job.run().expect("drawn")));
    assert!(shows_a_picture(&mut h));
    let [job] = jobs(&h.press("v")).try_into().expect("the 2D picture");
    assert_eq!(job.view(), View::Flat);
    h.expect("· 2D");
}

#[test]
fn without_pixels_v_says_braille_is_2d_only() {
    let mut h = Harness::on_map();
    let effects = h.press("v");
    assert!(jobs(&effects).is_empty());
    h.expect("3D is drawn in pixels, and this terminal shows none");
    assert!(!h.shows("· 2D"));
}
