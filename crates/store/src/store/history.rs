//! The store's history operations, as the routes call them: each checks that the account may
//! see the document (a collaborator sees the history of a document shared with it), then asks
//! the engine.

use bytes::Bytes;

use super::Store;
use crate::content::ContentUpload;
use crate::engine::Engine;
use crate::error::{StoreError, StoreResult};
use crate::history::read::diagram_object;
use crate::history::{Objects, PageQuery};
use crate::keys::Account;
use crate::object::content_json;
use crate::rules::check_object_id;
use crate::writer::ops::content::SetContent;
use crate::writer::ops::history::CompactHistory;
use diagtui_model::Content;
use diagtui_model::history::{Diff, HistoryPage, Restored, VersionDetails, diff_contents};
use diagtui_model::ids::format_timestamp;
use diagtui_model::versions::VersionCondition;
use time::OffsetDateTime;

/// The most versions one page lists.
const MAX_PAGE: usize = 1000;

impl<E: Engine> Store<E> {
    /// A page of the document's versions, newest first: those older than `before` (all when
    /// `None`), at most `limit`, only those that changed `object` when given.
    pub async fn history(
        &self,
        account: &Account,
        doc_id: &str,
        before: Option<u64>,
        limit: usize,
        object: Option<&str>,
    ) -> StoreResult<HistoryPage> {
        if limit == 0 || limit > MAX_PAGE {
            return Err(StoreError::Invalid(format!(
                "limit: must be from 1 to {MAX_PAGE}, got {limit}"
            )));
        }
        if let Some(obj_id) = object {
            check_object_id("objId", obj_id)?;
        }
        let query = PageQuery {
            before,
            limit,
            object: object.map(str::to_owned),
        };
        self.visible(account, doc_id).await?;
        self.engine.history_page(doc_id.to_owned(), query).await
    }

    /// One version with the objects it changed.
    pub async fn version(
        &self,
        account: &Account,
        doc_id: &str,
        version: u64,
    ) -> StoreResult<VersionDetails> {
        self.visible(account, doc_id).await?;
        self.engine
            .history_version(doc_id.to_owned(), version)
            .await
    }

    /// The content as it was at a version, and the newest version.
    async fn content_at(
        &self,
        account: &Account,
        doc_id: &str,
        version: u64,
    ) -> StoreResult<(Objects, u64)> {
        self.visible(account, doc_id).await?;
        self.engine
            .history_content(doc_id.to_owned(), version)
            .await
    }

    /// The whole content as it was at a version, as the JSON map `obj/all` answers.
    pub async fn content_json_at(
        &self,
        account: &Account,
        doc_id: &str,
        version: u64,
    ) -> StoreResult<Bytes> {
        let (objects, _) = self.content_at(account, doc_id, version).await?;
        Ok(objects_json(&objects))
    }

    /// One object as it was at a version (`ObjNotFound` when it did not exist then).
    pub async fn object_json_at(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        version: u64,
    ) -> StoreResult<Bytes> {
        check_object_id("objId", obj_id)?;
        let (objects, _) = self.content_at(account, doc_id, version).await?;
        let object = objects.get(obj_id);
        Ok(object
            .ok_or_else(|| StoreError::ObjNotFound(obj_id.to_owned()))?
            .json())
    }

    /// The objects added, removed and changed (by path) from version `from` to `to` (the
    /// newest when `None`).
    pub async fn diff(
        &self,
        account: &Account,
        doc_id: &str,
        from: u64,
        to: Option<u64>,
    ) -> StoreResult<Diff> {
        if let Some(to) = to.filter(|to| from > *to) {
            return Err(StoreError::Invalid(format!(
                "from: must not be after to ({from} > {to})"
            )));
        }
        let (old, head) = self.content_at(account, doc_id, from).await?;
        let to = to.unwrap_or(head);
        let (new, _) = self.content_at(account, doc_id, to).await?;
        Ok(diff_contents(from, &shown(&old)?, to, &shown(&new)?))
    }

    /// Sets the content back as it was at a version, as a new version (which can itself be
    /// restored away), when the document is at a version `if_match` names (if given); its
    /// change events are those of a set-content.
    pub async fn restore(
        &self,
        account: &Account,
        doc_id: &str,
        version: u64,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<Restored> {
        let (objects, head) = self.content_at(account, doc_id, version).await?;
        if version == head {
            return Err(StoreError::Invalid(format!(
                "version: {version} is the current version; there is nothing to restore"
            )));
        }
        let body = objects_json(&objects);
        let set = self
            .write(SetContent {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                content: ContentUpload::parse(body)?,
                restore: Some(version),
                if_match,
            })
            .await?;
        Ok(Restored {
            success: true,
            version: set.version,
            changed: set.changed,
        })
    }

    /// Compacts every document's history to the versions of the last `keep` (see
    /// `history::compact`).
    pub async fn compact_history(&self, keep: std::time::Duration) -> StoreResult<()> {
        let cutoff = OffsetDateTime::now_utc() - keep;
        self.write(CompactHistory {
            cutoff: format_timestamp(cutoff),
        })
        .await
    }

    /// Checks that the account may see the document (its history is read from the engine).
    async fn visible(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.doc(account, doc_id).await.map(drop)
    }
}

/// Objects as the JSON map `obj/all` answers.
fn objects_json(objects: &Objects) -> Bytes {
    content_json(objects.iter().map(|(id, o)| (id.as_str(), &**o)), false)
}

/// Objects as the API shows them.
fn shown(objects: &Objects) -> StoreResult<Content> {
    objects
        .iter()
        .map(|(id, object)| Ok((id.clone(), diagram_object(object)?)))
        .collect()
}
