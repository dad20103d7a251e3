//! The object routes (spec 4.1).

use std::collections::BTreeMap;

use reqwest::Url;

use super::{ApiError, Client};
use diagtui_model::{
    BulkUpdateRequest, Content, CreateObjectRequest, DiagramObject, ObjectCreated, Props, Selector,
    SelectorUpdateRequest, SelectorUpdated, UpdateObjectRequest,
};

impl Client {
    /// `GET /doc/{docId}/obj/{objId}`.
    pub async fn get_object(&self, doc: &str, obj: &str) -> Result<DiagramObject, ApiError> {
        self.get(self.url(&["doc", doc, "obj", obj])).await
    }

    /// `GET /doc/{docId}/obj/where/{selector}`: the objects whose metadata matches.
    pub async fn objects_where(&self, doc: &str, selector: &Selector) -> Result<Content, ApiError> {
        self.get(self.where_url(doc, selector)).await
    }

    /// `POST /doc/{docId}/obj/`: a new object of type `kind`. Returns its id.
    pub async fn create_object(
        &self,
        doc: &str,
        kind: &str,
        props: &Props,
    ) -> Result<String, ApiError> {
        let body = CreateObjectRequest {
            kind: kind.to_owned(),
            props: props.clone(),
        };
        let created: ObjectCreated = self
            .post(self.url(&["doc", doc, "obj", ""]), Some(&body))
            .await?;
        Ok(created.obj_id)
    }

    /// `POST /doc/{docId}/obj/{objId}`: merges `props` into the object (non-recursively).
    pub async fn update_object(&self, doc: &str, obj: &str, props: &Props) -> Result<(), ApiError> {
        let body = UpdateObjectRequest {
            props: props.clone(),
        };
        self.post_ok(self.url(&["doc", doc, "obj", obj]), Some(&body))
            .await
    }

    /// `POST /doc/{docId}`: merges each object's own properties into it.
    pub async fn bulk_update(
        &self,
        doc: &str,
        objects: &BTreeMap<String, Props>,
    ) -> Result<(), ApiError> {
        let body = BulkUpdateRequest {
            objects: objects.clone(),
            if_versions: None,
        };
        self.post_ok(self.url(&["doc", doc]), Some(&body)).await
    }

    /// `POST /doc/{docId}/obj/where`: merges `props` into every object the selector matches.
    pub async fn update_where(
        &self,
        doc: &str,
        selector: &Selector,
        props: &Props,
    ) -> Result<SelectorUpdated, ApiError> {
        let body = SelectorUpdateRequest {
            selector: selector.clone(),
            props: props.clone(),
            if_versions: None,
        };
        self.post(self.url(&["doc", doc, "obj", "where"]), Some(&body))
            .await
    }

    /// `POST /doc/{docId}/obj/{objId}/delete`.
    pub async fn delete_object(&self, doc: &str, obj: &str) -> Result<(), ApiError> {
        self.post_ok::<()>(self.url(&["doc", doc, "obj", obj, "delete"]), None)
            .await
    }

    /// `…/obj/where/{selector}` with the selector fully percent-encoded in the last segment.
    fn where_url(&self, doc: &str, selector: &Selector) -> Url {
        let mut url = self.url(&["doc", doc, "obj", "where"]);
        let path = format!("{}/{}", url.path(), selector.to_path_segment());
        url.set_path(&path);
        url
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ApiKey, ClientConfig};

    #[test]
    fn selectors_travel_fully_encoded_in_one_segment() {
        let client = Client::new(ClientConfig::new("http://h", ApiKey::new("k"))).unwrap();
        let selector = Selector::parse(r#"["a/b","eq","50% & \"q\" é?#"]"#).unwrap();
        let url = client.where_url("d", &selector);
        let segment = url.path().rsplit('/').next().unwrap();
        assert_eq!(segment, selector.to_path_segment());
        assert_eq!(url.query(), None);
        assert_eq!(url.fragment(), None);
        let decoded = percent_encoding::percent_decode_str(segment)
            .decode_utf8()
            .unwrap();
        assert_eq!(Selector::parse(&decoded).unwrap(), selector);
    }
}
