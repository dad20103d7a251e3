//! The request id: the client's `x-request-id` when it sends a sensible one (1 to 128 visible
//! ASCII characters), else a new UUID; set on the request for the log line (see [`trace`]) and
//! echoed in the answer. A client's id that is not sensible is replaced, not logged: a header
//! of 400 KiB or with odd bytes never reaches the log.
//!
//! [`trace`]: super::trace

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The header carrying the request id, both ways.
pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// The longest request id taken from a client.
const MAX_LEN: usize = 128;

/// Middleware: gives the request its id and echoes it in the answer.
pub async fn request_id(mut request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|id| sensible(id))
        .cloned()
        .unwrap_or_else(new_id);
    request.headers_mut().insert(X_REQUEST_ID, id.clone());
    let mut response = next.run(request).await;
    response.headers_mut().insert(X_REQUEST_ID, id);
    response
}

/// Whether a client's id is taken as it is.
fn sensible(id: &HeaderValue) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty() && bytes.len() <= MAX_LEN && bytes.iter().all(u8::is_ascii_graphic)
}

/// A new id: a random UUID.
fn new_id() -> HeaderValue {
    HeaderValue::from_str(&uuid::Uuid::new_v4().to_string()).expect("a UUID is a header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_visible_ids_are_taken() {
        assert!(sensible(&HeaderValue::from_static("abc-123_XYZ")));
        assert!(!sensible(&HeaderValue::from_static("")));
        assert!(!sensible(&HeaderValue::from_static("has space")));
        let long = "x".repeat(MAX_LEN + 1);
        assert!(!sensible(&HeaderValue::from_str(&long).unwrap()));
        assert!(sensible(&new_id()));
    }
}
