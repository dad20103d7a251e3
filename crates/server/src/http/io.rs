//! A connection's byte stream as the HTTP layer sees it. It tells the connection's state when
//! bytes arrive, and it gives the HTTP layer's own rejections (a malformed request: 400, a URI
//! too long: 414, headers too large: 431) the body of the error contract. hyper writes those
//! with an empty body while no request has reached the application; the application never
//! answers an error with an empty body.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::connections::{Connection, Phase};
use diagtui_model::{ErrorBody, ErrorCode};

/// A connection's stream.
pub struct Stream<S> {
    inner: S,
    connection: Arc<Connection>,
    /// An error answer being written in place of hyper's: its bytes, how many are written, and
    /// how many of hyper's bytes it stands for.
    rewriting: Option<(Vec<u8>, usize, usize)>,
}

impl<S> Stream<S> {
    /// Wraps a connection's stream.
    pub fn new(inner: S, connection: Arc<Connection>) -> Stream<S> {
        Stream {
            inner,
            connection,
            rewriting: None,
        }
    }
}

/// The error answer standing in for hyper's empty-bodied one starting `head`, if `head` is one.
fn error_answer(head: &[u8]) -> Option<Vec<u8>> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let (code, message) = match status {
        b"400" => (
            ErrorCode::BadRequest,
            "the request is not valid HTTP (a malformed request line or header)",
        ),
        b"414" => (
            ErrorCode::UriTooLong,
            "the URI is longer than the server accepts",
        ),
        b"431" => (
            ErrorCode::HeadersTooLarge,
            "the request headers are larger than the server accepts",
        ),
        _ => return None,
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let empty = head[..end + 2]
        .split(|&b| b == b'\n')
        .any(|line| line.eq_ignore_ascii_case(b"content-length: 0\r"));
    if !empty {
        return None;
    }
    let body = serde_json::to_string(&ErrorBody {
        success: false,
        error: code.clone(),
        message: message.to_owned(),
    })
    .expect("an error body serialises");
    let reason = match code {
        ErrorCode::UriTooLong => "URI Too Long",
        ErrorCode::HeadersTooLarge => "Request Header Fields Too Large",
        _ => "Bad Request",
    };
    let status = code.status();
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

/// Whether `bytes` start a refusal (4xx) whose head says that the connection closes after it.
fn says_close(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"HTTP/1.1 4") {
        return false;
    }
    let head = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(bytes, |end| &bytes[..end + 2]);
    head.split(|&b| b == b'\n')
        .any(|line| line.eq_ignore_ascii_case(b"connection: close\r"))
}

impl<S: AsyncWrite + Unpin> Stream<S> {
    /// Writes the pending error answer; done, claims `claimed` bytes of hyper's as written.
    fn poll_rewrite(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((bytes, written, claimed)) = &mut self.rewriting else {
            unreachable!("called only while rewriting");
        };
        while *written < bytes.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        let claimed = *claimed;
        self.rewriting = None;
        Poll::Ready(Ok(claimed))
    }

    /// Starts rewriting when hyper writes its own answer; whether it did. Notes an answer
    /// that closes the connection after it.
    fn start_rewrite(&mut self, first: &[u8], total: usize) -> bool {
        if says_close(first) {
            self.connection.closing_answer_sent();
        }
        if self.rewriting.is_some()
            || matches!(self.connection.phase(), Phase::Busy | Phase::Streaming)
        {
            return self.rewriting.is_some();
        }
        match error_answer(first) {
            Some(answer) => {
                self.connection.closing_answer_sent();
                self.rewriting = Some((answer, 0, total));
                true
            }
            None => false,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Stream<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.connection.bytes_arrived();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Stream<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.start_rewrite(buf, buf.len()) {
            return self.poll_rewrite(cx);
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &b[..]);
        let total = bufs.iter().map(|b| b.len()).sum();
        if self.start_rewrite(first, total) {
            return self.poll_rewrite(cx);
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::error_answer;

    #[test]
    fn the_http_layers_rejections_get_the_error_body() {
        let hypers = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        let answer = error_answer(hypers).unwrap();
        let text = String::from_utf8(answer).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["error"], "HEADERS_TOO_LARGE");
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 60\r\n\r\n{}";
        assert!(
            error_answer(ours).is_none(),
            "an answer with a body is the application's"
        );
        assert!(error_answer(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }

    #[test]
    fn an_answer_closing_the_connection_is_told_by_its_head() {
        let closing = b"HTTP/1.1 413 Payload Too Large\r\nconnection: close\r\n\r\n{}";
        assert!(super::says_close(closing));
        assert!(super::says_close(
            &error_answer(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n").unwrap()
        ));
        assert!(!super::says_close(
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nconnection: close\r\n"
        ));
        assert!(!super::says_close(b"connection: close\r\n"), "not a head");
    }
}
