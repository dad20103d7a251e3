//! `GET /healthz` and `GET /readyz`, for load balancers and supervisors: no key, and nothing
//! about the data in the answer. Alive is the process answering; ready is the store answering a
//! read within [`READY_TIMEOUT`] with this build's schema, the last write not having found the
//! disk full, and the server not draining (a graceful stop turns it 503 first).

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use super::schemas::Errors;
use crate::state::AppState;
use diagtui_store::NotReady;

/// How long the store may take to answer the readiness check's read.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// The answer of `healthz` and `readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` (healthz), `ready` or `not ready` (readyz).
    #[schema(example = "ready")]
    pub status: &'static str,
    /// Why it is not ready: `draining`, `database` (no answer in time), `schema` (not this
    /// build's) or `disk_full`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// `GET /healthz`: the process answers.
#[utoipa::path(get, operation_id = "getHealth", path = "/healthz", tag = "meta", security(()),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "Alive: `{\"status\": \"ok\"}`", body = Health), Errors))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        reason: None,
    })
}

/// `GET /readyz`: whether this instance should be sent requests.
#[utoipa::path(get, operation_id = "getReadiness", path = "/readyz", tag = "meta", security(()),
    extensions(("x-diagtui-extension" = json!(true))),
    responses(
        (status = 200, description = "Ready: `{\"status\": \"ready\"}`", body = Health),
        Errors,
        (status = 503, description = "Not ready, and why: `{\"status\": \"not ready\", \"reason\": \"database\"}`", body = Health),
    ))]
pub async fn readyz(State(s): State<AppState>) -> (StatusCode, Json<Health>) {
    let reason = if s.draining.is_set() {
        Some("draining")
    } else {
        match tokio::time::timeout(READY_TIMEOUT, s.store.ready()).await {
            Ok(Ok(())) => None,
            Ok(Err(not_ready)) => {
                tracing::info!("not ready: {not_ready}");
                Some(match not_ready {
                    NotReady::Database(_) => "database",
                    NotReady::Schema(_) => "schema",
                    NotReady::DiskFull => "disk_full",
                })
            }
            Err(_) => {
                tracing::info!("not ready: the database did not answer within {READY_TIMEOUT:?}");
                Some("database")
            }
        }
    };
    match reason {
        None => (
            StatusCode::OK,
            Json(Health {
                status: "ready",
                reason: None,
            }),
        ),
        Some(reason) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(Health {
                status: "not ready",
                reason: Some(reason),
            }),
        ),
    }
}
