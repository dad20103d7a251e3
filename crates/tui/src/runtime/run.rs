//! The main loop: takes the terminal, asks it whether it shows pictures, starts the worker, then
//! `select!`s over terminal events, replies, built scenes and drawn pictures (each on a blocking
//! thread) and a tick, feeds each to `App::update`, carries out the effects and draws once per
//! batch. It is handed a ready client (`main.rs` connects, starting the local server when no
//! remote one is configured): the TUI never sees a server.

use std::io;
use std::path::Path;

use crossterm::event::{Event, EventStream};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::app::update::{App, Effect, Msg, Setup};
use crate::app::view::view;
use crate::document::picture::{DrawnPicture, PictureJob};
use crate::document::scene_cache::{BuiltScene, SceneJob};
use crate::requests::liveness::TICK;
use crate::runtime::clipboard;
use crate::runtime::follow::Followers;
use crate::runtime::graphics;
use crate::runtime::memory::give_back_freed_memory;
use crate::runtime::terminal;
use crate::runtime::worker;
use crate::runtime::worker::Job;
use crate::transfer;
use diagtui_client::Client;
use diagtui_model::private_files;

/// The name of the log file in the data dir.
pub const LOG_FILE: &str = "diagtui.log";

/// Sends tracing to `data_dir/diagtui.log` (never to the screen); `RUST_LOG` sets the level.
/// A data dir made here is readable by the user only (0700), as the local server makes it, and
/// so is the log (0600): it names accounts and documents.
pub fn init_log(data_dir: &Path) -> io::Result<()> {
    let file = open_log(data_dir)?;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("diagtui=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
    Ok(())
}

/// Creates `data_dir` if needed (0700 on Unix) and opens its log for appending (0600 when made).
fn open_log(data_dir: &Path) -> io::Result<std::fs::File> {
    private_files::create_dir(data_dir)?;
    private_files::open_options()
        .create(true)
        .append(true)
        .open(data_dir.join(LOG_FILE))
}

/// Runs the app on `client` until the user quits; the terminal is restored on every exit.
pub async fn run(client: Client, setup: Setup) -> anyhow::Result<()> {
    let graphics_setting = setup.graphics;
    let mut app = App::new(setup);
    tracing::info!(mode = %app.mode(), "tui started");
    let (request_tx, request_rx) = mpsc::unbounded_channel();
    let (reply_tx, mut reply_rx) = mpsc::unbounded_channel();
    let (news_tx, mut news_rx) = mpsc::unbounded_channel();
    let mut followers = Followers::new(client.clone(), news_tx);
    let worker = tokio::spawn(worker::run(client, request_rx, reply_tx));
    let (scene_tx, mut scene_rx) = mpsc::unbounded_channel();
    let (picture_tx, mut picture_rx) = mpsc::unbounded_channel();
    let mut guard = terminal::enter()?;
    // Before anything reads the input: the terminal's answers are read here.
    let graphics = graphics::detect(graphics_setting);
    let size = guard.terminal.size()?;
    app.update(Msg::Resize(size.width, size.height));
    let mut pending = app.start();
    pending.extend(app.use_graphics(graphics));
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(TICK);
    let mut redraw = true;
    'main: loop {
        while !pending.is_empty() {
            for effect in std::mem::take(&mut pending) {
                match effect {
                    Effect::Request(id, request) => request_tx.send(Job::Run(id, request))?,
                    Effect::Cancel(id) => request_tx.send(Job::Cancel(id))?,
                    Effect::Quit => break 'main,
                    Effect::Copy(text) => clipboard::copy(&mut io::stdout(), &text)?,
                    Effect::OpenEditor(text) => {
                        drop(events);
                        let result = terminal::edit_externally(&mut guard, &text);
                        events = EventStream::new();
                        pending.extend(app.update(Msg::EditorDone(result)));
                    }
                    Effect::File(what, job) => {
                        let outcome = transfer::perform(&job);
                        pending.extend(app.update(Msg::File(what, job, outcome)));
                    }
                    Effect::BuildScene(job) => build_scene(job, scene_tx.clone()),
                    Effect::DrawPicture(job) => draw_picture(job, picture_tx.clone()),
                    Effect::Follow(what) => followers.follow(what),
                }
            }
        }
        if redraw {
            guard.terminal.draw(|frame| view(&app, frame))?;
        }
        let msg = tokio::select! {
            biased;
            Some(reply) = reply_rx.recv() => Msg::Api(reply),
            Some(built) = scene_rx.recv() => Msg::Scene(built),
            Some(drawn) = picture_rx.recv() => Msg::Picture(drawn),
            Some(news) = news_rx.recv() => Msg::Live(news),
            event = events.next() => match event {
                Some(Ok(Event::Key(key))) => Msg::Key(key),
                Some(Ok(Event::Mouse(mouse))) => Msg::Mouse(mouse),
                Some(Ok(Event::Paste(text))) => Msg::Paste(text),
                Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
                None => break 'main,
            },
            _ = tick.tick() => Msg::Tick,
        };
        // A tick only moves the spinner (while requests are in flight) and fades an information
        // (asked before the tick, which may take the information off).
        redraw = !matches!(msg, Msg::Tick) || app.redraws_on_tick();
        pending = app.update(msg);
        // Apply every reply already waiting before drawing again.
        while let Ok(reply) = reply_rx.try_recv() {
            pending.extend(app.update(Msg::Api(reply)));
        }
        // And the news that waits, drawn once.
        for news in waiting(&mut news_rx) {
            pending.extend(app.update(Msg::Live(news)));
        }
    }
    drop(guard);
    drop(followers);
    drop(request_tx);
    worker.abort();
    tracing::info!("tui stopped");
    Ok(())
}

/// Builds the scene of `job` off the input loop and sends it on `built`.
fn build_scene(job: Box<SceneJob>, built: mpsc::UnboundedSender<BuiltScene>) {
    // The app may have quit meanwhile; then nobody wants the scene.
    tokio::task::spawn_blocking(move || {
        give_back_freed_memory();
        let scene = job.run();
        give_back_freed_memory();
        built.send(scene)
    });
}

/// Draws the picture of `job` off the input loop and sends it on `drawn`; superseded by a later
/// view, it gives up and sends nothing.
fn draw_picture(job: Box<PictureJob>, drawn: mpsc::UnboundedSender<DrawnPicture>) {
    tokio::task::spawn_blocking(move || {
        if let Some(picture) = job.run() {
            // The app may have quit meanwhile; then nobody wants it.
            let _ = drawn.send(picture);
        }
    });
}

/// The messages waiting in `rx` now (not those sent meanwhile, so that a sender faster than
/// the loop cannot keep it from drawing). The change events are taken so: one frame per event
/// made the loop slower than a busy document's writes, and the events waiting grew without end
/// (about 0.3 KB each, `benches/tui_all_day.rs`); taken together, the objects they name are
/// read once (`requests::fresh`) and the screen is drawn once.
fn waiting<T>(rx: &mut mpsc::UnboundedReceiver<T>) -> impl Iterator<Item = T> + '_ {
    let now = rx.len();
    std::iter::from_fn(move || rx.try_recv().ok()).take(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_takes_what_waits_now_and_leaves_what_comes_meanwhile() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        for n in 0..3 {
            tx.send(n).unwrap();
        }
        let mut taken = Vec::new();
        for n in waiting(&mut rx) {
            tx.send(n + 10).unwrap();
            taken.push(n);
        }
        assert_eq!(taken, [0, 1, 2]);
        assert_eq!(waiting(&mut rx).collect::<Vec<_>>(), [10, 11, 12]);
        assert_eq!(waiting(&mut rx).count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_data_dir_made_for_the_log_is_private_and_so_is_the_log() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data_dir = dir.path().join("new").join("data");
        drop(open_log(&data_dir).unwrap());
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&data_dir), 0o700);
        assert_eq!(mode(&data_dir.join(LOG_FILE)), 0o600);
    }
}
