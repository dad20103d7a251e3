//! The map of a generated document (`diagtui_testkit::diagram`) opened through the real local
//! server: one frame of the map at 200×60 (beside the tree, and zoomed to the whole screen; fitted
//! to the whole diagram, and zoomed in), building the scene off the input loop, and the hand-over
//! of the objects (shared, copy-on-write) that the input loop gives that build; a pan or zoom
//! key and its frame at every zoom level, braille and with pixels on; drawing the picture of
//! the view for a sixel terminal (off the loop). Run with `cargo bench --bench map`; prints the
//! mean time of each.

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use diagtui_client::Client;
use diagtui_tui::document::ObjectModel;
use diagtui_tui::document::picture::{Graphics, PictureJob, PixelProtocol};
use diagtui_tui::runtime::worker;
use diagtui_tui::{App, Effect, Msg, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tokio::runtime::Runtime;

use diagtui_testkit::diagram::document;
use diagtui_testkit::timing::measure;
use diagtui_testkit_server::Local;
use diagtui_testkit_tui::drive::{drive, key, type_text};

const WIDTH: u16 = 200;
const HEIGHT: u16 = 60;

/// Like `worker::settle`, but times each scene build.
async fn settle_timing_scenes(app: &mut App, client: &Client, msg: Msg) -> Vec<Duration> {
    let mut builds = Vec::new();
    let mut queue: VecDeque<Effect> = app.update(msg).into();
    while let Some(effect) = queue.pop_front() {
        let more = match effect {
            Effect::Request(id, request) => {
                app.update(Msg::Api(worker::reply(client, id, request).await))
            }
            Effect::BuildScene(job) => {
                let started = Instant::now();
                let built = job.run();
                builds.push(started.elapsed());
                app.update(Msg::Scene(built))
            }
            _ => Vec::new(),
        };
        queue.extend(more);
    }
    builds
}

/// Opens the document titled `title` and shows its map.
async fn open_map(app: &mut App, client: &Client, title: &str) {
    type_text(app, client, "/").await;
    type_text(app, client, title).await;
    drive(app, client, key(KeyCode::Enter)).await;
    drive(app, client, key(KeyCode::Enter)).await;
    type_text(app, client, "m").await;
}

/// Measures frames of the map of `objects` objects.
async fn frames(client: &Client, objects: usize) {
    let content = document(objects);
    let n = content.len();
    let title = format!("Map {n}");
    let doc = client.create_doc(&title, None).await.unwrap();
    client.set_content(&doc, &content).await.unwrap();

    let model = ObjectModel::new(content);
    measure(
        &format!("{n}: hand-over of the objects to the build (loop)"),
        5,
        || {
            black_box(model.texts());
        },
    );
    drop(model);

    let mut app = App::new(Setup {
        account: Some("bench@example.com".into()),
        ..Setup::new("bench")
    });
    app.update(Msg::Resize(WIDTH, HEIGHT));
    let effects = app.start();
    worker::settle(&mut app, client, effects).await;
    open_map(&mut app, client, &title).await;

    let builds = settle_timing_scenes(&mut app, client, key(KeyCode::Char('R'))).await;
    let build = builds.first().expect("a reload builds the scene");
    println!(
        "{:<52} {:>12.2?} (once, off the loop)",
        format!("{n}: build the scene (job)"),
        build
    );

    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    terminal.draw(|frame| view(&app, frame)).unwrap();
    let screen = terminal.backend().to_string();
    assert!(screen.contains(&format!("3 Map · {title}")), "{screen}");
    assert!(screen.contains("×1.0"), "{screen}");
    let runs = if n > 50_000 { 20 } else { 100 };
    // Each step's keys, then a frame measured.
    let steps = [
        ("", "map frame beside the tree, whole diagram"),
        ("z", "map frame, whole screen, whole diagram"),
        ("++++", "map frame, whole screen, zoomed ×5"),
    ];
    for (keys, name) in steps {
        type_text(&mut app, client, keys).await;
        measure(&format!("{n}: {name}"), runs, || {
            terminal.draw(|frame| view(black_box(&app), frame)).unwrap();
        });
    }
    keys_at_every_level(&mut app, client, &mut terminal, &format!("{n}:"), runs).await;
    // With pixels on (a sixel terminal): the key and its frame must not wait for the picture,
    // whose job goes off the loop (braille is drawn until it comes; here it never does).
    let effects = app.use_graphics(Some(SIXEL));
    assert!(effects.iter().any(|e| matches!(e, Effect::DrawPicture(_))));
    keys_at_every_level(
        &mut app,
        client,
        &mut terminal,
        &format!("{n}: pixels on,"),
        runs,
    )
    .await;
    pictures(&mut app, client, n).await;
}

/// A key and the frame after it, at every zoom level from the whole diagram in: a pan (`l`
/// then `h`, back and forth) and a zoom (`+` then `-`); each figure named after `prefix`.
async fn keys_at_every_level(
    app: &mut App,
    client: &Client,
    terminal: &mut Terminal<TestBackend>,
    prefix: &str,
    runs: u32,
) {
    type_text(app, client, "0").await;
    let (pan, back) = (key(KeyCode::Char('l')), key(KeyCode::Char('h')));
    let (zoom_in, zoom_out) = (key(KeyCode::Char('+')), key(KeyCode::Char('-')));
    for level in 0..LEVELS {
        let zoom = ZOOM_STEP.powi(level);
        for (what, forth, undo) in [("pan", &pan, &back), ("zoom", &zoom_in, &zoom_out)] {
            let mut keys = [forth, undo].into_iter().cycle();
            let name = format!("{prefix} {what} key + frame, ×{zoom:.1}");
            measure(&name, runs, || {
                app.update(keys.next().unwrap().clone());
                terminal.draw(|frame| view(black_box(app), frame)).unwrap();
            });
        }
        app.update(zoom_in.clone());
    }
}

/// A sixel terminal with cells of 10 × 20 pixels: the map's canvas of 198 × 56 cells is a
/// picture of 1980 × 1120 pixels.
const SIXEL: Graphics = Graphics {
    protocol: PixelProtocol::Sixel,
    cell: (10, 20),
    tmux: false,
};

/// Drawing the picture of the view (off the loop), drawn and encoded as sixel: the whole
/// diagram and zoomed in, in 2D and 3D.
async fn pictures(app: &mut App, client: &Client, n: usize) {
    let runs = if n > 50_000 { 2 } else { 5 };
    type_text(app, client, "0").await;
    for (keys, name) in [
        ("", "2D, whole diagram"),
        ("+++", "2D, ×3.4"),
        ("+++", "2D, ×11.4"),
        ("0v", "3D, whole diagram"),
        ("+++", "3D, ×3.4"),
        ("+++", "3D, ×11.4"),
    ] {
        let mut last = None;
        for c in keys.chars() {
            last = picture_job(app.update(key(KeyCode::Char(c)))).or(last);
        }
        // No key: the picture of the view as it is, asked for again.
        let job = last
            .or_else(|| picture_job(app.use_graphics(Some(SIXEL))))
            .expect("a picture of the view");
        measure(
            &format!("{n}: the view's picture, {name} (job)"),
            runs,
            || {
                assert!(black_box(job.clone().run()).is_some());
            },
        );
    }
}

/// The picture job among `effects`, if any.
fn picture_job(effects: Vec<Effect>) -> Option<Box<PictureJob>> {
    effects.into_iter().find_map(|e| match e {
        Effect::DrawPicture(job) => Some(job),
        _ => None,
    })
}

/// How much one `+` zooms (the map's step).
const ZOOM_STEP: f64 = 1.5;
/// The zoom levels measured: the whole diagram, then zoomed in step by step to the level
/// where a component of the generated diagrams is some columns wide.
const LEVELS: i32 = 12;

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let local = Local::start().await;
        frames(&local.client, 10_000).await;
        frames(&local.client, 100_000).await;
        local.server.shutdown().await;
    });
}
