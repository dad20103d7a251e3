//! The history routes (our extension): versions, diffs, restore, content at a version.

use super::{AnswerBody, ApiError, Client};
use crate::route;
use diagtui_model::history::{Diff, HistoryPage, RestoreRequest, Restored, VersionDetails};

impl Client {
    /// `GET /doc/{docId}/history` (or `obj/{objId}/history` for one object's): a page of
    /// versions, newest first, older than `before`, at most `limit` (the server's default when
    /// `None`).
    pub async fn history(
        &self,
        doc: &str,
        object: Option<&str>,
        before: Option<u64>,
        limit: Option<usize>,
    ) -> Result<HistoryPage, ApiError> {
        self.get(&route::history(doc, object, before, limit)).await
    }

    /// `GET /doc/{docId}/history/{version}`: one version with its changed objects.
    pub async fn version(&self, doc: &str, version: u64) -> Result<VersionDetails, ApiError> {
        self.get(&route::version(doc, version)).await
    }

    /// `GET /doc/{docId}/diff?from&to`: what changed from one version to another (the newest
    /// when `to` is `None`).
    pub async fn diff(&self, doc: &str, from: u64, to: Option<u64>) -> Result<Diff, ApiError> {
        self.get(&route::diff(doc, from, to)).await
    }

    /// `POST /doc/{docId}/restore`: the content set back as it was at a version, as a new
    /// version.
    pub async fn restore(&self, doc: &str, version: u64) -> Result<Restored, ApiError> {
        self.restore_if(doc, version, None).await
    }

    /// [`Client::restore`] with `If-Match: "<document version>"` when given: it restores only
    /// while the document is at that version (no write came since the caller looked).
    pub async fn restore_if(
        &self,
        doc: &str,
        version: u64,
        if_match: Option<u64>,
    ) -> Result<Restored, ApiError> {
        let body = RestoreRequest { version };
        let request = self.post_request(&route::restore(doc), Some(&body));
        self.send(Client::if_match(request, if_match)).await
    }

    /// `GET /doc/{docId}/obj/all?version=V` as JSON bytes, read as they arrive.
    pub async fn content_body_at(&self, doc: &str, version: u64) -> Result<AnswerBody, ApiError> {
        let response = self
            .respond(self.request(&route::content_at(doc, version)))
            .await?;
        Ok(AnswerBody::new(response, self.clone()))
    }
}
