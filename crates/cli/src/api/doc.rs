//! `diagtui doc …`: the document commands.

use std::path::PathBuf;

use clap::Subcommand;

use super::confirm::Yes;
use super::content_file::ContentFile;
use super::export::export;
use super::output::Output;
use super::{Failure, Session, json, success};
use diagtui_model::DocCreated;

/// Examples shown under `diagtui doc --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui doc list --table
  diagtui doc create 'Web tier'
  diagtui doc export DOC -o web.json
  diagtui doc import DOC web.json --yes
  diagtui doc render DOC -o web.png
  diagtui doc create-diagram DOC services.csv
  diagtui doc watch DOC --once";

/// The document commands.
#[derive(Debug, Subcommand)]
pub enum DocCommand {
    /// List the account's documents as JSON [{id, title}], or as a table.
    #[command(after_help = "Example:\n  diagtui doc list --table")]
    List {
        /// Print a readable table instead of JSON.
        #[arg(long)]
        table: bool,
    },
    /// Show a document's details: title, times, owner and folder.
    #[command(after_help = "Example:\n  diagtui doc show 6f1c2e0a-…")]
    Show {
        /// The document id.
        doc: String,
    },
    /// Print a document's content: object id to {type, data}.
    #[command(after_help = "Example:\n  diagtui doc content DOC | jq 'keys'")]
    Content {
        /// The document id.
        doc: String,
    },
    /// Create an empty document; prints {success, docId}.
    #[command(after_help = "Example:\n  diagtui doc create 'Web tier' --folder FOLDER")]
    Create {
        /// The title.
        title: String,
        /// The folder to put it in (default: the account's first folder).
        #[arg(long, value_name = "ID")]
        folder: Option<String>,
    },
    /// Change a document's title.
    #[command(after_help = "Example:\n  diagtui doc rename DOC 'Web tier (old)'")]
    Rename {
        /// The document id.
        doc: String,
        /// The new title.
        title: String,
    },
    /// Move a document into another of your folders (our server's extension); prints {success}.
    #[command(after_help = "Example:\n  diagtui doc move DOC FOLDER")]
    Move {
        /// The document id (one you own).
        doc: String,
        /// The folder id (see `diagtui folder list`).
        folder: String,
    },
    /// Copy a document under a new title; prints {success, docId} of the copy.
    #[command(after_help = "Example:\n  diagtui doc clone DOC 'Web tier copy'")]
    Clone {
        /// The document id.
        doc: String,
        /// The copy's title.
        title: String,
    },
    /// Remove every object of a document (asks first; --yes when not on a terminal).
    #[command(after_help = "Example:\n  diagtui doc empty DOC --yes")]
    Empty {
        /// The document id.
        doc: String,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
    /// Share a document with another account, by its e-mail address.
    #[command(after_help = "Example:\n  diagtui doc share DOC ops@example.com")]
    Share {
        /// The document id.
        doc: String,
        /// The e-mail address of an existing account.
        email: String,
    },
    /// Delete a document and all its objects, irrevocably (asks first; --yes when not on a
    /// terminal).
    #[command(after_help = "Example:\n  diagtui doc delete DOC --yes")]
    Delete {
        /// The document id.
        doc: String,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
    /// Replace ALL content of a document with a JSON file or stdin (not validated by the API;
    /// asks first; --yes when not on a terminal).
    #[command(
        after_help = "Examples:\n  diagtui doc import DOC web.json --yes\n  generate-diagram | diagtui doc import DOC - --yes"
    )]
    Import {
        /// The document id.
        doc: String,
        /// The content file (object id to {type, data}), or - for stdin.
        #[arg(value_name = "FILE|-", value_parser = ContentFile::read)]
        content: ContentFile,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
    /// Write a document's content to a file (pretty JSON) or to stdout; as it was at a version
    /// with --version.
    #[command(
        after_help = "Examples:\n  diagtui doc export DOC -o web.json\n  diagtui doc export DOC --version 12 -o web-v12.json"
    )]
    Export {
        /// The document id.
        doc: String,
        /// The file to write (default: stdout).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The content as it was at this version of the document's history.
        #[arg(long, value_name = "V")]
        version: Option<u64>,
    },
    /// Lay out a file of components, groups and connections (CSV, JSON, a Mermaid
    /// flowchart or a Graphviz DOT graph) into a document; prints {success, objectCount,
    /// notes}.
    #[command(name = "create-diagram", after_help = super::create_diagram::EXAMPLES)]
    CreateDiagram(super::create_diagram::CreateDiagramArgs),
    /// List a document's versions, newest first: who changed what, when (a table, or the
    /// server's JSON with --json).
    #[command(
        after_help = "Examples:\n  diagtui doc history DOC --limit 50\n  diagtui doc history DOC --object OBJ --json"
    )]
    History(super::history::HistoryArgs),
    /// Print what changed between two versions (to the newest without TO): objects added,
    /// removed and changed, each change by property path.
    #[command(after_help = "Example:\n  diagtui doc diff DOC 12 15")]
    Diff(super::history::DiffArgs),
    /// Set a document's content back as it was at a version, as a new version (asks first,
    /// naming how many objects change; --yes when not on a terminal).
    #[command(after_help = "Example:\n  diagtui doc restore DOC 12 --yes")]
    Restore(super::history::RestoreArgs),
    /// A document's embeds: pages that show it on another site (see docs/embeds.md).
    #[command(subcommand)]
    Embed(super::embed::EmbedCommand),
    /// Draw a document as a PNG or SVG picture (rendered here from its content).
    #[command(after_help = super::render::EXAMPLES)]
    Render(super::render::RenderArgs),
    /// Print a document's changes as they happen, one line of JSON per event, until
    /// interrupted (our server's event stream; against another server, polls the details).
    #[command(
        after_help = "Examples:\n  diagtui doc watch DOC\n  diagtui doc watch DOC --once && echo changed"
    )]
    Watch(super::watch::WatchArgs),
}

impl DocCommand {
    /// Runs the command: one API call (`watch`: a stream of them).
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        Ok(match self {
            DocCommand::List { table } => {
                let docs = session.client().await?.list_docs().await?;
                if table {
                    Output::DocTable(docs)
                } else {
                    json(docs)
                }
            }
            DocCommand::Show { doc } => json(session.client().await?.doc_details(&doc).await?),
            DocCommand::Content { doc } => {
                export(session.client().await?, &doc, None, None).await?;
                Output::Nothing
            }
            DocCommand::Create { title, folder } => {
                let client = session.client().await?;
                created(client.create_doc(&title, folder.as_deref()).await?)
            }
            DocCommand::Rename { doc, title } => {
                session.client().await?.rename_doc(&doc, &title).await?;
                success()
            }
            DocCommand::Move { doc, folder } => {
                session.client().await?.move_doc(&doc, &folder).await?;
                success()
            }
            DocCommand::Clone { doc, title } => {
                created(session.client().await?.clone_doc(&doc, &title).await?)
            }
            DocCommand::Empty { doc, yes } => {
                yes.confirm(&format!("Remove every object of document {doc}"))?;
                session.client().await?.empty_doc(&doc).await?;
                success()
            }
            DocCommand::Share { doc, email } => {
                session.client().await?.share_doc(&doc, &email).await?;
                success()
            }
            DocCommand::Delete { doc, yes } => {
                yes.confirm(&format!("Delete document {doc} and all its objects"))?;
                session.client().await?.delete_doc(&doc).await?;
                success()
            }
            DocCommand::Import { doc, content, yes } => {
                yes.confirm(&format!(
                    "Replace all content of document {doc} with {} objects",
                    content.objects
                ))?;
                let body = content.body().await.map_err(Failure::Other)?;
                session.client().await?.set_content_body(&doc, body).await?;
                success()
            }
            DocCommand::Export {
                doc,
                output,
                version,
            } => {
                let client = session.client().await?;
                export(client, &doc, version, output.as_deref()).await?;
                Output::Nothing
            }
            DocCommand::CreateDiagram(args) => args.execute(session).await?,
            DocCommand::History(args) => args.execute(session).await?,
            DocCommand::Diff(args) => args.execute(session).await?,
            DocCommand::Restore(args) => args.execute(session).await?,
            DocCommand::Render(args) => args.execute(session).await?,
            DocCommand::Embed(command) => command.execute(session).await?,
            DocCommand::Watch(args) => {
                let connection = session.connection().await?;
                args.execute(&connection.client, connection.poll).await?;
                Output::Nothing
            }
        })
    }
}

/// `{success, docId}` for create and clone.
fn created(doc_id: String) -> Output {
    json(DocCreated {
        success: true,
        doc_id,
    })
}
