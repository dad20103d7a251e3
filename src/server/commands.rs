//! The `serve` and `account` commands.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use tokio::net::TcpListener;

use super::{DEFAULT_MAX_BODY, data_dir, routes, state::AppState};

/// clap Args for `serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8737", value_name = "ADDR")]
    pub bind: SocketAddr,
    /// The largest request body accepted, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_BODY, value_name = "BYTES")]
    pub max_body: usize,
}

/// clap Subcommand: `account create EMAIL`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AccountCommand {
    /// Add an account (with its own first folder) and print its new API key.
    Create {
        /// The account's e-mail address.
        email: String,
    },
}

/// Runs the server until SIGINT or SIGTERM, then finishes in-flight requests and returns.
/// Prints `listening on http://HOST:PORT` as the first line on stdout. Blocking: it builds
/// its own runtime.
pub fn run_serve(args: ServeArgs, data_dir: PathBuf) -> anyhow::Result<()> {
    init_logging();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    runtime.block_on(async move {
        let dir = data_dir.clone();
        let store = tokio::task::spawn_blocking(move || data_dir::open(&dir)).await??;
        let listener = TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        let shutdown = shutdown_signal()?;
        {
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on http://{addr}")?;
            out.flush()?;
        }
        eprintln!(
            "data dir {}; the default account's key is in {}",
            data_dir.display(),
            data_dir.join(data_dir::KEY_FILE).display()
        );
        let app = routes::app(AppState::new(Arc::new(store)), args.max_body);
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .context("the server failed")
    })
}

/// Runs an `account` command.
pub fn run_account(cmd: AccountCommand, data_dir: PathBuf) -> anyhow::Result<()> {
    match cmd {
        AccountCommand::Create { email } => {
            let key = create_account(&data_dir, &email)?;
            println!("{key}");
            Ok(())
        }
    }
}

/// Creates an account in a data dir (initialising it if new) and returns its API key.
pub fn create_account(data_dir: &Path, email: &str) -> anyhow::Result<String> {
    let store = data_dir::open(data_dir)?;
    Ok(store.create_account(email)?)
}

/// Starts catching SIGINT (Ctrl-C) and, on Unix, SIGTERM at once, so that a signal sent as
/// soon as the `listening on` line shows is caught; the future resolves on the first of them.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot catch SIGINT")?;
        let mut terminate = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// Logs to stderr, `warn` and up unless `RUST_LOG` says otherwise.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
