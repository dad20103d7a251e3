//! `POST /api/v1/create-diagram/{docId}` and `POST /api/v1/image/create-from-diagram`: a flat
//! list of entries (JSON, CSV, a Mermaid flowchart, a DOT graph) laid out by [`diagtui_layout`]; the first stores the objects in
//! the document (one transaction), the second answers with their picture and stores nothing.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use super::image::{PICTURE_PARAMS, draw, picture_params};
use super::schemas::{BodyErrors, Errors};
use super::versions::with_document_version;
use crate::error::ApiError;
use crate::extract::{Ids, read_body};
use crate::state::AppState;
use diagtui_layout::{Format, Laid, Objects, Settings, Stop};
use diagtui_model::props::new_object_data;
use diagtui_model::{Content, DiagramCreated, DiagramNote, DiagramObject, ErrorCode, ObjectType};
use diagtui_scene::render::{DEFAULT_HEIGHT, DEFAULT_WIDTH, View};
use diagtui_scene::{DEFAULT_STATUS_KEY, Scene};
use diagtui_store::Account;

/// A create-diagram body: its format (by `Content-Type`) and bytes, read within the body
/// limits.
pub struct DiagramBody {
    format: Format,
    bytes: Bytes,
}

impl FromRequest<AppState> for DiagramBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<DiagramBody, ApiError> {
        let format = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(Format::from_media_type)
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    "the body must be sent with Content-Type: application/json, text/csv, text/vnd.mermaid or text/vnd.graphviz",
                )
            })?;
        let bytes = read_body(req, state.bodies).await?;
        Ok(DiagramBody { format, bytes })
    }
}

/// The layout settings as the API description lists them; the handlers read them with
/// [`Settings::from_pairs`], which takes the names in any case. (A distance must be above 0 and
/// at most 100, which the description leaves to the 400: bounds on these numbers make
/// schemathesis's generator fail.)
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query, rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code)]
pub struct LayoutParams {
    /// Most items side by side in a row of a tier (default 10); names are case-insensitive.
    #[param(minimum = 1, maximum = 1000)]
    max_components_per_tier: Option<u32>,
    /// Distance between tiers (default 3).
    tier_gap: Option<f64>,
    /// Distance between components (default 2).
    comp_gap: Option<f64>,
    /// Distance between groups (default 1).
    group_margin: Option<f64>,
    /// Distance from a group's border to its contents (default 0.75).
    group_padding: Option<f64>,
    /// Height of a block group label (default 0.75).
    label_height: Option<f64>,
    /// Space beside a block label's text (default 0.25).
    label_padding: Option<f64>,
}

/// The query parameters, by name as sent.
type QueryPairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The layout settings among the query parameters, leaving out the key and `others`.
fn settings(query: &[(String, String)], others: &[&str]) -> Result<Settings, ApiError> {
    Settings::from_pairs(
        query
            .iter()
            .filter(|(name, _)| name != "key" && !others.contains(&name.as_str()))
            .map(|(name, value)| (name.as_str(), value.as_str())),
    )
    .map_err(|e| ApiError::validation(e.to_string()))
}

/// Lays the body out on the blocking pool: routing many links takes long enough to hold up
/// the other requests of the thread, however small the body. When the request is dropped
/// (its client gone) the layout stops at its next step rather than run on for no one.
async fn lay_out(body: DiagramBody, settings: Settings) -> Result<Laid, ApiError> {
    let stop = Arc::new(Stop::default());
    let _stopped_if_dropped = StopOnDrop(Arc::clone(&stop));
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        tracing::debug!(bytes = body.bytes.len(), "create-diagram's layout started");
        let laid =
            diagtui_layout::lay_out_unless_stopped(&body.bytes, body.format, &settings, &stop);
        if laid.is_err() && stop.is_raised() {
            tracing::info!(
                millis = started.elapsed().as_millis() as u64,
                "create-diagram's layout given up: its client went away"
            );
        }
        laid.map_err(|e| ApiError::validation(e.to_string()))
    })
    .await
    .map_err(ApiError::internal)?
}

/// Raises its stop when dropped: with the request's future, when the client goes away.
struct StopOnDrop(Arc<Stop>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// The query as pairs, a malformed one answering 400.
fn pairs(query: QueryPairs) -> Result<Vec<(String, String)>, ApiError> {
    query
        .map(|Query(pairs)| pairs)
        .map_err(|e| ApiError::validation(format!("bad query: {}", e.body_text())))
}

/// `POST /api/v1/create-diagram/{docId}`: lays out the entries and adds the objects to the
/// document, all or none; objects already there under the same ids are replaced, and with
/// `replace=true` the document is emptied first.
#[utoipa::path(post, operation_id = "createDiagram", path = "/api/v1/create-diagram/{docId}", tag = "documents",
    params(
        ("docId" = String, Path, description = "The document id"),
        LayoutParams,
        ("replace" = Option<bool>, Query, description = "Empty the document first, in the same transaction (an extension of ours)"),
    ),
    request_body(description = "Entries: a JSON map of entry id to entry, CSV with a header row, a Mermaid flowchart, or a Graphviz DOT graph (docs/create-diagram.md)",
        content((Object = "application/json"), (String = "text/csv"), (String = "text/vnd.mermaid"), (String = "text/vnd.graphviz"))),
    responses((status = 200, description = "Laid out and stored", body = DiagramCreated, headers(
            ("X-Document-Version" = u64, description = "The version the write made (our extension)"))),
        Errors, BodyErrors))]
pub async fn create(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    query: QueryPairs,
    body: DiagramBody,
) -> Result<Response, ApiError> {
    let query = pairs(query)?;
    let replace = match query.iter().rev().find(|(name, _)| name == "replace") {
        None => false,
        Some((_, value)) => value.parse::<bool>().map_err(|_| {
            ApiError::validation(format!("replace: \"{value}\" is not true or false"))
        })?,
    };
    let settings = settings(&query, &["replace"])?;
    // The layout checks the entries (once: the store does not check the objects' properties
    // again); the writer checks that the account may see the document (once, in the write's
    // transaction).
    let Laid { objects, notes } = lay_out(body, settings).await?;
    let object_count = objects.len();
    let version = s.store.add_objects(&me, &doc_id, objects, replace).await?;
    let answer = Json(DiagramCreated {
        success: true,
        object_count,
        notes: notes
            .into_iter()
            .map(|note| DiagramNote {
                line: note.line,
                text: note.text,
            })
            .collect(),
    });
    Ok(with_document_version(answer.into_response(), version))
}

/// `POST /api/v1/image/create-from-diagram`: the picture of the laid-out entries (PNG, or SVG
/// with `format=svg`), with from-document's parameters but its own defaults (2D, and 1024 ×
/// 768 unless `component-size` makes the sides follow); nothing is stored.
#[utoipa::path(post, operation_id = "createImageFromDiagram", path = "/api/v1/image/create-from-diagram", tag = "documents",
    params(
        ("view" = Option<String>, Query, pattern = "^[23][dD]$",
            description = "2D (default) or 3D, in any case"),
        ("width" = Option<u32>, Query, minimum = 1, maximum = 8192, description = "Pixels across (default 1024, or following from component-size)"),
        ("height" = Option<u32>, Query, minimum = 1, maximum = 8192, description = "Pixels down (default 768, or following from component-size)"),
        ("component-size" = Option<u32>, Query, minimum = 1, maximum = 8192,
            description = "Pixels across one component; the diagram is drawn at that scale and a side not given follows from it (400 when a side would pass 8192)"),
        ("format" = Option<String>, Query, pattern = "^(png|svg)$", description = "png (default), or svg (an extension of ours)"),
        LayoutParams,
    ),
    request_body(description = "Entries, as for create-diagram (a Mermaid flowchart as text/vnd.mermaid, a DOT graph as text/vnd.graphviz too)",
        content((Object = "application/json"), (String = "text/csv"))),
    responses(
        (status = 200, description = "The laid-out diagram drawn", content((Vec<u8> = "image/png"), (String = "image/svg+xml"))),
        Errors, BodyErrors))]
pub async fn image(
    _me: Account,
    query: QueryPairs,
    body: DiagramBody,
) -> Result<Response, ApiError> {
    let query = pairs(query)?;
    let named: BTreeMap<String, String> = query.iter().cloned().collect();
    let (mut picture, format) = picture_params(&named, View::Flat)?;
    if picture.component_size.is_none() {
        picture.width.get_or_insert(DEFAULT_WIDTH);
        picture.height.get_or_insert(DEFAULT_HEIGHT);
    }
    let settings = settings(&query, &PICTURE_PARAMS)?;
    let objects = lay_out(body, settings).await?.objects;
    let image = tokio::task::spawn_blocking(move || {
        draw(
            &Scene::build(&as_content(objects), DEFAULT_STATUS_KEY),
            format,
            &picture,
        )
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(([(header::CONTENT_TYPE, format.content_type())], image).into_response())
}

/// Laid-out objects as a document's content, with their types' defaults, as the store would
/// keep them.
fn as_content(objects: Objects) -> Content {
    objects
        .into_iter()
        .map(|(id, object)| {
            let data = match object.kind.parse::<ObjectType>() {
                Ok(kind) => new_object_data(kind, &object.data),
                Err(_) => object.data,
            };
            (
                id,
                DiagramObject {
                    kind: object.kind,
                    data,
                },
            )
        })
        .collect()
}
