//! The error codes of the error contract (`{"success": false, "error": CODE, "message"}`): one
//! enum that the server answers with, the client reads back and the TUI branches on, so no code
//! is ever matched as text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A stable error code of the API. [`ErrorCode::status`] is the HTTP status the server pairs it
/// with; a code this build does not know (from another server) is kept as [`ErrorCode::Other`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// 400: the request is not valid HTTP (a malformed request line or header).
    BadRequest,
    /// 400: the body is not valid JSON.
    InvalidJson,
    /// 400: the body has the wrong shape or a property breaks a rule.
    ValidationError,
    /// 400: the selector is malformed.
    InvalidSelector,
    /// 401: no API key, or an unknown one.
    Unauthorized,
    /// 403: the account may not do this (a collaborator deleting a document).
    Forbidden,
    /// 404: no such route.
    NotFound,
    /// 404: no such document, or not visible to this account.
    DocNotFound,
    /// 404: no such object in the document.
    ObjNotFound,
    /// 404: add-collaborator for an e-mail with no account.
    UserNotFound,
    /// 404: no such folder of this account.
    FolderNotFound,
    /// 404: no such version in the document's history (our extension).
    VersionNotFound,
    /// 404: the version was compacted away by the history's retention (our extension).
    VersionPruned,
    /// No such embed, or not one of a document the account may see.
    EmbedNotFound,
    /// 405: the route exists, not with this method.
    MethodNotAllowed,
    /// 408: the request's body did not arrive in time.
    RequestTimeout,
    /// 409: an account with this e-mail exists already.
    EmailTaken,
    /// 412: a write's condition (`If-Match`, `ifVersions`) no longer holds; nothing was
    /// written (our extension).
    PreconditionFailed,
    /// 413: the body is over the server's limit.
    PayloadTooLarge,
    /// 414: the URI is longer than the server accepts.
    UriTooLong,
    /// 415: a body sent without `Content-Type: application/json`.
    UnsupportedMediaType,
    /// 431: the request's headers are larger than the server accepts.
    HeadersTooLarge,
    /// 500: the server failed.
    InternalError,
    /// 503: the server's database cannot be reached right now; the request may be tried again.
    Unavailable,
    /// 507: the server's disk is full; nothing can be written until there is room (reads go
    /// on).
    InsufficientStorage,
    /// A code this build does not know, as the server sent it.
    Other(String),
}

/// Every known code with its text, in one table that both directions read.
const KNOWN: [(ErrorCode, &str); 25] = [
    (ErrorCode::BadRequest, "BAD_REQUEST"),
    (ErrorCode::InvalidJson, "INVALID_JSON"),
    (ErrorCode::ValidationError, "VALIDATION_ERROR"),
    (ErrorCode::InvalidSelector, "INVALID_SELECTOR"),
    (ErrorCode::Unauthorized, "UNAUTHORIZED"),
    (ErrorCode::Forbidden, "FORBIDDEN"),
    (ErrorCode::NotFound, "NOT_FOUND"),
    (ErrorCode::DocNotFound, "DOC_NOT_FOUND"),
    (ErrorCode::ObjNotFound, "OBJ_NOT_FOUND"),
    (ErrorCode::UserNotFound, "USER_NOT_FOUND"),
    (ErrorCode::FolderNotFound, "FOLDER_NOT_FOUND"),
    (ErrorCode::VersionNotFound, "VERSION_NOT_FOUND"),
    (ErrorCode::VersionPruned, "VERSION_PRUNED"),
    (ErrorCode::EmbedNotFound, "EMBED_NOT_FOUND"),
    (ErrorCode::MethodNotAllowed, "METHOD_NOT_ALLOWED"),
    (ErrorCode::RequestTimeout, "REQUEST_TIMEOUT"),
    (ErrorCode::EmailTaken, "EMAIL_TAKEN"),
    (ErrorCode::PreconditionFailed, "PRECONDITION_FAILED"),
    (ErrorCode::PayloadTooLarge, "PAYLOAD_TOO_LARGE"),
    (ErrorCode::UriTooLong, "URI_TOO_LONG"),
    (ErrorCode::UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE"),
    (ErrorCode::HeadersTooLarge, "HEADERS_TOO_LARGE"),
    (ErrorCode::InternalError, "INTERNAL_ERROR"),
    (ErrorCode::Unavailable, "UNAVAILABLE"),
    (ErrorCode::InsufficientStorage, "INSUFFICIENT_STORAGE"),
];

impl ErrorCode {
    /// The code as it travels: `DOC_NOT_FOUND`.
    pub fn as_str(&self) -> &str {
        match self {
            ErrorCode::Other(text) => text,
            known => {
                KNOWN
                    .iter()
                    .find(|(code, _)| code == known)
                    .expect("every known code is in KNOWN")
                    .1
            }
        }
    }

    /// The HTTP status the server answers this code with (500 for an unknown one).
    pub fn status(&self) -> u16 {
        match self {
            ErrorCode::BadRequest
            | ErrorCode::InvalidJson
            | ErrorCode::ValidationError
            | ErrorCode::InvalidSelector => 400,
            ErrorCode::Unauthorized => 401,
            ErrorCode::Forbidden => 403,
            ErrorCode::NotFound
            | ErrorCode::DocNotFound
            | ErrorCode::ObjNotFound
            | ErrorCode::UserNotFound
            | ErrorCode::FolderNotFound
            | ErrorCode::VersionNotFound
            | ErrorCode::VersionPruned
            | ErrorCode::EmbedNotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::RequestTimeout => 408,
            ErrorCode::EmailTaken => 409,
            ErrorCode::PreconditionFailed => 412,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::UriTooLong => 414,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::HeadersTooLarge => 431,
            ErrorCode::InternalError | ErrorCode::Other(_) => 500,
            ErrorCode::Unavailable => 503,
            ErrorCode::InsufficientStorage => 507,
        }
    }
}

impl From<&str> for ErrorCode {
    /// Reads a code; one this build does not know becomes [`ErrorCode::Other`].
    fn from(text: &str) -> ErrorCode {
        KNOWN
            .iter()
            .find(|(_, known)| *known == text)
            .map(|(code, _)| code.clone())
            .unwrap_or_else(|| ErrorCode::Other(text.to_owned()))
    }
}

impl FromStr for ErrorCode {
    type Err = std::convert::Infallible;

    /// Reads a code; never fails (see the `From<&str>`).
    fn from_str(text: &str) -> Result<ErrorCode, Self::Err> {
        Ok(ErrorCode::from(text))
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(ErrorCode::from(text.as_str()))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(KNOWN.iter().map(|(_, text)| *text)))
            .description(Some("A stable error code"))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_code_reads_back_as_itself() {
        for (code, text) in &KNOWN {
            assert_eq!(code.as_str(), *text);
            assert_eq!(text.parse::<ErrorCode>().unwrap(), *code);
        }
    }

    #[test]
    fn an_unknown_code_is_kept_as_sent() {
        let code: ErrorCode = "RATE_LIMITED".parse().unwrap();
        assert_eq!(code, ErrorCode::Other("RATE_LIMITED".into()));
        assert_eq!(code.to_string(), "RATE_LIMITED");
    }

    #[test]
    fn travels_as_its_text_in_json() {
        let json = serde_json::to_string(&ErrorCode::DocNotFound).unwrap();
        assert_eq!(json, r#""DOC_NOT_FOUND""#);
        let back: ErrorCode = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ErrorCode::DocNotFound);
    }
}
