//! JSON bodies as bytes, for content too big to hold as values: a request body sent as it is
//! given (from memory or read from a file as it goes out), and an answer's body read as it
//! arrives.

use bytes::Bytes;
use reqwest::Response;
use tokio::io::{AsyncRead, AsyncReadExt};

use super::versions::Versions;
use super::{ApiError, Client};

/// How much of a reader one piece of a streamed request body holds.
const READ_CHUNK: usize = 256 * 1024;

/// A request body of JSON text, sent as it is (the client neither parses nor checks it).
#[derive(Debug)]
pub struct JsonBody {
    body: reqwest::Body,
    length: u64,
}

impl JsonBody {
    /// A body already in memory.
    pub fn from_bytes(bytes: Bytes) -> JsonBody {
        JsonBody {
            length: bytes.len() as u64,
            body: bytes.into(),
        }
    }

    /// A body read from `reader` while it is sent, in pieces of 256 KiB: only a piece at a time
    /// is in memory. `length` is the number of bytes the reader gives, sent as `Content-Length`;
    /// the request fails, sending nothing past it, if the reader gives more or fewer (a file
    /// that changed since it was measured).
    pub fn from_reader(reader: impl AsyncRead + Send + Unpin + 'static, length: u64) -> JsonBody {
        let pieces =
            futures_util::stream::try_unfold((reader, 0), move |(mut reader, sent)| async move {
                let mut piece = Vec::with_capacity(READ_CHUNK);
                let read = reader.read_buf(&mut piece).await? as u64;
                let sent = sent + read;
                if sent > length || (read == 0 && sent < length) {
                    let gave = if read == 0 { "only " } else { "more than " };
                    let count = if read == 0 { sent } else { length };
                    return Err(std::io::Error::other(format!(
                        "the body gave {gave}{count} bytes where {length} were announced"
                    )));
                }
                Ok((read > 0).then_some((piece, (reader, sent))))
            });
        JsonBody {
            body: reqwest::Body::wrap_stream(pieces),
            length,
        }
    }

    /// The request with this body and its headers.
    pub(super) fn attach(self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::CONTENT_LENGTH, self.length)
            .body(self.body)
    }
}

/// The body of a successful answer, read piece by piece as it arrives.
#[derive(Debug)]
pub struct AnswerBody {
    response: Response,
    versions: Versions,
    client: Client,
}

impl AnswerBody {
    /// Wraps an answer whose status was a success.
    pub(super) fn new(response: Response, client: Client) -> AnswerBody {
        AnswerBody {
            versions: Versions::of(response.headers()),
            response,
            client,
        }
    }

    /// What the answer's headers say of versions (`obj/all`: the document's).
    pub fn versions(&self) -> Versions {
        self.versions
    }

    /// The next piece of the body; `None` once it is all read.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, ApiError> {
        self.response
            .chunk()
            .await
            .map_err(|e| self.client.transport(&e))
    }
}
