//! Extension routes: folders and the calling account.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::OK;
use crate::model::{
    CreateFolderRequest, FolderCreated, FolderIdRequest, FolderList, FolderTitleRequest, Success,
};
use crate::server::error::ApiError;
use crate::server::extract::Body;
use crate::server::state::AppState;
use crate::store::Account;

/// `GET /api/v1/me`: the account the key belongs to.
pub async fn me(me: Account) -> Json<Value> {
    Json(json!({"id": me.id, "email": me.email}))
}

/// `GET /api/v1/folder/list`: folder id to `{title, docs}`, the account's own documents only.
pub async fn list(State(s): State<AppState>, me: Account) -> Result<Json<FolderList>, ApiError> {
    Ok(Json(s.db(move |db| db.list_folders(&me)).await?))
}

/// `POST /api/v1/folder/create`.
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<CreateFolderRequest>,
) -> Result<Json<FolderCreated>, ApiError> {
    let folder_id = s.db(move |db| db.create_folder(&me, &req.title)).await?;
    Ok(Json(FolderCreated {
        success: true,
        folder_id,
    }))
}

/// `POST /api/v1/folder/change-title`.
pub async fn change_title(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<FolderTitleRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.change_folder_title(&me, &req.folder_id, &req.title))
        .await?;
    Ok(OK)
}

/// `POST /api/v1/folder/delete`: the folder and every document in it.
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<FolderIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.delete_folder(&me, &req.folder_id))
        .await?;
    Ok(OK)
}
