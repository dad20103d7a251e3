//! Versions on the wire (our extension, see docs/api.md "Conditional writes and versions"):
//! reading `If-Match` / `If-None-Match`, answering `ETag` and `X-Document-Version`, and 304.

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use diagtui_model::versions::{DOCUMENT_VERSION_HEADER, VersionCondition, etag};

/// The condition a request's header names, if it has the header; 400 naming the header when
/// its value is not one.
fn condition(
    headers: &HeaderMap,
    name: HeaderName,
    label: &str,
) -> Result<Option<VersionCondition>, ApiError> {
    let Some(value) = headers.get(&name) else {
        return Ok(None);
    };
    let text = value
        .to_str()
        .map_err(|_| ApiError::validation(format!("{label}: not text")))?;
    VersionCondition::parse(text)
        .map(Some)
        .map_err(|e| ApiError::validation(format!("{label}: {e}")))
}

/// The request's `If-Match`, if any.
pub fn if_match(headers: &HeaderMap) -> Result<Option<VersionCondition>, ApiError> {
    condition(headers, header::IF_MATCH, "If-Match")
}

/// The request's `If-None-Match`, if any.
pub fn if_none_match(headers: &HeaderMap) -> Result<Option<VersionCondition>, ApiError> {
    condition(headers, header::IF_NONE_MATCH, "If-None-Match")
}

/// Adds `ETag: "<version>"` to an answer.
pub fn with_etag(mut response: Response, version: u64) -> Response {
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// Adds `X-Document-Version: <version>` to an answer.
pub fn with_document_version(mut response: Response, version: u64) -> Response {
    response
        .headers_mut()
        .insert(DOCUMENT_VERSION_HEADER, HeaderValue::from(version));
    response
}

/// `304 Not Modified`, no body, with the ETag of what the client has.
pub fn not_modified(version: u64) -> Response {
    with_etag(StatusCode::NOT_MODIFIED.into_response(), version)
}
