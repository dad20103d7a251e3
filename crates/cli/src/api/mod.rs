//! The scripting CLI: `diagtui doc|obj|folder …`, one API call per command, the API's JSON on
//! stdout, errors as one line on stderr. Exit codes: 0 done, 1 API or connection error (or a
//! declined confirmation), 2 usage error.

mod confirm;
mod content_file;
mod create_diagram;
mod doc;
mod embed;
mod export;
mod folder;
mod history;
mod input;
mod merge;
mod obj;
mod output;
mod relayout;
mod render;
mod watch;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use crate::config::ConnectionArgs;
use crate::connect::{self, Connection};
use diagtui_client::one_line;
use diagtui_client::{ApiError, Client};
use diagtui_model::Success;

pub use doc::DocCommand;
pub use folder::FolderCommand;
pub use obj::ObjCommand;
use output::Output;

/// The API commands, flattened into the top-level command line.
#[derive(Debug, clap::Subcommand)]
pub enum ApiCommand {
    /// Documents: list, show, create, rename, clone, empty, share, delete, import, export, render,
    /// watch.
    #[command(subcommand, after_help = doc::EXAMPLES)]
    Doc(DocCommand),
    /// Objects of a document: get, where, create, update, bulk, set-where, delete.
    #[command(subcommand, after_help = obj::EXAMPLES)]
    Obj(ObjCommand),
    /// Folders: list, create, rename, delete.
    #[command(subcommand, after_help = folder::EXAMPLES)]
    Folder(FolderCommand),
}

/// Runs one API command and returns the process's exit code.
pub fn run(command: ApiCommand, connection: &ConnectionArgs, data_dir: &Path) -> ExitCode {
    let result = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::Other(e.into()))
        .and_then(|runtime| {
            runtime.block_on(async {
                let mut session = Session {
                    args: connection,
                    data_dir: data_dir.to_owned(),
                    connection: None,
                };
                let output = match command {
                    ApiCommand::Doc(cmd) => cmd.execute(&mut session).await,
                    ApiCommand::Obj(cmd) => cmd.execute(&mut session).await,
                    ApiCommand::Folder(cmd) => cmd.execute(&mut session).await,
                };
                session.close().await;
                output
            })
        })
        .and_then(|output| output.print().map_err(|e| Failure::Other(e.into())));
    finish(result)
}

/// Reports how a command that is no API call (`serve`, `account`) ended, the same way: its
/// error as one line on stderr, exit 1.
pub fn report(result: anyhow::Result<()>) -> ExitCode {
    finish(result.map_err(Failure::Other))
}

/// The exit code of a command, with its failure as one line on stderr.
fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("diagtui: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Reports a command-line parse error: help and version as clap prints them, every real error
/// as one line on stderr (with clap's tips, such as how to pass a value that starts with `-`)
/// and exit code 2.
pub fn parse_error(err: clap::Error) -> ExitCode {
    if !err.use_stderr() {
        err.print().ok();
        return ExitCode::SUCCESS;
    }
    let text = err.to_string();
    let mut paragraphs = text.split("\n\n");
    let message = paragraphs.next().unwrap_or(&text);
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let tips: String = paragraphs
        .filter(|p| p.trim_start().starts_with("tip:"))
        .map(|tip| format!("{}; ", one_line(tip)))
        .collect();
    eprintln!("diagtui: {} ({tips}see --help)", one_line(message));
    ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2))
}

/// Why a command failed; decides the exit code.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The command line was wrong (bad selector, no `--yes` without a terminal, ...): exit 2.
    Usage(String),
    /// The API said no or could not be reached: exit 1.
    Api(ApiError),
    /// The person at the terminal declined the confirmation: exit 1.
    Cancelled,
    /// Anything else, e.g. the connection settings or a file to write: exit 1.
    Other(anyhow::Error),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Api(_) | Failure::Cancelled | Failure::Other(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(message) => f.write_str(&one_line(message)),
            Failure::Api(err) => write!(f, "{err}"),
            Failure::Cancelled => f.write_str("cancelled"),
            Failure::Other(err) => f.write_str(&one_line(&format!("{err:#}"))),
        }
    }
}

impl From<ApiError> for Failure {
    fn from(err: ApiError) -> Failure {
        Failure::Api(err)
    }
}

/// The connection, made when a command first needs it: usage errors are found before any
/// server is contacted or started.
pub(crate) struct Session<'a> {
    args: &'a ConnectionArgs,
    data_dir: PathBuf,
    connection: Option<Connection>,
}

impl Session<'_> {
    /// The client, connecting on first use.
    async fn client(&mut self) -> Result<&Client, Failure> {
        Ok(&self.connection().await?.client)
    }

    /// The connection, made on first use.
    async fn connection(&mut self) -> Result<&Connection, Failure> {
        if self.connection.is_none() {
            let connection = connect::connect(self.args, &self.data_dir)
                .await
                .map_err(Failure::Other)?;
            self.connection = Some(connection);
        }
        Ok(self.connection.as_ref().expect("just connected"))
    }

    /// Ends the connection (and stops a local server).
    async fn close(self) {
        if let Some(connection) = self.connection {
            connection.close().await;
        }
    }
}

/// A typed answer as the JSON output.
fn json(value: impl Serialize) -> Output {
    Output::Json(serde_json::to_value(value).expect("API types always serialize"))
}

/// The output of a write that creates nothing: `{"success":true}`.
fn success() -> Output {
    json(Success { success: true })
}
