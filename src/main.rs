//! The `diagtui` binary: parses the command line and hands each command to its module.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
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
    #[command(flatten)]
    Api(diagtui::cli::ApiCommand),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return diagtui::cli::parse_error(err),
    };
    let data_dir = cli.data_dir.unwrap_or_else(|| {
        dirs::data_dir()
            .unwrap_or_else(|| PathBuf::from("."))
            .join("diagtui")
    });
    match cli.command {
        Some(Command::Api(command)) => diagtui::cli::run(command, &cli.connection, &data_dir),
        None => diagtui::tui::main(&cli.connection, &data_dir),
    }
}
