//! Object routes.

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;

use super::OK;
use super::json_text;
use crate::model::{
    CreateObjectRequest, DiagramObject, ObjectCreated, Props, Selector, SelectorUpdated, Success,
    UpdateObjectRequest,
};
use crate::server::error::ApiError;
use crate::server::extract::{Body, Ids};
use crate::server::state::AppState;
use crate::store::Account;

/// `GET …/obj/all` (and the legacy `GET …/obj`): every object, in id order.
pub async fn all(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Response, ApiError> {
    Ok(json_text(
        s.db(move |db| db.content_json(&me, &doc_id)).await?,
    ))
}

/// `GET …/obj/{objId}`.
pub async fn get_one(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
) -> Result<Json<DiagramObject>, ApiError> {
    Ok(Json(
        s.db(move |db| db.get_object(&me, &doc_id, &obj_id)).await?,
    ))
}

/// `GET …/obj/where/{selector}`: the selector arrives URL-encoded, fully or in the style of
/// `encodeURI` (commas, colons and slashes literal); the router has decoded it once already.
pub async fn read_where(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, raw)): Ids<(String, String)>,
) -> Result<Response, ApiError> {
    let selector = Selector::parse(&raw).map_err(|e| ApiError::selector(e.0))?;
    Ok(json_text(
        s.db(move |db| db.select_json(&me, &doc_id, &selector))
            .await?,
    ))
}

/// `POST …/obj/`: create.
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<CreateObjectRequest>,
) -> Result<Json<ObjectCreated>, ApiError> {
    let obj_id = s
        .db(move |db| db.create_object(&me, &doc_id, &req.kind, &req.props))
        .await?;
    Ok(Json(ObjectCreated {
        success: true,
        obj_id,
    }))
}

/// `POST …/obj/{objId}`: update one.
pub async fn update(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
    Body(req): Body<UpdateObjectRequest>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.update_object(&me, &doc_id, &obj_id, &req.props))
        .await?;
    Ok(OK)
}

/// The selector update's body, with the selector kept raw so that a malformed one answers
/// `INVALID_SELECTOR` rather than a generic body error.
#[derive(Deserialize)]
pub struct UpdateWhere {
    selector: Value,
    props: Props,
}

/// `POST …/obj/where`: update every object whose `meta` matches.
pub async fn update_where(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    Body(req): Body<UpdateWhere>,
) -> Result<Json<SelectorUpdated>, ApiError> {
    let selector = Selector::from_json(&req.selector).map_err(|e| ApiError::selector(e.0))?;
    let ids = s
        .db(move |db| db.selector_update(&me, &doc_id, &selector, &req.props))
        .await?;
    Ok(Json(SelectorUpdated {
        success: true,
        updated_object_count: ids.len(),
        updated_object_ids: ids,
    }))
}

/// `POST …/obj/{objId}/delete`.
pub async fn delete(
    State(s): State<AppState>,
    me: Account,
    Ids((doc_id, obj_id)): Ids<(String, String)>,
) -> Result<Json<Success>, ApiError> {
    s.db(move |db| db.delete_object(&me, &doc_id, &obj_id))
        .await?;
    Ok(OK)
}
