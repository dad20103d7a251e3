//! The one error type of the client, and how transport failures and answers map onto it.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use diagtui_model::ErrorCode;

use diagtui_model::versions::PreconditionFailedBody;

use crate::versions::read_conflict;

/// Everything that can go wrong with a request. `Display` reads well on one line: the TUI's
/// status bar and the CLI's stderr show it as it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The server could not be reached (refused, unknown host, TLS failure, ...).
    #[error("could not connect to {url}: {detail}")]
    Connect {
        /// The server root that was tried.
        url: String,
        /// The root cause, e.g. `Connection refused (os error 111)`.
        detail: String,
    },
    /// No (complete) answer within the connect or request timeout.
    #[error("no answer from {url} within {}", Seconds(*after))]
    Timeout {
        /// The server root that was tried.
        url: String,
        /// The timeout that ran out.
        after: Duration,
    },
    /// The server answered with an error status.
    #[error("HTTP {status}{}: {message}", code.as_ref().map(|c| format!(" {c}")).unwrap_or_default())]
    Status {
        /// The HTTP status.
        status: u16,
        /// The error code of the body (`DOC_NOT_FOUND`, ...), when it had one.
        code: Option<ErrorCode>,
        /// The body's message, or the status's reason phrase.
        message: String,
    },
    /// The server answered 412 (our extension): the versions the write named are not the
    /// current ones, and nothing was written. It carries the current state.
    #[error("HTTP 412 {}: {}", .0.error, .0.message)]
    PreconditionFailed(Box<PreconditionFailedBody>),
    /// The answer was not the JSON expected.
    #[error("unexpected answer (HTTP {status}): {detail}; it began: {excerpt}")]
    Unexpected {
        /// The HTTP status.
        status: u16,
        /// What was wrong with it.
        detail: String,
        /// The start of the body, on one line.
        excerpt: String,
    },
    /// Anything else: a bad URL, a body that could not be sent, ...
    #[error("request failed: {detail}")]
    Request {
        /// What went wrong.
        detail: String,
    },
}

impl ApiError {
    /// The HTTP status, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } | ApiError::Unexpected { status, .. } => Some(*status),
            ApiError::PreconditionFailed(_) => Some(412),
            _ => None,
        }
    }

    /// The server's error code (`USER_NOT_FOUND`, ...), when its answer had one.
    pub fn code(&self) -> Option<&ErrorCode> {
        match self {
            ApiError::Status { code, .. } => code.as_ref(),
            ApiError::PreconditionFailed(conflict) => Some(&conflict.error),
            _ => None,
        }
    }

    /// The current state a 412 answer carried, when this is one.
    pub fn conflict(&self) -> Option<&PreconditionFailedBody> {
        match self {
            ApiError::PreconditionFailed(conflict) => Some(conflict),
            _ => None,
        }
    }

    /// Maps a transport error from reqwest. `url` is the server root; the timeouts tell which
    /// one ran out.
    pub(crate) fn from_transport(
        err: &reqwest::Error,
        url: &str,
        connect_timeout: Duration,
        request_timeout: Duration,
    ) -> ApiError {
        let url = url.to_owned();
        if err.is_timeout() {
            let after = if err.is_connect() {
                connect_timeout
            } else {
                request_timeout
            };
            ApiError::Timeout { url, after }
        } else if err.is_connect() {
            ApiError::Connect {
                url,
                detail: root_cause(err),
            }
        } else {
            ApiError::Request {
                detail: root_cause(err),
            }
        }
    }

    /// Maps an error answer (a status of 400 or more) with its body.
    pub(crate) fn from_error_answer(status: reqwest::StatusCode, body: &[u8]) -> ApiError {
        let reason = || {
            status
                .canonical_reason()
                .unwrap_or("no reason given")
                .to_owned()
        };
        if body.iter().all(u8::is_ascii_whitespace) {
            return ApiError::Status {
                status: status.as_u16(),
                code: None,
                message: reason(),
            };
        }
        if status == reqwest::StatusCode::PRECONDITION_FAILED
            && let Some(conflict) = read_conflict(body)
        {
            return ApiError::PreconditionFailed(Box::new(conflict));
        }
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => {
                let text =
                    |field: &str| value.get(field).and_then(Value::as_str).map(str::to_owned);
                ApiError::Status {
                    status: status.as_u16(),
                    code: text("error").as_deref().map(ErrorCode::from),
                    message: text("message").unwrap_or_else(reason),
                }
            }
            Err(_) => ApiError::unexpected(
                status.as_u16(),
                format!("{} with a body that is not JSON", reason()),
                body,
            ),
        }
    }

    /// An answer whose body was not the JSON expected.
    pub fn unexpected(status: u16, detail: impl Into<String>, body: &[u8]) -> ApiError {
        ApiError::Unexpected {
            status,
            detail: detail.into(),
            excerpt: excerpt(body),
        }
    }
}

/// The innermost cause of an error, which names the real trouble (`Connection refused`) where
/// the outer ones only say that a request failed.
fn root_cause(err: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = err;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    one_line(&cause.to_string())
}

/// The first 80 characters of a body, white space collapsed to single spaces.
fn excerpt(body: &[u8]) -> String {
    const LIMIT: usize = 80;
    let text = one_line(&String::from_utf8_lossy(body));
    if text.is_empty() {
        return "(nothing)".to_owned();
    }
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Collapses all white space (new lines included) to single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A duration shown in seconds: `5 s`, `0.25 s`.
struct Seconds(Duration);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} s", self.0.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::StatusCode;

    #[test]
    fn error_bodies_give_code_and_message() {
        let err = ApiError::from_error_answer(
            StatusCode::NOT_FOUND,
            br#"{"success":false,"error":"DOC_NOT_FOUND","message":"no document abc"}"#,
        );
        assert_eq!(err.status(), Some(404));
        assert_eq!(err.code(), Some(&ErrorCode::DocNotFound));
        assert_eq!(err.to_string(), "HTTP 404 DOC_NOT_FOUND: no document abc");
    }

    #[test]
    fn bodies_that_are_not_error_json_read_on_one_line() {
        let empty = ApiError::from_error_answer(StatusCode::UNAUTHORIZED, b"");
        assert_eq!(empty.to_string(), "HTTP 401: Unauthorized");
        let html = ApiError::from_error_answer(
            StatusCode::BAD_GATEWAY,
            b"<html>\n  <body>bad\n gateway</body></html>",
        );
        assert_eq!(html.status(), Some(502));
        assert_eq!(html.code(), None);
        assert_eq!(
            html.to_string(),
            "unexpected answer (HTTP 502): Bad Gateway with a body that is not JSON; \
             it began: <html> <body>bad gateway</body></html>"
        );
        let long = excerpt("é".repeat(200).as_bytes());
        assert_eq!(long.chars().count(), 81);
    }

    #[test]
    fn a_412_carries_the_current_state() {
        let err = ApiError::from_error_answer(
            StatusCode::PRECONDITION_FAILED,
            br#"{"success":false,"error":"PRECONDITION_FAILED","message":"1 object changed since the versions given: a (now 3)","documentVersion":3,"objects":{"a":{"type":"label","data":{"text":"new"},"version":3}}}"#,
        );
        assert_eq!(err.status(), Some(412));
        assert_eq!(err.code(), Some(&ErrorCode::PreconditionFailed));
        assert_eq!(
            err.to_string(),
            "HTTP 412 PRECONDITION_FAILED: 1 object changed since the versions given: a (now 3)"
        );
        let objects = err.conflict().unwrap().objects.as_ref().unwrap();
        assert_eq!(objects["a"].as_ref().unwrap().data["text"], "new");
        let plain = ApiError::from_error_answer(StatusCode::PRECONDITION_FAILED, b"");
        assert!(plain.conflict().is_none());
        assert_eq!(plain.status(), Some(412));
    }

    #[test]
    fn timeouts_show_seconds() {
        let err = ApiError::Timeout {
            url: "http://127.0.0.1:1".into(),
            after: Duration::from_millis(250),
        };
        assert_eq!(
            err.to_string(),
            "no answer from http://127.0.0.1:1 within 0.25 s"
        );
    }
}
