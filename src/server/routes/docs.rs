//! Document routes.

use axum::Json;
use axum::extract::State;
use serde_json::Value;

use super::OK;
use crate::model::{
    AddCollaboratorRequest, BulkUpdateRequest, CreateDocRequest, DocCreated, DocDetails,
    DocIdRequest, DocSummary, DocTitleRequest, Success,
};
use crate::server::error::ApiError;
use crate::server::extract::{Body, Ids};
use crate::server::state::AppState;
use crate::store::Account;

/// `GET /api/v1/doc`: the documents the account owns or shares, by title.
pub async fn list(
    State(s): State<AppState>,
    me: Account,
) -> Result<Json<Vec<DocSummary>>, ApiError> {
    Ok(Json(s.db(move |db| db.list_docs(&me)).await?))
}

/// `GET /api/v1/doc/{docId}`.
pub async fn details(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Json<DocDetails>, ApiError> {
    Ok(Json(s.db(move |db| db.doc_details(&me, &doc_id)).await?))
}

/// `POST /api/v1/doc/{docId}`: the bulk update.
pub async fn bulk_update(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<BulkUpdateRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.bulk_update(&me, &doc_id, &req.objects))
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/set-content/{docId}`.
pub async fn set_content(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(content): Body<Value>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.set_content(&me, &doc_id, &content))
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/create`.
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<CreateDocRequest>,
) -> Result<Json<DocCreated>, ApiError> {
    let doc_id = s
        .db(move |db| db.create_doc(&me, &req.title, req.folder_id.as_deref()))
        .await?;
    Ok(Json(DocCreated {
        success: true,
        doc_id,
    }))
}

/// `POST /api/v1/doc/empty`.
pub async fn empty(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.empty_doc(&me, &req.doc_id)).await?;
    Ok(OK)
}

/// `POST /api/v1/doc/add-collaborator`.
pub async fn add_collaborator(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<AddCollaboratorRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.add_collaborator(&me, &req.doc_id, &req.email))
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/change-title`.
pub async fn change_title(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocTitleRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.change_doc_title(&me, &req.doc_id, &req.title))
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/clone`.
pub async fn clone(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocTitleRequest>,
) -> Result<Json<DocCreated>, ApiError> {
    let doc_id = s
        .db(move |db| db.clone_doc(&me, &req.doc_id, &req.title))
        .await?;
    Ok(Json(DocCreated {
        success: true,
        doc_id,
    }))
}

/// `POST /api/v1/doc/delete`: owner only.
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.delete_doc(&me, &req.doc_id)).await?;
    Ok(OK)
}
