//! Following a change event stream (our server's extension) across lost connections:
//! reconnecting with a growing pause (0.5 s doubling to 10 s) and the `Last-Event-ID`, telling
//! when the server has no such stream (poll instead) and when it cannot go on.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::time::Duration;

use reqwest::{Response, Url};

use super::sse::{SseEvent, SseItem, SseParser};
use super::{ApiError, Client};
use crate::route;
use diagtui_model::ErrorCode;
use diagtui_model::events::{
    AccountEvent, DocChangeEvent, EVENT_CHANGE, EVENT_CURRENT, EVENT_RESYNC, ResyncEvent,
};

/// The default time between polls of a server without change events (the TUI's, `doc watch`'s).
pub const DEFAULT_POLL: Duration = Duration::from_secs(5);

/// The first pause before reconnecting.
pub const FIRST_RETRY: Duration = Duration::from_millis(500);
/// The longest pause before reconnecting.
pub const LAST_RETRY: Duration = Duration::from_secs(10);
/// A stream silent this long is taken for lost (the server sends a keep-alive every 15 s).
pub const SILENCE: Duration = Duration::from_secs(40);

/// What following a stream brings.
#[derive(Debug, Clone, PartialEq)]
pub enum Watched<T> {
    /// The stream is open (again); its events follow.
    Connected,
    /// An event.
    Event(T),
    /// The connection failed or the stream ended; the next try is after `retry_in`.
    Lost {
        /// What went wrong.
        error: ApiError,
        /// The pause before the next try.
        retry_in: Duration,
    },
    /// The server has no such stream (another implementation of the API, or an older one):
    /// poll instead. Nothing follows.
    Unsupported(ApiError),
    /// The stream cannot go on (the document is gone or not visible, the key is refused).
    /// Nothing follows.
    Failed(ApiError),
}

/// An event of a document's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocStreamEvent {
    /// The document's state as the stream opens.
    Current(DocChangeEvent),
    /// One committed write request.
    Change(DocChangeEvent),
    /// Events were missed: reload the document.
    Resync(ResyncEvent),
}

/// An event of the account's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountStreamEvent {
    /// The stream opened (reload the list if it may be old).
    Current,
    /// A change to one of the account's documents as a whole.
    Change(AccountEvent),
    /// Events were missed: reload the list.
    Resync(ResyncEvent),
}

/// An event type read from a stream's events.
pub trait StreamEvent: Sized {
    /// The event an SSE event is; `None` for an event name it does not know (skipped), an
    /// error for data that is not what the name says.
    fn read(event: &SseEvent) -> Option<Result<Self, serde_json::Error>>;
}

impl StreamEvent for DocStreamEvent {
    fn read(event: &SseEvent) -> Option<Result<Self, serde_json::Error>> {
        let data = event.data.as_str();
        Some(match event.event.as_str() {
            EVENT_CURRENT => serde_json::from_str(data).map(DocStreamEvent::Current),
            EVENT_CHANGE => serde_json::from_str(data).map(DocStreamEvent::Change),
            EVENT_RESYNC => serde_json::from_str(data).map(DocStreamEvent::Resync),
            _ => return None,
        })
    }
}

impl StreamEvent for AccountStreamEvent {
    fn read(event: &SseEvent) -> Option<Result<Self, serde_json::Error>> {
        let data = event.data.as_str();
        Some(match event.event.as_str() {
            EVENT_CURRENT => Ok(AccountStreamEvent::Current),
            EVENT_CHANGE => serde_json::from_str(data).map(AccountStreamEvent::Change),
            EVENT_RESYNC => serde_json::from_str(data).map(AccountStreamEvent::Resync),
            _ => return None,
        })
    }
}

/// The pause before each next try: 0.5 s, doubling up to 10 s; back to the start once an event
/// arrives.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff { next: FIRST_RETRY }
    }
}

impl Backoff {
    /// The pause before the next try; the one after is longer.
    pub fn pause(&mut self) -> Duration {
        let pause = self.next;
        self.next = (self.next * 2).min(LAST_RETRY);
        pause
    }

    /// Back to the shortest pause.
    pub fn reset(&mut self) {
        self.next = FIRST_RETRY;
    }
}

/// Where a watch is.
enum State {
    /// Connecting, after a pause.
    Connect(Duration),
    /// Reading the open stream.
    Open(Box<(Response, SseParser)>),
    /// Over: unsupported or failed.
    Over,
}

/// How a try to open the stream went wrong.
enum Refusal {
    /// Try again later.
    Retry(ApiError),
    /// The server has no such stream.
    Unsupported(ApiError),
    /// It cannot go on.
    Fatal(ApiError),
}

/// A change event stream followed across lost connections.
pub struct Watch<T> {
    client: Client,
    url: Url,
    last_id: Option<String>,
    state: State,
    backoff: Backoff,
    ready: VecDeque<Watched<T>>,
    _events: PhantomData<fn() -> T>,
}

impl Client {
    /// Follows a document's change events (`GET /doc/{docId}/events`, our extension).
    pub fn watch_doc(&self, doc: &str) -> Watch<DocStreamEvent> {
        Watch::new(self.clone(), self.url_of(&route::doc_events(doc)))
    }

    /// Follows the account's change events (`GET /events`, our extension).
    pub fn watch_account(&self) -> Watch<AccountStreamEvent> {
        Watch::new(self.clone(), self.url_of(&route::events()))
    }
}

impl<T: StreamEvent> Watch<T> {
    fn new(client: Client, url: Url) -> Watch<T> {
        Watch {
            client,
            url,
            last_id: None,
            state: State::Connect(Duration::ZERO),
            backoff: Backoff::default(),
            ready: VecDeque::new(),
            _events: PhantomData,
        }
    }

    /// The id of the last event read, sent back as `Last-Event-ID` when reconnecting.
    pub fn last_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// The next thing that happens; `None` once the watch is over. Not cancel-safe while it
    /// pauses before a try (the pause starts again): run it in a task of its own.
    pub async fn next(&mut self) -> Option<Watched<T>> {
        loop {
            if let Some(next) = self.ready.pop_front() {
                return Some(next);
            }
            match &mut self.state {
                State::Over => return None,
                State::Connect(pause) => {
                    tokio::time::sleep(*pause).await;
                    return Some(match self.connect().await {
                        Ok(response) => {
                            self.state = State::Open(Box::new((response, SseParser::new())));
                            Watched::Connected
                        }
                        Err(Refusal::Retry(error)) => self.lost(error),
                        Err(Refusal::Unsupported(error)) => {
                            self.state = State::Over;
                            Watched::Unsupported(error)
                        }
                        Err(Refusal::Fatal(error)) => {
                            self.state = State::Over;
                            Watched::Failed(error)
                        }
                    });
                }
                State::Open(open) => {
                    let (response, parser) = &mut **open;
                    let chunk = match response.chunk().await {
                        Ok(Some(chunk)) => chunk,
                        Ok(None) => {
                            return Some(self.lost(ApiError::Request {
                                detail: "the server ended the event stream".into(),
                            }));
                        }
                        Err(e) => return Some(self.lost(self.client.transport(&e))),
                    };
                    for item in parser.push(&chunk) {
                        if let SseItem::Event(event) = item
                            && let Err(error) = self.take(&event)
                        {
                            return Some(self.lost(error));
                        }
                    }
                }
            }
        }
    }

    /// Takes an event read: notes its id and queues it.
    fn take(&mut self, event: &SseEvent) -> Result<(), ApiError> {
        if event.id.is_some() {
            self.last_id.clone_from(&event.id);
        }
        match T::read(event) {
            None => Ok(()),
            Some(Ok(read)) => {
                self.backoff.reset();
                self.ready.push_back(Watched::Event(read));
                Ok(())
            }
            Some(Err(e)) => Err(ApiError::unexpected(
                200,
                format!(
                    "a \"{}\" event that is not the JSON expected ({e})",
                    event.event
                ),
                event.data.as_bytes(),
            )),
        }
    }

    /// The connection is lost: the next try is after a pause.
    fn lost(&mut self, error: ApiError) -> Watched<T> {
        let retry_in = self.backoff.pause();
        self.state = State::Connect(retry_in);
        Watched::Lost { error, retry_in }
    }

    /// Opens the stream.
    async fn connect(&self) -> Result<Response, Refusal> {
        let mut request = self
            .client
            .streams
            .get(self.url.clone())
            .header(reqwest::header::ACCEPT, "text/event-stream");
        if let Some(last) = &self.last_id {
            request = request.header("last-event-id", last);
        }
        let response = self.client.respond(request).await.map_err(refusal)?;
        let is_stream = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        if is_stream {
            Ok(response)
        } else {
            Err(Refusal::Unsupported(ApiError::Request {
                detail: format!("{} does not answer with an event stream", self.url),
            }))
        }
    }
}

/// What an error opening a stream means for the watch.
fn refusal(error: ApiError) -> Refusal {
    match (error.status(), error.code()) {
        (None, _) => Refusal::Retry(error),
        (Some(404), Some(ErrorCode::DocNotFound)) => Refusal::Fatal(error),
        (Some(404 | 405 | 501), _) => Refusal::Unsupported(error),
        (Some(status), _) if status == 408 || status == 429 || status >= 500 => {
            Refusal::Retry(error)
        }
        _ => Refusal::Fatal(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_from_half_a_second_to_ten() {
        let mut backoff = Backoff::default();
        let pauses: Vec<_> = (0..7).map(|_| backoff.pause().as_millis()).collect();
        assert_eq!(pauses, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
        backoff.reset();
        assert_eq!(backoff.pause(), FIRST_RETRY);
    }

    #[test]
    fn a_missing_route_is_unsupported_and_a_missing_document_fatal() {
        let status = |status, code| ApiError::Status {
            status,
            code,
            message: String::new(),
        };
        let kind = |error| match refusal(error) {
            Refusal::Retry(_) => "retry",
            Refusal::Unsupported(_) => "unsupported",
            Refusal::Fatal(_) => "fatal",
        };
        assert_eq!(kind(status(404, Some(ErrorCode::NotFound))), "unsupported");
        assert_eq!(kind(status(404, None)), "unsupported");
        assert_eq!(kind(status(405, None)), "unsupported");
        assert_eq!(kind(status(404, Some(ErrorCode::DocNotFound))), "fatal");
        assert_eq!(kind(status(401, Some(ErrorCode::Unauthorized))), "fatal");
        assert_eq!(kind(status(503, None)), "retry");
        let refused = ApiError::Connect {
            url: "http://x".into(),
            detail: "refused".into(),
        };
        assert_eq!(kind(refused), "retry");
    }
}
