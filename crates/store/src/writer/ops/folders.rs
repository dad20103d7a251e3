//! The folders' write requests.

use crate::batch::Batch;
use crate::change::{Committed, DocChange, DocEvent};
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;

area_ops! {
    CreateFolder,
    RenameFolder,
    DeleteFolder,
}

/// Add a folder to the account; answers its id.
pub struct CreateFolder {
    /// The account.
    pub account_id: String,
    /// The title.
    pub title: String,
}

impl Write for CreateFolder {
    type Answer = String;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<String> {
        let id = s.insert_folder(&self.account_id, &self.title).await?;
        Ok((id, Committed::default()))
    }
}

/// Rename one of the account's folders.
pub struct RenameFolder {
    /// The account.
    pub account_id: String,
    /// The folder.
    pub folder_id: String,
    /// The new title.
    pub title: String,
}

impl Write for RenameFolder {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        s.rename_folder(&self.account_id, &self.folder_id, &self.title)
            .await?;
        Ok(((), Committed::default()))
    }
}

/// Delete one of the account's folders and its documents.
pub struct DeleteFolder {
    /// The account.
    pub account_id: String,
    /// The folder.
    pub folder_id: String,
}

impl Write for DeleteFolder {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        let docs = s
            .delete_folder(&self.account_id, &self.folder_id)
            .await?
            .iter()
            .map(|doc_id| DocChange::event(doc_id, None, DocEvent::Deleted))
            .collect();
        Ok(((), Committed::of_docs(docs)))
    }
}
