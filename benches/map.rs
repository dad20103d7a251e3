//! The map of a generated document (`diagtui_testkit::diagram`) opened through the real local
//! server: one frame of the map at 200×60 (beside the tree, and zoomed to the whole screen; fitted
//! to the whole diagram, and zoomed in), building the scene off the input loop, and the hand-over
//! of the objects (shared, copy-on-write) that the input loop gives that build, and a pan or
//! zoom key with the frame after it at every zoom level. Run with
//! `cargo bench --bench map`; prints the mean time of each.

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use diagtui::client::Client;
use diagtui::tui::document::ObjectModel;
use diagtui::tui::runtime::worker;
use diagtui::tui::{App, Effect, Msg, Setup, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tokio::runtime::Runtime;

use diagtui_testkit::Local;
use diagtui_testkit::diagram::document;
use diagtui_testkit::drive::{drive, key, type_text};
use diagtui_testkit::timing::measure;

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
    let pan = key(KeyCode::Char('l'));
    measure(&format!("{n}: pan (l) + frame, zoomed ×5"), runs, || {
        app.update(pan.clone());
        terminal.draw(|frame| view(black_box(&app), frame)).unwrap();
    });
    // A key and the frame after it at every zoom, from the whole diagram (fitted, `0`) in
    // steps of ×1.5: pans to and fro, zooms in and out, so the view stays where it is.
    type_text(&mut app, client, "0").await;
    for step in 0..=12 {
        let zoom = 1.5f64.powi(step);
        for (keys, what) in [("lh", "pan"), ("+-", "zoom")] {
            let keys: Vec<Msg> = keys.chars().map(|c| key(KeyCode::Char(c))).collect();
            let mut next = keys.iter().cycle();
            measure(&format!("{n}: {what} + frame, ×{zoom:.1}"), runs, || {
                app.update(next.next().expect("cycles").clone());
                terminal.draw(|frame| view(black_box(&app), frame)).unwrap();
            });
        }
        // Fitted again and zoomed in one step more (a measure ends a key off).
        let next_level = format!("0{}", "+".repeat(step as usize + 1));
        type_text(&mut app, client, &next_level).await;
    }
}

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let local = Local::start().await;
        frames(&local.client, 10_000).await;
        frames(&local.client, 100_000).await;
        local.server.shutdown().await;
    });
}
