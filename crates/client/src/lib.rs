//! The typed async client of the Diagram Document REST API, shared by the TUI, the CLI and the
//! tests. One method per route (in `documents`, `objects` and `folders`); every failure is one
//! [`ApiError`]. Content, the one body that grows with a document, can also be sent and read as
//! raw JSON bytes ([`JsonBody`], [`AnswerBody`]) without building it as values. Our server's
//! change event streams are followed with [`Watch`] (`watch_doc`, `watch_account`), and its
//! versions read and named by the `*_versioned` reads and the `*_if` writes (a
//! 412 is [`ApiError::PreconditionFailed`] with the current state).

mod diagram;
mod documents;
mod embeds;
mod error;
mod folders;
mod history;
mod json_body;
mod key;
mod objects;
pub mod route;
mod sse;
mod versions;
mod watch;

use crate::route::{Method, Route};
use std::sync::Arc;
use std::time::Duration;

use reqwest::{RequestBuilder, Response, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use diagtui_model::Success;

pub use diagram::{entries_content_type, entries_title, entries_unusable};
pub use error::{ApiError, one_line};
/// Collapses white space to single spaces: errors read on one line (the CLI uses it too).
pub use json_body::{AnswerBody, JsonBody};
pub use key::ApiKey;
pub use sse::{SseEvent, SseItem, SseParser};
pub use versions::{VersionedContent, VersionedObject, Versions, conflicting_ids};
pub use watch::{
    AccountStreamEvent, Backoff, DEFAULT_POLL, DocStreamEvent, FIRST_RETRY, LAST_RETRY,
    StreamEvent, Watch, Watched,
};

/// The `User-Agent` of every request.
const USER_AGENT: &str = concat!("diagtui/", env!("CARGO_PKG_VERSION"));

/// Where and how to connect.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The server root, e.g. `http://127.0.0.1:8737` (without `/api/v1`).
    pub base_url: String,
    /// The key sent as `Authorization: Bearer`.
    pub api_key: ApiKey,
    /// How long to wait for a connection (default 5 s).
    pub connect_timeout: Duration,
    /// How long to wait for a whole answer (default 30 s).
    pub request_timeout: Duration,
}

impl ClientConfig {
    /// The default connect timeout.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
    /// The default request timeout.
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

    /// A configuration with the default timeouts.
    pub fn new(base_url: impl Into<String>, api_key: ApiKey) -> ClientConfig {
        ClientConfig {
            base_url: base_url.into(),
            api_key,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

/// A client of one server with one key. Cheap to clone: clones share one connection pool.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    /// For event streams: no limit on the whole answer, only on silence.
    streams: reqwest::Client,
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ClientConfig,
    /// `base_url` + `/api/v1`.
    api_root: Url,
}

impl Client {
    /// Builds a client; fails on a base URL that is not an `http`/`https` URL.
    pub fn new(mut config: ClientConfig) -> Result<Client, ApiError> {
        let trimmed = config.base_url.trim().trim_end_matches('/').to_owned();
        let bad_url = |why: String| ApiError::Request {
            detail: format!("bad server URL \"{trimmed}\": {why}"),
        };
        let mut api_root = Url::parse(&trimmed).map_err(|e| bad_url(e.to_string()))?;
        if !matches!(api_root.scheme(), "http" | "https") {
            return Err(bad_url("the scheme must be http or https".into()));
        }
        api_root
            .path_segments_mut()
            .map_err(|()| bad_url("it cannot have a path".into()))?
            .pop_if_empty()
            .extend(["api", "v1"]);
        config.base_url = trimmed;
        let builder = || {
            reqwest::Client::builder()
                .user_agent(USER_AGENT)
                .connect_timeout(config.connect_timeout)
        };
        let built = |built: reqwest::Result<reqwest::Client>| {
            built.map_err(|e| ApiError::Request {
                detail: e.to_string(),
            })
        };
        let http = built(builder().timeout(config.request_timeout).build())?;
        let streams = built(builder().read_timeout(watch::SILENCE).build())?;
        Ok(Client {
            http,
            streams,
            inner: Arc::new(Inner { config, api_root }),
        })
    }

    /// The server root this client talks to (without a trailing `/`).
    pub fn base_url(&self) -> &str {
        &self.inner.config.base_url
    }

    /// The URL of an API path, each segment percent-encoded as a path segment.
    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.inner.api_root.clone();
        url.path_segments_mut()
            .expect("checked in Client::new: the URL can have a path")
            .extend(segments);
        url
    }

    /// The URL of `route`: its segments percent-encoded, then its query.
    fn url_of(&self, route: &Route) -> Url {
        let segments: Vec<&str> = route.segments.iter().map(String::as_str).collect();
        let mut url = self.url(&segments);
        if let Some(encoded) = &route.encoded {
            let path = format!("{}/{encoded}", url.path());
            url.set_path(&path);
        }
        if !route.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&route.query);
        }
        url
    }

    /// A request of `route` (its method, its URL), to send.
    fn request(&self, route: &Route) -> RequestBuilder {
        let method = match route.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
        };
        self.http.request(method, self.url_of(route))
    }

    /// `GET` a route and decode the answer.
    async fn get<T: DeserializeOwned>(&self, route: &Route) -> Result<T, ApiError> {
        self.send(self.request(route)).await
    }

    /// A `POST` with a JSON body (or none).
    fn post_request<B: Serialize + ?Sized>(
        &self,
        route: &Route,
        body: Option<&B>,
    ) -> RequestBuilder {
        let request = self.request(route);
        match body {
            Some(body) => request.json(body),
            None => request,
        }
    }

    /// `POST` a JSON body (or none) and decode the answer.
    async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        route: &Route,
        body: Option<&B>,
    ) -> Result<T, ApiError> {
        self.send(self.post_request(route, body)).await
    }

    /// A request with `If-Match: "<version>"` when a version is given.
    fn if_match(request: RequestBuilder, version: Option<u64>) -> RequestBuilder {
        match version {
            Some(version) => request.header(
                reqwest::header::IF_MATCH,
                diagtui_model::versions::etag(version),
            ),
            None => request,
        }
    }

    /// `POST` a write whose answer is `{ success: true }`.
    async fn post_ok<B: Serialize + ?Sized>(
        &self,
        route: &Route,
        body: Option<&B>,
    ) -> Result<(), ApiError> {
        self.send_ok(self.post_request(route, body)).await
    }

    /// Sends a write whose answer is `{ success: true }`.
    async fn send_ok(&self, request: RequestBuilder) -> Result<(), ApiError> {
        self.send_ok_versioned(request).await.map(|_| ())
    }

    /// Sends a write whose answer is `{ success: true }`; what its headers say of versions.
    async fn send_ok_versioned(&self, request: RequestBuilder) -> Result<Versions, ApiError> {
        let (answer, versions): (Success, _) = self.send_versioned(request).await?;
        if answer.success {
            Ok(versions)
        } else {
            Err(ApiError::unexpected(
                200,
                "the answer says success: false",
                br#"{"success":false}"#,
            ))
        }
    }

    /// Sends a request with the key and turns the answer into `T` or an [`ApiError`].
    async fn send<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, ApiError> {
        Ok(self.send_versioned(request).await?.0)
    }

    /// [`Client::send`], with what the answer's headers say of versions.
    async fn send_versioned<T: DeserializeOwned>(
        &self,
        request: RequestBuilder,
    ) -> Result<(T, Versions), ApiError> {
        let response = self.respond(request).await?;
        let versions = Versions::of(response.headers());
        let status = response.status();
        let body = response.bytes().await.map_err(|e| self.transport(&e))?;
        let answer = serde_json::from_slice(&body).map_err(|e| {
            ApiError::unexpected(
                status.as_u16(),
                format!("not the JSON expected ({e})"),
                &body,
            )
        })?;
        Ok((answer, versions))
    }

    /// Sends a request with the key: a success status gives the answer with its body unread,
    /// any other an [`ApiError`].
    async fn respond(&self, request: RequestBuilder) -> Result<Response, ApiError> {
        let response = request
            .bearer_auth(self.inner.config.api_key.expose())
            .send()
            .await
            .map_err(|e| self.transport(&e))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let body = response.bytes().await.map_err(|e| self.transport(&e))?;
        Err(ApiError::from_error_answer(status, &body))
    }

    /// A transport failure of a request to this client's server.
    fn transport(&self, err: &reqwest::Error) -> ApiError {
        let config = &self.inner.config;
        ApiError::from_transport(
            err,
            &config.base_url,
            config.connect_timeout,
            config.request_timeout,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(base: &str) -> Result<Client, ApiError> {
        Client::new(ClientConfig::new(base, ApiKey::new("k")))
    }

    #[test]
    fn urls_encode_the_segments_and_carry_the_query() {
        let client = Client::new(ClientConfig::new("http://h", ApiKey::new("k"))).unwrap();
        assert_eq!(
            client.url_of(&route::content("a b", true)).as_str(),
            "http://h/api/v1/doc/a%20b/obj/all?versions=true"
        );
        let settings = [("direction".to_string(), "LR".to_string())];
        assert_eq!(
            client
                .url_of(&route::create_diagram("d", &settings, true))
                .as_str(),
            "http://h/api/v1/create-diagram/d?direction=LR&replace=true"
        );
        assert_eq!(
            client
                .url_of(&route::create_diagram("d", &[], false))
                .as_str(),
            "http://h/api/v1/create-diagram/d"
        );
    }

    #[test]
    fn urls_encode_each_segment() {
        let c = client("http://127.0.0.1:8737/").unwrap();
        assert_eq!(c.base_url(), "http://127.0.0.1:8737");
        assert_eq!(
            c.url(&["doc", "a/b c?%", "obj", ""]).as_str(),
            "http://127.0.0.1:8737/api/v1/doc/a%2Fb%20c%3F%25/obj/"
        );
        let prefixed = client("https://example.com/diagram/").unwrap();
        assert_eq!(
            prefixed.url(&["doc"]).as_str(),
            "https://example.com/diagram/api/v1/doc"
        );
    }

    #[test]
    fn bad_urls_are_request_errors() {
        for base in ["", "127.0.0.1:8737", "ftp://host", "mailto:x@y"] {
            let err = client(base).unwrap_err();
            assert!(matches!(err, ApiError::Request { .. }), "{base}: {err}");
        }
    }
}
