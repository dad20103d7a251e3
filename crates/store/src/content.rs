//! A whole content given to set-content: checked for its shape and indexed in one pass over the
//! body, each object's data kept as the text it came as (white space between tokens removed),
//! never built into a tree of values. The body itself is the only large allocation.

use std::borrow::Cow;
use std::ops::Range;

use bytes::Bytes;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::error::{StoreError, StoreResult};
use super::raw::{RawEntries, compact};
use super::rules::check_object_id;

/// A content map `{objId: {type, data}}`, checked and ready to be stored.
#[derive(Debug)]
pub struct ContentUpload {
    body: Bytes,
    rows: Vec<Row>,
}

/// One object of an upload.
#[derive(Debug)]
struct Row {
    id: Box<str>,
    kind: Box<str>,
    data: Data,
}

/// Where an object's data text is.
#[derive(Debug)]
enum Data {
    /// A part of the body, already compact.
    InBody(Range<usize>),
    /// Compacted from the body.
    Owned(Box<str>),
}

/// The two properties of an entry, as text.
#[derive(Deserialize)]
struct EntryFields<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    data: Option<&'a RawValue>,
}

/// What JSON text starts as, in the words of error messages.
fn kind_of(text: &str) -> &'static str {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

impl ContentUpload {
    /// Checks a set-content body: a JSON map whose every entry is `{type: string, data:
    /// object}` under a non-empty id of at most 128 characters. Fails with the first entry
    /// that is not, naming it (`content.<objId>: data must be an object`).
    pub fn parse(body: Bytes) -> StoreResult<ContentUpload> {
        let text = std::str::from_utf8(&body)
            .map_err(|e| StoreError::InvalidJson(format!("the body is not valid UTF-8: {e}")))?;
        let syntax = |e: serde_json::Error| {
            StoreError::InvalidJson(format!("the body is not valid JSON: {e}"))
        };
        let entries = match serde_json::from_str::<RawEntries<'_>>(text) {
            Ok(RawEntries(entries)) => entries,
            Err(e) if e.classify() == serde_json::error::Category::Data => {
                // Not a map; but a body that is not JSON at all answers as any other's.
                serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(syntax)?;
                return Err(StoreError::Invalid(format!(
                    "content: must be a map of object id to {{type, data}}, got {}",
                    kind_of(text)
                )));
            }
            Err(e) => return Err(syntax(e)),
        };
        let offset = |part: &str| part.as_ptr() as usize - body.as_ptr() as usize;
        let mut rows = Vec::with_capacity(entries.len());
        for (id, entry) in entries {
            let label = format!("content.{id}");
            check_object_id(&label, &id)?;
            let invalid = |what: &str| StoreError::Invalid(format!("{label}: {what}"));
            if !entry.get().starts_with('{') {
                return Err(invalid("must be an object {type, data}"));
            }
            let fields: EntryFields<'_> = serde_json::from_str(entry.get())
                .map_err(|_| invalid("must be an object {type, data}"))?;
            let kind = fields
                .kind
                .filter(|k| k.get().starts_with('"'))
                .and_then(|k| serde_json::from_str::<Cow<'_, str>>(k.get()).ok())
                .ok_or_else(|| invalid("type must be a string"))?;
            let data = fields
                .data
                .filter(|d| d.get().starts_with('{'))
                .ok_or_else(|| invalid("data must be an object"))?;
            let data = match compact(data.get()) {
                Cow::Borrowed(text) => Data::InBody(offset(text)..offset(text) + text.len()),
                Cow::Owned(text) => Data::Owned(text.into()),
            };
            rows.push(Row {
                id: id.into(),
                kind: kind.into(),
                data,
            });
        }
        Ok(ContentUpload { body, rows })
    }

    /// Each object: `(id, type, data text)`, in the order given.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.rows.iter().map(|row| {
            let data = match &row.data {
                Data::InBody(range) => {
                    std::str::from_utf8(&self.body[range.clone()]).expect("checked as UTF-8")
                }
                Data::Owned(text) => text,
            };
            (&*row.id, &*row.kind, data)
        })
    }

    /// How many objects it holds.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it holds no object.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> StoreResult<ContentUpload> {
        ContentUpload::parse(Bytes::copy_from_slice(text.as_bytes()))
    }

    #[test]
    fn rows_keep_the_data_text_compacted() {
        let upload = parse(
            r#"{"b": {"type": "label", "data": {"text": "a b", "n": [1, 2]}, "extra": 1},
                "a\u00e9": {"data": {}, "type": "x"}}"#,
        )
        .unwrap();
        let rows: Vec<_> = upload.rows().collect();
        assert_eq!(
            rows,
            [
                ("b", "label", r#"{"text":"a b","n":[1,2]}"#),
                ("aé", "x", "{}")
            ]
        );
    }

    #[test]
    fn a_repeated_id_keeps_the_last_entry() {
        let upload =
            parse(r#"{"a":{"type":"x","data":{}},"a":{"type":"y","data":{"k":1}}}"#).unwrap();
        assert_eq!(
            upload.rows().collect::<Vec<_>>(),
            [("a", "y", r#"{"k":1}"#)]
        );
    }

    #[test]
    fn each_wrong_shape_names_its_entry() {
        for (text, wanted) in [
            (
                "[1]",
                "content: must be a map of object id to {type, data}, got an array",
            ),
            (r#"{"a": 5}"#, "content.a: must be an object {type, data}"),
            (r#"{"a": {"data": {}}}"#, "content.a: type must be a string"),
            (
                r#"{"a": {"type": 3, "data": {}}}"#,
                "content.a: type must be a string",
            ),
            (
                r#"{"b": {"type": "label"}}"#,
                "content.b: data must be an object",
            ),
            (
                r#"{"b": {"type": "label", "data": []}}"#,
                "content.b: data must be an object",
            ),
            (
                r#"{"": {"type": "label", "data": {}}}"#,
                "content.: an object id must not be empty",
            ),
        ] {
            let err = parse(text).unwrap_err();
            assert!(matches!(err, StoreError::Invalid(_)), "{text}");
            assert_eq!(err.to_string(), wanted, "{text}");
        }
        assert!(matches!(
            parse("{").unwrap_err(),
            StoreError::InvalidJson(_)
        ));
    }
}
