//! Extension routes: folders and the calling account.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::OK;
use super::schemas::{BodyErrors, Errors};
use crate::error::ApiError;
use crate::extract::Body;
use crate::state::AppState;
use diagtui_model::{
    CreateFolderRequest, FolderCreated, FolderEntry, FolderIdRequest, FolderList,
    FolderTitleRequest, Success, UserRef,
};
use diagtui_store::Account;

/// `GET /api/v1/me`: the account the key belongs to.
#[utoipa::path(get, operation_id = "getAccount", path = "/api/v1/me", tag = "account", extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "The account", body = UserRef), Errors))]
pub async fn me(me: Account) -> Json<Value> {
    Json(json!({"id": me.id, "email": me.email}))
}

/// `GET /api/v1/folder/list`: folder id to `{title, docs}`, the account's own documents only.
#[utoipa::path(get, operation_id = "listFolders", path = "/api/v1/folder/list", tag = "folders", extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "Folder id to folder", body = BTreeMap<String, FolderEntry>), Errors))]
pub async fn list(State(s): State<AppState>, me: Account) -> Result<Json<FolderList>, ApiError> {
    Ok(Json(s.store.list_folders(&me).await?))
}

/// `POST /api/v1/folder/create`.
#[utoipa::path(post, operation_id = "createFolder", path = "/api/v1/folder/create", tag = "folders", extensions(("x-diagtui-extension" = json!(true))),
    request_body = CreateFolderRequest,
    responses((status = 200, description = "Created", body = FolderCreated), Errors, BodyErrors))]
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<CreateFolderRequest>,
) -> Result<Json<FolderCreated>, ApiError> {
    let folder_id = s.store.create_folder(&me, &req.title).await?;
    Ok(Json(FolderCreated {
        success: true,
        folder_id,
    }))
}

/// `POST /api/v1/folder/change-title`.
#[utoipa::path(post, operation_id = "changeFolderTitle", path = "/api/v1/folder/change-title", tag = "folders", extensions(("x-diagtui-extension" = json!(true))),
    request_body = FolderTitleRequest,
    responses((status = 200, description = "Retitled", body = Success), Errors, BodyErrors))]
pub async fn change_title(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<FolderTitleRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store
        .change_folder_title(&me, &req.folder_id, &req.title)
        .await?;
    Ok(OK)
}

/// `POST /api/v1/folder/delete`: the folder and every document in it.
#[utoipa::path(post, operation_id = "deleteFolder", path = "/api/v1/folder/delete", tag = "folders", extensions(("x-diagtui-extension" = json!(true))),
    request_body = FolderIdRequest,
    responses((status = 200, description = "Deleted with its documents", body = Success), Errors, BodyErrors))]
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<FolderIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.delete_folder(&me, &req.folder_id).await?;
    Ok(OK)
}
