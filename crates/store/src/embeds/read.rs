//! The embed reads, each answered in one consistent view through an engine's
//! [`EmbedStatements`]: a document's embeds for an account that may see it, and what a page
//! needs, which no account asks for (a static embed with its content, a live embed by its
//! document and key).

use super::{EmbedStatements, StoredEmbed};
use crate::error::{StoreError, StoreResult};

/// The document's embeds, the live one first, for an account that may see it.
pub(crate) async fn list(
    s: &impl EmbedStatements,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<Vec<StoredEmbed>> {
    if s.doc_owner(account_id, doc_id).await?.is_none() {
        return Err(StoreError::DocNotFound(doc_id.to_owned()));
    }
    s.embeds_of(doc_id).await
}

/// A static embed with its content (JSON text), if there is one with that id.
pub(crate) async fn static_embed(
    s: &impl EmbedStatements,
    id: &str,
) -> StoreResult<Option<(StoredEmbed, String)>> {
    let embed = s.embed(id).await?.filter(|e| !e.live);
    Ok(match embed {
        Some(embed) => s.static_content(id).await?.map(|c| (embed, c)),
        None => None,
    })
}

/// The owner of the document, if it has a live embed with that key.
pub(crate) async fn live_owner(
    s: &impl EmbedStatements,
    doc_id: &str,
    key: &str,
) -> StoreResult<Option<String>> {
    let live = s.embeds_of(doc_id).await?.into_iter().find(|e| e.live);
    let open = live.is_some_and(|e| e.key.as_deref().is_some_and(|k| same(k, key)));
    if open {
        s.owner_of(doc_id).await
    } else {
        Ok(None)
    }
}

/// Whether two keys are equal, comparing every byte whatever the first difference (so that the
/// time taken tells nothing about a key).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}
