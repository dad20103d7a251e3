//! Object routes.

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::history::Params;
use super::schemas::{BodyErrors, Errors, SelectorSchema};
use super::{OK, json_bytes};
use crate::error::ApiError;
use crate::extract::{Body, Ids};
use crate::state::AppState;
use diagtui_model::{
    CreateObjectRequest, DiagramObject, ObjectCreated, Props, SelectorUpdated, Success,
    UpdateObjectRequest,
};
use diagtui_store::Account;
use diagtui_store::rules::parse_selector;

/// `GET …/obj/all` (and the legacy `GET …/obj`): every object, in id order; as they were at
/// `?version=V` (our extension, see `history`).
#[utoipa::path(get, operation_id = "getContent", path = "/api/v1/doc/{docId}/obj/all", tag = "objects", params(("docId" = String, Path, description = "The document id"),
        ("version" = Option<u64>, Query, minimum = 1, description = "The objects as they were at this version (our extension)")),
    responses((status = 200, description = "Every object, in id order", body = BTreeMap<String, DiagramObject>), Errors))]
pub async fn all(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    params: Params,
) -> Result<Response, ApiError> {
    let content = match params.number("version")? {
        Some(version) => s.store.content_json_at(&me, &doc_id, version).await?,
        None => s.store.content_json(&me, &doc_id).await?,
    };
    Ok(json_bytes(content))
}

/// `GET …/obj`: the legacy object list, the same map as `obj/all`.
#[utoipa::path(get, operation_id = "listObjects", path = "/api/v1/doc/{docId}/obj", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "Every object, in id order", body = BTreeMap<String, DiagramObject>), Errors))]
pub async fn legacy_all(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Response, ApiError> {
    Ok(json_bytes(s.store.content_json(&me, &doc_id).await?))
}

/// `GET …/obj/{objId}`; as it was at `?version=V` (our extension, see `history`).
#[utoipa::path(get, operation_id = "getObject", path = "/api/v1/doc/{docId}/obj/{objId}", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id"),
        ("version" = Option<u64>, Query, minimum = 1, description = "The object as it was at this version (our extension)")),
    responses((status = 200, description = "The object", body = DiagramObject), Errors))]
pub async fn get_one(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    params: Params,
) -> Result<Response, ApiError> {
    let object = match params.number("version")? {
        Some(version) => {
            s.store
                .object_json_at(&me, &doc_id, &obj_id, version)
                .await?
        }
        None => s.store.object(&me, &doc_id, &obj_id).await?.json(),
    };
    Ok(json_bytes(object))
}

/// `GET …/obj/where/{selector}`: the selector arrives URL-encoded, fully or in the style of
/// `encodeURI` (commas, colons and slashes literal); the router has decoded it once already.
#[utoipa::path(get, operation_id = "getObjectsWhere", path = "/api/v1/doc/{docId}/obj/where/{selector}", tag = "objects",
    params(("docId" = String, Path, description = "The document id"), ("selector" = String, Path, description = "A selector as URL-encoded JSON: [key, operator, value] or a list of them")),
    responses((status = 200, description = "The matching objects, in id order", body = BTreeMap<String, DiagramObject>), Errors))]
pub async fn read_where(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, raw)): Ids<(String, String)>,
) -> Result<Response, ApiError> {
    let selector = parse_selector(&raw)?;
    Ok(json_bytes(
        s.store.select_json(&me, &doc_id, selector).await?,
    ))
}

/// `POST …/obj/`: create.
#[utoipa::path(post, operation_id = "createObject", path = "/api/v1/doc/{docId}/obj", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = CreateObjectRequest,
    responses((status = 200, description = "Created", body = ObjectCreated), Errors, BodyErrors))]
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<CreateObjectRequest>,
) -> Result<Json<ObjectCreated>, ApiError> {
    let obj_id = s
        .store
        .create_object(&me, &doc_id, &req.kind, &req.props)
        .await?;
    Ok(Json(ObjectCreated {
        success: true,
        obj_id,
    }))
}

/// `POST …/obj/{objId}`: update one.
#[utoipa::path(post, operation_id = "updateObject", path = "/api/v1/doc/{docId}/obj/{objId}", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id")),
    request_body = UpdateObjectRequest,
    responses((status = 200, description = "Updated", body = Success), Errors, BodyErrors))]
pub async fn update(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    Body(req): Body<UpdateObjectRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store
        .update_object(&me, &doc_id, &obj_id, req.props)
        .await?;
    Ok(OK)
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
}

/// `POST …/obj/where`: update every object whose `meta` matches.
#[utoipa::path(post, operation_id = "updateObjectsWhere", path = "/api/v1/doc/{docId}/obj/where", tag = "objects", params(("docId" = String, Path, description = "The document id")),
    request_body = UpdateWhere,
    responses((status = 200, description = "Updated, all of them", body = SelectorUpdated), Errors, BodyErrors))]
pub async fn update_where(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<UpdateWhere>,
) -> Result<Json<SelectorUpdated>, ApiError> {
    let selector = parse_selector(req.selector.get())?;
    let ids = s
        .store
        .selector_update(&me, &doc_id, selector, req.props)
        .await?;
    Ok(Json(SelectorUpdated {
        success: true,
        updated_object_count: ids.len(),
        updated_object_ids: ids,
    }))
}

/// `POST …/obj/{objId}/delete`.
#[utoipa::path(post, operation_id = "deleteObject", path = "/api/v1/doc/{docId}/obj/{objId}/delete", tag = "objects", params(("docId" = String, Path, description = "The document id"), ("objId" = String, Path, max_length = 128, description = "The object id")),
    responses((status = 200, description = "Deleted", body = Success), Errors))]
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
) -> Result<Json<Success>, ApiError> {
    s.store.delete_object(&me, &doc_id, &obj_id).await?;
    Ok(OK)
}
