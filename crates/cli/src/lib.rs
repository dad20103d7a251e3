//! diagtui's command line: parses it, hands each command to its module (`api` for the scripting
//! commands, the server crate for `serve`, `account` and `migrate`), and for the TUI connects
//! (starting the local server when no remote one is configured, `connect`) and hands the TUI a
//! ready client with the config file's text (`config`), so that the TUI never sees a server.
//! The binary (`src/main.rs`) calls [`main`] with the TUI ([`front::Front`]), which this crate
//! does not build on.

pub mod api;
pub mod config;
pub mod connect;
pub mod front;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{ConfigPath, ConnectionArgs};
use crate::connect::Mode;
use crate::front::{Front, Session};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

/// What `diagtui --help` says diagtui is (the root package's description).
const ABOUT: &str =
    "A terminal diagram manager for the Diagram Document REST API, with a bundled local server";

/// Examples shown under `diagtui --help`.
const EXAMPLES: &str = "\
Examples:
  diagtui doc list --table
  diagtui --profile prod obj where DOC status eq down
  DIAGTUI_URL=https://diagrams.example.com DIAGTUI_API_KEY=... diagtui doc content DOC

Exit codes: 0 done, 1 API or connection error, 2 usage error.";

/// A terminal diagram manager for the Diagram Document REST API.
#[derive(Debug, Parser)]
#[command(name = "diagtui", version, about = ABOUT, after_help = EXAMPLES)]
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
    Serve(diagtui_server::ServeArgs),
    /// Manage the accounts of a local data dir or a PostgreSQL database.
    #[command(subcommand)]
    Account(diagtui_server::AccountCommand),
    /// Copy a data dir (accounts, folders, documents, sharing) into a PostgreSQL database.
    Migrate(diagtui_server::MigrateArgs),
    /// Print the key table in force: the defaults with the `[keys]` of config.toml.
    Keys {
        /// As a Markdown table (the tables of docs/keys.md are this).
        #[arg(long)]
        markdown: bool,
    },
    /// Print the shell completion script for diagtui (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write diagtui's man pages (diagtui.1, and diagtui-COMMAND.1 for each command) into DIR.
    Man {
        /// The directory to write them in (created if needed).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    #[command(flatten)]
    Api(crate::api::ApiCommand),
}

/// Runs the command line of this process, starting `front` for the TUI, and returns its exit
/// code.
pub fn main<F: Front>(front: F) -> ExitCode {
    let parsed = command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)))
        .and_then(|(cli, matches)| refuse_unused_connection_flags(&cli, &matches).map(|()| cli));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return crate::api::parse_error(err),
    };
    let data_dir = diagtui_server::data_dir::resolve(cli.data_dir);
    // The commands that read the config file refuse one named that does not exist.
    let reads_config = matches!(
        cli.command,
        None | Some(Command::Keys { .. } | Command::Api(_) | Command::Serve(_))
    );
    let config = match config::config_path(cli.connection.config.as_deref()) {
        Ok(config) => config,
        Err(message) if reads_config => {
            eprintln!("diagtui: {message}");
            return ExitCode::from(USAGE);
        }
        Err(_) => None,
    };
    match cli.command {
        Some(Command::Serve(mut args)) => {
            let path = config.as_ref().map(|c| c.path.as_path());
            if args.public_url.is_none() {
                match config::serve_public_url(path) {
                    Ok(url) => args.public_url = url,
                    Err(e) => {
                        eprintln!("diagtui: {e:#}");
                        return ExitCode::from(USAGE);
                    }
                }
            }
            crate::api::report(diagtui_server::run_serve(args, data_dir))
        }
        Some(Command::Account(cmd)) => {
            crate::api::report(diagtui_server::run_account(cmd, data_dir))
        }
        Some(Command::Migrate(args)) => {
            crate::api::report(diagtui_server::run_migrate(args, data_dir))
        }
        Some(Command::Keys { markdown }) => print_keys(&front, markdown, config.as_ref()),
        Some(Command::Completions { shell }) => print_completions(shell),
        Some(Command::Man { dir }) => crate::api::report(write_man_pages(&dir)),
        Some(Command::Api(command)) => crate::api::run(command, &cli.connection, &data_dir),
        None => run_tui(&front, &cli.connection, config.as_ref(), &data_dir),
    }
}

/// The commands that connect to no API server, and those of them that read no config file:
/// their help leaves out the flags they refuse (see [`refuse_unused_connection_flags`]).
const CONNECT_NOWHERE: [&str; 6] = ["serve", "account", "migrate", "keys", "completions", "man"];
/// The commands that read no config file.
const READ_NO_CONFIG: [&str; 4] = ["account", "migrate", "completions", "man"];

/// The command line: [`Cli`]'s, where the commands that connect nowhere keep the connection
/// flags (to refuse them by name) but leave them out of their help, completions and man page.
fn command() -> clap::Command {
    let cli = Cli::command();
    let flag = |id: &str| {
        cli.get_arguments()
            .find(|arg| arg.get_id() == id)
            .map(|arg| arg.clone().global(false).hide(true))
    };
    let connection: Vec<clap::Arg> = CONNECTION_FLAGS
        .iter()
        .filter_map(|(id, _)| flag(id))
        .collect();
    let config: Vec<clap::Arg> = flag(CONFIG_FLAG.0).into_iter().collect();
    CONNECT_NOWHERE.iter().fold(cli, |cli, name| {
        let mut hidden = connection.clone();
        if READ_NO_CONFIG.contains(name) {
            hidden.extend(config.iter().cloned());
        }
        cli.mut_subcommand(name, |sub| with_hidden(sub, &hidden))
    })
}

/// A command and its subcommands, with these flags as their own, hidden.
fn with_hidden(command: clap::Command, flags: &[clap::Arg]) -> clap::Command {
    let command = flags
        .iter()
        .fold(command, |command, flag| command.arg(flag.clone()));
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    names.iter().fold(command, |command, name| {
        command.mut_subcommand(name, |sub| with_hidden(sub, flags))
    })
}

/// `diagtui completions SHELL`: the script on stdout (a closed pipe ends it quietly).
fn print_completions(shell: clap_complete::Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "diagtui", &mut script);
    match std::io::Write::write_all(&mut std::io::stdout().lock(), &script) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("diagtui: cannot write the completions: {e}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}

/// `diagtui man DIR`: one page for diagtui and one for each command (`diagtui-doc-list.1`).
fn write_man_pages(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    clap_mangen::generate_to(command(), dir)
        .map_err(|e| anyhow::anyhow!("cannot write the man pages into {}: {e}", dir.display()))?;
    println!("wrote the man pages into {}", dir.display());
    Ok(())
}

/// The exit code of a mistake in the config file's TUI settings (as for a bad flag).
const USAGE: u8 = 2;

/// The TUI's settings from the config file: keys, looks, the map's status key and graphics. A
/// mistake there is a usage error naming the file and the line.
fn ui_settings<F: Front>(front: &F, config: Option<&ConfigPath>) -> Result<F::Settings, String> {
    let path = config.map(|c| c.path.as_path());
    let text = match path.map(config::read_text).transpose() {
        Ok(text) => text.flatten(),
        Err(e) => return Err(format!("{e:#}")),
    };
    front.settings(text.as_deref()).map_err(|e| {
        let name = path.map_or_else(|| "config.toml".to_string(), |p| p.display().to_string());
        format!("{name} {e}")
    })
}

/// `diagtui keys`: the key table in force, as text (after the file it was read from) or
/// Markdown.
fn print_keys<F: Front>(front: &F, markdown: bool, config: Option<&ConfigPath>) -> ExitCode {
    match ui_settings(front, config) {
        Ok(settings) if markdown => {
            print!("{}", front.key_table(&settings, true));
            ExitCode::SUCCESS
        }
        Ok(settings) => {
            match config {
                Some(config) if config.path.exists() => println!("Keys read from {config}\n"),
                Some(config) => println!(
                    "No config file ({} does not exist): the default keys\n",
                    config.path.display()
                ),
                None => println!("No config file: the default keys\n"),
            }
            print!("{}", front.key_table(&settings, false));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("diagtui: {message}");
            ExitCode::from(USAGE)
        }
    }
}

/// `diagtui` with no command: reads the TUI's settings, logs to the data dir, connects (the
/// local server in-process in local mode) and runs the TUI on the client.
fn run_tui<F: Front>(
    front: &F,
    args: &ConnectionArgs,
    config: Option<&ConfigPath>,
    data_dir: &Path,
) -> ExitCode {
    let settings = match ui_settings(front, config) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("diagtui: {message}");
            return ExitCode::from(USAGE);
        }
    };
    if let Err(e) = front.init_log(data_dir) {
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
        let connection = connect::connect(args, data_dir).await?;
        let session = Session {
            client: connection.client.clone(),
            mode: describe(&connection.mode),
            account: connection.local_email().map(str::to_string),
            poll: connection.poll,
            data_dir: data_dir.to_owned(),
        };
        let outcome = front.run(settings, session).await;
        connection.close().await;
        outcome
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

/// The connection flags, by clap id.
const CONNECTION_FLAGS: [(&str, &str); 6] = [
    ("url", "--url"),
    ("api_key", "--api-key"),
    ("profile", "--profile"),
    ("connect_timeout", "--connect-timeout"),
    ("timeout", "--timeout"),
    ("poll", "--poll"),
];

/// The config file's flag, by clap id.
const CONFIG_FLAG: (&str, &str) = ("config", "--config");

/// `serve`, `account`, `migrate`, `keys`, `completions` and `man` connect to no API server: a
/// connection flag given to them on the command line is a usage error rather than silently
/// ignored (the environment variables, which may be set for other commands, are left alone).
/// `--config` is refused the same way, except by `keys` and `serve`, which read the config file.
fn refuse_unused_connection_flags(cli: &Cli, matches: &ArgMatches) -> Result<(), clap::Error> {
    let (name, sub) = match (&cli.command, matches.subcommand()) {
        (Some(Command::Api(_)) | None, _) | (_, None) => return Ok(()),
        (Some(_), Some((name, sub))) => (name, sub),
    };
    let given = |m: &ArgMatches, id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    // `keys` and `serve` read the config file; the others read none.
    let config = READ_NO_CONFIG.contains(&name).then_some(&CONFIG_FLAG);
    match CONNECTION_FLAGS
        .iter()
        .chain(config)
        .find(|(id, _)| given(matches, id) || given(sub, id))
    {
        Some((_, "--config")) => Err(command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("--config does not apply to `diagtui {name}`, which reads no config file"),
        )),
        Some((_, flag)) => Err(command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("{flag} does not apply to `diagtui {name}`, which connects nowhere"),
        )),
        None => Ok(()),
    }
}
