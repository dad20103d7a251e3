//! Bulk work in a generated 100,000-object document through the real worker and a local server
//! (loopback HTTP): the selector form's preview of 50,000 matches (drawn in the tree after the
//! answer), its apply, a bulk edit of 20,000 marked objects end to end, and a nested merge into
//! 20,000 matches from the form (`Ctrl-S` to the objects on screen) and from the bulk edit of
//! 20,000 marked objects (read again with the content before the send). Run with
//! `cargo bench --bench bulk`; prints the figures.

use std::time::Duration;

use crossterm::event::KeyCode;
use diagtui_tui::runtime::worker;
use diagtui_tui::{Msg, Request};
use tokio::runtime::Runtime;

use diagtui_testkit_tui::drive::{Bench, char, ctrl, key, report};

const OBJECTS: usize = 100_000;
const RUNS: usize = 5;

/// `port gt 8013` matches 50 of every 60 components (`port` is 8000 + i % 100).
const PREVIEW_MATCHES: usize = 50_000;
/// The filter that shows 20,000 components (one region in three).
const MARKED_FILTER: &str = "region=eu-west-1";
const MARKED: usize = 20_000;

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let mut bench = Bench::new(OBJECTS).await;
        bench.send(key(KeyCode::Enter)).await;
        assert!(bench.drawn().contains("Bench (100000)"));
        preview(&mut bench).await;
        apply(&mut bench).await;
        bulk_edit(&mut bench).await;
        nested_merge(&mut bench).await;
        bulk_merge(&mut bench).await;
        bench.shutdown().await;
    });
}

/// The form's `Ctrl-P`: the selector read answered by the worker (not timed), then the answer
/// handled and the frame drawn (timed: the marks and the form's rows).
async fn preview(bench: &mut Bench) {
    bench.send(char('w')).await;
    bench.type_text("port").await;
    bench.send(key(KeyCode::Tab)).await;
    bench.send(char('g')).await;
    bench.send(key(KeyCode::Tab)).await;
    bench.type_text("8013").await;
    // On to the props field, where the apply's props are pasted.
    bench.send(key(KeyCode::Tab)).await;
    let mut reads = Vec::new();
    let mut shown = Vec::new();
    for _ in 0..RUNS {
        let effects = bench.app.update(ctrl('p'));
        let (id, request) = effects
            .into_iter()
            .find_map(|e| match e {
                diagtui_tui::Effect::Request(id, r @ Request::ObjectsWhere { .. }) => Some((id, r)),
                _ => None,
            })
            .expect("the preview reads the selector");
        let reply = worker::reply(&bench.client, id, request).await;
        reads.push(reply.latency);
        let started = std::time::Instant::now();
        bench.app.update(Msg::Api(reply));
        bench.draw();
        shown.push(started.elapsed());
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("{PREVIEW_MATCHES} objects match (◇ in the tree")),
            "{screen}"
        );
    }
    report("preview: selector read of 50,000 (the worker)", &reads);
    report(
        "preview: after the answer, matches drawn (first)",
        &shown[..1],
    );
    report(
        "preview: after the answer, matches drawn (again)",
        &shown[1..],
    );
}

/// The form's `Ctrl-S` and `y`: the selector update of 50,000 and the reload, end to end.
async fn apply(bench: &mut Bench) {
    let mut times = Vec::new();
    for run in 0..RUNS {
        let colour = if run % 2 == 0 { "#FF0000" } else { "#00FF00" };
        bench.send(ctrl('u')).await;
        bench
            .send(Msg::Paste(format!("{{\"primaryColor\": \"{colour}\"}}")))
            .await;
        let asked = bench.send(ctrl('s')).await;
        let applied = bench.send(char('y')).await;
        times.push(asked.total + applied.total + bench.draw());
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("updatedObjectCount: {PREVIEW_MATCHES}")),
            "{screen}"
        );
        // From the result back to the form.
        bench.send(char('w')).await;
    }
    report("apply: selector update of 50,000 + reload, drawn", &times);
    // Close the form (an apply marks nothing).
    bench.send(key(KeyCode::Esc)).await;
}

/// `b`, the props pasted, `Ctrl-S` (the diff), `y` (the bulk update and the reload), over the
/// 20,000 objects of one region, marked with the filter and `V`.
async fn bulk_edit(bench: &mut Bench) {
    bench.send(char('/')).await;
    bench.type_text(MARKED_FILTER).await;
    bench.send(key(KeyCode::Enter)).await;
    bench.send(char('V')).await;
    assert!(bench.drawn().contains(&format!("{MARKED} marked")));
    let mut diffs = Vec::new();
    let mut sends = Vec::new();
    let mut loops = Vec::new();
    let mut times = Vec::new();
    for run in 0..RUNS {
        let mut total = Duration::ZERO;
        total += bench.send(char('b')).await.total;
        total += bench.send(ctrl('u')).await.total;
        total += bench
            .send(Msg::Paste(format!("{{\"name\": \"bulk-{run}\"}}")))
            .await
            .total;
        let diff = bench.send(ctrl('s')).await.total + bench.draw();
        diffs.push(diff);
        total += diff;
        let sent = bench.send(char('y')).await;
        let draw = bench.draw();
        sends.push(sent.total + draw);
        loops.push(sent.on_loop + draw);
        total += sent.total + draw;
        times.push(total);
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("updated {MARKED} marked objects")),
            "{screen}"
        );
    }
    report(
        "bulk edit of 20,000 marked: Ctrl-S -> the diff drawn",
        &diffs,
    );
    report("bulk edit of 20,000 marked: y -> updated, reloaded", &sends);
    report("bulk edit of 20,000 marked: of that, on the loop", &loops);
    report("bulk edit of 20,000 marked: end to end", &times);
}

/// The form on `region eq eu-west-1` (20,000 components, each with four meta keys), a
/// `meta.owner` merged into each: `Ctrl-S` (the selector read, 20,000 merged values and their
/// diff drawn), then `y` (the matches read again, one bulk update of 20,000, the reload, drawn).
async fn nested_merge(bench: &mut Bench) {
    bench.send(key(KeyCode::Esc)).await;
    // The form opens where it was left (the props); Tab goes round to the first key.
    bench.send(char('w')).await;
    bench.send(key(KeyCode::Tab)).await;
    bench.send(ctrl('u')).await;
    bench.type_text("region").await;
    bench.send(key(KeyCode::Tab)).await;
    bench.send(char('e')).await;
    bench.send(key(KeyCode::Tab)).await;
    bench.send(ctrl('u')).await;
    bench.type_text("eu-west-1").await;
    bench.send(key(KeyCode::Tab)).await;
    let mut asks = Vec::new();
    let mut sends = Vec::new();
    let mut loops = Vec::new();
    let mut times = Vec::new();
    for run in 0..RUNS {
        bench.send(ctrl('u')).await;
        bench
            .send(Msg::Paste(format!(
                "{{\"meta\": {{\"owner\": \"ops-{run}\"}}}}"
            )))
            .await;
        let asked = bench.send(ctrl('s')).await;
        let asked_draw = bench.draw();
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("{MARKED} objects change of the {MARKED} matches")),
            "{screen}"
        );
        let sent = bench.send(char('y')).await;
        let sent_draw = bench.draw();
        asks.push(asked.total + asked_draw);
        sends.push(sent.total + sent_draw);
        loops.push(asked.on_loop + asked_draw + sent.on_loop + sent_draw);
        times.push(asked.total + asked_draw + sent.total + sent_draw);
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("updatedObjectCount: {MARKED}")),
            "{screen}"
        );
        // From the result back to the form.
        bench.send(char('w')).await;
    }
    report("nested merge into 20,000: Ctrl-S -> the diff drawn", &asks);
    report(
        "nested merge into 20,000: y -> re-read, sent, reloaded",
        &sends,
    );
    report("nested merge into 20,000: of that, on the loop", &loops);
    report(
        "nested merge into 20,000: Ctrl-S to the objects on screen",
        &times,
    );
}

/// The bulk edit of the 20,000 marked components of one region with a `meta.team` merged into
/// each: `Ctrl-S` (the diff from the tree's objects), `y` (the content read again, one bulk
/// update, the reload), drawn.
async fn bulk_merge(bench: &mut Bench) {
    // Close the form; the tree still shows the region the bulk edit filtered.
    bench.send(key(KeyCode::Esc)).await;
    bench.send(char('V')).await;
    assert!(bench.drawn().contains(&format!("{MARKED} marked")));
    let mut times = Vec::new();
    let mut sends = Vec::new();
    for run in 0..RUNS {
        bench.send(char('b')).await;
        bench.send(ctrl('u')).await;
        bench
            .send(Msg::Paste(format!(
                "{{\"meta\": {{\"team\": \"t-{run}\"}}}}"
            )))
            .await;
        let asked = bench.send(ctrl('s')).await.total + bench.draw();
        let sent = bench.send(char('y')).await.total + bench.draw();
        sends.push(sent);
        times.push(asked + sent);
        let screen = bench.screen();
        assert!(
            screen.contains(&format!("updated {MARKED} marked objects")),
            "{screen}"
        );
    }
    report(
        "bulk edit merge of 20,000 marked: y -> re-read, sent, reloaded",
        &sends,
    );
    report(
        "bulk edit merge of 20,000 marked: Ctrl-S to the objects on screen",
        &times,
    );
}
