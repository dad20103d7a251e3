//! `GET /api/v1/image/from-document/{docId}`: the document drawn from the same scene as the
//! TUI's map, as a PNG (default) or SVG (`format=svg`, our extension).

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::schemas::Errors;
use crate::error::ApiError;
use crate::extract::Ids;
use crate::state::AppState;
use diagtui_model::Content;
use diagtui_scene::render::{self, DEFAULT_HEIGHT, DEFAULT_WIDTH, Format, parse_side};
use diagtui_scene::{DEFAULT_STATUS_KEY, Scene};
use diagtui_store::Account;

/// The picture of a document: `width` and `height` in pixels (1–8192; 1024 × 768 by default)
/// and `format` (`png` or `svg`). The content is read through the store and drawn on the
/// blocking pool.
#[utoipa::path(get, path = "/api/v1/image/from-document/{docId}", operation_id = "getDocumentImage",
    tag = "documents",
    params(
        ("docId" = String, Path, description = "The document id"),
        ("width" = Option<u32>, Query, minimum = 1, maximum = 8192, description = "Pixels across (default 1024)"),
        ("height" = Option<u32>, Query, minimum = 1, maximum = 8192, description = "Pixels down (default 768)"),
        ("format" = Option<String>, Query, pattern = "^(png|svg)$",
            description = "png (default), or svg (an extension of ours)"),
    ),
    responses(
        (status = 200, description = "The document drawn", content(
            (Vec<u8> = "image/png"),
            (String = "image/svg+xml"),
        )),
        Errors,
    ))]
pub async fn from_document(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    query: Result<Query<BTreeMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(params) =
        query.map_err(|e| ApiError::validation(format!("bad query: {}", e.body_text())))?;
    let width = param(&params, "width", DEFAULT_WIDTH, parse_side)?;
    let height = param(&params, "height", DEFAULT_HEIGHT, parse_side)?;
    let format = param(&params, "format", Format::Png, str::parse)?;
    let content = s.store.content_json(&me, &doc_id).await?;
    let image = tokio::task::spawn_blocking(move || {
        let content: Content = serde_json::from_slice(&content).map_err(ApiError::internal)?;
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        render::render(&scene, format, width, height).map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(([(header::CONTENT_TYPE, format.content_type())], image).into_response())
}

/// The query parameter `name` read by `parse`, or `default` when absent; a bad value answers
/// 400 `VALIDATION_ERROR` naming the parameter.
pub(super) fn param<T>(
    params: &BTreeMap<String, String>,
    name: &str,
    default: T,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<T, ApiError> {
    params.get(name).map_or(Ok(default), |text| {
        parse(text).map_err(|problem| ApiError::validation(format!("{name}: {problem}")))
    })
}
