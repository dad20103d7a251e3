//! The object routes (spec 4.1).

use std::collections::BTreeMap;

use super::versions::{VersionedContent, VersionedObject, Versions, if_versions};
use super::{ApiError, Client};
use crate::route;
use diagtui_model::{
    BulkUpdateRequest, Content, CreateObjectRequest, DiagramObject, ObjectCreated, Props, Selector,
    SelectorUpdateRequest, SelectorUpdated, UpdateObjectRequest,
};

impl Client {
    /// `GET /doc/{docId}/obj/{objId}`.
    pub async fn get_object(&self, doc: &str, obj: &str) -> Result<DiagramObject, ApiError> {
        Ok(self.get_object_versioned(doc, obj).await?.object)
    }

    /// `GET /doc/{docId}/obj/{objId}` with the object's version (its `ETag`; `None` from a
    /// server without versions).
    pub async fn get_object_versioned(
        &self,
        doc: &str,
        obj: &str,
    ) -> Result<VersionedObject, ApiError> {
        let request = self.request(&route::object(doc, obj));
        let (object, versions) = self.send_versioned(request).await?;
        Ok(VersionedObject {
            object,
            version: versions.etag,
        })
    }

    /// `GET /doc/{docId}/obj/where/{selector}`: the objects whose metadata matches.
    pub async fn objects_where(&self, doc: &str, selector: &Selector) -> Result<Content, ApiError> {
        self.get(&route::objects_where(doc, selector, false)).await
    }

    /// `GET /doc/{docId}/obj/where/{selector}?versions=true`: the matches with their versions
    /// and the document's version (all `None` from a server without versions, which ignores
    /// the query).
    pub async fn objects_where_versioned(
        &self,
        doc: &str,
        selector: &Selector,
    ) -> Result<VersionedContent, ApiError> {
        let request = self.request(&route::objects_where(doc, selector, true));
        let (objects, versions) = self.send_versioned(request).await?;
        Ok(VersionedContent {
            objects,
            document: versions.document,
        })
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
        let created: ObjectCreated = self.post(&route::create_object(doc), Some(&body)).await?;
        Ok(created.obj_id)
    }

    /// `POST /doc/{docId}/obj/{objId}`: merges `props` into the object (non-recursively).
    pub async fn update_object(&self, doc: &str, obj: &str, props: &Props) -> Result<(), ApiError> {
        self.update_object_if(doc, obj, props, None)
            .await
            .map(|_| ())
    }

    /// [`Client::update_object`] with `If-Match: "<version>"` when `if_match` is given: the
    /// server writes only while the object is at that version, else answers
    /// [`ApiError::PreconditionFailed`] with its current state. The answer's versions: the
    /// object's new one (`etag`) and the document's.
    pub async fn update_object_if(
        &self,
        doc: &str,
        obj: &str,
        props: &Props,
        if_match: Option<u64>,
    ) -> Result<Versions, ApiError> {
        let body = UpdateObjectRequest {
            props: props.clone(),
        };
        let request = self.post_request(&route::update_object(doc, obj), Some(&body));
        self.send_ok_versioned(Client::if_match(request, if_match))
            .await
    }

    /// `POST /doc/{docId}`: merges each object's own properties into it.
    pub async fn bulk_update(
        &self,
        doc: &str,
        objects: &BTreeMap<String, Props>,
    ) -> Result<(), ApiError> {
        self.bulk_update_if(doc, objects, None).await.map(|_| ())
    }

    /// [`Client::bulk_update`] with `ifVersions` when given: each object named must be at its
    /// version, else nothing is written ([`ApiError::PreconditionFailed`]). Objects not named
    /// are merged unconditionally.
    pub async fn bulk_update_if(
        &self,
        doc: &str,
        objects: &BTreeMap<String, Props>,
        versions: Option<&BTreeMap<String, u64>>,
    ) -> Result<Versions, ApiError> {
        let body = BulkUpdateRequest {
            objects: objects.clone(),
            if_versions: if_versions(versions),
        };
        self.send_ok_versioned(self.post_request(&route::bulk_update(doc), Some(&body)))
            .await
    }

    /// `POST /doc/{docId}/obj/where`: merges `props` into every object the selector matches.
    pub async fn update_where(
        &self,
        doc: &str,
        selector: &Selector,
        props: &Props,
    ) -> Result<SelectorUpdated, ApiError> {
        Ok(self.update_where_if(doc, selector, props, None).await?.0)
    }

    /// [`Client::update_where`] with `ifVersions` when given: "exactly the objects I
    /// previewed, at these versions". It goes through only if the selector matches exactly
    /// those ids now, each at its version; else nothing is written
    /// ([`ApiError::PreconditionFailed`], saying which match now or no longer).
    pub async fn update_where_if(
        &self,
        doc: &str,
        selector: &Selector,
        props: &Props,
        versions: Option<&BTreeMap<String, u64>>,
    ) -> Result<(SelectorUpdated, Versions), ApiError> {
        let body = SelectorUpdateRequest {
            selector: selector.clone(),
            props: props.clone(),
            if_versions: if_versions(versions),
        };
        let route = route::update_where(doc);
        self.send_versioned(self.post_request(&route, Some(&body)))
            .await
    }

    /// `POST /doc/{docId}/obj/{objId}/delete`.
    pub async fn delete_object(&self, doc: &str, obj: &str) -> Result<(), ApiError> {
        self.delete_object_if(doc, obj, None).await.map(|_| ())
    }

    /// [`Client::delete_object`] with `If-Match: "<version>"` when given.
    pub async fn delete_object_if(
        &self,
        doc: &str,
        obj: &str,
        if_match: Option<u64>,
    ) -> Result<Versions, ApiError> {
        let request = self.post_request::<()>(&route::delete_object(doc, obj), None);
        self.send_ok_versioned(Client::if_match(request, if_match))
            .await
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
        let url = client.url_of(&route::objects_where("d", &selector, false));
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
