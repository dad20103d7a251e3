//! One save in the properties pane, through the real worker against a local server (loopback
//! HTTP, a temp data dir, a generated document of 1,000 objects) whose change events the app
//! follows, as it does when running: how many requests a save makes (its own change event
//! included, which the app takes in before the next save) and how long it takes from the `y`
//! that confirms it to its last request answered. Run with `cargo bench --bench tui_save`;
//! prints the figures and the routes of one save. Against our server, which gives versions, a
//! save is one update naming the version the edit started from (`If-Match`), and its event
//! brings the object and the document's `lastChange`, so nothing is read after it; against a
//! server without versions it is a re-read, the update, a read after it and the details.

use std::collections::VecDeque;
use std::time::Instant;

use crossterm::event::KeyCode;
use diagtui_client::{Client, DocStreamEvent, Watched};
use diagtui_tui::requests::liveness::Live;
use diagtui_tui::runtime::worker;
use diagtui_tui::{App, Effect, Msg};
use serde_json::{Map, Value};
use tokio::runtime::Runtime;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use diagtui_testkit_tui::drive::{Bench, char, ctrl, key, report};

const OBJECTS: usize = 1_000;
const SAVES: usize = 200;

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let mut bench = Bench::new(OBJECTS).await;
        bench.send(key(KeyCode::Enter)).await;
        bench.pause().await;
        let doc = bench.doc_id();
        let mut events = follow(&bench.client, &doc);
        // Connected, then the `current` event: the app hears the document from now on.
        for _ in 0..2 {
            let watched = events.recv().await.expect("the stream runs");
            let effects = bench.app.update(live(&doc, watched));
            settle(&mut bench.app, &bench.client, effects).await;
        }
        // The first component (the tree's first row is its type's heading).
        bench.send(char('j')).await;
        let mut times = Vec::with_capacity(SAVES);
        let mut counts = Vec::with_capacity(SAVES);
        let mut routes = Vec::new();
        for run in 0..SAVES {
            edit(&mut bench.app, run);
            bench.send(ctrl('s')).await;
            let started = Instant::now();
            let effects = bench.app.update(char('y'));
            let mut sent = settle(&mut bench.app, &bench.client, effects).await;
            times.push(started.elapsed());
            // Its change event, taken in as the app's loop does.
            let watched = events.recv().await.expect("the save's event");
            assert!(
                matches!(&watched, Watched::Event(DocStreamEvent::Change(_))),
                "{watched:?}"
            );
            let effects = bench.app.update(live(&doc, watched));
            sent.extend(settle(&mut bench.app, &bench.client, effects).await);
            counts.push(sent.len());
            if run == 0 {
                routes = sent;
            }
            let screen = bench.drawn();
            assert!(screen.contains("saved 1 property"), "{screen}");
        }
        let mean = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
        println!(
            "requests per save: mean {mean:.2}, fewest {}, most {} ({SAVES} saves)",
            counts.iter().min().unwrap(),
            counts.iter().max().unwrap()
        );
        for (method, path) in &routes {
            println!("  {method} {path}");
        }
        report("save: y -> its last request answered", &times);
        bench.shutdown().await;
    });
}

/// Follows `doc`'s change events on a task of their own, as the app's runner does.
fn follow(client: &Client, doc: &str) -> UnboundedReceiver<Watched<DocStreamEvent>> {
    let (tx, rx) = unbounded_channel();
    let mut watch = client.watch_doc(doc);
    tokio::spawn(async move {
        while let Some(watched) = watch.next().await {
            if tx.send(watched).is_err() {
                break;
            }
        }
    });
    rx
}

/// News of `doc`'s stream as the app gets it.
fn live(doc: &str, watched: Watched<DocStreamEvent>) -> Msg {
    Msg::Live(Live::Doc {
        doc: doc.to_owned(),
        watched,
    })
}

/// Gives the selected component the name `saved {run}` the way `$EDITOR` does (`e`, then the
/// editor's result).
fn edit(app: &mut App, run: usize) {
    let effects = app.update(char('e'));
    let [Effect::OpenEditor(text)] = effects.as_slice() else {
        panic!("e did not open the editor: {effects:?}")
    };
    let mut data: Map<String, Value> = serde_json::from_str(text).unwrap();
    data.insert("name".into(), Value::String(format!("saved {run}")));
    let text = serde_json::to_string_pretty(&data).unwrap();
    app.update(Msg::EditorDone(Ok(text)));
}

/// Carries out `effects` and every effect that follows; the routes of the requests made, in
/// order.
async fn settle(app: &mut App, client: &Client, effects: Vec<Effect>) -> Vec<(String, String)> {
    let mut sent = Vec::new();
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        let more = match effect {
            Effect::Request(id, request) => {
                let (method, path) = request.route();
                sent.push((method.to_owned(), path));
                app.update(Msg::Api(worker::reply(client, id, request).await))
            }
            other => worker::settle_one(app, client, other).await,
        };
        queue.extend(more);
    }
    sent
}
