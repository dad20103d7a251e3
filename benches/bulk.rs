//! Bulk work over a 10,000-object document through the real local server: the selector form's
//! preview (selector read, rows, marks) and apply (selector update, then the tree's reload), and
//! a bulk edit of 1,000 marked objects. Run with `cargo bench --bench bulk`; prints the mean
//! time of each, measured from the key press to the last effect carried out.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::model::{Content, DiagramObject};
use diagtui::tui::{App, Msg, Setup, view, worker};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use tokio::runtime::Runtime;

#[path = "common/app.rs"]
mod app;

use app::{drive, key, local_server, type_text};

const OBJECTS: usize = 10_000;
/// One object in this many is `status: down` (the selector's matches).
const DOWN_EVERY: usize = 10;

fn content() -> Content {
    (0..OBJECTS)
        .map(|i| {
            let status = if i % DOWN_EVERY == 0 { "down" } else { "up" };
            let data = json!({
                "componentId": "generic.server",
                "name": format!("srv-{i}"),
                "position": {"x": (i % 100) as f64 - 50.0, "y": (i / 100) as f64 - 50.0},
                "meta": {"status": status, "env": "prod", "n": i},
            });
            let object = DiagramObject {
                kind: "component".into(),
                data: data.as_object().unwrap().clone(),
            };
            (format!("obj-{i:06}"), object)
        })
        .collect()
}

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// The screen as text (to check what the bench did; not timed).
fn screen(app: &mut App) -> String {
    app.update(Msg::Resize(200, 50));
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    terminal.draw(|frame| view(app, frame)).unwrap();
    terminal.backend().to_string()
}

fn report(name: &str, times: &[Duration]) {
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let best = times.iter().min().unwrap();
    println!(
        "{name:<52} mean {mean:>10.2?}  best {best:>10.2?}  ({} runs)",
        times.len()
    );
}

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let (server, client) = local_server(dir.path()).await;
        let doc = client.create_doc("Bench", None).await.unwrap();
        let started = Instant::now();
        client.set_content(&doc, &content()).await.unwrap();
        println!(
            "{:<52} {:>10.2?}",
            "set-content of 10,000 objects (once)",
            started.elapsed()
        );

        let mut app = App::new(Setup {
            account: Some("bench@example.com".into()),
            ..Setup::new("bench")
        });
        let effects = app.start();
        worker::settle(&mut app, &client, effects).await;
        drive(&mut app, &client, key(KeyCode::Char('/'))).await;
        type_text(&mut app, &client, "Bench").await;
        drive(&mut app, &client, key(KeyCode::Enter)).await;
        let started = Instant::now();
        drive(&mut app, &client, key(KeyCode::Enter)).await;
        println!(
            "{:<52} {:>10.2?}",
            "open the document: content of 10,000 (once)",
            started.elapsed()
        );
        assert!(screen(&mut app).contains("Bench (10000)"));

        drive(&mut app, &client, key(KeyCode::Char('w'))).await;
        type_text(&mut app, &client, "status").await;
        drive(&mut app, &client, key(KeyCode::Tab)).await;
        drive(&mut app, &client, key(KeyCode::Tab)).await;
        type_text(&mut app, &client, "down").await;
        drive(&mut app, &client, key(KeyCode::Tab)).await;
        let matches = OBJECTS / DOWN_EVERY;

        let runs = 10;
        let mut times = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            drive(&mut app, &client, ctrl('p')).await;
            times.push(started.elapsed());
        }
        assert!(screen(&mut app).contains(&format!("Preview: {matches} objects match")));
        report("preview: selector read, 1,000 of 10,000 match", &times);

        let mut times = Vec::new();
        for run in 0..runs {
            let colour = if run % 2 == 0 { "#FF0000" } else { "#00FF00" };
            // The form's props field has the keys: clear it and paste the new colour.
            drive(&mut app, &client, ctrl('u')).await;
            let effects = app.update(Msg::Paste(format!("{{\"primaryColor\": \"{colour}\"}}")));
            worker::settle(&mut app, &client, effects).await;
            let started = Instant::now();
            drive(&mut app, &client, ctrl('s')).await;
            drive(&mut app, &client, key(KeyCode::Char('y'))).await;
            times.push(started.elapsed());
            assert!(screen(&mut app).contains(&format!("updatedObjectCount: {matches}")));
            // Back from the result to the form.
            drive(&mut app, &client, key(KeyCode::Char('w'))).await;
        }
        report("apply: update 1,000 + reload 10,000", &times);

        // The apply marked the 1,000 updated objects; edit them all at once.
        drive(&mut app, &client, key(KeyCode::Esc)).await;
        let mut times = Vec::new();
        for run in 0..runs {
            let started = Instant::now();
            drive(&mut app, &client, key(KeyCode::Char('b'))).await;
            drive(&mut app, &client, ctrl('u')).await;
            let effects = app.update(Msg::Paste(format!("{{\"name\": \"bulk-{run}\"}}")));
            worker::settle(&mut app, &client, effects).await;
            drive(&mut app, &client, ctrl('s')).await;
            drive(&mut app, &client, key(KeyCode::Char('y'))).await;
            times.push(started.elapsed());
            let status = screen(&mut app);
            assert!(status.contains("updated 1000 marked objects"), "{status}");
        }
        report("bulk edit of 1,000 marked: diff, update, reload", &times);
        server.shutdown().await;
    });
}
