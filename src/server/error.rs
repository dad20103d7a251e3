//! The error contract: every failure answers `{"success": false, "error": CODE, "message"}`
//! with a fitting status.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::model::ErrorBody;
use crate::store::StoreError;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    /// An error answer with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400 `VALIDATION_ERROR`: the request's data breaks a rule.
    pub fn validation(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "VALIDATION_ERROR", message)
    }

    /// 400 `INVALID_SELECTOR`.
    pub fn selector(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "INVALID_SELECTOR", message)
    }

    /// 401 `UNAUTHORIZED`.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", message)
    }

    /// 500 `INTERNAL_ERROR`: the details go to the log, never to the client.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {detail}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "the server failed to handle the request; see its log",
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let message = e.to_string();
        let (status, code) = match e {
            StoreError::DocNotFound(_) => (StatusCode::NOT_FOUND, "DOC_NOT_FOUND"),
            StoreError::ObjNotFound(_) => (StatusCode::NOT_FOUND, "OBJ_NOT_FOUND"),
            StoreError::UserNotFound(_) => (StatusCode::NOT_FOUND, "USER_NOT_FOUND"),
            StoreError::FolderNotFound(_) => (StatusCode::NOT_FOUND, "FOLDER_NOT_FOUND"),
            StoreError::Invalid(_) => (StatusCode::BAD_REQUEST, "VALIDATION_ERROR"),
            StoreError::Forbidden(_) => (StatusCode::FORBIDDEN, "FORBIDDEN"),
            StoreError::EmailTaken(_) => (StatusCode::CONFLICT, "EMAIL_TAKEN"),
            StoreError::Internal(detail) => return ApiError::internal(detail),
        };
        ApiError::new(status, code, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            success: false,
            error: self.code.to_owned(),
            message: self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

/// The answer to a request for a route that does not exist.
pub async fn not_found(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!("no route for {method} {}", uri.path()),
    )
}

/// The answer to a known route called with the wrong method.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        format!("{} does not accept {method}", uri.path()),
    )
}
