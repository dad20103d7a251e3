//! History routes (our extension, see `docs/history.md`): a document's versions, one version's
//! changed objects, the difference between two versions by path, one object's versions, and
//! restoring a version. Same key and scoping as the document's own routes; `obj/all` and
//! `obj/{objId}` take `?version=V` through [`Params`].

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{FromRequestParts, Query, State};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

use super::schemas::{BodyErrors, Errors, PreconditionFailed};
use super::versions::{if_match, with_document_version};
use crate::error::ApiError;
use crate::extract::{Body, Ids};
use crate::state::AppState;
use diagtui_model::ErrorCode;
use diagtui_model::history::{Diff, HistoryPage, RestoreRequest, Restored, VersionDetails};
use diagtui_store::Account;

/// How many versions a page lists when `limit` is not given.
const DEFAULT_LIMIT: usize = 50;

/// A request's query parameters by name; the numbers among them are read by [`Params::number`].
pub struct Params(BTreeMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Params, ApiError> {
        Query::<BTreeMap<String, String>>::from_request_parts(parts, state)
            .await
            .map(|Query(params)| Params(params))
            .map_err(|e| {
                ApiError::new(
                    ErrorCode::BadRequest,
                    format!("bad query: {}", e.body_text()),
                )
            })
    }
}

impl Params {
    /// A whole number of at least 1, if the parameter is given; 400 naming it otherwise.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.0.get(name).map(|text| number(name, text)).transpose()
    }

    /// A flag: `true`, or `false` and absent; 400 naming it for any other value.
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.0.get(name).map(String::as_str) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(other) => Err(ApiError::validation(format!(
                "{name}: must be true or false, got {other:?}"
            ))),
        }
    }
}

/// A parameter's text as a whole number of at least 1; 400 naming it otherwise.
fn number(name: &str, text: &str) -> Result<u64, ApiError> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ApiError::validation(format!(
            "{name}: must be a whole number of at least 1, got {text:?}"
        ))),
    }
}

/// A page's `before` and `limit`.
fn page(params: &Params) -> Result<(Option<u64>, usize), ApiError> {
    let limit = params
        .number("limit")?
        .map_or(DEFAULT_LIMIT, |n| n as usize);
    Ok((params.number("before")?, limit))
}

/// `GET …/history`: the document's versions, newest first, paged.
#[utoipa::path(get, operation_id = "getHistory", path = "/api/v1/doc/{docId}/history", tag = "history",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id"),
        ("before" = Option<u64>, Query, minimum = 1, description = "Only versions older than this (the page's nextBefore)"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "At most this many versions (50 when absent)")),
    responses((status = 200, description = "Versions, newest first", body = HistoryPage), Errors))]
pub async fn list(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    params: Params,
) -> Result<Json<HistoryPage>, ApiError> {
    let (before, limit) = page(&params)?;
    Ok(Json(
        s.store.history(&me, &doc_id, before, limit, None).await?,
    ))
}

/// `GET …/history/{version}`: one version with its changed objects.
#[utoipa::path(get, operation_id = "getVersion", path = "/api/v1/doc/{docId}/history/{version}", tag = "history",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id"),
        ("version" = u64, Path, minimum = 1, description = "The version")),
    responses((status = 200, description = "The version and each object it changed, before and after", body = VersionDetails), Errors))]
pub async fn one(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, version)): Ids<(String, String)>,
) -> Result<Json<VersionDetails>, ApiError> {
    let version = number("version", &version)?;
    Ok(Json(s.store.version(&me, &doc_id, version).await?))
}

/// `GET …/obj/{objId}/history`: the versions that changed one object, newest first, paged.
#[utoipa::path(get, operation_id = "getObjectHistory", path = "/api/v1/doc/{docId}/obj/{objId}/history", tag = "history",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id"),
        ("objId" = String, Path, max_length = 128, description = "The object id"),
        ("before" = Option<u64>, Query, minimum = 1, description = "Only versions older than this (the page's nextBefore)"),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "At most this many versions (50 when absent)")),
    responses((status = 200, description = "The versions that changed the object, newest first", body = HistoryPage), Errors))]
pub async fn object(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    params: Params,
) -> Result<Json<HistoryPage>, ApiError> {
    let (before, limit) = page(&params)?;
    let page = s
        .store
        .history(&me, &doc_id, before, limit, Some(&obj_id))
        .await?;
    Ok(Json(page))
}

/// `GET …/diff?from=A&to=B`: the objects added, removed and changed (by path) between two
/// versions.
#[utoipa::path(get, operation_id = "getDiff", path = "/api/v1/doc/{docId}/diff", tag = "history",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id"),
        ("from" = u64, Query, minimum = 1, description = "The older version"),
        ("to" = Option<u64>, Query, minimum = 1, description = "The newer version (the newest when absent); not before from")),
    responses((status = 200, description = "What changed from one version to the other", body = Diff), Errors))]
pub async fn diff(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    params: Params,
) -> Result<Json<Diff>, ApiError> {
    let from = params
        .number("from")?
        .ok_or_else(|| ApiError::validation("from: is required"))?;
    let to = params.number("to")?;
    Ok(Json(s.store.diff(&me, &doc_id, from, to).await?))
}

/// `POST …/restore`: the content set back as it was at a version, as a new version. Our
/// extension: `If-Match` (the document's version), else 412 and nothing written.
#[utoipa::path(post, operation_id = "restoreVersion", path = "/api/v1/doc/{docId}/restore", tag = "history",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id"),
        ("If-Match" = Option<String>, Header, description = "The document's version (\"12\", a list, or *): else 412 and nothing is written")),
    request_body = RestoreRequest,
    responses((status = 200, description = "Restored, as a new version", body = Restored, headers(
            ("X-Document-Version" = u64, description = "The version the restore made"))),
        PreconditionFailed, Errors, BodyErrors))]
pub async fn restore(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    headers: HeaderMap,
    Body(req): Body<RestoreRequest>,
) -> Result<Response, ApiError> {
    let if_match = if_match(&headers)?;
    if req.version == 0 {
        return Err(ApiError::validation("version: must be at least 1, got 0"));
    }
    let restored = s.store.restore(&me, &doc_id, req.version, if_match).await?;
    let version = restored.version;
    Ok(with_document_version(
        Json(restored).into_response(),
        version,
    ))
}
