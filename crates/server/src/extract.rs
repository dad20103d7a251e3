//! Request extractors that answer in the error contract: the calling account, path ids and
//! JSON bodies.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use percent_encoding::percent_decode_str;
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::state::{AppState, BodyLimits};
use diagtui_model::ErrorCode;
use diagtui_store::Account;

/// Bodies bigger than this are parsed on the blocking pool, so that one large request does not
/// hold up the small ones sharing its thread.
const OFFLOAD_PARSE_BYTES: usize = 256 * 1024;

/// The API key a request carries: `Authorization: Bearer KEY`, else `?key=KEY`.
fn api_key(parts: &Parts) -> Option<String> {
    if let Some(header) = parts.headers.get(header::AUTHORIZATION) {
        let text = header.to_str().ok()?.trim();
        let (scheme, key) = text.split_once(' ')?;
        return scheme
            .eq_ignore_ascii_case("bearer")
            .then(|| key.trim().to_owned());
    }
    parts.uri.query()?.split('&').find_map(|pair| {
        let value = pair.strip_prefix("key=")?;
        let value = value.replace('+', " ");
        Some(percent_decode_str(&value).decode_utf8().ok()?.into_owned())
    })
}

impl FromRequestParts<AppState> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Account, ApiError> {
        let key = api_key(parts).filter(|k| !k.is_empty()).ok_or_else(|| {
            ApiError::unauthorized(
                "an API key is required: send Authorization: Bearer KEY or ?key=KEY",
            )
        })?;
        let account = state
            .store
            .authenticate(&key)
            .await?
            .ok_or_else(|| ApiError::unauthorized("the API key is not valid"))?;
        tracing::Span::current().record("account", account.id.as_str());
        Ok(account)
    }
}

/// Path parameters, answering a malformed path in the error contract.
pub struct Ids<T>(pub T);

impl<T, S> FromRequestParts<S> for Ids<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Ids<T>, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Ids(value))
            .map_err(|e| ApiError::validation(format!("bad path: {}", e.body_text())))
    }
}

/// A JSON request body, answering each way it can be wrong with its own status and code.
pub struct Body<T>(pub T);

impl<T> FromRequest<AppState> for Body<T>
where
    T: DeserializeOwned + Send + 'static,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Body<T>, ApiError> {
        let bytes = JsonBytes::from_request(req, state).await?.0;
        parse_off_thread(bytes, |bytes| parse_json(&bytes))
            .await
            .map(Body)
    }
}

/// A JSON request body's bytes, unparsed: the content type checked, the size refused before
/// reading when `Content-Length` is over the limit, the reading bounded in time.
pub struct JsonBytes(pub Bytes);

impl FromRequest<AppState> for JsonBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<JsonBytes, ApiError> {
        check_json_type(req.headers())?;
        read_body(req, state.bodies).await.map(JsonBytes)
    }
}

/// Refuses a body not sent as JSON.
fn check_json_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|essence| essence.trim().to_ascii_lowercase())
        .is_some_and(|essence| {
            essence == "application/json"
                || (essence.starts_with("application/") && essence.ends_with("+json"))
        });
    if is_json {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "the body must be JSON, sent with Content-Type: application/json",
        ))
    }
}

/// The error for a body over the limit; the rest of the body is not read.
fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        "the body is larger than the server's limit (--max-body)",
    )
    .closing()
}

/// Reads a whole body: refused at once when its `Content-Length` is over the limit (so no
/// `100 Continue` is sent), read into one buffer sized from that length, and given up when it
/// takes longer than the body timeout. A refused body is not read further: the answer closes
/// the connection, which the HTTP layer drains first (see `http::linger`).
pub(crate) async fn read_body(req: Request, limits: BodyLimits) -> Result<Bytes, ApiError> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_bytes as u64) {
        return Err(too_large());
    }
    let mut body = req.into_body();
    let reading = async {
        let mut first: Option<Bytes> = None;
        let mut buffer: Option<BytesMut> = None;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                ApiError::new(
                    ErrorCode::InvalidJson,
                    format!("the body could not be read: {e}"),
                )
            })?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let so_far =
                first.as_ref().map_or(0, Bytes::len) + buffer.as_ref().map_or(0, BytesMut::len);
            if so_far + data.len() > limits.max_bytes {
                return Err(None);
            }
            match (&mut buffer, first.take()) {
                (Some(buffer), _) => buffer.extend_from_slice(&data),
                (None, None) => first = Some(data),
                (None, Some(earlier)) => {
                    let size = declared
                        .map_or(0, |d| d as usize)
                        .max(earlier.len() + data.len());
                    let mut joined = BytesMut::with_capacity(size);
                    joined.extend_from_slice(&earlier);
                    joined.extend_from_slice(&data);
                    buffer = Some(joined);
                }
            }
        }
        Ok(buffer.map(BytesMut::freeze).or(first).unwrap_or_default())
    };
    let read = tokio::time::timeout(limits.timeout, reading).await;
    match read {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(Some(error))) => Err(error),
        Ok(Err(None)) => Err(too_large()),
        Err(_) => Err(ApiError::new(
            ErrorCode::RequestTimeout,
            format!(
                "the body did not arrive within {} s",
                limits.timeout.as_secs_f64()
            ),
        )
        .closing()),
    }
}

/// Runs `parse` on a body: here when it is small, on the blocking pool when it is big.
pub async fn parse_off_thread<T, F>(bytes: Bytes, parse: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(Bytes) -> Result<T, ApiError> + Send + 'static,
{
    if bytes.len() <= OFFLOAD_PARSE_BYTES {
        return parse(bytes);
    }
    tokio::task::spawn_blocking(move || parse(bytes))
        .await
        .map_err(ApiError::internal)?
}

/// Parses a JSON body as `T`, answering each way it can be wrong with its own code: not JSON
/// (`INVALID_JSON`), or JSON of the wrong shape (`VALIDATION_ERROR` naming the property, found
/// by parsing again with the path tracked, which only a refused body pays for).
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    use serde_json::error::Category;
    let error = match serde_json::from_slice(bytes) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    if error.classify() != Category::Data {
        return Err(ApiError::new(
            ErrorCode::InvalidJson,
            format!("the body is not valid JSON: {error}"),
        ));
    }
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let message = match serde_path_to_error::deserialize::<_, T>(&mut reader) {
        Err(tracked) => tracked.to_string(),
        Ok(_) => error.to_string(),
    };
    Err(ApiError::validation(shape_message(&message)))
}

/// Turns serde's account of a body of the wrong shape into ours, which starts with the
/// property's path: `title: invalid type: integer `5`, expected a string`, `docId: is required`.
fn shape_message(text: &str) -> String {
    let text = text.rfind(" at line ").map_or(text, |at| &text[..at]);
    let missing = |rest: &str| rest.split('`').nth(1).map(str::to_owned);
    if let Some(name) = text.strip_prefix("missing field ").and_then(missing) {
        return format!("{name}: is required");
    }
    if let Some((path, rest)) = text.split_once(": missing field ")
        && let Some(name) = missing(rest)
    {
        return format!("{path}.{name}: is required");
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::shape_message;

    #[test]
    fn shape_messages_start_with_the_property() {
        for (given, wanted) in [
            (
                "missing field `title` at line 1 column 2",
                "title: is required",
            ),
            (
                "objects.a: missing field `x` at line 1 column 9",
                "objects.a.x: is required",
            ),
            (
                "title: invalid type: integer `5`, expected a string at line 1 column 10",
                "title: invalid type: integer `5`, expected a string",
            ),
        ] {
            assert_eq!(shape_message(given), wanted);
        }
    }
}
