//! The metrics listener's application (`serve --metrics-bind`): `/metrics`, `/healthz` and
//! `/readyz`, apart from the public port so that it shows no internals.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::health;
use crate::error::{ApiError, not_found};
use crate::metrics::{CONTENT_TYPE, States};
use crate::state::AppState;

/// `GET /metrics`, on the metrics listener only.
async fn metrics(State(state): State<AppState>) -> Result<Response, ApiError> {
    let Some(metrics) = state.metrics.clone() else {
        return Err(ApiError::internal("metrics asked for with metrics off"));
    };
    let now = States {
        cache_bytes: state.store.cached_bytes(),
        pool: state.store.pool_status().unwrap_or_default(),
        event_streams: state.hub.subscribers(),
        embed_viewers: state.viewers.count(),
    };
    let text = metrics.scrape(&now).map_err(ApiError::internal)?;
    let mut response = text.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    Ok(response)
}

/// The metrics listener's application: `/metrics`, `/healthz`, `/readyz`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .fallback(not_found)
        .with_state(state)
}
