//! The folder routes and the account route: extensions beyond the spec (see api-notes.md).

use super::{ApiError, Client};
use crate::route;
use diagtui_model::{
    CreateFolderRequest, FolderCreated, FolderIdRequest, FolderList, FolderTitleRequest, UserRef,
};

impl Client {
    /// `GET /folder/list`: folder id to `{title, docs}`.
    pub async fn list_folders(&self) -> Result<FolderList, ApiError> {
        self.get(&route::folders()).await
    }

    /// `POST /folder/create`. Returns the new folder's id.
    pub async fn create_folder(&self, title: &str) -> Result<String, ApiError> {
        let body = CreateFolderRequest {
            title: title.to_owned(),
        };
        let created: FolderCreated = self.post(&route::create_folder(), Some(&body)).await?;
        Ok(created.folder_id)
    }

    /// `POST /folder/change-title`.
    pub async fn rename_folder(&self, folder: &str, title: &str) -> Result<(), ApiError> {
        let body = FolderTitleRequest {
            folder_id: folder.to_owned(),
            title: title.to_owned(),
        };
        self.post_ok(&route::rename_folder(), Some(&body)).await
    }

    /// `POST /folder/delete`: removes the folder together with all its documents.
    pub async fn delete_folder(&self, folder: &str) -> Result<(), ApiError> {
        let body = FolderIdRequest {
            folder_id: folder.to_owned(),
        };
        self.post_ok(&route::delete_folder(), Some(&body)).await
    }

    /// `GET /me`: the account the key belongs to.
    pub async fn whoami(&self) -> Result<UserRef, ApiError> {
        self.get(&route::me()).await
    }
}
