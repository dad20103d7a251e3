//! The map's pixels in a real terminal: the binary in a sixel xterm (a VT340 on Xvfb, typed
//! into with xdotool, looked at with ImageMagick's `import`; `.ci/run` installs them), in local
//! mode on a fresh data dir with its sample documents. It must find out by itself that the
//! terminal shows sixel pictures, and the map area must then hold the picture's colours (the
//! blocks' status fills and the selection's outline, which braille cannot draw), in 2D and in
//! 3D.

use std::path::Path;

use diagtui_testkit::xterm::{Screenshot, Xterm, wait_until, wait_until_else};

/// A healthy component's fill in the picture (`status_colours` of the renderer).
const GOOD_FILL: [u8; 3] = [0xE2, 0xF0, 0xD9];
/// The selection's outline in the picture.
const SELECTED: [u8; 3] = [0x00, 0x5F, 0xD7];
/// Sixel colours go through the terminal's colour registers: near enough.
const TOLERANCE: u8 = 12;

/// Columns and rows of the terminal (xterm's default font is 6 × 13 pixels a cell).
const SIZE: (u16, u16) = (150, 45);

/// Whether the log in `data_dir` has a line holding `text`.
fn logged(data_dir: &Path, text: &str) -> bool {
    times_logged(data_dir, text) > 0
}

/// How many lines of the log in `data_dir` hold `text`.
fn times_logged(data_dir: &Path, text: &str) -> usize {
    std::fs::read_to_string(data_dir.join("diagtui.log")).map_or(0, |log| {
        log.lines().filter(|line| line.contains(text)).count()
    })
}

/// What the app logs once it has drawn the map's picture (and before the terminal shows it).
const DRAWN: &str = "the map's picture drawn";

/// Waits until the app has drawn one more picture than `before`, so that a picture never
/// shown is told apart from one never drawn; fails with the log's last lines.
fn wait_for_a_picture(data_dir: &Path, before: usize, what: &str) {
    let log_end = || {
        let log = std::fs::read_to_string(data_dir.join("diagtui.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        format!(
            "; the log ends:\n{}",
            lines[lines.len().saturating_sub(20)..].join("\n")
        )
    };
    wait_until_else(
        &format!("the app to draw {what}"),
        || times_logged(data_dir, DRAWN) > before,
        log_end,
    );
}

/// The map pane's part of the screen: the right 40 % of the terminal's width (the properties'
/// place), above the status bar.
fn map_area(shot: &Screenshot) -> (usize, usize, usize, usize) {
    let (width, height) = (usize::from(SIZE.0) * 6, usize::from(SIZE.1) * 13);
    (
        width * 3 / 5,
        0,
        width.min(shot.width),
        (height - 26).min(shot.height),
    )
}

/// Whether the map area holds the picture: many pixels of the blocks' fill and the outline.
fn shows_the_picture(shot: &Screenshot) -> bool {
    let area = map_area(shot);
    shot.count(area, GOOD_FILL, TOLERANCE) > 100 && shot.count(area, SELECTED, TOLERANCE) > 20
}

/// Whether the map area of `after` is another picture than that of `before` (rows differ).
fn changed(before: &Screenshot, after: &Screenshot) -> bool {
    let (x0, y0, x1, y1) = map_area(after);
    let differs = |y: usize| {
        let (from, to) = ((y * after.width + x0) * 3, (y * after.width + x1) * 3);
        before.rgb[from..to] != after.rgb[from..to]
    };
    (y0..y1).filter(|&y| differs(y)).count() > 20
}

#[test]
fn the_map_shows_its_picture_in_a_sixel_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let env = [
        ("DIAGTUI_CONFIG", "/dev/null"),
        ("DIAGTUI_DATA_DIR", data_dir.to_str().unwrap()),
        ("RUST_LOG", "diagtui=debug"),
    ];
    let binary = Path::new(env!("CARGO_BIN_EXE_diagtui"));
    let Some(term) = Xterm::start(binary, &[], &env, SIZE) else {
        return;
    };
    wait_until("the terminal's answer", || {
        logged(&data_dir, "the terminal's graphics")
    });
    assert!(
        logged(&data_dir, "sixel: true"),
        "xterm -ti vt340 says it shows sixel"
    );
    // The documents, then the first one's objects, then the map.
    wait_until("the documents", || logged(&data_dir, "purpose=Docs"));
    let braille = term.screenshot();
    assert_eq!(braille.count(map_area(&braille), GOOD_FILL, TOLERANCE), 0);
    term.keys(&["Return"]);
    wait_until("the objects", || {
        logged(&data_dir, "purpose=Content ok=true")
    });
    let drawn = times_logged(&data_dir, DRAWN);
    term.keys(&["m"]);
    wait_for_a_picture(&data_dir, drawn, "the 2D picture");
    let flat = term.wait_for_screen("the 2D picture in the map", shows_the_picture);
    // 3D, zoomed in: blocks again, in a picture of their own.
    let drawn = times_logged(&data_dir, DRAWN);
    term.keys(&["v", "plus"]);
    wait_for_a_picture(&data_dir, drawn, "the 3D picture");
    term.wait_for_screen("the 3D picture in the map", |shot| {
        changed(&flat, shot) && shows_the_picture(shot)
    });
    term.keys(&["q"]);
}
