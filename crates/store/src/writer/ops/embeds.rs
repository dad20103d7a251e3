//! The embed write requests, run by the writer inside its transaction like every other write
//! (one path for both engines). Only a document's owner may publish it: a collaborator who may
//! see the document is refused with `Forbidden`; an account that may not see it learns nothing
//! (`DocNotFound`, `EmbedNotFound`).

use crate::batch::Batch;
use crate::change::Committed;
use crate::embeds::{EmbedStatements, StoredEmbed};
use crate::error::{StoreError, StoreResult};
use crate::keys::hex;
use crate::object::content_json;
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;
use diagtui_model::ids::{new_uuid, random_bytes};

area_ops! {
    CreateStatic,
    DeleteStatic,
    EnableLive,
    RotateLive,
    DisableLive,
}

/// Copy the document's content now into a new static embed; answers the embed.
pub struct CreateStatic {
    /// The account acting (the owner).
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The embed's title, if any.
    pub title: Option<String>,
}

impl Write for CreateStatic {
    type Answer = StoredEmbed;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<StoredEmbed> {
        check_owner(s, &self.account_id, &self.doc_id).await?;
        let objects = s.current(&self.doc_id, None).await?;
        let content = content_json(objects.iter().map(|(id, o)| (id.as_str(), &**o)), false);
        let content = std::str::from_utf8(&content)
            .map_err(|e| StoreError::Internal(format!("content JSON: {e}")))?;
        let embed = StoredEmbed {
            id: new_uuid(),
            doc_id: self.doc_id.clone(),
            live: false,
            title: self.title.clone(),
            key: None,
            created: batch.now.clone(),
        };
        s.insert_embed(&embed, Some(content)).await?;
        Ok((embed, Committed::default()))
    }
}

/// Delete a static embed.
pub struct DeleteStatic {
    /// The account acting (the owner of its document).
    pub account_id: String,
    /// The embed.
    pub id: String,
}

impl Write for DeleteStatic {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        let id = &self.id;
        let not_found = || StoreError::EmbedNotFound(format!("embed {id}"));
        let embed = s
            .embed(id)
            .await?
            .filter(|e| !e.live)
            .ok_or_else(not_found)?;
        check_owner(s, &self.account_id, &embed.doc_id)
            .await
            .map_err(|e| match e {
                StoreError::DocNotFound(_) => not_found(),
                other => other,
            })?;
        s.delete_embed(id).await?;
        Ok(((), Committed::default()))
    }
}

/// Make the document's live embed, or answer the one it has.
pub struct EnableLive {
    /// The account acting (the owner).
    pub account_id: String,
    /// The document.
    pub doc_id: String,
}

impl Write for EnableLive {
    type Answer = StoredEmbed;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<StoredEmbed> {
        check_owner(s, &self.account_id, &self.doc_id).await?;
        if let Some(live) = live_of(s, &self.doc_id).await? {
            return Ok((live, Committed::default()));
        }
        let embed = StoredEmbed {
            id: new_uuid(),
            doc_id: self.doc_id.clone(),
            live: true,
            title: None,
            key: Some(new_live_key()),
            created: batch.now.clone(),
        };
        s.insert_embed(&embed, None).await?;
        Ok((embed, Committed::default()))
    }
}

/// Give the document's live embed a new key: the old URL stops working. Answers the embed.
pub struct RotateLive {
    /// The account acting (the owner).
    pub account_id: String,
    /// The document.
    pub doc_id: String,
}

impl Write for RotateLive {
    type Answer = StoredEmbed;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<StoredEmbed> {
        let doc_id = &self.doc_id;
        check_owner(s, &self.account_id, doc_id).await?;
        let mut live = existing_live(s, doc_id).await?;
        let key = new_live_key();
        s.set_live_key(doc_id, &key, &batch.now).await?;
        live.key = Some(key);
        live.created = batch.now.clone();
        Ok((live, Committed::default()))
    }
}

/// Turn the document's live embed off.
pub struct DisableLive {
    /// The account acting (the owner).
    pub account_id: String,
    /// The document.
    pub doc_id: String,
}

impl Write for DisableLive {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        check_owner(s, &self.account_id, &self.doc_id).await?;
        let live = existing_live(s, &self.doc_id).await?;
        s.delete_embed(&live.id).await?;
        Ok(((), Committed::default()))
    }
}

/// A new live embed key: 16 random bytes as 32 lowercase hex digits.
fn new_live_key() -> String {
    hex(&random_bytes::<16>())
}

/// Checks that the account owns the document: `DocNotFound` when it may not see it,
/// `Forbidden` when it is a collaborator.
async fn check_owner(s: &impl EmbedStatements, account: &str, doc: &str) -> StoreResult<()> {
    match s.doc_owner(account, doc).await? {
        None => Err(StoreError::DocNotFound(doc.to_owned())),
        Some(owner) if owner != account => Err(StoreError::Forbidden(
            "only the document's owner can publish it or change its embeds".into(),
        )),
        Some(_) => Ok(()),
    }
}

/// The document's live embed, if it has one.
async fn live_of(s: &impl EmbedStatements, doc: &str) -> StoreResult<Option<StoredEmbed>> {
    Ok(s.embeds_of(doc).await?.into_iter().find(|e| e.live))
}

/// The document's live embed; `EmbedNotFound` when it has none.
async fn existing_live(s: &impl EmbedStatements, doc: &str) -> StoreResult<StoredEmbed> {
    live_of(s, doc)
        .await?
        .ok_or_else(|| StoreError::EmbedNotFound(format!("document {doc}'s live embed")))
}
