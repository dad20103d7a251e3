//! Drawing one frame, moving the selection and typing into the filter in a 100,000-object
//! document. Run with `cargo bench --bench tui`; prints the mean time of each.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::model::{Content, DiagramObject, DocSummary, FolderList};
use diagtui::tui::{Answer, App, Effect, Msg, Reply, Request, Setup, view};
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

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Answers the requests among `effects` that the bench needs: the document list (one
/// document), no folders, the content; other requests stay unanswered.
fn answer(app: &mut App, effects: Vec<Effect>, content: &mut Option<Content>) {
    for effect in effects {
        let Effect::Request(id, request) = effect else {
            continue;
        };
        let given = match request {
            Request::ListDocs => Answer::Docs(vec![DocSummary {
                id: "d".into(),
                title: "Big".into(),
            }]),
            Request::Folders => Answer::Folders(FolderList::new()),
            Request::Content { .. } => match content.take() {
                Some(content) => Answer::Content(content),
                None => continue,
            },
            _ => continue,
        };
        let more = app.update(Msg::Api(Reply {
            id,
            latency: Duration::ZERO,
            outcome: Ok(given),
        }));
        answer(app, more, content);
    }
}

/// An app with the 100,000-object document open.
fn app() -> App {
    let mut app = App::new(Setup {
        account: Some("bench@example.com".into()),
        ..Setup::new("bench")
    });
    app.update(Msg::Resize(160, 50));
    let effects = app.start();
    let mut content = Some(content());
    answer(&mut app, effects, &mut content);
    let effects = app.update(key(KeyCode::Enter));
    answer(&mut app, effects, &mut content);
    assert!(content.is_none(), "the content was asked for and given");
    app
}

fn main() {
    let started = Instant::now();
    let mut app = app();
    println!(
        "{:<52} {:>12.2?}",
        "load 100,000 objects into the tree (once)",
        started.elapsed()
    );
    let mut terminal = Terminal::new(TestBackend::new(160, 50)).unwrap();
    terminal.draw(|frame| view(&app, frame)).unwrap();
    let title = (0..160)
        .map(|x| terminal.backend().buffer()[(x, 0)].symbol())
        .collect::<String>();
    assert!(title.contains("Big (100000)"), "{title}");
    measure("draw one frame (160x50)", 200, || {
        terminal.draw(|frame| view(black_box(&app), frame)).unwrap();
    });
    let down = key(KeyCode::Down);
    measure("move the selection down one row", 2_000, || {
        black_box(app.update(down.clone()));
    });
    let page = key(KeyCode::PageDown);
    measure("page down + draw", 200, || {
        app.update(page.clone());
        terminal.draw(|frame| view(&app, frame)).unwrap();
    });
    app.update(key(KeyCode::Char('/')));
    measure("a key typed into the objects filter + draw", 5, || {
        app.update(key(KeyCode::Char('9')));
        terminal.draw(|frame| view(&app, frame)).unwrap();
        app.update(key(KeyCode::Backspace));
    });
}
