//! Drawing one frame and moving the selection in a 100,000-object document. Run with
//! `cargo bench --bench tui`; prints the mean time of each.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::model::{Content, DiagramObject, DocSummary};
use diagtui::tui::{Answer, App, Effect, Msg, Reply, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

#[path = "common/timing.rs"]
mod timing;

use timing::measure;

const OBJECTS: usize = 100_000;

fn content() -> Content {
    (0..OBJECTS)
        .map(|i| {
            let object = if i % 3 == 0 {
                DiagramObject { kind: "label".into(), data: json!({"text": format!("label {i}")}).as_object().unwrap().clone() }
            } else {
                DiagramObject {
                    kind: "component".into(),
                    data: json!({"componentId": "generic.server", "name": format!("srv-{i}"), "meta": {"env": "prod", "n": i}})
                        .as_object()
                        .unwrap()
                        .clone(),
                }
            };
            (format!("obj-{i:08}"), object)
        })
        .collect()
}

fn app() -> App {
    let mut app = App::new("bench", Some("bench@example.com".into()));
    app.update(Msg::Resize(160, 50));
    app.docs.docs = vec![DocSummary {
        id: "d".into(),
        title: "Big".into(),
    }];
    app.docs.loaded = true;
    app.docs.rebuild();
    let effects = app.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    let Some(Effect::Request(id, _)) = effects.into_iter().next() else {
        panic!("no content request")
    };
    app.update(Msg::Api(Reply {
        id,
        latency: Duration::ZERO,
        outcome: Ok(Answer::Content(content())),
    }));
    assert_eq!(app.objects.objects.len(), OBJECTS);
    app
}

fn main() {
    let started = Instant::now();
    let mut app = app();
    println!(
        "{:<40} {:>12.2?}",
        "load 100,000 objects (once)",
        started.elapsed()
    );
    let mut terminal = Terminal::new(TestBackend::new(160, 50)).unwrap();
    measure("draw one frame (160x50)", 200, || {
        terminal.draw(|frame| view(black_box(&app), frame)).unwrap();
    });
    let down = Msg::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    measure("move the selection down one row", 2_000, || {
        black_box(app.update(down.clone()));
    });
    let page = Msg::Key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    measure("page down + draw", 200, || {
        app.update(page.clone());
        terminal.draw(|frame| view(&app, frame)).unwrap();
    });
}
