//! An event stream read over real HTTP with the client's SSE parser, for the server's suite and
//! the binary's (`tests/serve` includes this file).

use std::collections::VecDeque;
use std::time::Duration;

use diagtui_client::{SseEvent, SseItem, SseParser};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::Harness;

/// Longer than anything here should take: a hung stream fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(30);

/// An open event stream.
pub struct Stream {
    response: reqwest::Response,
    parser: SseParser,
    ready: VecDeque<SseItem>,
}

impl Stream {
    /// Opens a stream that must answer 200 with an event stream.
    pub(crate) async fn open(h: &Harness, path: &str, key: &str, last: Option<&str>) -> Stream {
        Stream::open_at(&h.http, h.server.url(), path, key, last).await
    }

    /// Opens a stream of the server at `base` (another instance, say).
    pub async fn open_at(
        http: &reqwest::Client,
        base: &str,
        path: &str,
        key: &str,
        last: Option<&str>,
    ) -> Stream {
        let mut request = http.get(format!("{base}{path}")).bearer_auth(key);
        if let Some(last) = last {
            request = request.header("Last-Event-ID", last);
        }
        let response = request.send().await.expect("the stream opens");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "{path}"
        );
        Stream {
            response,
            parser: SseParser::new(),
            ready: VecDeque::new(),
        }
    }

    /// A document's stream with the default key.
    pub(crate) async fn doc(h: &Harness, doc: &str, last: Option<&str>) -> Stream {
        Stream::open(h, &format!("/api/v1/doc/{doc}/events"), &h.key(), last).await
    }

    /// The next item; `None` when the stream ended (or its connection closed).
    pub(crate) async fn item(&mut self) -> Option<SseItem> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            let chunk = tokio::time::timeout(PATIENCE, self.response.chunk())
                .await
                .expect("an event in time");
            // An error is the connection closed mid-stream: an end too.
            self.ready.extend(self.parser.push(&chunk.ok()??));
        }
    }

    /// The next event (comments skipped).
    pub(crate) async fn event(&mut self) -> SseEvent {
        loop {
            match self.item().await.expect("an event, not the end") {
                SseItem::Event(event) => return event,
                SseItem::Comment(_) => {}
            }
        }
    }

    /// The next event named `name`, skipping the others: its data.
    #[allow(dead_code)]
    pub async fn until(&mut self, name: &str) -> Value {
        loop {
            let event = self.event().await;
            if event.event == name {
                return serde_json::from_str(&event.data).expect("JSON data");
            }
        }
    }

    /// The next event, which must be named `name`: its id and data.
    pub async fn expect(&mut self, name: &str) -> (String, Value) {
        let event = self.event().await;
        assert_eq!(event.event, name, "{event:?}");
        let data = serde_json::from_str(&event.data).expect("JSON data");
        (event.id.expect("an id"), data)
    }

    /// The stream must end next (comments aside).
    pub(crate) async fn ends(&mut self) {
        while let Some(item) = self.item().await {
            assert!(matches!(item, SseItem::Comment(_)), "{item:?}");
        }
    }
}
