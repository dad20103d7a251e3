//! `POST /create-diagram/{docId}`: entries (JSON, CSV or Mermaid text) laid out by the server.

use super::{ApiError, Client};
use diagtui_model::DiagramCreated;

impl Client {
    /// Sends entries of `content_type` (`application/json`, `text/csv`, `text/vnd.mermaid`) to
    /// be laid out into a document, with layout `settings` (name, value) as query parameters;
    /// `replace` empties the document first, in the same transaction.
    pub async fn create_diagram(
        &self,
        doc: &str,
        content_type: &str,
        body: Vec<u8>,
        settings: &[(String, String)],
        replace: bool,
    ) -> Result<DiagramCreated, ApiError> {
        let mut url = self.url(&["create-diagram", doc]);
        {
            let mut query = url.query_pairs_mut();
            for (name, value) in settings {
                query.append_pair(name, value);
            }
            if replace {
                query.append_pair("replace", "true");
            }
        }
        if url.query() == Some("") {
            url.set_query(None);
        }
        let request = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body);
        self.send(request).await
    }
}
