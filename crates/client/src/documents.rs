//! The document routes (spec 4.2).

use super::versions::{VersionedContent, Versions};
use super::{AnswerBody, ApiError, Client, JsonBody};
use crate::route;
use diagtui_model::{
    AddCollaboratorRequest, Content, CreateDocRequest, DocCreated, DocDetails, DocIdRequest,
    DocSummary, DocTitleRequest, MoveDocRequest,
};

impl Client {
    /// `GET /doc`: every document of the account.
    pub async fn list_docs(&self) -> Result<Vec<DocSummary>, ApiError> {
        self.get(&route::docs()).await
    }

    /// `GET /doc/{docId}`: a document's details.
    pub async fn doc_details(&self, doc: &str) -> Result<DocDetails, ApiError> {
        self.get(&route::doc(doc)).await
    }

    /// `GET /doc/{docId}/obj/all`: every object of a document.
    pub async fn content(&self, doc: &str) -> Result<Content, ApiError> {
        self.get(&route::content(doc, false)).await
    }

    /// `GET /doc/{docId}/obj/all?versions=true`: every object with its version, and the
    /// document's version (all `None` from a server without versions).
    pub async fn content_versioned(&self, doc: &str) -> Result<VersionedContent, ApiError> {
        let request = self.request(&route::content(doc, true));
        let (objects, versions) = self.send_versioned(request).await?;
        Ok(VersionedContent {
            objects,
            document: versions.document,
        })
    }

    /// `GET /doc/{docId}/obj/all` as JSON bytes: the answer's body, read as it arrives and not
    /// parsed, for content too big to hold as values.
    pub async fn content_body(&self, doc: &str) -> Result<AnswerBody, ApiError> {
        self.content_body_of(doc, false).await
    }

    /// [`Client::content_body`] with each entry's version (`?versions=true`:
    /// `{type, data, version}`) and the document's in [`AnswerBody::versions`]; a server
    /// without versions answers as `content_body`.
    pub async fn content_body_versioned(&self, doc: &str) -> Result<AnswerBody, ApiError> {
        self.content_body_of(doc, true).await
    }

    async fn content_body_of(&self, doc: &str, versions: bool) -> Result<AnswerBody, ApiError> {
        let response = self
            .respond(self.request(&route::content(doc, versions)))
            .await?;
        Ok(AnswerBody::new(response, self.clone()))
    }

    /// `POST /doc/set-content/{docId}`: replaces all content (the server does not validate it).
    pub async fn set_content(&self, doc: &str, content: &Content) -> Result<(), ApiError> {
        self.set_content_if(doc, content, None).await.map(|_| ())
    }

    /// [`Client::set_content`] with `If-Match: "<document version>"` when given: it replaces
    /// the content only while the document is at that version; what the answer says of versions
    /// (the version the write made, from our server).
    pub async fn set_content_if(
        &self,
        doc: &str,
        content: &Content,
        if_match: Option<u64>,
    ) -> Result<Versions, ApiError> {
        let request = self.post_request(&route::set_content(doc), Some(content));
        self.send_ok_versioned(Client::if_match(request, if_match))
            .await
    }

    /// `POST /doc/set-content/{docId}` with content given as JSON bytes, sent as they are: the
    /// caller checks them (neither the client nor the server does).
    pub async fn set_content_body(&self, doc: &str, content: JsonBody) -> Result<(), ApiError> {
        let request = self.request(&route::set_content(doc));
        self.send_ok(content.attach(request)).await
    }

    /// `POST /doc/create`: a new empty document, in `folder` or the account's first folder.
    /// Returns the new document's id.
    pub async fn create_doc(&self, title: &str, folder: Option<&str>) -> Result<String, ApiError> {
        let body = CreateDocRequest {
            title: title.to_owned(),
            folder_id: folder.map(str::to_owned),
        };
        let created: DocCreated = self.post(&route::create_doc(), Some(&body)).await?;
        Ok(created.doc_id)
    }

    /// `POST /doc/change-title`.
    pub async fn rename_doc(&self, doc: &str, title: &str) -> Result<(), ApiError> {
        let body = doc_title(doc, title);
        self.post_ok(&route::rename_doc(), Some(&body)).await
    }

    /// `POST /doc/clone`: a copy under a new title. Returns the new document's id.
    pub async fn clone_doc(&self, doc: &str, title: &str) -> Result<String, ApiError> {
        let body = doc_title(doc, title);
        let created: DocCreated = self.post(&route::clone_doc(), Some(&body)).await?;
        Ok(created.doc_id)
    }

    /// `POST /doc/empty`: removes every object, keeps the document.
    pub async fn empty_doc(&self, doc: &str) -> Result<(), ApiError> {
        self.empty_doc_versioned(doc).await.map(|_| ())
    }

    /// [`Client::empty_doc`], with what the answer says of versions (the version the empty
    /// made, from our server).
    pub async fn empty_doc_versioned(&self, doc: &str) -> Result<Versions, ApiError> {
        let request = self.post_request(&route::empty_doc(), Some(&doc_id(doc)));
        self.send_ok_versioned(request).await
    }

    /// `POST /doc/add-collaborator`: shares with the account of `email`.
    pub async fn share_doc(&self, doc: &str, email: &str) -> Result<(), ApiError> {
        let body = AddCollaboratorRequest {
            doc_id: doc.to_owned(),
            email: email.to_owned(),
        };
        self.post_ok(&route::share_doc(), Some(&body)).await
    }

    /// `POST /doc/move` (our extension): the document into another of the account's folders.
    pub async fn move_doc(&self, doc: &str, folder: &str) -> Result<(), ApiError> {
        let body = MoveDocRequest {
            doc_id: doc.to_owned(),
            folder_id: folder.to_owned(),
        };
        self.post_ok(&route::move_doc(), Some(&body)).await
    }

    /// `POST /doc/delete`: removes the document and all its content, irrevocably.
    pub async fn delete_doc(&self, doc: &str) -> Result<(), ApiError> {
        self.post_ok(&route::delete_doc(), Some(&doc_id(doc))).await
    }
}

fn doc_id(doc: &str) -> DocIdRequest {
    DocIdRequest {
        doc_id: doc.to_owned(),
    }
}

fn doc_title(doc: &str, title: &str) -> DocTitleRequest {
    DocTitleRequest {
        doc_id: doc.to_owned(),
        title: title.to_owned(),
    }
}
