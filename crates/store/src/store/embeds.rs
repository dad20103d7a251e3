//! The store's embed operations, as the routes call them: the writes go through the writer,
//! the reads to the engine; a live page's content comes from what the store keeps, once its key
//! is checked.

use bytes::Bytes;

use super::Store;
use crate::embeds::StoredEmbed;
use crate::engine::Engine;
use crate::error::{StoreError, StoreResult};
use crate::keys::Account;
use crate::rules::check_title;
use crate::writer::ops::embeds::{CreateStatic, DeleteStatic, DisableLive, EnableLive, RotateLive};
use diagtui_model::DocDetails;

impl<E: Engine> Store<E> {
    /// Copies the document's content now into a new static embed (owner only).
    pub async fn create_static_embed(
        &self,
        account: &Account,
        doc_id: &str,
        title: Option<&str>,
    ) -> StoreResult<StoredEmbed> {
        if let Some(title) = title {
            check_title(title)?;
        }
        self.write(CreateStatic {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            title: title.map(str::to_owned),
        })
        .await
    }

    /// Deletes a static embed (its document's owner only).
    pub async fn delete_static_embed(&self, account: &Account, id: &str) -> StoreResult<()> {
        self.write(DeleteStatic {
            account_id: account.id.clone(),
            id: id.to_owned(),
        })
        .await
    }

    /// The document's live embed: made now, or the one it has (owner only).
    pub async fn enable_live_embed(
        &self,
        account: &Account,
        doc_id: &str,
    ) -> StoreResult<StoredEmbed> {
        self.write(EnableLive {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// Gives the document's live embed a new key (owner only).
    pub async fn rotate_live_embed(
        &self,
        account: &Account,
        doc_id: &str,
    ) -> StoreResult<StoredEmbed> {
        self.write(RotateLive {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// Turns the document's live embed off (owner only).
    pub async fn disable_live_embed(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.write(DisableLive {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// The document's embeds, the live one first (any account that may see the document).
    pub async fn embeds(&self, account: &Account, doc_id: &str) -> StoreResult<Vec<StoredEmbed>> {
        self.engine
            .embeds(account.id.clone(), doc_id.to_owned())
            .await
    }

    /// A static embed and its content (JSON text), for its page: no account asks.
    pub async fn static_embed(&self, id: &str) -> StoreResult<Option<(StoredEmbed, String)>> {
        self.engine.static_embed(id.to_owned()).await
    }

    /// The owner of a document whose live embed has this key; `EmbedNotFound` otherwise.
    async fn live_owner(&self, doc_id: &str, key: &str) -> StoreResult<String> {
        let owner = self
            .engine
            .live_owner(doc_id.to_owned(), key.to_owned())
            .await?;
        owner.ok_or_else(|| StoreError::EmbedNotFound(format!("document {doc_id}'s live embed")))
    }

    /// The details of a document shown by its live embed, when `key` is the embed's key;
    /// `EmbedNotFound` otherwise. No account asks.
    pub async fn live_embed_details(&self, doc_id: &str, key: &str) -> StoreResult<DocDetails> {
        let owner = self.live_owner(doc_id, key).await?;
        self.engine.doc_details(owner, doc_id.to_owned()).await
    }

    /// The content of a document shown by its live embed, when `key` is the embed's key, as
    /// the JSON map `obj/all` answers; `EmbedNotFound` otherwise. No account asks.
    pub async fn live_embed_content(&self, doc_id: &str, key: &str) -> StoreResult<Bytes> {
        self.live_owner(doc_id, key).await?;
        self.public_content_json(doc_id).await
    }
}
