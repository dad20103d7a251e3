//! `diagtui folder …`: the folder commands (an extension of the API).

use clap::Subcommand;

use super::confirm::Yes;
use super::output::Output;
use super::{Failure, Session, json, success};
use diagtui_model::FolderCreated;

/// Examples shown under `diagtui folder --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui folder list
  diagtui folder create Network
  diagtui folder delete FOLDER --yes";

/// The folder commands.
#[derive(Debug, Subcommand)]
pub enum FolderCommand {
    /// List the folders: folder id to {title, docs: {docId: title}}.
    #[command(after_help = "Example:\n  diagtui folder list | jq 'map_values(.title)'")]
    List,
    /// Create a folder; prints {success, folderId}.
    #[command(after_help = "Example:\n  diagtui folder create Network")]
    Create {
        /// The title.
        title: String,
    },
    /// Change a folder's title.
    #[command(after_help = "Example:\n  diagtui folder rename FOLDER 'Network (old)'")]
    Rename {
        /// The folder id.
        folder: String,
        /// The new title.
        title: String,
    },
    /// Delete a folder together with all its documents (asks first; --yes when not on a
    /// terminal).
    #[command(after_help = "Example:\n  diagtui folder delete FOLDER --yes")]
    Delete {
        /// The folder id.
        folder: String,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
}

impl FolderCommand {
    /// Runs the command: one API call.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        Ok(match self {
            FolderCommand::List => json(session.client().await?.list_folders().await?),
            FolderCommand::Create { title } => json(FolderCreated {
                success: true,
                folder_id: session.client().await?.create_folder(&title).await?,
            }),
            FolderCommand::Rename { folder, title } => {
                session
                    .client()
                    .await?
                    .rename_folder(&folder, &title)
                    .await?;
                success()
            }
            FolderCommand::Delete { folder, yes } => {
                yes.confirm(&format!("Delete folder {folder} and all its documents"))?;
                session.client().await?.delete_folder(&folder).await?;
                success()
            }
        })
    }
}
