//! Request extractors that answer in the error contract: the calling account, path ids and
//! JSON bodies.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use percent_encoding::percent_decode_str;
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::state::AppState;
use crate::model::ErrorCode;
use crate::store::Account;

/// The API key a request carries: `Authorization: Bearer KEY`, else `?key=KEY`.
fn api_key(parts: &Parts) -> Option<String> {
    if let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) {
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
        state
            .db(move |store| store.account_by_key(&key))
            .await?
            .ok_or_else(|| ApiError::unauthorized("the API key is not valid"))
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

impl<T, S> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(body_error(rejection)),
        }
    }
}

/// The error answer for a body that could not be read as the expected JSON.
fn body_error(rejection: JsonRejection) -> ApiError {
    let text = rejection.body_text();
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "the body must be JSON, sent with Content-Type: application/json",
        ),
        JsonRejection::JsonSyntaxError(_) => ApiError::new(
            ErrorCode::InvalidJson,
            text.replace(
                "Failed to parse the request body as JSON: ",
                "the body is not valid JSON: ",
            ),
        ),
        JsonRejection::JsonDataError(_) => ApiError::validation(shape_message(&text)),
        _ if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            ErrorCode::PayloadTooLarge,
            "the body is larger than the server's limit (--max-body)",
        ),
        _ => ApiError::new(ErrorCode::InvalidJson, text),
    }
}

/// Turns serde's account of a body of the wrong shape into ours, which starts with the
/// property's path: `title: invalid type: integer `5`, expected a string`, `docId: is required`.
fn shape_message(text: &str) -> String {
    let text = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(text);
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
        let prefix = "Failed to deserialize the JSON body into the target type: ";
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
            assert_eq!(shape_message(&format!("{prefix}{given}")), wanted);
        }
    }
}
