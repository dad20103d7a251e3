//! A write by another client, on screen: `cargo bench --bench follow`. The app (the real
//! worker, the real follower of the document's change events) has a generated document open
//! from a local server over loopback HTTP; another client updates the selected object; the
//! figure is the time from sending that update to the first frame that shows the new value
//! (the event arrives, the document reloads in place, the properties pane shows it).

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use diagtui_tui::Msg;
use diagtui_tui::requests::liveness::Follow;
use diagtui_tui::runtime::follow::Followers;
use serde_json::json;
use tokio::runtime::Runtime;
use tokio::sync::mpsc;

use diagtui_testkit_tui::drive::{Bench, key, report};

/// Document sizes, and how many writes each.
const RUNS: [(usize, usize); 3] = [(1_000, 20), (10_000, 10), (100_000, 5)];
/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(60);

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        for (objects, writes) in RUNS {
            let mut bench = Bench::new(objects).await;
            bench.send(key(KeyCode::Enter)).await;
            bench.send(key(KeyCode::Down)).await;
            let screen = bench.drawn();
            let obj = selected_id(&screen);
            let (sender, mut news) = mpsc::unbounded_channel();
            let mut followers = Followers::new(bench.client.clone(), sender);
            followers.follow(Follow::Doc(Some(bench.doc_id())));
            // Until the stream is open (its first event), nothing can be followed.
            let first = tokio::time::timeout(PATIENCE, news.recv()).await.unwrap();
            bench.send(Msg::Live(first.unwrap())).await;
            let mut times = Vec::new();
            for n in 0..writes {
                let value = 4000 + objects + n + 1;
                let props = json!({"rotation": value});
                let started = Instant::now();
                bench
                    .client
                    .update_object(&bench.doc_id(), &obj, props.as_object().unwrap())
                    .await
                    .unwrap();
                while !bench.drawn().contains(&format!("\"rotation\": {value},")) {
                    let next = tokio::time::timeout(PATIENCE, news.recv())
                        .await
                        .unwrap_or_else(|_| panic!("not on screen in time:\n{}", bench.screen()))
                        .expect("the follower runs");
                    bench.send(Msg::Live(next)).await;
                }
                times.push(started.elapsed());
            }
            report(
                &format!("{objects} objects: a write by another client, on screen"),
                &times,
            );
            drop(followers);
            bench.shutdown().await;
        }
    });
}

/// The id of the object the properties pane shows, read from its title.
fn selected_id(screen: &str) -> String {
    let title = screen
        .split("Properties [VIEW] ")
        .nth(1)
        .unwrap_or_else(|| panic!("an object shown:\n{screen}"));
    title
        .split_whitespace()
        .nth(1)
        .expect("kind, then id")
        .trim_end_matches('─')
        .to_owned()
}
