//! The change events our server streams (an extension of the API, as Server-Sent Events): what
//! each event's `data` holds, and the names of the events.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::versions::VersionedObject;

/// The SSE event name of the first event of a document's stream: its current state.
pub const EVENT_CURRENT: &str = "current";
/// The SSE event name of one committed write request.
pub const EVENT_CHANGE: &str = "change";
/// The SSE event name saying events were missed: reload everything the stream covers.
pub const EVENT_RESYNC: &str = "resync";

/// What one committed write request did to a document (a `change` event of its stream), or
/// the document's state when the stream opens (the `current` event: no ids, no `document`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocChangeEvent {
    /// The document's `lastChange` after the write; null once it is deleted.
    pub last_change: Option<String>,
    /// The objects created or updated, in id order (empty when the whole content was
    /// replaced: reload it).
    pub changed: Vec<String>,
    /// The objects deleted, in id order.
    pub deleted: Vec<String>,
    /// What happened to the document as a whole, if anything.
    pub document: Option<DocEventKind>,
    /// Our extension (issue 33): the document's version after the write (on `current`, its
    /// version now); absent from servers without versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// Our extension (issue 33): the new state of every object in `changed`, with its
    /// version, when their JSON adds up to at most [`EVENT_OBJECTS_BYTES`]; absent past it
    /// (read them as before) and on `content-replaced`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objects: Option<BTreeMap<String, VersionedObject>>,
}

/// The most bytes of object JSON a `change` event carries in `objects`.
pub const EVENT_OBJECTS_BYTES: usize = 64 * 1024;

/// A change to a document as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DocEventKind {
    /// It was created (also by a clone).
    Created,
    /// Its title changed.
    Retitled,
    /// All its objects were removed.
    Emptied,
    /// Its whole content was replaced: reload it.
    ContentReplaced,
    /// It was shared with an account.
    Shared,
    /// It was moved to another of its owner's folders (extension of our `doc/move`).
    Moved,
    /// It was deleted (also with its folder); its stream ends after this event.
    Deleted,
}

/// A change to one of the account's documents as a whole (a `change` event of the account's
/// stream, `GET /api/v1/events`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccountEvent {
    /// The document.
    pub doc_id: String,
    /// Its `lastChange` after the change; null once it is deleted.
    pub last_change: Option<String>,
    /// What happened to it.
    pub document: DocEventKind,
    /// Our extension (issue 33): the document's version after the change, when it made one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

/// The data of a `resync` event: events were missed (the backlog no longer reaches back to
/// the `Last-Event-ID`, the subscriber fell behind, or the database was changed by another
/// process). Reload what the stream covers; the stream goes on from here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResyncEvent {
    /// Why events were missed.
    pub reason: ResyncReason,
}

/// Why a stream asks its subscriber to reload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ResyncReason {
    /// The `Last-Event-ID` is older than the backlog, or from another run of the server.
    Backlog,
    /// The subscriber read too slowly and its queue overflowed.
    Overflow,
    /// The database was changed by another process or instance in ways not reported.
    Elsewhere,
}
