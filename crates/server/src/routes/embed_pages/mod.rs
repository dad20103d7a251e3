//! The embed pages (see `docs/embeds.md`), served with no API key, each showing only its own
//! document:
//!
//! - `GET /app/embed.html?id=EMBED`: a static embed, the picture of its frozen content inline,
//!   no script;
//! - `GET /app/embed.html?id=DOC&key=KEY&live=true`: a live embed, the document now, followed
//!   by `embed-live.js` through `embed-events` (at most [`MAX_VIEWERS`] pages at once; another
//!   gets a page that says so), drawn again from `embed.svg`;
//! - `view=2D|3D` picks the picture's view (3D by default); the hosted service's `camera` and
//!   `hideViewControls` are accepted and have no effect (the pages have no view controls).
//!
//! An unknown or deleted embed or document answers a 404 page.

mod page;

use std::collections::BTreeMap;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use self::page::{Kind, message, page, with_headers};
use crate::events::DocSubscription;
use crate::state::AppState;
use crate::streaming::Streaming;
use crate::viewers::MAX_VIEWERS;
use diagtui_model::Content;
use diagtui_scene::render::{self, Format, Picture, View};
use diagtui_scene::{DEFAULT_STATUS_KEY, Scene};
use diagtui_store::StoreError;

/// The page's path under the public URL.
const PAGE: &str = "/app/embed.html";
/// The live page's script.
const SCRIPT: &str = include_str!("live.js");
/// How often an open live page's stream checks that its key still holds.
const KEY_CHECK: Duration = Duration::from_secs(5);
/// The policy of answers that are not pages: nothing may run or load from them.
const NOTHING: &str = "default-src 'none'; frame-ancestors *";

/// A static embed's URL.
pub fn static_url(base: &str, id: &str) -> String {
    format!("{base}{PAGE}?id={}", encode(id))
}

/// A live embed's URL.
pub fn live_url(base: &str, doc_id: &str, key: &str) -> String {
    format!(
        "{base}{PAGE}?id={}&key={}&live=true",
        encode(doc_id),
        encode(key)
    )
}

/// What a query value keeps as it is: letters, digits and `-._~` (RFC 3986's unreserved).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A query value percent-encoded.
fn encode(text: &str) -> String {
    utf8_percent_encode(text, UNRESERVED).to_string()
}

/// A page's query parameters.
type Params = BTreeMap<String, String>;

/// A parameter's value, or the empty text.
fn get<'a>(params: &'a Params, name: &str) -> &'a str {
    params.get(name).map_or("", String::as_str)
}

/// Why a page cannot show its diagram; answered as a page that says so.
#[derive(Debug)]
pub enum Failure {
    /// No such embed (or document), or a wrong key: 404.
    Missing,
    /// A query parameter is bad (the text names it): 400.
    Bad(String),
    /// The live embed has as many viewers as it may: 429.
    Full,
    /// Something failed on our side (logged, not shown): 500.
    Internal(String),
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Failure {
        match error {
            StoreError::EmbedNotFound(_) | StoreError::DocNotFound(_) => Failure::Missing,
            other => Failure::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::Missing => message(
                StatusCode::NOT_FOUND,
                "This diagram is not shared here (the embed or its document was deleted, or \
                 the link is wrong).",
            ),
            Failure::Bad(problem) => message(StatusCode::BAD_REQUEST, &problem),
            Failure::Full => message(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "This live diagram has {MAX_VIEWERS} viewers already, as many as it may \
                     have at once. Try again later."
                ),
            ),
            Failure::Internal(problem) => {
                tracing::warn!("an embed page failed: {problem}");
                message(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "This diagram cannot be shown now.",
                )
            }
        }
    }
}

/// The picture's view, from `view`.
fn view(params: &Params) -> Result<View, Failure> {
    params.get("view").map_or(Ok(View::default()), |text| {
        text.parse()
            .map_err(|problem| Failure::Bad(format!("view: {problem}")))
    })
}

/// A content's picture as SVG text, drawn on the blocking pool.
async fn picture(content: Vec<u8>, view: View) -> Result<String, Failure> {
    tokio::task::spawn_blocking(move || {
        let content: Content = serde_json::from_slice(&content).map_err(|e| e.to_string())?;
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let picture = Picture {
            view,
            ..Picture::default()
        };
        let svg =
            render::render_picture(&scene, Format::Svg, &picture).map_err(|e| e.to_string())?;
        String::from_utf8(svg).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|drawn| drawn)
    .map_err(Failure::Internal)
}

/// `GET /app/embed.html`: a static or a live embed's page.
pub async fn show(
    State(s): State<AppState>,
    Query(params): Query<Params>,
) -> Result<Response, Failure> {
    let view = view(&params)?;
    let id = get(&params, "id");
    if params.contains_key("key") || get(&params, "live") == "true" {
        live_page(&s, id, get(&params, "key"), view).await
    } else {
        static_page(&s, id, view).await
    }
}

/// A static embed's page.
async fn static_page(s: &AppState, id: &str, view: View) -> Result<Response, Failure> {
    let (embed, content) = s.store.static_embed(id).await?.ok_or(Failure::Missing)?;
    let svg = picture(content.into_bytes(), view).await?;
    let title = embed.title.as_deref().unwrap_or("Diagram");
    Ok(page(StatusCode::OK, title, &svg, Kind::Still))
}

/// A live embed's page, unless it has as many viewers as it may.
async fn live_page(s: &AppState, doc_id: &str, key: &str, view: View) -> Result<Response, Failure> {
    let details = s.store.live_embed_details(doc_id, key).await?;
    if s.viewers.full(doc_id) {
        return Err(Failure::Full);
    }
    let content = s.store.live_embed_content(doc_id, key).await?;
    let svg = picture(content.to_vec(), view).await?;
    let query = format!("id={}&key={}&view={view}", encode(doc_id), encode(key));
    let kind = Kind::Live {
        picture: &format!("embed.svg?{query}"),
        events: &format!("embed-events?{query}"),
    };
    Ok(page(StatusCode::OK, &details.title, &svg, kind))
}

/// `GET /app/embed.svg?id=DOC&key=KEY`: a live embed's picture now, for its page's script.
pub async fn live_picture(
    State(s): State<AppState>,
    Query(params): Query<Params>,
) -> Result<Response, Failure> {
    let view = view(&params)?;
    let (doc_id, key) = (get(&params, "id"), get(&params, "key"));
    let content = s.store.live_embed_content(doc_id, key).await?;
    let svg = picture(content.to_vec(), view).await?;
    Ok(with_headers(svg.into_response(), "image/svg+xml", NOTHING))
}

/// `GET /app/embed-events?id=DOC&key=KEY`: the document's change events (as
/// `GET /api/v1/doc/{docId}/events` sends them) for a live embed's page, authorised by the
/// embed's key. Ends when the key no longer holds (rotated, turned off, document deleted);
/// 429 when the embed has as many viewers as it may.
pub async fn live_events(
    State(s): State<AppState>,
    Query(params): Query<Params>,
) -> Result<Response, Failure> {
    let (doc_id, key) = (get(&params, "id"), get(&params, "key"));
    s.store.live_embed_details(doc_id, key).await?;
    let viewer = s.viewers.enter(doc_id).ok_or(Failure::Full)?;
    s.hub.caught_up(s.store.reported()).await;
    let subscribed = s.hub.subscribe_doc(doc_id, None);
    // Read after subscribing, so that no change falls between the two.
    let details = s.store.live_embed_details(doc_id, key).await?;
    let subscription = DocSubscription::new(&s.hub, doc_id, subscribed, &details.last_change, None);
    let revoked = key_revoked(s.clone(), doc_id.to_owned(), key.to_owned());
    let stream = subscription
        .into_stream()
        .take_until(revoked)
        .map(move |chunk| {
            // The viewer counts as long as the stream is open.
            let _open = &viewer;
            chunk
        });
    let mut response = Response::new(Body::from_stream(stream));
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response.extensions_mut().insert(Streaming);
    Ok(with_headers(response, "text/event-stream", NOTHING))
}

/// Resolves once the live embed's key no longer holds.
async fn key_revoked(s: AppState, doc_id: String, key: String) {
    loop {
        tokio::time::sleep(KEY_CHECK).await;
        if let Err(StoreError::EmbedNotFound(_) | StoreError::DocNotFound(_)) =
            s.store.live_embed_details(&doc_id, &key).await
        {
            return;
        }
    }
}

/// `GET /app/embed-live.js`: the live page's script.
pub async fn script() -> Response {
    with_headers(
        SCRIPT.into_response(),
        "text/javascript; charset=utf-8",
        NOTHING,
    )
}
