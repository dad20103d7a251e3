//! Object routes.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::history::Params;
use super::schemas::{BodyErrors, Errors, PreconditionFailed, SelectorSchema};
use super::versions::{if_match, if_none_match, not_modified, with_document_version, with_etag};
use super::{OK, json_bytes};
use crate::error::ApiError;
use crate::extract::{Body, Ids};
use crate::state::AppState;
use diagtui_model::versions::Version;
use diagtui_model::{
    CreateObjectRequest, DiagramObject, ObjectCreated, Props, SelectorUpdated, Success,
    UpdateObjectRequest,
};
use diagtui_store::rules::parse_selector;
use diagtui_store::{Account, ContentRead, Read};

/// `GET …/obj/all` (and the legacy `GET …/obj`): every object, in id order; as they were at
/// `?version=V` (our extension, see `history`). Our extensions: `ETag` and
/// `X-Document-Version` say the document's version, `If-None-Match` answers 304 when it has not
/// changed, `?versions=true` gives each object its version.
#[utoipa::path(get, operation_id = "getContent", path = "/api/v1/doc/{docId}/obj/all", tag = "objects", params(("docId" = String, Path, description = "The document id"),
        ("version" = Option<u64>, Query, minimum = 1, description = "The objects as they were at this version (our extension)"),
        ("versions" = Option<bool>, Query, description = "Each object as {type, data, version} (our extension)"),
        ("If-None-Match" = Option<String>, Header, description = "304 when the document is at one of these versions (our extension)")),
    responses((status = 200, description = "Every object, in id order", body = BTreeMap<String, DiagramObject>,
            headers(("ETag" = String, description = "The document's version, quoted"), ("X-Document-Version" = u64, description = "The document's version"))),
        (status = 304, description = "Not modified: the document is at a version given in If-None-Match"),
        Errors))]
pub async fn all(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    params: Params,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(version) = params.number("version")? {
        return Ok(json_bytes(
            s.store.content_json_at(&me, &doc_id, version).await?,
        ));
    }
    content(&s, &me, &doc_id, &params, &headers).await
}

/// `GET …/obj`: the legacy object list, the same map as `obj/all`.
#[utoipa::path(get, operation_id = "listObjects", path = "/api/v1/doc/{docId}/obj", tag = "objects", params(("docId" = String, Path, description = "The document id"),
        ("versions" = Option<bool>, Query, description = "Each object as {type, data, version}"),
        ("If-None-Match" = Option<String>, Header, description = "304 when the document is at one of these versions")),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "Every object, in id order", body = BTreeMap<String, DiagramObject>,
            headers(("ETag" = String, description = "The document's version, quoted"), ("X-Document-Version" = u64, description = "The document's version"))),
        (status = 304, description = "Not modified: the document is at a version given in If-None-Match"),
        Errors))]
pub async fn legacy_all(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    params: Params,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    content(&s, &me, &doc_id, &params, &headers).await
}

/// The whole content as it is now, with the document's version; 304 when `If-None-Match`
/// names it.
async fn content(
    s: &AppState,
    me: &Account,
    doc_id: &str,
    params: &Params,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let how = ContentRead {
        versions: params.flag("versions")?,
        unless: if_none_match(headers)?,
        only: None,
    };
    Ok(match s.store.read_content(me, doc_id, how).await? {
        Read::NotModified { version } => with_document_version(not_modified(version), version),
        Read::Body { json, version } => {
            with_document_version(with_etag(json_bytes(json), version), version)
        }
    })
}

/// `GET …/obj/{objId}`; as it was at `?version=V` (our extension, see `history`). Our
/// extensions: `ETag` says the object's version, `If-None-Match` answers 304 when it has not
/// changed.
#[utoipa::path(get, operation_id = "getObject", path = "/api/v1/doc/{docId}/obj/{objId}", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id"),
        ("version" = Option<u64>, Query, minimum = 1, description = "The object as it was at this version (our extension)"),
        ("If-None-Match" = Option<String>, Header, description = "304 when the object is at one of these versions (our extension)")),
    responses((status = 200, description = "The object", body = DiagramObject,
            headers(("ETag" = String, description = "The object's version, quoted (our extension)"))),
        (status = 304, description = "Not modified: the object is at a version given in If-None-Match"),
        Errors))]
pub async fn get_one(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    params: Params,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(version) = params.number("version")? {
        let object = s
            .store
            .object_json_at(&me, &doc_id, &obj_id, version)
            .await?;
        return Ok(json_bytes(object));
    }
    let unless = if_none_match(&headers)?;
    let object = s.store.object(&me, &doc_id, &obj_id).await?;
    let version = object.version();
    if unless.is_some_and(|unless| unless.matches(Some(version))) {
        return Ok(not_modified(version));
    }
    Ok(with_etag(json_bytes(object.json()), version))
}

/// `GET …/obj/where/{selector}`: the selector arrives URL-encoded, fully or in the style of
/// `encodeURI` (commas, colons and slashes literal); the router has decoded it once already.
/// Our extensions: `X-Document-Version`, and `?versions=true`.
#[utoipa::path(get, operation_id = "getObjectsWhere", path = "/api/v1/doc/{docId}/obj/where/{selector}", tag = "objects",
    params(("docId" = String, Path, description = "The document id"), ("selector" = String, Path, description = "A selector as URL-encoded JSON: [key, operator, value] or a list of them"),
        ("versions" = Option<bool>, Query, description = "Each object as {type, data, version} (our extension)")),
    responses((status = 200, description = "The matching objects, in id order", body = BTreeMap<String, DiagramObject>,
            headers(("X-Document-Version" = u64, description = "The document's version (our extension)"))),
        Errors))]
pub async fn read_where(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, raw)): Ids<(String, String)>,
    params: Params,
) -> Result<Response, ApiError> {
    let selector = parse_selector(&raw)?;
    let how = ContentRead {
        versions: params.flag("versions")?,
        unless: None,
        only: Some(selector),
    };
    match s.store.read_content(&me, &doc_id, how).await? {
        Read::Body { json, version } => Ok(with_document_version(json_bytes(json), version)),
        Read::NotModified { version } => Ok(with_document_version(not_modified(version), version)),
    }
}

/// `POST …/obj/`: create. Our extensions: `ETag` (the object's version) and
/// `X-Document-Version`.
#[utoipa::path(post, operation_id = "createObject", path = "/api/v1/doc/{docId}/obj", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = CreateObjectRequest,
    responses((status = 200, description = "Created", body = ObjectCreated, headers(
            ("ETag" = String, description = "The new object's version, quoted (our extension)"),
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        Errors, BodyErrors))]
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<CreateObjectRequest>,
) -> Result<Response, ApiError> {
    let (obj_id, version) = s
        .store
        .create_object(&me, &doc_id, &req.kind, &req.props)
        .await?;
    let answer = Json(ObjectCreated {
        success: true,
        obj_id,
    });
    Ok(written(answer, version, true))
}

/// An answer to a write, with the version it made: `X-Document-Version`, and the object's
/// `ETag` when `etag` (one object written).
fn written(answer: impl IntoResponse, version: u64, etag: bool) -> Response {
    let response = with_document_version(answer.into_response(), version);
    if etag {
        with_etag(response, version)
    } else {
        response
    }
}

/// `POST …/obj/{objId}`: update one. Our extension: `If-Match` (the object's version),
/// else 412 and nothing written; the answer's `ETag` and `X-Document-Version`.
#[utoipa::path(post, operation_id = "updateObject", path = "/api/v1/doc/{docId}/obj/{objId}", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id"),
        ("If-Match" = Option<String>, Header, description = "The object's version (\"12\", a list, or *): else 412 and nothing is written (our extension)")),
    request_body = UpdateObjectRequest,
    responses((status = 200, description = "Updated", body = Success, headers(
            ("ETag" = String, description = "The object's new version, quoted (our extension)"),
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        PreconditionFailed, Errors, BodyErrors))]
pub async fn update(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    headers: HeaderMap,
    Body(req): Body<UpdateObjectRequest>,
) -> Result<Response, ApiError> {
    let if_match = if_match(&headers)?;
    let version = s
        .store
        .update_object(&me, &doc_id, &obj_id, req.props, if_match)
        .await?;
    Ok(written(OK, version, true))
}

/// The selector update's body, with the selector kept as text so that a malformed or
/// oversized one answers `INVALID_SELECTOR` rather than a generic body error, and costs no
/// more than a scan of its text.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct UpdateWhere {
    /// Which objects: `[key, operator, value]` or a list of them.
    #[schema(value_type = SelectorSchema)]
    selector: Box<RawValue>,
    /// What to merge into each.
    #[schema(value_type = Object)]
    props: Props,
    /// Our extension: exactly the objects previewed, each at its version (`{}`: none
    /// matched); the update goes through only if the selector matches exactly those now,
    /// else 412 and nothing is written.
    #[serde(rename = "ifVersions", default)]
    #[schema(value_type = Option<BTreeMap<String, Version>>)]
    if_versions: Option<BTreeMap<String, Version>>,
}

/// `POST …/obj/where`: update every object whose `meta` matches.
#[utoipa::path(post, operation_id = "updateObjectsWhere", path = "/api/v1/doc/{docId}/obj/where", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = UpdateWhere,
    responses((status = 200, description = "Updated, all of them", body = SelectorUpdated, headers(
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        PreconditionFailed, Errors, BodyErrors))]
pub async fn update_where(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<UpdateWhere>,
) -> Result<Response, ApiError> {
    let selector = parse_selector(req.selector.get())?;
    let if_versions = req
        .if_versions
        .map(|versions| versions.into_iter().map(|(id, v)| (id, v.0)).collect());
    let (ids, version) = s
        .store
        .selector_update(&me, &doc_id, selector, req.props, if_versions)
        .await?;
    let answer = Json(SelectorUpdated {
        success: true,
        updated_object_count: ids.len(),
        updated_object_ids: ids,
    });
    Ok(written(answer, version, false))
}

/// `POST …/obj/{objId}/delete`. Our extension: `If-Match` (the object's version), else 412
/// and nothing deleted.
#[utoipa::path(post, operation_id = "deleteObject", path = "/api/v1/doc/{docId}/obj/{objId}/delete", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id"),
        ("If-Match" = Option<String>, Header, description = "The object's version (\"12\", a list, or *): else 412 and nothing is deleted (our extension)")),
    responses((status = 200, description = "Deleted", body = Success, headers(
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        PreconditionFailed, Errors))]
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let if_match = if_match(&headers)?;
    let version = s
        .store
        .delete_object(&me, &doc_id, &obj_id, if_match)
        .await?;
    Ok(written(OK, version, false))
}
