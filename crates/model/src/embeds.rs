//! Embeds as the API shows them (see `docs/embeds.md`): a static embed is a frozen copy of a
//! document at a URL of its own, a live embed the document itself made public at a URL that
//! carries its key.

use serde::{Deserialize, Serialize};

/// `POST /api/v1/embed/create-static`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreateStaticEmbedRequest {
    /// The document to copy.
    pub doc_id: String,
    /// A title for the embed list (and the page's title); the document's title when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 1000, pattern = "\\S")
    )]
    pub title: Option<String>,
}

/// `POST /api/v1/embed/delete-static`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmbedIdRequest {
    /// The static embed's id, as create-static answered it.
    pub id: String,
}

/// The answer to create-static.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticEmbedCreated {
    /// Always true.
    pub success: bool,
    /// The embed's id (a UUID).
    pub id: String,
    /// The page that shows it.
    pub url: String,
}

/// The answer to enable-live and rotate-live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveEmbedKey {
    /// Always true.
    pub success: bool,
    /// The live embed's key: 32 lowercase hex digits.
    pub key: String,
    /// The page that shows the document, with the key in it.
    pub url: String,
}

/// Which kind an embed is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum EmbedKind {
    /// A frozen copy of the document as it was when made.
    Static,
    /// The document now, following its changes.
    Live,
}

/// One of a document's embeds, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Embed {
    /// Static or live.
    pub kind: EmbedKind,
    /// A static embed's id; a live embed's document id (the id its URL carries).
    pub id: String,
    /// A static embed's title, if it was given one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When it was made (a live embed: when its key was last set), ISO 8601 UTC.
    pub created: String,
    /// Its page.
    pub url: String,
}

/// The answer to `GET /api/v1/embed/list/{docId}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmbedList {
    /// Always true.
    pub success: bool,
    /// The live embed first (if any), then the static ones, oldest first.
    pub embeds: Vec<Embed>,
}
