//! The main loop: takes the terminal, starts the worker, then `select!`s over terminal events,
//! replies and a tick, feeds each to `App::update`, carries out the effects and draws once per
//! batch.

use std::io;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::app::{App, Effect, Msg};
use super::history::SelectorHistory;
use super::{clipboard, terminal, transfer, view, worker};
use crate::config::{Connection, ConnectionArgs, Mode, connect};

/// How often the spinner moves.
const TICK: Duration = Duration::from_millis(120);

/// The name of the log file in the data dir.
pub const LOG_FILE: &str = "diagtui.log";

/// `diagtui` with no command: logs to the data dir, connects, runs the app.
pub fn main(args: &ConnectionArgs, data_dir: &Path) -> ExitCode {
    if let Err(e) = init_log(data_dir) {
        eprintln!(
            "diagtui: cannot open the log file in {}: {e}",
            data_dir.display()
        );
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("diagtui: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        let connection = connect(args, data_dir).await?;
        run(connection, data_dir).await
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            eprintln!("diagtui: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Sends tracing to `data_dir/diagtui.log` (never to the screen); `RUST_LOG` sets the level.
fn init_log(data_dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(data_dir)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data_dir.join(LOG_FILE))?;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("diagtui=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
    Ok(())
}

/// How the status bar names the connection.
fn describe(mode: &Mode) -> String {
    match mode {
        Mode::Local { data_dir } => format!("local {}", data_dir.display()),
        Mode::Remote {
            url,
            profile: Some(profile),
        } => format!("{url} ({profile})"),
        Mode::Remote { url, profile: None } => url.clone(),
    }
}

/// Runs the app on `connection` until the user quits; the terminal is restored on every exit.
/// `data_dir` keeps the selector history (in remote mode too: it is the `--data-dir` /
/// `DIAGTUI_DATA_DIR` / platform data dir that `main` resolved).
pub async fn run(connection: Connection, data_dir: &Path) -> anyhow::Result<()> {
    let mut app = App::new(
        describe(&connection.mode),
        connection.local_email().map(str::to_string),
    );
    app.history = SelectorHistory::load(data_dir);
    tracing::info!(mode = %app.mode, "tui started");
    let (request_tx, request_rx) = mpsc::unbounded_channel();
    let (reply_tx, mut reply_rx) = mpsc::unbounded_channel();
    let worker = tokio::spawn(worker::run(connection.client.clone(), request_rx, reply_tx));
    let mut guard = terminal::enter()?;
    let size = guard.terminal.size()?;
    app.update(Msg::Resize(size.width, size.height));
    let mut pending = app.start();
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(TICK);
    let mut redraw = true;
    'main: loop {
        while !pending.is_empty() {
            for effect in std::mem::take(&mut pending) {
                match effect {
                    Effect::Request(id, request) => {
                        tracing::debug!(id, ?request, "request");
                        request_tx.send((id, request))?;
                    }
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
                }
            }
        }
        if redraw {
            guard.terminal.draw(|frame| view(&app, frame))?;
        }
        let msg = tokio::select! {
            biased;
            Some(reply) = reply_rx.recv() => Msg::Api(reply),
            event = events.next() => match event {
                Some(Ok(Event::Key(key))) => Msg::Key(key),
                Some(Ok(Event::Mouse(mouse))) => Msg::Mouse(mouse),
                Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
                None => break 'main,
            },
            _ = tick.tick() => Msg::Tick,
        };
        // A tick only moves the spinner, which shows only while requests are in flight.
        redraw = !matches!(msg, Msg::Tick) || !app.in_flight.is_empty();
        pending = app.update(msg);
        // Apply every reply already waiting before drawing again.
        while let Ok(reply) = reply_rx.try_recv() {
            pending.extend(app.update(Msg::Api(reply)));
        }
    }
    drop(guard);
    drop(request_tx);
    worker.abort();
    tracing::info!("tui stopped");
    connection.close().await;
    Ok(())
}
