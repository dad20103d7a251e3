//! A TUI left open all day on a live document: the release binary in tmux (120×40, remote mode
//! against the local server run in this process) with a document of 20 components open, while
//! another client updates them one after the other, 30,000 times (`DIAGTUI_BENCH_WRITES` sets
//! another count). Each write reaches the TUI as a change event and a read of the object; what
//! the TUI keeps of it (the request log's lines, the change marks) is bounded, so its resident
//! memory (`VmRSS` from `/proc`), printed at the start and after every tenth of the writes,
//! stays flat. Run with `cargo bench --bench tui_all_day` (Linux, tmux).
//!
//! `DIAGTUI_BENCH_BINARY=/path/to/another/diagtui` runs that binary instead of this build's (a
//! before/after). To see what grows, `DIAGTUI_BENCH_WRAP` puts a command before the binary, e.g.
//! `DIAGTUI_BENCH_WRAP="heaptrack -o /tmp/all-day"` (then the memory printed is the wrapper's,
//! and the bench waits for the wrapper to finish writing after `q`).

use std::time::{Duration, Instant};

use diagtui_testkit::Bin;
use diagtui_testkit::memory::memory;
use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;
use serde_json::json;

/// Components in the document.
const COMPONENTS: usize = 20;
/// Writes by the other client, unless `DIAGTUI_BENCH_WRITES` says otherwise.
const WRITES: usize = 30_000;

fn main() {
    let writes: usize = std::env::var("DIAGTUI_BENCH_WRITES")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(WRITES);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let local = Local::start().await;
        let client = &local.client;
        let doc = client.create_doc("All day", None).await.unwrap();
        let mut ids = Vec::new();
        for i in 0..COMPONENTS {
            let props = json!({"componentId": "generic.server", "name": format!("web-{i}"),
                "position": {"x": i * 4, "y": 0}, "meta": {"status": "up"}});
            let id = client
                .create_object(&doc, "component", props.as_object().unwrap())
                .await
                .unwrap();
            ids.push(id);
        }
        let bin = std::env::var_os("DIAGTUI_BENCH_BINARY")
            .map_or_else(|| Bin::new(env!("CARGO_BIN_EXE_diagtui")), Bin::new);
        let tui_dir = local.dir.path().join("tui");
        let wrap = std::env::var("DIAGTUI_BENCH_WRAP").ok();
        let line = format!(
            "exec env -u DIAGTUI_URL -u DIAGTUI_API_KEY -u DIAGTUI_DATA_DIR \
             DIAGTUI_CONFIG=/dev/null {} '{}' --url '{}' --api-key '{}' --data-dir '{}'",
            wrap.as_deref().unwrap_or_default(),
            bin.path().display(),
            local.server.url(),
            local.server.api_key(),
            tui_dir.display()
        );
        let Some(session) = Tmux::start("bench-all-day", 120, 40, Some(&line)) else {
            println!("tmux is not installed: skipped");
            return;
        };
        let pid: u32 = session
            .run(&["display", "-p", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        session.wait_for("All day");
        session.keys(&["/"]);
        session.type_line("All day");
        session.keys(&["Enter"]);
        session.wait_for(&format!("All day ({COMPONENTS})"));
        std::thread::sleep(Duration::from_secs(1));
        let mb = |field: &str| memory(pid, field) as f64 / 1024.0;
        println!(
            "{writes} writes by another client to a document open in the TUI ({COMPONENTS} components)"
        );
        println!(
            "{:>7} writes: RSS {:>5.1} MB (peak {:>5.1} MB)",
            0,
            mb("VmRSS"),
            mb("VmHWM")
        );
        let started = Instant::now();
        let step = (writes / 10).max(1);
        for n in 0..writes {
            let checkpoint = (n + 1) % step == 0;
            // A checkpoint's write goes to the first component, which the properties show.
            let obj = if checkpoint { 0 } else { n % COMPONENTS };
            let props = json!({"meta": {"status": "up", "n": n}});
            client
                .update_object(&doc, &ids[obj], props.as_object().unwrap())
                .await
                .unwrap();
            if checkpoint {
                // Until the TUI has caught up with the events, before reading its size.
                let last = format!("\"n\": {n}");
                let waited = Instant::now();
                while !session.screen().contains(&last) && waited.elapsed() < Duration::from_secs(30)
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
                println!(
                    "{:>7} writes: RSS {:>5.1} MB (peak {:>5.1} MB), {:.0} s",
                    n + 1,
                    mb("VmRSS"),
                    mb("VmHWM"),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        session.keys(&["q"]);
        if wrap.is_some() {
            // The wrapper writes its findings once the app is gone.
            let waited = Instant::now();
            while std::path::Path::new(&format!("/proc/{pid}")).exists()
                && waited.elapsed() < Duration::from_secs(120)
            {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    });
}
