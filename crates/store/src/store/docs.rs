//! The store's document writes: creating, renaming, emptying, copying, sharing, deleting and
//! moving a document, and replacing its whole content.

use super::Store;
use crate::content::ContentUpload;
use crate::engine::Engine;
use crate::error::StoreResult;
use crate::keys::Account;
use crate::rules::{check_email_length, check_title};
use crate::writer::ops::content::{EmptyDoc, SetContent};
use crate::writer::ops::docs::{CloneDoc, CreateDoc, DeleteDoc, MoveDoc, RenameDoc, Share};
use diagtui_model::versions::VersionCondition;

impl<E: Engine> Store<E> {
    /// A document's current version, as kept in memory (loaded if need be).
    pub async fn doc_version(&self, account: &Account, doc_id: &str) -> StoreResult<u64> {
        Ok(self.doc(account, doc_id).await?.read().doc_version)
    }

    /// Creates an empty document in the given folder of the account, or its first folder.
    pub async fn create_doc(
        &self,
        account: &Account,
        title: &str,
        folder_id: Option<&str>,
    ) -> StoreResult<String> {
        check_title(title)?;
        self.write(CreateDoc {
            account_id: account.id.clone(),
            title: title.to_owned(),
            folder_id: folder_id.map(str::to_owned),
        })
        .await
    }

    /// Renames a document; returns the version it made.
    pub async fn change_doc_title(
        &self,
        account: &Account,
        doc_id: &str,
        title: &str,
    ) -> StoreResult<u64> {
        check_title(title)?;
        self.write(RenameDoc {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            title: title.to_owned(),
        })
        .await
    }

    /// Removes every object of a document, keeping the document; returns the version it made.
    pub async fn empty_doc(&self, account: &Account, doc_id: &str) -> StoreResult<u64> {
        self.write(EmptyDoc {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// Copies a document and its content under a new title. The copy belongs to the caller: in
    /// the original's folder when the caller owns it, else in the caller's first folder.
    pub async fn clone_doc(
        &self,
        account: &Account,
        doc_id: &str,
        title: &str,
    ) -> StoreResult<String> {
        check_title(title)?;
        self.write(CloneDoc {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            title: title.to_owned(),
        })
        .await
    }

    /// Shares a document with the account that has this e-mail address (no version: returns
    /// the current one). Sharing with the owner or with an account that already has it
    /// changes nothing.
    pub async fn add_collaborator(
        &self,
        account: &Account,
        doc_id: &str,
        email: &str,
    ) -> StoreResult<u64> {
        check_email_length(email)?;
        self.write(Share {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            email: email.to_owned(),
        })
        .await?;
        self.doc_version(account, doc_id).await
    }

    /// Deletes a document and all its content. Only its owner may.
    pub async fn delete_doc(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.write(DeleteDoc {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// Moves a document into another of the account's folders; returns the version it made.
    /// Only its owner may; moving it into the folder it is in changes nothing (and returns the
    /// current version).
    pub async fn move_doc(
        &self,
        account: &Account,
        doc_id: &str,
        folder_id: &str,
    ) -> StoreResult<u64> {
        let moved = self
            .write(MoveDoc {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                folder_id: folder_id.to_owned(),
            })
            .await?;
        match moved {
            Some(version) => Ok(version),
            None => self.doc_version(account, doc_id).await,
        }
    }

    /// Replaces the whole content with an upload (stored as given: not validated or
    /// completed, see [`ContentUpload::parse`]), when the document is at a version `if_match`
    /// names (if given); returns the document version the write made.
    pub async fn set_content(
        &self,
        account: &Account,
        doc_id: &str,
        content: ContentUpload,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        let set = self
            .write(SetContent {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                content,
                restore: None,
                if_match,
            })
            .await?;
        Ok(set.version)
    }
}
