//! Versions (our server's extension, issue 33): an object's version is the document version of
//! the write that last changed it. Reads tell them (`ETag`, `X-Document-Version`,
//! `?versions=true`); writes may name the versions they expect (`If-Match`, `ifVersions`), and
//! a server that finds another answers 412 with the current state
//! ([`PreconditionFailedBody`], in [`crate::ApiError::PreconditionFailed`]). A server without
//! versions (any other implementation of the API) sends none of these: every version read from
//! it is `None`, and conditional writes must not be sent to it. The wire's spellings of a
//! version (`etag`, `parse_version`) are the model's.

use std::collections::BTreeMap;

use reqwest::header::{ETAG, HeaderMap};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use diagtui_model::versions::{DOCUMENT_VERSION_HEADER, PreconditionFailedBody, parse_version};
use diagtui_model::{Content, DiagramObject};

/// What an answer's headers say about versions; `None` where the server said nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Versions {
    /// `ETag`: the object's version (one object's read, create or update), or the document's
    /// (`obj/all`).
    pub etag: Option<u64>,
    /// `X-Document-Version`: the document's version after the request.
    pub document: Option<u64>,
}

impl Versions {
    /// Read from an answer's headers.
    pub(crate) fn of(headers: &HeaderMap) -> Versions {
        let read = |name| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(parse_version)
        };
        Versions {
            etag: read(ETAG.as_str()),
            document: read(DOCUMENT_VERSION_HEADER),
        }
    }
}

/// An object as read, with its version: `None` from a server without versions (unlike
/// `model::versions::VersionedObject`, whose version is always there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionedObject {
    /// The object.
    #[serde(flatten)]
    pub object: DiagramObject,
    /// Its version.
    #[serde(
        default,
        deserialize_with = "lenient_version",
        skip_serializing_if = "Option::is_none"
    )]
    pub version: Option<u64>,
}

/// Objects with their versions, as `obj/all?versions=true` and `obj/where/…?versions=true`
/// answer, and the document's version then.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VersionedContent {
    /// Object id to the object and its version.
    pub objects: BTreeMap<String, VersionedObject>,
    /// The document's version (`X-Document-Version`).
    pub document: Option<u64>,
}

impl VersionedContent {
    /// The versions of every object that has one: what a write that must not overwrite a change
    /// made since sends as `ifVersions`. Empty from a server without versions.
    pub fn versions(&self) -> BTreeMap<String, u64> {
        self.objects
            .iter()
            .filter_map(|(id, o)| o.version.map(|v| (id.clone(), v)))
            .collect()
    }

    /// Whether the server gave versions: every object has one (with no objects, whether the
    /// document has its own).
    pub fn has_versions(&self) -> bool {
        if self.objects.is_empty() {
            self.document.is_some()
        } else {
            self.objects.values().all(|o| o.version.is_some())
        }
    }

    /// The objects without their versions.
    pub fn content(&self) -> Content {
        self.objects
            .iter()
            .map(|(id, o)| (id.clone(), o.object.clone()))
            .collect()
    }
}

/// A version given as a JSON number or a string holding one (`12`, `"12"`, `"\"12\""`), or
/// none.
fn lenient_version<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    match Option::<Value>::deserialize(deserializer)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("version {n} is not a whole number"))),
        Some(Value::String(s)) => parse_version(&s)
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("version \"{s}\" is not a number"))),
        Some(other) => Err(de::Error::custom(format!(
            "version {other} is not a number"
        ))),
    }
}

/// The 412 body, if `body` is one (else the caller reads it as any error answer).
pub(crate) fn read_conflict(body: &[u8]) -> Option<PreconditionFailedBody> {
    serde_json::from_slice(body).ok()
}

/// The ids a 412 names, in id order: those whose version differed (or that are gone) and, for
/// a selector update, those that match now or no longer.
pub fn conflicting_ids(conflict: &PreconditionFailedBody) -> Vec<String> {
    let mut ids: Vec<String> = (conflict.objects.iter().flat_map(BTreeMap::keys))
        .chain(conflict.now_match.iter().flatten())
        .chain(conflict.no_longer_match.iter().flatten())
        .cloned()
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// `ifVersions` as the model's requests carry it.
pub(crate) fn if_versions(
    versions: Option<&BTreeMap<String, u64>>,
) -> Option<BTreeMap<String, diagtui_model::versions::Version>> {
    versions.map(|versions| {
        (versions.iter())
            .map(|(id, &v)| (id.clone(), diagtui_model::versions::Version(v)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_conflict_reads_objects_gone_and_matches() {
        let body = json!({
            "success": false, "error": "PRECONDITION_FAILED",
            "message": "2 objects changed since the versions given: a (now 14), b (deleted)",
            "documentVersion": 15,
            "objects": {"a": {"type": "component", "data": {"name": "x"}, "version": 14}, "b": null},
            "nowMatch": ["c"], "noLongerMatch": ["b"]
        });
        let conflict = read_conflict(body.to_string().as_bytes()).unwrap();
        assert_eq!(conflict.document_version, 15);
        let objects = conflict.objects.as_ref().unwrap();
        assert_eq!(objects["a"].as_ref().unwrap().version, 14);
        assert_eq!(objects["b"], None);
        assert_eq!(conflicting_ids(&conflict), ["a", "b", "c"]);
    }

    #[test]
    fn a_document_level_conflict_has_no_objects() {
        let body =
            br#"{"success":false,"error":"PRECONDITION_FAILED","message":"m","documentVersion":7}"#;
        let conflict = read_conflict(body).unwrap();
        assert_eq!(conflict.document_version, 7);
        assert!(conflict.objects.is_none() && conflicting_ids(&conflict).is_empty());
    }

    #[test]
    fn versioned_entries_read_with_or_without_a_version() {
        let with: VersionedObject =
            serde_json::from_value(json!({"type": "label", "data": {}, "version": 3})).unwrap();
        assert_eq!(with.version, Some(3));
        let quoted: VersionedObject =
            serde_json::from_value(json!({"type": "label", "data": {}, "version": "\"4\""}))
                .unwrap();
        assert_eq!(quoted.version, Some(4));
        let without: VersionedObject =
            serde_json::from_value(json!({"type": "label", "data": {}})).unwrap();
        assert_eq!(without.version, None);
        assert_eq!(
            serde_json::to_value(&without).unwrap(),
            json!({"type": "label", "data": {}})
        );
        let listing = VersionedContent {
            objects: [("a".to_string(), with), ("b".to_string(), without)].into(),
            document: Some(3),
        };
        assert!(!listing.has_versions());
        assert_eq!(listing.versions(), BTreeMap::from([("a".to_string(), 3)]));
    }
}
