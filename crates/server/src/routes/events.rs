//! The change event streams (our extension): `GET /api/v1/doc/{docId}/events` and
//! `GET /api/v1/events`, as Server-Sent Events. See [`crate::events`].

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;

use super::schemas::Errors;
use crate::error::ApiError;
use crate::events::{AccountSubscription, DocSubscription, EventId, Visible};
use crate::extract::Ids;
use crate::state::AppState;
use crate::streaming::Streaming;
use diagtui_store::Account;

/// How many times the account stream tries to read the account's documents while no more
/// than a backlog of changes to documents happens meanwhile.
const LIST_ATTEMPTS: usize = 3;

/// The events' description in the OpenAPI document.
const STREAM_DESCRIPTION: &str = "A stream of Server-Sent Events (text/event-stream) that \
    never ends by itself: each event has an `id` (send the last one back as `Last-Event-ID` \
    when reconnecting), an `event` name and one `data` line of JSON. `current` (first, unless \
    resuming), `change` (one per committed write request), `resync` (events were missed: \
    reload; its data is a ResyncEvent). A comment `: keep-alive` every 15 s.";

/// `GET /api/v1/doc/{docId}/events`: the document's changes as they commit; the data of
/// `current` and `change` is a DocChangeEvent.
#[utoipa::path(get, operation_id = "documentEvents", path = "/api/v1/doc/{docId}/events", tag = "events",
    params(("docId" = String, Path, description = "The document id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The id of the last event received, to get the ones missed since")),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = STREAM_DESCRIPTION, content(
        (String = "text/event-stream"),
    )), Errors))]
pub async fn doc(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    s.store.doc_details(&me, &doc_id).await?;
    // Every commit before now is in the stream's past: none may come after its current state.
    s.hub.caught_up(s.store.reported()).await;
    let subscribed = s
        .hub
        .subscribe_doc(&doc_id, last_event_id(&headers).as_ref());
    // Read after subscribing, so that no change falls between the two.
    let details = s.store.doc_details(&me, &doc_id).await?;
    let version = s.store.doc_version(&me, &doc_id).await?;
    let subscription = DocSubscription::new(
        &s.hub,
        &doc_id,
        subscribed,
        &details.last_change,
        Some(version),
    );
    Ok(stream(Body::from_stream(subscription.into_stream())))
}

/// `GET /api/v1/events`: changes to the account's documents as wholes (created, retitled,
/// emptied, content replaced, shared, deleted), for the document list; the data of `change` is
/// an AccountEvent.
#[utoipa::path(get, operation_id = "accountEvents", path = "/api/v1/events", tag = "events",
    params(("Last-Event-ID" = Option<String>, Header, description = "The id of the last event received, to get the ones missed since")),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = STREAM_DESCRIPTION, content(
        (String = "text/event-stream"),
    )), Errors))]
pub async fn account(
    State(s): State<AppState>,
    me: Account,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let last = last_event_id(&headers);
    s.hub.caught_up(s.store.reported()).await;
    for _ in 0..LIST_ATTEMPTS {
        // The list is read between the mark and the subscription; the changes between the
        // mark and the subscription complete it.
        let mark = s.hub.account_mark();
        let docs = s.store.list_docs(&me).await?;
        let (receiver, start, since_mark) = s.hub.subscribe_account(&mark, last.as_ref());
        let Some(since_mark) = since_mark else {
            continue;
        };
        let visible = Visible::new(&me.id, docs.into_iter().map(|doc| doc.id));
        let subscription =
            AccountSubscription::new(&s.hub, (receiver, start), visible, &since_mark);
        return Ok(stream(Body::from_stream(subscription.into_stream())));
    }
    Err(ApiError::internal(
        "documents changed faster than the account stream could read the list",
    ))
}

/// The `Last-Event-ID` a reconnecting subscriber sends, if it is one of ours.
fn last_event_id(headers: &HeaderMap) -> Option<EventId> {
    EventId::parse(headers.get("last-event-id")?.to_str().ok()?)
}

/// A streaming answer: the event stream's headers, marked for the HTTP layer as long-lived.
fn stream(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response.extensions_mut().insert(Streaming);
    response
}
