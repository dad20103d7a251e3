//! The store's folder operations.

use super::Store;
use crate::engine::Engine;
use crate::error::StoreResult;
use crate::keys::Account;
use crate::rules::check_title;
use crate::writer::ops::folders::{CreateFolder, DeleteFolder, RenameFolder};
use diagtui_model::FolderList;

impl<E: Engine> Store<E> {
    /// The account's folders with the documents it owns in each.
    pub async fn list_folders(&self, account: &Account) -> StoreResult<FolderList> {
        self.engine.list_folders(account.id.clone()).await
    }

    /// Adds a folder to the account; returns its id.
    pub async fn create_folder(&self, account: &Account, title: &str) -> StoreResult<String> {
        check_title(title)?;
        self.write(CreateFolder {
            account_id: account.id.clone(),
            title: title.to_owned(),
        })
        .await
    }

    /// Renames one of the account's folders.
    pub async fn change_folder_title(
        &self,
        account: &Account,
        folder_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        check_title(title)?;
        self.write(RenameFolder {
            account_id: account.id.clone(),
            folder_id: folder_id.to_owned(),
            title: title.to_owned(),
        })
        .await
    }

    /// Deletes one of the account's folders and every document in it. The last folder stays:
    /// an account always has one to create documents in.
    pub async fn delete_folder(&self, account: &Account, folder_id: &str) -> StoreResult<()> {
        self.write(DeleteFolder {
            account_id: account.id.clone(),
            folder_id: folder_id.to_owned(),
        })
        .await
    }
}
