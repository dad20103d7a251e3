//! `GET /api/v1/image/from-document/{docId}`: the document drawn from the same scene as the
//! TUI's map, in 3D (default) or 2D, as a PNG (default) or SVG (`format=svg`, our extension).

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
use diagtui_scene::render::{
    self, Format, Picture, PictureError, View, parse_component_size, parse_side,
};
use diagtui_scene::{DEFAULT_STATUS_KEY, Scene};
use diagtui_store::Account;

/// The picture of a document: `view` (`2D` or `3D`, in any case; 3D by default), `width` and
/// `height` in pixels (1–8192; 1400 wide and as high as the diagram's aspect makes it by
/// default), `component-size` (pixels across one component) and `format` (`png` or `svg`). The
/// content is read through the store and drawn on the blocking pool.
#[utoipa::path(get, path = "/api/v1/image/from-document/{docId}", operation_id = "getDocumentImage",
    tag = "documents",
    params(
        ("docId" = String, Path, description = "The document id"),
        ("view" = Option<String>, Query, pattern = "^[23][dD]$",
            description = "2D or 3D (default), in any case"),
        ("width" = Option<u32>, Query, minimum = 1, maximum = 8192, description = "Pixels across (default 1400)"),
        ("height" = Option<u32>, Query, minimum = 1, maximum = 8192,
            description = "Pixels down (default: as the diagram's aspect makes it, at most 8192)"),
        ("component-size" = Option<u32>, Query, minimum = 1, maximum = 8192,
            description = "Pixels across one component; the diagram is drawn at that scale and a side not given follows from it (400 when a side would pass 8192)"),
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
    let (picture, format) = picture_params(&params, View::default())?;
    let content = s.store.content_json(&me, &doc_id).await?;
    let image = tokio::task::spawn_blocking(move || {
        let content: Content = serde_json::from_slice(&content).map_err(ApiError::internal)?;
        draw(
            &Scene::build(&content, DEFAULT_STATUS_KEY),
            format,
            &picture,
        )
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(([(header::CONTENT_TYPE, format.content_type())], image).into_response())
}

/// The query parameters that say what picture to make, as [`picture_params`] reads them.
pub(super) const PICTURE_PARAMS: [&str; 5] =
    ["view", "width", "height", "component-size", "format"];

/// The picture the query asks for, and its format: `view` (`2D` or `3D`, in any case; `view`
/// when absent), `width` and `height` (1–8192; following from the diagram when absent),
/// `component-size` (1–8192) and `format` (`png`, the default, or `svg`). A bad value answers
/// 400 naming its parameter.
pub(super) fn picture_params(
    params: &BTreeMap<String, String>,
    view: View,
) -> Result<(Picture, Format), ApiError> {
    let picture = Picture {
        view: param(params, "view", view, str::parse)?,
        width: param(params, "width", None, |t| parse_side(t).map(Some))?,
        height: param(params, "height", None, |t| parse_side(t).map(Some))?,
        component_size: param(params, "component-size", None, |t| {
            parse_component_size(t).map(Some)
        })?,
    };
    Ok((picture, param(params, "format", Format::Png, str::parse)?))
}

/// A scene drawn as `picture` says, in `format`: a component size too large for the picture's
/// sides answers 400 naming `component-size`.
pub(super) fn draw(scene: &Scene, format: Format, picture: &Picture) -> Result<Vec<u8>, ApiError> {
    render::render_picture(scene, format, picture).map_err(|e| match e {
        PictureError::ComponentSize(_) => ApiError::validation(e.to_string()),
        PictureError::Render(e) => ApiError::internal(e),
    })
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
