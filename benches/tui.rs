//! The objects pane at 100,000 objects: opening the document, drawing, moving, marking what the
//! filter shows and typing into the filter, with a generated document (the seven types, meta on
//! the components) read through the real worker from a local server over loopback HTTP. Run
//! with `cargo bench --bench tui`; prints the figures. "On the loop" is the time `App::update`
//! took, which the input loop spends before it can read the next key; the rest of an open is the
//! worker's (HTTP, the server, parsing).

use std::hint::black_box;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use diagtui_tui::document::ObjectModel;
use tokio::runtime::Runtime;

use diagtui_testkit::timing::measure;
use diagtui_testkit_tui::drive::{Bench, Split, char, ctrl, key, report};

const OBJECTS: usize = 100_000;
const OPEN_RUNS: usize = 5;

/// The queries typed into the filter, key by key: a name (each key narrows the last result), a
/// meta entry (`key=value`: no match until its value is whole) and a word of the type.
const QUERIES: [&str; 3] = ["srv-0420", "region=eu-west-1", "area"];

fn main() {
    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let mut bench = Bench::new(OBJECTS).await;
        open(&mut bench).await;
        open_parts(&mut bench).await;
        let draw = bench.drawn();
        assert!(draw.contains("Bench (100000)"), "{draw}");

        measure("draw one frame (160x50)", 200, || {
            black_box(bench.draw());
        });
        let down = key(KeyCode::Down);
        measure("move the selection down one row", 2_000, || {
            black_box(bench.app.update(down.clone()));
        });
        let page = key(KeyCode::PageDown);
        measure("page down + draw", 200, || {
            bench.app.update(page.clone());
            bench.draw();
        });
        marks(&mut bench).await;
        filter(&mut bench).await;
        bench.shutdown().await;
    });
}

/// `Enter` on the document until its tree is drawn, from the documents pane, a few times.
async fn open(bench: &mut Bench) {
    let mut totals = Vec::new();
    let mut loops = Vec::new();
    for run in 0..OPEN_RUNS {
        if run > 0 {
            // Back to the documents pane (nothing is marked or filtered).
            bench.send(key(KeyCode::Esc)).await;
        }
        // The last open's scene is built (off the loop) before the next open starts: each
        // open is timed from a quiet app, as a user opening a document finds it.
        bench.pause().await;
        let Split { total, on_loop } = bench.send(key(KeyCode::Enter)).await;
        let draw = bench.draw();
        totals.push(total + draw);
        loops.push(on_loop + draw);
    }
    report("open: Enter -> the tree drawn", &totals);
    report("open: of that, on the input loop (update + draw)", &loops);
}

/// What an open is made of: the answer read whole (the server and HTTP), then parsed into the
/// tree's model (the worker, on a blocking thread).
async fn open_parts(bench: &mut Bench) {
    // The last open's scene, built meanwhile, would share the cores with the parse.
    bench.pause().await;
    let mut reads = Vec::new();
    let mut parses = Vec::new();
    let mut parse_cpu = Vec::new();
    let doc = bench.doc_id();
    for _ in 0..OPEN_RUNS {
        let started = Instant::now();
        let mut body = bench.client.content_body(&doc).await.unwrap();
        let mut json = Vec::new();
        while let Some(piece) = body.chunk().await.unwrap() {
            json.extend_from_slice(&piece);
        }
        reads.push(started.elapsed());
        let (started, cpu) = (Instant::now(), process_cpu());
        let model = black_box(ObjectModel::from_json(&json).unwrap());
        parses.push(started.elapsed());
        parse_cpu.push(process_cpu() - cpu);
        assert_eq!(model.len(), OBJECTS);
    }
    report("open, part: GET obj/all read whole (server + HTTP)", &reads);
    report("open, part: its JSON parsed into the model", &parses);
    // The CPU time all threads spent: what the parse costs on a machine that is not shared.
    report("open, part: the parse's CPU time (all threads)", &parse_cpu);
}

/// The CPU time this process has used, all threads together.
#[allow(unsafe_code, reason = "FFI: clock_gettime")]
fn process_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// `V` with nothing filtered (every object marked), then `Esc` (the marks cleared).
async fn marks(bench: &mut Bench) {
    let mut mark = Vec::new();
    let mut clear = Vec::new();
    for _ in 0..5 {
        let marked = bench.send(char('V')).await;
        mark.push(marked.total + bench.draw());
        assert!(bench.screen().contains("100000 marked"));
        let cleared = bench.send(key(KeyCode::Esc)).await;
        clear.push(cleared.total + bench.draw());
        assert!(!bench.screen().contains("marked"));
    }
    report("V: mark the 100,000 shown + draw", &mark);
    report("Esc: clear 100,000 marks + draw", &clear);
}

/// Each query typed into the filter key by key, each key followed by a frame; then `Ctrl-U`
/// (the whole tree again).
async fn filter(bench: &mut Bench) {
    bench.send(char('/')).await;
    let mut all = Vec::new();
    for query in QUERIES {
        let mut keys = Vec::new();
        for c in query.chars() {
            let typed = bench.send(char(c)).await;
            keys.push(typed.total + bench.draw());
        }
        report(&format!("filter: each key of {query:?} + draw"), &keys);
        let shown = bench.screen();
        let erased = bench.send(ctrl('u')).await;
        let erase = erased.total + bench.draw();
        report(&format!("filter: Ctrl-U after {query:?} + draw"), &[erase]);
        all.extend(keys);
        all.push(erase);
        check(query, &shown);
    }
    report("filter: every key above", &all);
    // What the issue measured: ten keys arriving at once, then one frame.
    let mut ten = Vec::new();
    for _ in 0..3 {
        let mut time = Duration::ZERO;
        for c in "srv-04200 ".chars() {
            time += bench.send(char(c)).await.total;
        }
        ten.push(time + bench.draw());
        bench.send(ctrl('u')).await;
    }
    report("filter: ten keys at once, then one frame", &ten);
}

/// The tree showed what `query` matches.
fn check(query: &str, screen: &str) {
    let expected = match query {
        "srv-0420" => "component (6/60000)",
        "region=eu-west-1" => "component (20000/60000)",
        _ => "area (5000)",
    };
    assert!(screen.contains(expected), "{query}: {screen}");
}
