//! Versions (our server's extension, issue 33): an object's version is the document version of
//! the write that last changed it. Reads tell them (`ETag`, `X-Document-Version`,
//! `?versions=true`); writes may name the versions they expect (`If-Match`, `ifVersions`), and
//! a server that finds another answers 412 with the current state, read here as a [`Conflict`].
//! A server without versions (any other implementation of the API) sends none of these: every
//! version read from it is `None`, and conditional writes must not be sent to it.

use std::collections::BTreeMap;

use reqwest::header::{ETAG, HeaderMap};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use diagtui_model::{Content, DiagramObject, ErrorCode};

/// A version: the decimal integer of the server's history (0 before its first recorded write).
pub type Version = u64;

/// The answer header naming the document's version.
pub const DOCUMENT_VERSION: &str = "x-document-version";

/// A version as an `If-Match` / `If-None-Match` value: a strong ETag, `"12"`.
pub fn etag(version: Version) -> String {
    format!("\"{version}\"")
}

/// The version a strong ETag (or a bare number) names: `"12"` and `12` give 12; a weak or
/// malformed tag gives `None`.
pub fn parse_etag(value: &str) -> Option<Version> {
    let value = value.trim();
    let inner = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value);
    if inner.is_empty() || !inner.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    inner.parse().ok()
}

/// What an answer's headers say about versions; `None` where the server said nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Versions {
    /// `ETag`: the object's version (one object's read, create or update), or the document's
    /// (`obj/all`).
    pub etag: Option<Version>,
    /// `X-Document-Version`: the document's version after the request.
    pub document: Option<Version>,
}

impl Versions {
    /// Read from an answer's headers.
    pub(crate) fn of(headers: &HeaderMap) -> Versions {
        let read = |name| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(parse_etag)
        };
        Versions {
            etag: read(ETAG.as_str()),
            document: read(DOCUMENT_VERSION),
        }
    }
}

/// An object with its version (`None` from a server without versions).
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
    pub version: Option<Version>,
}

/// Objects with their versions, as `obj/all?versions=true` and `obj/where/…?versions=true`
/// answer, and the document's version then.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VersionedContent {
    /// Object id to the object and its version.
    pub objects: BTreeMap<String, VersionedObject>,
    /// The document's version (`X-Document-Version`).
    pub document: Option<Version>,
}

impl VersionedContent {
    /// The versions of every object that has one: what a write that must not overwrite a change
    /// made since sends as `ifVersions`. Empty from a server without versions.
    pub fn versions(&self) -> BTreeMap<String, Version> {
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

/// A version given as a JSON number or a string holding one (`12`, `"12"`, `"\"12\""`).
fn lenient_version<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Version>, D::Error> {
    match Option::<Value>::deserialize(deserializer)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("version {n} is not a whole number"))),
        Some(Value::String(s)) => parse_etag(&s)
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("version \"{s}\" is not a number"))),
        Some(other) => Err(de::Error::custom(format!(
            "version {other} is not a number"
        ))),
    }
}

/// A 412 answer: the versions a write named are not the current ones, and nothing was
/// written. It holds what is current, so the caller can show it without reading again.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    /// The error code (`PRECONDITION_FAILED`).
    #[serde(rename = "error")]
    pub code: ErrorCode,
    /// The server's words (`2 objects changed since the versions given: …`).
    pub message: String,
    /// The document's current version.
    #[serde(default, deserialize_with = "lenient_version")]
    pub document_version: Option<Version>,
    /// The current state of each object whose version differed (`None`: it no longer exists),
    /// and for a selector update each object that now matches but was not named. Empty for the
    /// document-level preconditions (set-content, restore).
    #[serde(default)]
    pub objects: BTreeMap<String, Option<VersionedObject>>,
    /// A selector update's: the ids that match now and were not named.
    #[serde(default)]
    pub now_match: Vec<String>,
    /// A selector update's: the ids named that no longer match.
    #[serde(default)]
    pub no_longer_match: Vec<String>,
}

impl Conflict {
    /// The 412 body, if `body` is one (else the caller reads it as any error answer).
    pub(crate) fn read(body: &[u8]) -> Option<Conflict> {
        serde_json::from_slice(body).ok()
    }

    /// The ids whose state is not what the write expected, in id order: those named with
    /// another version (or gone) and, for a selector update, those that match now or no
    /// longer.
    pub fn changed_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .objects
            .keys()
            .chain(&self.now_match)
            .chain(&self.no_longer_match)
            .cloned()
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }
}

/// A write's body with the versions it expects beside it: `{…, "ifVersions": {objId:
/// version}}` (the bulk and selector updates).
#[derive(Serialize)]
pub(crate) struct WithVersions<'a, B: Serialize> {
    #[serde(flatten)]
    pub body: &'a B,
    #[serde(rename = "ifVersions", skip_serializing_if = "Option::is_none")]
    pub if_versions: Option<&'a BTreeMap<String, Version>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn etags_name_versions_quoted_or_not() {
        assert_eq!(etag(12), "\"12\"");
        assert_eq!(parse_etag("\"12\""), Some(12));
        assert_eq!(parse_etag(" 12 "), Some(12));
        assert_eq!(parse_etag("\"0\""), Some(0));
        for bad in ["W/\"12\"", "\"\"", "\"1a\"", "*", "", "\"-1\""] {
            assert_eq!(parse_etag(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_conflict_reads_objects_gone_and_matches() {
        let body = json!({
            "success": false, "error": "PRECONDITION_FAILED",
            "message": "2 objects changed since the versions given: a (now 14), b (deleted)",
            "documentVersion": 15,
            "objects": {"a": {"type": "component", "data": {"name": "x"}, "version": 14}, "b": null},
            "nowMatch": ["c"], "noLongerMatch": ["b"]
        });
        let conflict = Conflict::read(body.to_string().as_bytes()).unwrap();
        assert_eq!(conflict.code.to_string(), "PRECONDITION_FAILED");
        assert_eq!(conflict.document_version, Some(15));
        let a = conflict.objects["a"].as_ref().unwrap();
        assert_eq!(a.version, Some(14));
        assert_eq!(a.object.data["name"], "x");
        assert_eq!(conflict.objects["b"], None);
        assert_eq!(conflict.changed_ids(), ["a", "b", "c"]);
    }

    #[test]
    fn a_document_level_conflict_has_no_objects() {
        let body = br#"{"success":false,"error":"PRECONDITION_FAILED","message":"m","documentVersion":"7"}"#;
        let conflict = Conflict::read(body).unwrap();
        assert_eq!(conflict.document_version, Some(7));
        assert!(conflict.objects.is_empty() && conflict.changed_ids().is_empty());
    }

    #[test]
    fn versioned_entries_read_with_or_without_a_version() {
        let with: VersionedObject =
            serde_json::from_value(json!({"type": "label", "data": {}, "version": 3})).unwrap();
        assert_eq!(with.version, Some(3));
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

    #[test]
    fn if_versions_travel_beside_the_body() {
        let body = json!({"objects": {"a": {"x": 1}}});
        let versions = BTreeMap::from([("a".to_string(), 4)]);
        let sent = WithVersions {
            body: &body,
            if_versions: Some(&versions),
        };
        assert_eq!(
            serde_json::to_value(&sent).unwrap(),
            json!({"objects": {"a": {"x": 1}}, "ifVersions": {"a": 4}})
        );
        let plain = WithVersions {
            body: &body,
            if_versions: None,
        };
        assert_eq!(serde_json::to_value(&plain).unwrap(), body);
    }
}
