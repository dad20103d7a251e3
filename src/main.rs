//! The `diagtui` binary: parses the command line and hands each command to its module.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
use diagtui::config::ConnectionArgs;

/// Examples shown under `diagtui --help`.
const EXAMPLES: &str = "\
Examples:
  diagtui doc list --table
  diagtui --profile prod obj where DOC status eq down
  DIAGTUI_URL=https://diagrams.example.com DIAGTUI_API_KEY=... diagtui doc content DOC

Exit codes: 0 done, 1 API or connection error, 2 usage error.";

/// A terminal diagram manager for the Diagram Document REST API.
#[derive(Debug, Parser)]
#[command(name = "diagtui", version, about, after_help = EXAMPLES)]
struct Cli {
    /// The local data directory (default: DIAGTUI_DATA_DIR, else the platform data dir/diagtui).
    #[arg(long, global = true, env = "DIAGTUI_DATA_DIR", value_name = "DIR")]
    data_dir: Option<PathBuf>,
    #[command(flatten)]
    connection: ConnectionArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the local API server on its own, headless.
    Serve(diagtui::server::ServeArgs),
    /// Manage the accounts of a local data dir.
    #[command(subcommand)]
    Account(diagtui::server::AccountCommand),
    #[command(flatten)]
    Api(diagtui::cli::ApiCommand),
}

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)))
        .and_then(|(cli, matches)| refuse_unused_connection_flags(&cli, &matches).map(|()| cli));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return diagtui::cli::parse_error(err),
    };
    let data_dir = diagtui::server::data_dir::resolve(cli.data_dir);
    match cli.command {
        Some(Command::Serve(args)) => {
            diagtui::cli::report(diagtui::server::run_serve(args, data_dir))
        }
        Some(Command::Account(cmd)) => {
            diagtui::cli::report(diagtui::server::run_account(cmd, data_dir))
        }
        Some(Command::Api(command)) => diagtui::cli::run(command, &cli.connection, &data_dir),
        None => diagtui::tui::main(&cli.connection, &data_dir),
    }
}

/// The connection flags, by clap id.
const CONNECTION_FLAGS: [(&str, &str); 5] = [
    ("url", "--url"),
    ("api_key", "--api-key"),
    ("profile", "--profile"),
    ("connect_timeout", "--connect-timeout"),
    ("timeout", "--timeout"),
];

/// `serve` and `account` work on the local data dir and connect nowhere: a connection flag
/// given to them on the command line is a usage error rather than silently ignored (the
/// environment variables, which may be set for other commands, are left alone).
fn refuse_unused_connection_flags(cli: &Cli, matches: &ArgMatches) -> Result<(), clap::Error> {
    let (name, sub) = match (&cli.command, matches.subcommand()) {
        (Some(Command::Serve(_) | Command::Account(_)), Some((name, sub))) => (name, sub),
        _ => return Ok(()),
    };
    let given = |m: &ArgMatches, id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    match CONNECTION_FLAGS
        .iter()
        .find(|(id, _)| given(matches, id) || given(sub, id))
    {
        Some((_, flag)) => Err(Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("{flag} does not apply to `diagtui {name}`, which works on the local data dir"),
        )),
        None => Ok(()),
    }
}
