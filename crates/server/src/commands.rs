//! The `serve`, `account` and `migrate` commands.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::http::HeaderValue;
use tokio::net::TcpListener;

use super::application::{application, fold_log_at_stop, open_store};
use super::options::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_BODY,
    ServerOptions, days, default_max_connections,
};
use super::retention::DEFAULT_HISTORY_KEEP_DAYS;
use super::routes::Cors;
use super::{data_dir, http};
#[cfg(feature = "postgres")]
use diagtui_store::PgOptions;
use diagtui_store::{DEFAULT_CACHE_BYTES, DEFAULT_POOL, Location};

/// clap Args for `serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8737", value_name = "ADDR")]
    pub bind: SocketAddr,
    /// The largest request body accepted, in bytes (default 64 MiB).
    #[arg(long, default_value_t = DEFAULT_MAX_BODY, value_name = "BYTES")]
    pub max_body: usize,
    /// The most connections open at once; at the cap, the connection idle the longest is
    /// closed to make room (default: well below the limit on open files).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,
    /// How long a request head may take to arrive, in seconds.
    #[arg(long, default_value_t = DEFAULT_HEADER_TIMEOUT.as_secs_f64(), value_name = "SECS", value_parser = seconds)]
    pub header_timeout: f64,
    /// How long a connection may wait idle for its next request, in seconds.
    #[arg(long, default_value_t = DEFAULT_IDLE_TIMEOUT.as_secs_f64(), value_name = "SECS", value_parser = seconds)]
    pub idle_timeout: f64,
    /// How long a request body may take to arrive, in seconds.
    #[arg(long, default_value_t = DEFAULT_BODY_TIMEOUT.as_secs_f64(), value_name = "SECS", value_parser = seconds)]
    pub body_timeout: f64,
    /// A web page origin allowed to call the API (`https://app.example.com`), repeatable;
    /// `*` allows any. CORS is off without it.
    #[arg(long = "cors-origin", value_name = "ORIGIN", value_parser = origin)]
    pub cors_origins: Vec<String>,
    /// How many days documents' histories keep their versions; older ones are compacted into
    /// a snapshot, hourly (default 90).
    #[arg(long, default_value_t = DEFAULT_HISTORY_KEEP_DAYS, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..=36500))]
    pub history_keep: u32,
    /// The address embed URLs start with (`https://diagrams.example.com`), for a server
    /// behind a proxy [default: the config file's `[serve] public_url`, else the address the
    /// server listens on].
    #[arg(long, value_name = "URL", value_parser = public_url)]
    pub public_url: Option<String>,
    /// The most bytes of documents kept in memory (default 256 MiB).
    #[arg(long, default_value_t = DEFAULT_CACHE_BYTES, value_name = "BYTES")]
    pub cache_size: usize,
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// The most connections to the PostgreSQL database (with --database).
    #[arg(long, default_value_t = DEFAULT_POOL, value_name = "N", requires = "database",
          value_parser = clap::value_parser!(u32).range(2..))]
    pub db_pool: u32,
    /// Serve without the change event streams (our extension), as a server of the spec alone
    /// would: clients fall back to polling.
    #[arg(long)]
    pub no_events: bool,
    /// Serve metrics (`/metrics`, Prometheus/OpenMetrics text), `/healthz` and `/readyz` on a
    /// listener of their own at this address (port 0 picks a free one). Off without it.
    #[arg(long, value_name = "ADDR")]
    pub metrics_bind: Option<SocketAddr>,
    /// On SIGTERM or SIGINT, how long `readyz` answers 503 before the server stops accepting
    /// connections, so that a load balancer stops sending first, in seconds.
    #[arg(long, default_value_t = 0.0, value_name = "SECS", value_parser = non_negative_seconds)]
    pub drain_delay: f64,
    /// How log lines on stderr are written: `text`, or `json` (one JSON object a line). Which
    /// lines: `RUST_LOG` (default `warn`; `info` logs every request).
    #[arg(long, value_enum, default_value_t = LogFormat::Text, value_name = "FORMAT")]
    pub log_format: LogFormat,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human text, one line each.
    Text,
    /// One JSON object a line: time, level, message, fields, and the request's span (method,
    /// route template, request id, account).
    Json,
}

/// clap Args: the PostgreSQL database to use instead of the data dir's SQLite.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArgs {
    /// A PostgreSQL database to use instead of the data dir's SQLite (a team server):
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DB, TLS per its sslmode (disable, prefer,
    /// require, verify-ca, verify-full).
    #[arg(
        long,
        env = "DIAGTUI_DATABASE_URL",
        hide_env_values = true,
        value_name = "URL",
        value_parser = DatabaseUrl
    )]
    pub database: Option<String>,
}

impl DatabaseArgs {
    /// Where the database is: the PostgreSQL database when given, else the data dir.
    #[cfg_attr(
        not(feature = "postgres"),
        expect(unused_variables, reason = "only PostgreSQL pools connections")
    )]
    pub fn location(&self, data_dir: &Path, pool_size: usize) -> Location {
        match &self.database {
            #[cfg(feature = "postgres")]
            Some(url) => Location::Postgres(PgOptions {
                url: url.clone(),
                pool_size,
            }),
            // Without PostgreSQL, `DatabaseUrl` refused any URL given.
            _ => Location::DataDir(data_dir.to_owned()),
        }
    }
}

/// What a build without PostgreSQL says to a database URL.
const NO_POSTGRES: &str =
    "this build of diagtui has no PostgreSQL (built without the `postgres` feature)";

/// Reads a PostgreSQL database URL. A build without PostgreSQL refuses it, a usage error that
/// does not repeat the URL (it may hold a password).
#[derive(Debug, Clone, Copy)]
struct DatabaseUrl;

impl clap::builder::TypedValueParser for DatabaseUrl {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        if cfg!(feature = "postgres") {
            clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
        } else {
            let kind = clap::error::ErrorKind::InvalidValue;
            Err(clap::Error::raw(kind, format!("{NO_POSTGRES}\n")).with_cmd(cmd))
        }
    }
}

/// Reads a positive number of seconds.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs > 0.0 && secs < 1e9 => Ok(secs),
        _ => Err(format!("\"{text}\" is not a positive number of seconds")),
    }
}

/// Reads a number of seconds, zero or more.
fn non_negative_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs.is_finite() && (0.0..1e6).contains(&secs) => Ok(secs),
        _ => Err(format!("\"{text}\" is not a number of seconds (0 or more)")),
    }
}

/// Reads a CORS origin: `*`, or `scheme://host[:port]` with nothing after.
fn origin(text: &str) -> Result<String, String> {
    let valid = text == "*"
        || text.split_once("://").is_some_and(|(scheme, rest)| {
            !scheme.is_empty()
                && !rest.is_empty()
                && !rest.contains('/')
                && HeaderValue::from_str(text).is_ok()
        });
    if valid {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "\"{text}\" is not an origin: expected scheme://host[:port] (e.g. https://app.example.com) or *"
        ))
    }
}

impl ServeArgs {
    /// The server settings these flags give.
    pub fn options(&self) -> ServerOptions {
        let cors = if self.cors_origins.is_empty() {
            Cors::Off
        } else if self.cors_origins.iter().any(|o| o == "*") {
            Cors::Any
        } else {
            Cors::Origins(
                self.cors_origins
                    .iter()
                    .filter_map(|o| HeaderValue::from_str(o).ok())
                    .collect(),
            )
        };
        ServerOptions {
            max_body: self.max_body,
            body_timeout: Duration::from_secs_f64(self.body_timeout),
            header_timeout: Duration::from_secs_f64(self.header_timeout),
            idle_timeout: Duration::from_secs_f64(self.idle_timeout),
            max_connections: self
                .max_connections
                .map_or_else(default_max_connections, |n| n as usize),
            cors,
            cache_bytes: self.cache_size,
            events: !self.no_events,
            history_keep: days(self.history_keep),
            public_url: self.public_url.clone(),
            metrics: self.metrics_bind.is_some(),
            ..ServerOptions::default()
        }
    }
}

/// Reads a public URL: `http://` or `https://`, a host, an optional path, no query or
/// fragment.
pub fn public_url(text: &str) -> Result<String, String> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(|| format!("{text:?} must start with http:// or https://"))?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(format!("{text:?} names no host"));
    }
    if rest.contains(['?', '#']) || rest.contains(char::is_whitespace) {
        return Err(format!("{text:?} must have no query, fragment or spaces"));
    }
    Ok(text.trim_end_matches('/').to_owned())
}

/// clap Subcommand: `account create EMAIL`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AccountCommand {
    /// Add an account (with its own first folder) and print its new API key.
    Create {
        /// The account's e-mail address.
        email: String,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

/// clap Args for `migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// The PostgreSQL database to copy the data dir into.
    #[arg(
        long,
        env = "DIAGTUI_DATABASE_URL",
        hide_env_values = true,
        value_name = "URL",
        value_parser = DatabaseUrl
    )]
    pub database: String,
    /// Replace whatever the database holds; without it, a database that holds documents is
    /// refused.
    #[arg(long)]
    pub force: bool,
}

/// Runs the server until SIGINT or SIGTERM, then turns `readyz` 503, waits the drain delay,
/// finishes in-flight requests, copies SQLite's log into the database file and returns.
/// Prints `listening on http://HOST:PORT` as the first line on stdout, and with
/// `--metrics-bind`, `metrics on http://HOST:PORT` as the second.
/// Blocking: it builds its own runtime.
pub fn run_serve(args: ServeArgs, data_dir: PathBuf) -> anyhow::Result<()> {
    init_logging(args.log_format);
    let options = args.options();
    let location = args.database.location(&data_dir, args.db_pool as usize);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    runtime.block_on(async move {
        let warning = location.data_dir().and_then(data_dir::looseness_warning);
        let store = open_store(&location, &options).await?;
        let listener = TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        let metrics_listener = match args.metrics_bind {
            Some(bind) => Some(
                TcpListener::bind(bind)
                    .await
                    .with_context(|| format!("cannot listen on {bind}"))?,
            ),
            None => None,
        };
        let shutdown = crate::signals::stop_requested()?;
        {
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on http://{addr}")?;
            if let Some(metrics) = &metrics_listener {
                writeln!(out, "metrics on http://{}", metrics.local_addr()?)?;
            }
            out.flush()?;
        }
        if let Some(warning) = warning {
            say_at_start(args.log_format, Heed::Warning, &warning);
        }
        let whereabouts = match location.data_dir() {
            Some(dir) => format!(
                "data dir {}; the default account's key is in {}",
                dir.display(),
                dir.join(data_dir::KEY_FILE).display()
            ),
            None => format!(
                "database {location}; `diagtui account create EMAIL --database URL` adds accounts"
            ),
        };
        say_at_start(args.log_format, Heed::Note, &whereabouts);
        let running = application(Arc::new(store), &location, &options, addr);
        let metrics =
            metrics_listener.map(|listener| serve_metrics(listener, running.state.clone()));
        let (hub, draining) = (running.hub, Arc::clone(&running.state.draining));
        let store = Arc::clone(&running.state.store);
        let drain_delay = Duration::from_secs_f64(args.drain_delay);
        let shutdown = async move {
            shutdown.await;
            draining.start();
            tokio::time::sleep(drain_delay).await;
            hub.close();
        };
        http::serve(listener, running.app, options.http(), shutdown).await;
        if let Some((stop, served)) = metrics {
            let _ = stop.send(());
            let _ = served.await;
        }
        fold_log_at_stop(&store).await;
        Ok(())
    })
}

/// Serves the metrics listener's routes until told to stop; it answers while the server
/// drains (its `readyz` 503).
fn serve_metrics(
    listener: TcpListener,
    state: crate::state::AppState,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(async move {
        let app = crate::routes::listener::app(state);
        let stopped = async move {
            let _ = stopped.await;
        };
        if let Err(e) = axum::serve(listener, app)
            .with_graceful_shutdown(stopped)
            .await
        {
            tracing::warn!("the metrics listener failed: {e}");
        }
    });
    (stop, served)
}

/// Runs an `account` command.
pub fn run_account(cmd: AccountCommand, data_dir: PathBuf) -> anyhow::Result<()> {
    match cmd {
        AccountCommand::Create { email, database } => {
            let key = create_account(&database.location(&data_dir, 2), &email)?;
            println!("{key}");
            Ok(())
        }
    }
}

/// Creates an account in a data dir (initialising it if new) or a PostgreSQL database and
/// returns its API key. Blocking: it runs on a thread of its own, so it may be called from
/// inside a runtime or outside one.
pub fn create_account(at: &Location, email: &str) -> anyhow::Result<String> {
    on_own_runtime(async {
        if let Some(dir) = at.data_dir() {
            data_dir::prepare(dir).await?;
        }
        Ok(diagtui_store::create_account(at, email).await?)
    })
}

/// `migrate`: copies the data dir into the PostgreSQL database and prints what it copied.
#[cfg(feature = "postgres")]
pub fn run_migrate(args: MigrateArgs, data_dir: PathBuf) -> anyhow::Result<()> {
    let target = PgOptions {
        url: args.database,
        pool_size: 2,
    };
    let counts = on_own_runtime(async {
        Ok(diagtui_store::migrate::copy(&data_dir, &target, args.force).await?)
    })?;
    println!(
        "copied {} into {}: {counts}; the counts match",
        data_dir.display(),
        Location::Postgres(target)
    );
    Ok(())
}

/// `migrate` in a build without PostgreSQL, whose `--database` was refused as it was read.
#[cfg(not(feature = "postgres"))]
pub fn run_migrate(_: MigrateArgs, _: PathBuf) -> anyhow::Result<()> {
    anyhow::bail!(NO_POSTGRES)
}

/// Runs a future to its end on a runtime of its own, on a thread of its own.
fn on_own_runtime<T: Send>(
    work: impl std::future::Future<Output = anyhow::Result<T>> + Send,
) -> anyhow::Result<T> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .context("cannot start the runtime")?
                    .block_on(work)
            })
            .join()
            .map_err(|_| anyhow::anyhow!("the command failed"))?
    })
}

/// How much a line said at the start asks of its reader.
#[derive(Debug, Clone, Copy)]
enum Heed {
    /// Something to know (where the data is).
    Note,
    /// Something to mend (a data dir others can read).
    Warning,
}

/// Says `text` on stderr at the start: as text, a line of its own whatever `RUST_LOG` says; in
/// JSON, a log event like any other (a note at `info`, a warning at `warn`), so that every line
/// stays one JSON object.
fn say_at_start(format: LogFormat, heed: Heed, text: &str) {
    match (format, heed) {
        (LogFormat::Text, _) => eprintln!("{text}"),
        (LogFormat::Json, Heed::Note) => tracing::info!("{text}"),
        (LogFormat::Json, Heed::Warning) => tracing::warn!("{text}"),
    }
}

/// Logs to stderr in `format`, `warn` and up unless `RUST_LOG` says otherwise (`RUST_LOG=info`
/// logs one line per request).
fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let logger = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => logger
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .try_init(),
        LogFormat::Json => logger
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// `serve`'s flags alone.
    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    #[test]
    fn the_history_keeps_90_days_unless_told() {
        let options = |flags: &[&str]| {
            let args = Serve::try_parse_from(["serve"].iter().chain(flags))?.args;
            Ok::<_, clap::Error>(args.options().history_keep)
        };
        assert_eq!(options(&[]).unwrap(), Duration::from_secs(90 * 86_400));
        let week = options(&["--history-keep", "7"]).unwrap();
        assert_eq!(week, Duration::from_secs(7 * 86_400));
        assert!(options(&["--history-keep", "0"]).is_err());
    }
}
