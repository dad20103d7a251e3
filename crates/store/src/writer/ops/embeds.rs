//! The embed write requests, run by the writer inside its transaction like every other write
//! (one path for both engines). Only a document's owner may publish it: a collaborator who may
//! see the document is refused with `Forbidden`; an account that may not see it learns nothing
//! (`DocNotFound`, `EmbedNotFound`).

use super::sql::{LIVE, STATIC};
use super::{EmbedStatements, StoredEmbed};
use crate::history::HistoryWrites;
use crate::keys::hex;
use crate::object::content_json;
use crate::write::Outcome;
use crate::{StoreError, StoreResult};
use diagtui_model::ids::{new_uuid, random_bytes};

/// An embed write request.
#[derive(Debug)]
pub enum EmbedWrite {
    /// Copy the document's content now into a new static embed.
    CreateStatic {
        /// The account acting (the owner).
        account_id: String,
        /// The document.
        doc_id: String,
        /// The embed's title, if any.
        title: Option<String>,
    },
    /// Delete a static embed.
    DeleteStatic {
        /// The account acting (the owner of its document).
        account_id: String,
        /// The embed.
        id: String,
    },
    /// Make the document's live embed, or answer the one it has.
    EnableLive {
        /// The account acting (the owner).
        account_id: String,
        /// The document.
        doc_id: String,
    },
    /// Give the document's live embed a new key: the old URL stops working.
    RotateLive {
        /// The account acting (the owner).
        account_id: String,
        /// The document.
        doc_id: String,
    },
    /// Turn the document's live embed off.
    DisableLive {
        /// The account acting (the owner).
        account_id: String,
        /// The document.
        doc_id: String,
    },
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

/// Runs one embed write request at the batch's time `now`.
pub(crate) async fn apply(
    s: &(impl EmbedStatements + HistoryWrites),
    write: &EmbedWrite,
    now: &str,
) -> StoreResult<Outcome> {
    match write {
        EmbedWrite::CreateStatic {
            account_id,
            doc_id,
            title,
        } => {
            check_owner(s, account_id, doc_id).await?;
            let objects = s.current(doc_id, None).await?;
            let content = content_json(objects.iter().map(|(id, o)| (id.as_str(), &**o)), false);
            let content = std::str::from_utf8(&content)
                .map_err(|e| StoreError::Internal(format!("content JSON: {e}")))?;
            let embed = StoredEmbed {
                id: new_uuid(),
                doc_id: doc_id.clone(),
                live: false,
                title: title.clone(),
                key: None,
                created: now.to_owned(),
            };
            s.insert_embed(&embed, Some(content)).await?;
            Ok(Outcome::Embed(embed))
        }
        EmbedWrite::DeleteStatic { account_id, id } => {
            let not_found = || StoreError::EmbedNotFound(format!("embed {id}"));
            let embed = s
                .embed(id)
                .await?
                .filter(|e| !e.live)
                .ok_or_else(not_found)?;
            check_owner(s, account_id, &embed.doc_id)
                .await
                .map_err(|e| match e {
                    StoreError::DocNotFound(_) => not_found(),
                    other => other,
                })?;
            s.delete_embed(id).await?;
            Ok(Outcome::Done)
        }
        EmbedWrite::EnableLive { account_id, doc_id } => {
            check_owner(s, account_id, doc_id).await?;
            if let Some(live) = live_of(s, doc_id).await? {
                return Ok(Outcome::Embed(live));
            }
            let embed = StoredEmbed {
                id: new_uuid(),
                doc_id: doc_id.clone(),
                live: true,
                title: None,
                key: Some(new_live_key()),
                created: now.to_owned(),
            };
            s.insert_embed(&embed, None).await?;
            Ok(Outcome::Embed(embed))
        }
        EmbedWrite::RotateLive { account_id, doc_id } => {
            check_owner(s, account_id, doc_id).await?;
            let mut live = existing_live(s, doc_id).await?;
            let key = new_live_key();
            s.set_live_key(doc_id, &key, now).await?;
            live.key = Some(key);
            live.created = now.to_owned();
            Ok(Outcome::Embed(live))
        }
        EmbedWrite::DisableLive { account_id, doc_id } => {
            check_owner(s, account_id, doc_id).await?;
            let live = existing_live(s, doc_id).await?;
            s.delete_embed(&live.id).await?;
            Ok(Outcome::Done)
        }
    }
}

/// The kind column's value for an embed.
pub(crate) fn kind_text(live: bool) -> &'static str {
    if live { LIVE } else { STATIC }
}
