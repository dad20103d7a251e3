//! The error contract: every failure answers `{"success": false, "error": CODE, "message"}`
//! with a fitting status.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use diagtui_model::versions::DOCUMENT_VERSION_HEADER;
use diagtui_model::{ErrorBody, ErrorCode};
use diagtui_store::StoreError;

/// An error answer: its code (which fixes the status) and message.
#[derive(Debug)]
pub struct ApiError {
    code: ErrorCode,
    message: String,
    /// The connection closes after the answer (`Connection: close`).
    closes: bool,
    /// Members the body adds to the contract's three, as JSON text (a 412's versions).
    extra: Option<String>,
    /// The document's version, sent as `X-Document-Version` (a 412).
    document_version: Option<u64>,
}

impl ApiError {
    /// An error answer with this code and message; the status is the code's.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            closes: false,
            extra: None,
            document_version: None,
        }
    }

    /// The same answer, closing the connection after it: the rest of the request (its body)
    /// is not read. The HTTP layer reads and drops what the client still sends before it
    /// closes, so that the answer arrives.
    pub fn closing(self) -> ApiError {
        ApiError {
            closes: true,
            ..self
        }
    }

    /// 400 `VALIDATION_ERROR`: the request's data breaks a rule.
    pub fn validation(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::ValidationError, message)
    }

    /// 401 `UNAUTHORIZED`.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Unauthorized, message)
    }

    /// 500 `INTERNAL_ERROR`: the details go to the log, never to the client.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {detail}");
        ApiError::new(
            ErrorCode::InternalError,
            "the server failed to handle the request; see its log",
        )
    }
}

impl ApiError {
    /// 503 `UNAVAILABLE`: the database cannot be reached; the details go to the log.
    pub fn unavailable(detail: impl std::fmt::Display) -> ApiError {
        tracing::warn!("database unavailable: {detail}");
        ApiError::new(
            ErrorCode::Unavailable,
            "the database cannot be reached right now; try again shortly",
        )
    }
}

impl ApiError {
    /// 507 `INSUFFICIENT_STORAGE`: the disk is full; the details go to the log.
    pub fn disk_full(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("disk full: {detail}");
        ApiError::new(
            ErrorCode::InsufficientStorage,
            "the server's disk is full: nothing can be written until there is room",
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let message = e.to_string();
        let code = match e {
            StoreError::DocNotFound(_) => ErrorCode::DocNotFound,
            StoreError::ObjNotFound(_) => ErrorCode::ObjNotFound,
            StoreError::UserNotFound(_) => ErrorCode::UserNotFound,
            StoreError::FolderNotFound(_) => ErrorCode::FolderNotFound,
            StoreError::VersionNotFound(_) => ErrorCode::VersionNotFound,
            StoreError::VersionPruned(..) => ErrorCode::VersionPruned,
            StoreError::EmbedNotFound(_) => ErrorCode::EmbedNotFound,
            StoreError::Invalid(_) => ErrorCode::ValidationError,
            StoreError::InvalidJson(_) => ErrorCode::InvalidJson,
            StoreError::InvalidSelector(_) => ErrorCode::InvalidSelector,
            StoreError::Forbidden(_) => ErrorCode::Forbidden,
            StoreError::EmailTaken(_) => ErrorCode::EmailTaken,
            StoreError::PreconditionFailed(failed) => {
                return ApiError {
                    extra: Some(failed.json_members()),
                    document_version: Some(failed.document_version),
                    ..ApiError::new(ErrorCode::PreconditionFailed, message)
                };
            }
            StoreError::Unavailable(_) => return ApiError::unavailable(message),
            StoreError::DiskFull(_) => return ApiError::disk_full(message),
            StoreError::Internal(_) | StoreError::Conflict => return ApiError::internal(message),
        };
        ApiError::new(code, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody {
            success: false,
            error: self.code,
            message: self.message,
        };
        let mut response = match self.extra {
            None => (status, Json(body)).into_response(),
            Some(extra) => {
                let mut text = serde_json::to_string(&body).expect("an error body serialises");
                text.pop();
                text.push(',');
                text.push_str(&extra);
                text.push('}');
                let json = [(header::CONTENT_TYPE, "application/json")];
                (status, json, text).into_response()
            }
        };
        if let Some(version) = self.document_version {
            response
                .headers_mut()
                .insert(DOCUMENT_VERSION_HEADER, HeaderValue::from(version));
        }
        if self.closes {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// The answer to a request for a route that does not exist.
pub async fn not_found(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        ErrorCode::NotFound,
        format!("no route for {method} {}", uri.path()),
    )
}

/// The answer to a known route called with the wrong method.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        format!("{} does not accept {method}", uri.path()),
    )
}
