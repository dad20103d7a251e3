//! Versions on the wire (our extension, see docs/api.md "Conditional writes and versions"): an
//! object's version is the document version of the write that last created or changed it, a
//! document's is its history's head. They travel as decimal integers and as strong ETags
//! (`"12"`); a client names one in `If-Match` / `If-None-Match` or in `ifVersions` values, and
//! the answer to a failed condition is [`PreconditionFailedBody`] (412 `PRECONDITION_FAILED`).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// The header that carries a document's version on reads and writes.
pub const DOCUMENT_VERSION_HEADER: &str = "x-document-version";

/// A version as a client gives it: the JSON number `12`, or the string `"12"` or `"\"12\""`
/// (its ETag); it serialises as the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u64);

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Version, D::Error> {
        struct Read;
        impl Visitor<'_> for Read {
            type Value = Version;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a version: a whole number ≥ 0, as a number, a string or an ETag")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Version, E> {
                Ok(Version(n))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Version, E> {
                parse_version(text).map(Version).ok_or_else(|| {
                    E::custom(format!(
                        "{text:?} is not a version: a whole number ≥ 0, as a number, a string \
                         or an ETag"
                    ))
                })
            }
        }
        deserializer.deserialize_any(Read)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Version {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(r#"^"?[0-9]+"?$"#)),
            )
            .description(Some(
                "A version: a whole number, or its text or ETag (\"12\" and 12 name the same)",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Version {}

/// A version's text, as a number or as its ETag: `12`, `"12"`; `None` for anything else.
pub fn parse_version(text: &str) -> Option<u64> {
    let text = text.trim();
    let bare = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(text);
    if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    bare.parse().ok()
}

/// A version as a strong ETag: `"12"`.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}

/// What an `If-Match` or `If-None-Match` header asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionCondition {
    /// `*`: any current state (the thing must exist).
    Any,
    /// One of these versions.
    OneOf(Vec<u64>),
}

impl VersionCondition {
    /// Reads a header's value: `*`, or a comma-separated list of versions (`"3", "4"`, `12`).
    /// The error says what is wrong, for a message that starts with the header's name.
    pub fn parse(text: &str) -> Result<VersionCondition, String> {
        if text.trim() == "*" {
            return Ok(VersionCondition::Any);
        }
        let versions = text
            .split(',')
            .map(|item| {
                parse_version(item).ok_or_else(|| {
                    format!(
                        "{:?} is not a version: give \"N\" (a whole number), a list of them, or *",
                        item.trim()
                    )
                })
            })
            .collect::<Result<Vec<u64>, String>>()?;
        Ok(VersionCondition::OneOf(versions))
    }

    /// Whether a thing at `current` (`None`: it does not exist) meets the condition.
    pub fn matches(&self, current: Option<u64>) -> bool {
        match (self, current) {
            (_, None) => false,
            (VersionCondition::Any, Some(_)) => true,
            (VersionCondition::OneOf(versions), Some(current)) => versions.contains(&current),
        }
    }
}

/// An object with its version: `{type, data, version}` (`obj/all?versions=true`, the change
/// events' `objects`, a 412's `objects`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VersionedObject {
    /// The object type's wire name.
    #[serde(rename = "type")]
    pub kind: String,
    /// The type-specific properties.
    pub data: Map<String, Value>,
    /// The document version of the write that last created or changed it.
    pub version: u64,
}

/// The answer to a write whose condition failed: 412 `PRECONDITION_FAILED`, the error contract
/// plus what the client needs to decide again without another read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PreconditionFailedBody {
    /// Always false.
    pub success: bool,
    /// `PRECONDITION_FAILED`.
    pub error: super::ErrorCode,
    /// What differs, for people.
    pub message: String,
    /// The document's current version.
    pub document_version: u64,
    /// The current state of every object whose condition failed (null: it does not exist),
    /// and for a selector update also of every object that now matches but was not
    /// previewed. Absent for a condition on the document's version (set-content, restore).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<BTreeMap<String, Object>>))]
    pub objects: Option<BTreeMap<String, Option<VersionedObject>>>,
    /// Selector update only: the ids that match now but were not previewed, in id order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now_match: Option<Vec<String>>,
    /// Selector update only: the previewed ids that no longer match, in id order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_longer_match: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_version_names_it() {
        for text in ["12", "\"12\"", " \"12\" "] {
            assert_eq!(parse_version(text), Some(12), "{text}");
        }
        for text in ["", "\"\"", "-1", "1.5", "W/\"12\"", "twelve", "\"12"] {
            assert_eq!(parse_version(text), None, "{text}");
        }
        for json in ["12", "\"12\"", r#""\"12\"""#] {
            let version: Version = serde_json::from_str(json).unwrap();
            assert_eq!(version, Version(12), "{json}");
        }
        assert!(serde_json::from_str::<Version>("true").is_err());
        assert!(serde_json::from_str::<Version>("\"x\"").is_err());
        assert_eq!(serde_json::to_string(&Version(7)).unwrap(), "7");
        assert_eq!(etag(7), "\"7\"");
    }

    #[test]
    fn conditions_read_lists_and_star() {
        let listed = VersionCondition::parse("\"3\", \"4\"").unwrap();
        assert!(listed.matches(Some(4)) && !listed.matches(Some(5)) && !listed.matches(None));
        let any = VersionCondition::parse("*").unwrap();
        assert!(any.matches(Some(0)) && !any.matches(None));
        let error = VersionCondition::parse("\"3\", x").unwrap_err();
        assert!(error.starts_with("\"x\" is not a version"), "{error}");
    }
}
