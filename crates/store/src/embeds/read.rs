//! The embed reads, each answered in one consistent view through an engine's
//! [`EmbedStatements`]: a document's embeds for an account that may see it, and what a page
//! needs, which no account asks for (a static embed with its content, a live embed by its
//! document and key).

use super::{EmbedStatements, StoredEmbed};
use crate::{StoreError, StoreResult};

/// A read about embeds.
#[derive(Debug, Clone)]
pub enum EmbedQuery {
    /// The document's embeds, for an account that may see it.
    List {
        /// The account asking.
        account_id: String,
        /// The document.
        doc_id: String,
    },
    /// A static embed and its content.
    Static {
        /// The embed's id.
        id: String,
    },
    /// The document's live embed, if the key is its key.
    Live {
        /// The document.
        doc_id: String,
        /// The key the page was given.
        key: String,
    },
}

/// The answer to an [`EmbedQuery`].
#[derive(Debug, Clone)]
pub enum EmbedAnswer {
    /// A document's embeds, the live one first.
    List(Vec<StoredEmbed>),
    /// A static embed with its content (JSON text), if there is one with that id.
    Static(Option<(StoredEmbed, String)>),
    /// The owner of the document, if it has a live embed with that key.
    Live(Option<String>),
}

/// Answers an embed query.
pub(crate) async fn answer(
    s: &impl EmbedStatements,
    query: EmbedQuery,
) -> StoreResult<EmbedAnswer> {
    Ok(match query {
        EmbedQuery::List { account_id, doc_id } => {
            if s.doc_owner(&account_id, &doc_id).await?.is_none() {
                return Err(StoreError::DocNotFound(doc_id));
            }
            EmbedAnswer::List(s.embeds_of(&doc_id).await?)
        }
        EmbedQuery::Static { id } => {
            let embed = s.embed(&id).await?.filter(|e| !e.live);
            let found = match embed {
                Some(embed) => s.static_content(&id).await?.map(|c| (embed, c)),
                None => None,
            };
            EmbedAnswer::Static(found)
        }
        EmbedQuery::Live { doc_id, key } => {
            let live = s.embeds_of(&doc_id).await?.into_iter().find(|e| e.live);
            let open = live.is_some_and(|e| e.key.as_deref().is_some_and(|k| same(k, &key)));
            let owner = if open {
                s.owner_of(&doc_id).await?
            } else {
                None
            };
            EmbedAnswer::Live(owner)
        }
    })
}

/// Whether two keys are equal, comparing every byte whatever the first difference (so that the
/// time taken tells nothing about a key).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}
