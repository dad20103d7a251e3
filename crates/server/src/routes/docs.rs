//! Document routes.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use super::schemas::{BodyErrors, Errors, PreconditionFailed};
use super::versions::{if_match, with_document_version};
use super::{OK, json_bytes};
use crate::error::ApiError;
use crate::extract::{Body, Ids, JsonBytes, parse_off_thread};
use crate::state::AppState;
use diagtui_model::{
    AddCollaboratorRequest, BulkUpdateRequest, CreateDocRequest, DiagramObject, DocCreated,
    DocDetails, DocIdRequest, DocSummary, DocTitleRequest, ErrorBody, MoveDocRequest, Success,
};
use diagtui_store::Account;
use diagtui_store::content::ContentUpload;

/// `GET /api/v1/doc`: the documents the account owns or shares, by title. Our extension: an
/// `ETag` (a hash of the answer) and 304 for an `If-None-Match` naming it.
#[utoipa::path(get, operation_id = "listDocuments", path = "/api/v1/doc", tag = "documents",
    params(("If-None-Match" = Option<String>, Header, description = "304 when the list's ETag is one of these (our extension)")),
    responses((status = 200, description = "The documents", body = Vec<DocSummary>, headers(
            ("ETag" = String, description = "A strong hash of the answer (our extension)"))),
        (status = 304, description = "Not modified: the list's ETag is one given in If-None-Match"),
        Errors))]
pub async fn list(
    State(s): State<AppState>,
    me: Account,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let docs = s.store.list_docs(&me).await?;
    let body = serde_json::to_vec(&docs).map_err(ApiError::internal)?;
    let tag = format!("\"{}\"", content_hash(&body));
    let unchanged = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|given| {
            given
                .split(',')
                .any(|one| one.trim() == tag || one.trim() == "*")
        });
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        json_bytes(Bytes::from(body))
    };
    if let Ok(value) = HeaderValue::from_str(&tag) {
        response.headers_mut().insert(header::ETAG, value);
    }
    Ok(response)
}

/// A strong hash of an answer's bytes, as hex: SHA-256's first 128 bits.
fn content_hash(body: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body);
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// `GET /api/v1/doc/{docId}`. Our extension: `X-Document-Version`.
#[utoipa::path(get, operation_id = "getDocument", path = "/api/v1/doc/{docId}", tag = "documents", params(("docId" = String, Path, description = "The document id")),
    responses((status = 200, description = "The details", body = DocDetails, headers(
            ("X-Document-Version" = u64, description = "The document's version (our extension)"))),
        Errors))]
pub async fn details(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Response, ApiError> {
    let version = s.store.doc_version(&me, &doc_id).await?;
    let details = s.store.doc_details(&me, &doc_id).await?;
    Ok(with_document_version(
        Json(details).into_response(),
        version,
    ))
}

/// `POST /api/v1/doc/{docId}`: the bulk update. Our extension: `ifVersions`, each named
/// object's version, else 412 and nothing written.
#[utoipa::path(post, operation_id = "updateObjectsInBulk", path = "/api/v1/doc/{docId}", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = BulkUpdateRequest,
    responses((status = 200, description = "Updated, all of them", body = Success, headers(
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        PreconditionFailed, Errors, BodyErrors))]
pub async fn bulk_update(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<BulkUpdateRequest>,
) -> Result<Response, ApiError> {
    let if_versions = req
        .if_versions
        .unwrap_or_default()
        .into_iter()
        .map(|(id, version)| (id, version.0))
        .collect();
    let version = s
        .store
        .bulk_update(&me, &doc_id, req.objects, if_versions)
        .await?;
    Ok(with_document_version(OK.into_response(), version))
}

/// `POST /api/v1/doc/set-content/{docId}`: the body is checked and indexed as it is, each
/// object's data passed through as the text it came as. Our extension: `If-Match` (the
/// document's version), else 412 and nothing written.
#[utoipa::path(post, operation_id = "setContent", path = "/api/v1/doc/set-content/{docId}", tag = "documents", params(("docId" = String, Path, description = "The document id"),
        ("If-Match" = Option<String>, Header, description = "The document's version (\"12\", a list, or *): else 412 and nothing is written (our extension)")),
    request_body(content = BTreeMap<String, DiagramObject>, description = "The whole content: object id to object"),
    responses((status = 200, description = "Replaced", body = Success, headers(
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        PreconditionFailed, Errors, BodyErrors))]
pub async fn set_content(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let if_match = if_match(&headers)?;
    let content = parse_off_thread(body, |body| Ok(ContentUpload::parse(body)?)).await?;
    let version = s.store.set_content(&me, &doc_id, content, if_match).await?;
    Ok(with_document_version(OK.into_response(), version))
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
    responses((status = 200, description = "Emptied", body = Success, headers(("X-Document-Version" = u64, description = "The document's version after the write (our extension)"))), Errors, BodyErrors))]
pub async fn empty(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Response, ApiError> {
    let version = s.store.empty_doc(&me, &req.doc_id).await?;
    Ok(with_document_version(OK.into_response(), version))
}

/// `POST /api/v1/doc/add-collaborator`.
#[utoipa::path(post, operation_id = "addCollaborator", path = "/api/v1/doc/add-collaborator", tag = "documents",
    request_body = AddCollaboratorRequest,
    responses((status = 200, description = "Shared", body = Success, headers(("X-Document-Version" = u64, description = "The document's version after the write (our extension)"))), Errors, BodyErrors))]
pub async fn add_collaborator(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<AddCollaboratorRequest>,
) -> Result<Response, ApiError> {
    let version = s
        .store
        .add_collaborator(&me, &req.doc_id, &req.email)
        .await?;
    Ok(with_document_version(OK.into_response(), version))
}

/// `POST /api/v1/doc/change-title`.
#[utoipa::path(post, operation_id = "changeDocumentTitle", path = "/api/v1/doc/change-title", tag = "documents",
    request_body = DocTitleRequest,
    responses((status = 200, description = "Retitled", body = Success, headers(("X-Document-Version" = u64, description = "The document's version after the write (our extension)"))), Errors, BodyErrors))]
pub async fn change_title(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocTitleRequest>,
) -> Result<Response, ApiError> {
    let version = s
        .store
        .change_doc_title(&me, &req.doc_id, &req.title)
        .await?;
    Ok(with_document_version(OK.into_response(), version))
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
        (status = 200, description = "Moved (or in that folder already)", body = Success, headers(("X-Document-Version" = u64, description = "The document's version after the write (our extension)"))),
        (status = 403, description = "FORBIDDEN: only the owner may move a document", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn move_doc(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<MoveDocRequest>,
) -> Result<Response, ApiError> {
    let version = s.store.move_doc(&me, &req.doc_id, &req.folder_id).await?;
    Ok(with_document_version(OK.into_response(), version))
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
