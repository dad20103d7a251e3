//! The embed routes (see `docs/embeds.md`): static embeds, a document's live embed, the list.

use super::{ApiError, Client};
use crate::route;
use diagtui_model::DocIdRequest;
use diagtui_model::embeds::{
    CreateStaticEmbedRequest, EmbedIdRequest, EmbedList, LiveEmbedKey, StaticEmbedCreated,
};

impl Client {
    /// `POST /embed/create-static`: a frozen copy of the document now, at its own page.
    pub async fn create_static_embed(
        &self,
        doc: &str,
        title: Option<&str>,
    ) -> Result<StaticEmbedCreated, ApiError> {
        let body = CreateStaticEmbedRequest {
            doc_id: doc.to_owned(),
            title: title.map(str::to_owned),
        };
        self.post(&route::embed("create-static"), Some(&body)).await
    }

    /// `POST /embed/delete-static`: deletes a static embed.
    pub async fn delete_static_embed(&self, id: &str) -> Result<(), ApiError> {
        let body = EmbedIdRequest { id: id.to_owned() };
        self.post_ok(&route::embed("delete-static"), Some(&body))
            .await
    }

    /// `POST /embed/enable-live` (or `rotate-live` when `rotate`): the document's live embed's
    /// key and page.
    pub async fn live_embed(&self, doc: &str, rotate: bool) -> Result<LiveEmbedKey, ApiError> {
        let route = if rotate { "rotate-live" } else { "enable-live" };
        self.post(&route::embed(route), Some(&doc_id(doc))).await
    }

    /// `POST /embed/disable-live`: turns the document's live embed off.
    pub async fn disable_live_embed(&self, doc: &str) -> Result<(), ApiError> {
        self.post_ok(&route::embed("disable-live"), Some(&doc_id(doc)))
            .await
    }

    /// `GET /embed/list/{docId}`: the document's embeds, the live one first.
    pub async fn embeds(&self, doc: &str) -> Result<EmbedList, ApiError> {
        self.get(&route::embeds(doc)).await
    }
}

/// A body naming a document.
fn doc_id(doc: &str) -> DocIdRequest {
    DocIdRequest {
        doc_id: doc.to_owned(),
    }
}
