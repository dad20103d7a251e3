//! The history routes (our extension): versions, diffs, restore, content at a version.

use reqwest::Url;

use super::{AnswerBody, ApiError, Client};
use diagtui_model::history::{Diff, HistoryPage, RestoreRequest, Restored, VersionDetails};

/// Adds a query parameter when it has a value.
fn with(mut url: Url, name: &str, value: Option<impl ToString>) -> Url {
    if let Some(value) = value {
        url.query_pairs_mut().append_pair(name, &value.to_string());
    }
    url
}

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
        let url = match object {
            Some(obj) => self.url(&["doc", doc, "obj", obj, "history"]),
            None => self.url(&["doc", doc, "history"]),
        };
        self.get(with(with(url, "before", before), "limit", limit))
            .await
    }

    /// `GET /doc/{docId}/history/{version}`: one version with its changed objects.
    pub async fn version(&self, doc: &str, version: u64) -> Result<VersionDetails, ApiError> {
        let version = version.to_string();
        self.get(self.url(&["doc", doc, "history", &version])).await
    }

    /// `GET /doc/{docId}/diff?from&to`: what changed from one version to another (the newest
    /// when `to` is `None`).
    pub async fn diff(&self, doc: &str, from: u64, to: Option<u64>) -> Result<Diff, ApiError> {
        let url = with(self.url(&["doc", doc, "diff"]), "from", Some(from));
        self.get(with(url, "to", to)).await
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
        let request = self.post_request(self.url(&["doc", doc, "restore"]), Some(&body));
        self.send(Client::if_match(request, if_match)).await
    }

    /// `GET /doc/{docId}/obj/all?version=V` as JSON bytes, read as they arrive.
    pub async fn content_body_at(&self, doc: &str, version: u64) -> Result<AnswerBody, ApiError> {
        let url = with(
            self.url(&["doc", doc, "obj", "all"]),
            "version",
            Some(version),
        );
        let response = self.respond(self.http.get(url)).await?;
        Ok(AnswerBody::new(response, self.clone()))
    }
}
