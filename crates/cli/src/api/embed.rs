//! `diagtui doc embed create|delete|live|list`: a document's embeds (see `docs/embeds.md`).

use super::confirm::Yes;
use super::output::Output;
use super::{Failure, Session, json, success};
use diagtui_model::embeds::{EmbedKind, EmbedList};

/// The `doc embed` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum EmbedCommand {
    /// Make a static embed: a copy of the document now, at a page of its own; prints
    /// {success, id, url}.
    #[command(after_help = "Example:\n  diagtui doc embed create DOC --title 'Web tier, May'")]
    Create {
        /// The document id.
        doc: String,
        /// A title for the embed list and the page.
        #[arg(long)]
        title: Option<String>,
    },
    /// Delete a static embed: its page stops working (asks first; --yes when not on a
    /// terminal).
    #[command(after_help = "Example:\n  diagtui doc embed delete EMBED --yes")]
    Delete {
        /// The static embed's id (as `create` or `list` printed it).
        id: String,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
    /// Print the document's live embed, made if needed: {success, key, url}. --rotate gives
    /// it a new key; --off turns it off (both stop the old URL; --off asks first).
    #[command(
        after_help = "Examples:\n  diagtui doc embed live DOC\n  diagtui doc embed live DOC --rotate\n  diagtui doc embed live DOC --off --yes"
    )]
    Live {
        /// The document id.
        doc: String,
        /// Give the live embed a new key.
        #[arg(long, conflicts_with = "off")]
        rotate: bool,
        /// Turn the live embed off.
        #[arg(long)]
        off: bool,
        /// With --off: do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
    /// List the document's embeds, the live one first (a table, or the server's JSON with
    /// --json).
    #[command(after_help = "Example:\n  diagtui doc embed list DOC")]
    List {
        /// The document id.
        doc: String,
        /// Print the server's JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

impl EmbedCommand {
    /// Runs the subcommand.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        Ok(match self {
            EmbedCommand::Create { doc, title } => {
                let client = session.client().await?;
                json(client.create_static_embed(&doc, title.as_deref()).await?)
            }
            EmbedCommand::Delete { id, yes } => {
                yes.confirm(&format!("Delete static embed {id}: its page stops working"))?;
                session.client().await?.delete_static_embed(&id).await?;
                success()
            }
            EmbedCommand::Live {
                doc,
                off: true,
                yes,
                ..
            } => {
                yes.confirm(&format!(
                    "Turn off the live embed of document {doc}: its URL stops working"
                ))?;
                session.client().await?.disable_live_embed(&doc).await?;
                success()
            }
            EmbedCommand::Live { doc, rotate, .. } => {
                json(session.client().await?.live_embed(&doc, rotate).await?)
            }
            EmbedCommand::List { doc, json: raw } => {
                let list = session.client().await?.embeds(&doc).await?;
                if raw {
                    json(list)
                } else {
                    Output::Text(table(&list))
                }
            }
        })
    }
}

/// `KIND  ID  CREATED  TITLE  URL`, one embed a line; a note when there are none.
fn table(list: &EmbedList) -> String {
    if list.embeds.is_empty() {
        return "(no embeds)\n".to_owned();
    }
    let mut out = String::new();
    for embed in &list.embeds {
        let kind = match embed.kind {
            EmbedKind::Live => "live",
            EmbedKind::Static => "static",
        };
        let title = embed.title.as_deref().unwrap_or("-");
        out.push_str(&format!(
            "{kind:<6}  {}  {}  {title}  {}\n",
            embed.id, embed.created, embed.url
        ));
    }
    out
}
