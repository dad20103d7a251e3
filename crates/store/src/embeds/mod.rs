//! Every document's embeds (see `docs/embeds.md`): static embeds, each a frozen copy of the
//! document's content when it was made (kept as the content's JSON, drawn when its page is
//! served), and at most one live embed per document, which makes the document itself public at
//! a URL that carries its key. Embeds live in the `embeds` table and go with their document
//! (the table cascades); `diagtui migrate` copies them.
//!
//! - [`read`]: the embed reads, in one consistent view;
//! - [`sql`]: the statements both engines run, through an engine's [`EmbedStatements`].
//!
//! The embed writes are the writer's (`writer/ops/embeds.rs`), like every other write; the
//! store's operations are in `store/embeds.rs`.

pub(crate) mod read;
pub(crate) mod sql;

use crate::error::StoreResult;

/// One embed as stored (without a static embed's content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEmbed {
    /// Its id: a UUID (a live embed's is never shown; its URL carries the document id).
    pub id: String,
    /// The document it shows.
    pub doc_id: String,
    /// Whether it is the document's live embed (else a static one).
    pub live: bool,
    /// A static embed's title, if given.
    pub title: Option<String>,
    /// A live embed's key: 32 lowercase hex digits.
    pub key: Option<String>,
    /// When it was made (a live embed: when its key was last set), ISO 8601 UTC.
    pub created: String,
}

/// What the embed reads and writes ask of an engine, in its SQL.
pub(crate) trait EmbedStatements {
    /// The owner of the document, if the account may see it.
    async fn doc_owner(&self, account: &str, doc: &str) -> StoreResult<Option<String>>;
    /// The owner of a document, if there is one.
    async fn owner_of(&self, doc: &str) -> StoreResult<Option<String>>;
    /// Adds an embed; a static one with its content (JSON text).
    async fn insert_embed(&self, embed: &StoredEmbed, content: Option<&str>) -> StoreResult<()>;
    /// One embed.
    async fn embed(&self, id: &str) -> StoreResult<Option<StoredEmbed>>;
    /// A document's embeds: the live one first, then the static ones, oldest first.
    async fn embeds_of(&self, doc: &str) -> StoreResult<Vec<StoredEmbed>>;
    /// A static embed's content (JSON text).
    async fn static_content(&self, id: &str) -> StoreResult<Option<String>>;
    /// Gives a document's live embed a new key, made at `at`.
    async fn set_live_key(&self, doc: &str, key: &str, at: &str) -> StoreResult<()>;
    /// Deletes an embed.
    async fn delete_embed(&self, id: &str) -> StoreResult<()>;
}
