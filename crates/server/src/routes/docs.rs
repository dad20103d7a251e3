//! Document routes.

use axum::Json;
use axum::extract::State;

use super::OK;
use super::schemas::{BodyErrors, Errors};
use crate::error::ApiError;
use crate::extract::{Body, Ids, JsonBytes, parse_off_thread};
use crate::state::AppState;
use diagtui_model::{
    AddCollaboratorRequest, BulkUpdateRequest, CreateDocRequest, DiagramObject, DocCreated,
    DocDetails, DocIdRequest, DocSummary, DocTitleRequest, ErrorBody, MoveDocRequest, Success,
};
use diagtui_store::Account;
use diagtui_store::content::ContentUpload;

/// `GET /api/v1/doc`: the documents the account owns or shares, by title.
#[utoipa::path(get, operation_id = "listDocuments", path = "/api/v1/doc", tag = "documents",
    responses((status = 200, description = "The documents", body = Vec<DocSummary>), Errors))]
pub async fn list(
    State(s): State<AppState>,
    me: Account,
) -> Result<Json<Vec<DocSummary>>, ApiError> {
    Ok(Json(s.store.list_docs(&me).await?))
}

/// `GET /api/v1/doc/{docId}`.
#[utoipa::path(get, operation_id = "getDocument", path = "/api/v1/doc/{docId}", tag = "documents", params(("docId" = String, Path, description = "The document id")),
    responses((status = 200, description = "The details", body = DocDetails), Errors))]
pub async fn details(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Json<DocDetails>, ApiError> {
    Ok(Json(s.store.doc_details(&me, &doc_id).await?))
}

/// `POST /api/v1/doc/{docId}`: the bulk update.
#[utoipa::path(post, operation_id = "updateObjectsInBulk", path = "/api/v1/doc/{docId}", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = BulkUpdateRequest,
    responses((status = 200, description = "Updated, all of them", body = Success), Errors, BodyErrors))]
pub async fn bulk_update(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<BulkUpdateRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.bulk_update(&me, &doc_id, req.objects).await?;
    Ok(OK)
}

/// `POST /api/v1/doc/set-content/{docId}`: the body is checked and indexed as it is, each
/// object's data passed through as the text it came as.
#[utoipa::path(post, operation_id = "setContent", path = "/api/v1/doc/set-content/{docId}", tag = "documents", params(("docId" = String, Path, description = "The document id")),
    request_body(content = BTreeMap<String, DiagramObject>, description = "The whole content: object id to object"),
    responses((status = 200, description = "Replaced", body = Success), Errors, BodyErrors))]
pub async fn set_content(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    JsonBytes(body): JsonBytes,
) -> Result<Json<Success>, ApiError> {
    let content = parse_off_thread(body, |body| Ok(ContentUpload::parse(body)?)).await?;
    s.store.set_content(&me, &doc_id, content).await?;
    Ok(OK)
}

/// `POST /api/v1/doc/create`.
#[utoipa::path(post, operation_id = "createDocument", path = "/api/v1/doc/create", tag = "documents",
    request_body = CreateDocRequest,
    responses((status = 200, description = "Created", body = DocCreated), Errors, BodyErrors))]
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<CreateDocRequest>,
) -> Result<Json<DocCreated>, ApiError> {
    let doc_id = s
        .store
        .create_doc(&me, &req.title, req.folder_id.as_deref())
        .await?;
    Ok(Json(DocCreated {
        success: true,
        doc_id,
    }))
}

/// `POST /api/v1/doc/empty`.
#[utoipa::path(post, operation_id = "emptyDocument", path = "/api/v1/doc/empty", tag = "documents",
    request_body = DocIdRequest,
    responses((status = 200, description = "Emptied", body = Success), Errors, BodyErrors))]
pub async fn empty(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.empty_doc(&me, &req.doc_id).await?;
    Ok(OK)
}

/// `POST /api/v1/doc/add-collaborator`.
#[utoipa::path(post, operation_id = "addCollaborator", path = "/api/v1/doc/add-collaborator", tag = "documents",
    request_body = AddCollaboratorRequest,
    responses((status = 200, description = "Shared", body = Success), Errors, BodyErrors))]
pub async fn add_collaborator(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<AddCollaboratorRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store
        .add_collaborator(&me, &req.doc_id, &req.email)
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/change-title`.
#[utoipa::path(post, operation_id = "changeDocumentTitle", path = "/api/v1/doc/change-title", tag = "documents",
    request_body = DocTitleRequest,
    responses((status = 200, description = "Retitled", body = Success), Errors, BodyErrors))]
pub async fn change_title(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocTitleRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store
        .change_doc_title(&me, &req.doc_id, &req.title)
        .await?;
    Ok(OK)
}

/// `POST /api/v1/doc/clone`.
#[utoipa::path(post, operation_id = "cloneDocument", path = "/api/v1/doc/clone", tag = "documents",
    request_body = DocTitleRequest,
    responses((status = 200, description = "Copied", body = DocCreated), Errors, BodyErrors))]
pub async fn clone(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocTitleRequest>,
) -> Result<Json<DocCreated>, ApiError> {
    let doc_id = s.store.clone_doc(&me, &req.doc_id, &req.title).await?;
    Ok(Json(DocCreated {
        success: true,
        doc_id,
    }))
}

/// `POST /api/v1/doc/move` (extension): a document into another of the account's folders,
/// owner only; a version in its history and a `moved` change event.
#[utoipa::path(post, operation_id = "moveDocument", path = "/api/v1/doc/move", tag = "documents",
    extensions(("x-diagtui-extension" = json!(true))),
    request_body = MoveDocRequest,
    responses(
        (status = 200, description = "Moved (or in that folder already)", body = Success),
        (status = 403, description = "FORBIDDEN: only the owner may move a document", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn move_doc(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<MoveDocRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.move_doc(&me, &req.doc_id, &req.folder_id).await?;
    Ok(OK)
}

/// `POST /api/v1/doc/delete`: owner only.
#[utoipa::path(post, operation_id = "deleteDocument", path = "/api/v1/doc/delete", tag = "documents",
    request_body = DocIdRequest,
    responses(
        (status = 200, description = "Deleted", body = Success),
        (status = 403, description = "FORBIDDEN: only the owner may delete a document", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.delete_doc(&me, &req.doc_id).await?;
    Ok(OK)
}
