//! The documents' write requests: creating, renaming, copying, sharing, moving and deleting
//! one. Each that changes a document records its version.

use super::{Made, no_object_changed};
use crate::batch::{Batch, report};
use crate::change::Committed;
use crate::history::record;
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;
use diagtui_model::history::{VersionKind, VersionNotes, VersionSource};

area_ops! {
    CreateDoc,
    RenameDoc,
    CloneDoc,
    Share,
    MoveDoc,
    DeleteDoc,
}

/// Create an empty document; answers its id.
pub struct CreateDoc {
    /// The owner.
    pub account_id: String,
    /// The title.
    pub title: String,
    /// The folder; the account's first when `None`.
    pub folder_id: Option<String>,
}

impl Write for CreateDoc {
    type Answer = String;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<String> {
        let account_id = &self.account_id;
        let folder = match &self.folder_id {
            Some(id) => s.own_folder(account_id, id).await?,
            None => s.first_folder(account_id).await?,
        };
        let (id, change) = s.insert_doc(account_id, &folder.id, &self.title).await?;
        let made = Made::plain(account_id, VersionKind::Created);
        record::start(s, &id, made.at(&batch.now)).await?;
        Ok((id, report(change.at(1))))
    }
}

/// Retitle a document; answers the version it made.
pub struct RenameDoc {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The new title.
    pub title: String,
}

impl Write for RenameDoc {
    type Answer = u64;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<u64> {
        let (account_id, doc_id) = (&self.account_id, &self.doc_id);
        let change = s.rename_doc(account_id, doc_id, &self.title).await?;
        let notes = VersionNotes {
            title: Some(self.title.clone()),
            ..VersionNotes::default()
        };
        let made = Made {
            account: account_id,
            kind: VersionKind::TitleChange,
            notes,
        };
        no_object_changed(s, batch, made, change).await
    }
}

/// Copy a document under a new title; answers the copy's id.
pub struct CloneDoc {
    /// The account acting, owner of the copy.
    pub account_id: String,
    /// The document copied.
    pub doc_id: String,
    /// The copy's title.
    pub title: String,
}

impl Write for CloneDoc {
    type Answer = String;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<String> {
        let (account_id, doc_id) = (&self.account_id, &self.doc_id);
        let (id, change) = s.clone_doc(account_id, doc_id, &self.title).await?;
        let source = VersionSource {
            doc_id: doc_id.clone(),
            version: record::head_now(s, &batch.histories, doc_id)
                .await?
                .map(|head| head.head),
        };
        let notes = VersionNotes {
            source: Some(source),
            ..VersionNotes::default()
        };
        let made = Made {
            account: account_id,
            kind: VersionKind::Cloned,
            notes,
        };
        record::start(s, &id, made.at(&batch.now)).await?;
        Ok((id, report(change.at(1))))
    }
}

/// Share a document with the account that has this e-mail address (no version).
pub struct Share {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The other account's e-mail address.
    pub email: String,
}

impl Write for Share {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        let change = s.share(&self.account_id, &self.doc_id, &self.email).await?;
        Ok(((), report(change)))
    }
}

/// Move a document into another of the account's folders (owner only); answers the version
/// it made, `None` when it was in that folder already.
pub struct MoveDoc {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The folder.
    pub folder_id: String,
}

impl Write for MoveDoc {
    type Answer = Option<u64>;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<Option<u64>> {
        let (account_id, doc_id) = (&self.account_id, &self.doc_id);
        let Some((folder, change)) = s.move_doc(account_id, doc_id, &self.folder_id).await? else {
            return Ok((None, Committed::default()));
        };
        let notes = VersionNotes {
            folder: Some(folder),
            ..VersionNotes::default()
        };
        let made = Made {
            account: account_id,
            kind: VersionKind::Moved,
            notes,
        };
        let (version, report) = no_object_changed(s, batch, made, change).await?;
        Ok((Some(version), report))
    }
}

/// Delete a document (owner only).
pub struct DeleteDoc {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
}

impl Write for DeleteDoc {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        let change = s.delete_doc(&self.account_id, &self.doc_id).await?;
        Ok(((), report(change)))
    }
}
