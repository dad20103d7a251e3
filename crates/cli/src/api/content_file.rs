//! The content file of `doc import`: checked to be a content map (object id to `{type, data}`)
//! in one pass that keeps no values, before anything is sent; then sent as it is. A regular file
//! is read again as it goes out, so it is never held in memory; stdin (and a pipe given as a
//! path), which cannot be read twice, is kept in memory as bytes.

use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use bytes::Bytes;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::error::Category;

use diagtui_client::JsonBody;

/// What a content map is, for messages.
const CONTENT_MAP: &str = "a JSON object mapping object ids to {\"type\", \"data\"}";

/// A content file that passed the check, ready to send.
#[derive(Debug, Clone)]
pub struct ContentFile {
    source: Source,
    /// How many objects it holds (distinct ids).
    pub objects: usize,
}

#[derive(Debug, Clone)]
enum Source {
    /// A regular file of `length` bytes, read again when sent.
    File { path: PathBuf, length: u64 },
    /// Bytes read from stdin or a pipe.
    Memory(Bytes),
}

impl ContentFile {
    /// Reads and checks a content file: a path, or `-` for stdin. Every error is a sentence for
    /// the person at the prompt.
    pub fn read(arg: &str) -> Result<ContentFile, String> {
        let cannot_read = |e: std::io::Error| format!("cannot read {arg}: {e}");
        if arg == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            return ContentFile::in_memory(bytes, "stdin");
        }
        let file = File::open(arg).map_err(cannot_read)?;
        let metadata = file.metadata().map_err(cannot_read)?;
        if !metadata.is_file() {
            let mut bytes = Vec::new();
            BufReader::new(file)
                .read_to_end(&mut bytes)
                .map_err(cannot_read)?;
            return ContentFile::in_memory(bytes, arg);
        }
        let mut reader = BufReader::with_capacity(64 * 1024, file);
        let start = reader.fill_buf().map_err(cannot_read)?;
        refuse_other_kinds(start)?;
        let objects = check(serde_json::Deserializer::from_reader(reader), arg)?;
        Ok(ContentFile {
            source: Source::File {
                path: arg.into(),
                length: metadata.len(),
            },
            objects,
        })
    }

    fn in_memory(bytes: Vec<u8>, source: &str) -> Result<ContentFile, String> {
        refuse_other_kinds(&bytes)?;
        let objects = check(serde_json::Deserializer::from_slice(&bytes), source)?;
        Ok(ContentFile {
            source: Source::Memory(bytes.into()),
            objects,
        })
    }

    /// The request body: the file opened again, or the bytes read.
    pub async fn body(self) -> anyhow::Result<JsonBody> {
        Ok(match self.source {
            Source::File { path, length } => {
                let file = tokio::fs::File::open(&path)
                    .await
                    .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
                JsonBody::from_reader(file, length)
            }
            Source::Memory(bytes) => JsonBody::from_bytes(bytes),
        })
    }
}

/// Refuses text whose first value is plainly not an object, naming what it is instead. Text
/// that does not start like JSON at all is left to the parser to describe.
fn refuse_other_kinds(start: &[u8]) -> Result<(), String> {
    let first = start.iter().find(|b| !b.is_ascii_whitespace());
    let kind = match first {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(b'-' | b'0'..=b'9') => "a number",
        _ => return Ok(()),
    };
    Err(format!("content must be {CONTENT_MAP}, got {kind}"))
}

/// Reads a whole content map, keeping only its ids; returns how many distinct ids it has.
fn check<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    source: &str,
) -> Result<usize, String> {
    let mut shape = ContentShape::default();
    let result = (&mut shape).deserialize(&mut de).and_then(|()| de.end());
    result.map_err(|e| match (e.classify(), &shape.entry) {
        (Category::Io, _) => format!("cannot read {source}: {e}"),
        (Category::Syntax | Category::Eof, _) => format!("{source} is not valid JSON: {e}"),
        (Category::Data, Some(id)) => format!("content: object {id:?}: {e}"),
        (Category::Data, None) => format!("content: {e}"),
    })?;
    Ok(shape.ids.len())
}

/// The ids of a content map seen so far, and the entry being read.
#[derive(Default)]
struct ContentShape {
    ids: HashSet<String>,
    entry: Option<String>,
}

impl<'de> DeserializeSeed<'de> for &mut ContentShape {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut ContentShape {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(CONTENT_MAP)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(id) = map.next_key::<String>()? {
            self.entry = Some(id);
            map.next_value::<EntryShape>()?;
            self.ids
                .insert(self.entry.take().expect("set before the value"));
        }
        Ok(())
    }
}

/// One entry of a content map, as set-content takes it: `{type, data}` with a text type and an
/// object of data (other fields are ignored, as the typed content does).
#[derive(Deserialize)]
#[serde(expecting = "{\"type\", \"data\"}")]
struct EntryShape {
    #[serde(rename = "type")]
    _kind: String,
    #[serde(rename = "data")]
    _data: ObjectShape,
}

/// A JSON object whose members are skipped.
struct ObjectShape;

impl<'de> Deserialize<'de> for ObjectShape {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<ObjectShape, D::Error> {
        deserializer.deserialize_map(ObjectShape)
    }
}

impl<'de> Visitor<'de> for ObjectShape {
    type Value = ObjectShape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of properties")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ObjectShape, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(ObjectShape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(text: &str) -> Result<usize, String> {
        let from_slice = ContentFile::in_memory(text.as_bytes().to_vec(), "stdin");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("content.json");
        std::fs::write(&path, text).unwrap();
        let from_file = ContentFile::read(path.to_str().unwrap());
        // The two parsers may place an error a column apart.
        let unplaced = |file: Result<ContentFile, String>| {
            file.map(|f| f.objects)
                .map_err(|e| e.split(" at line ").next().unwrap().to_owned())
        };
        let from_file = from_file.map_err(|e| e.replace(path.to_str().unwrap(), "stdin"));
        assert_eq!(
            unplaced(from_slice.clone()),
            unplaced(from_file),
            "a file and stdin read alike"
        );
        from_slice.map(|f| f.objects)
    }

    #[test]
    fn content_maps_are_counted_by_distinct_id() {
        assert_eq!(checked("{}"), Ok(0));
        assert_eq!(
            checked(
                r#" {"a": {"type": "label", "data": {"text": "x", "n": [1, {"b": null}]}},
                     "b": {"type": "icon", "data": {}, "extra": 1},
                     "a": {"type": "label", "data": {}}} "#
            ),
            Ok(2)
        );
    }

    #[test]
    fn what_is_not_a_content_map_is_named() {
        let refused = |text: &str| checked(text).unwrap_err();
        assert_eq!(
            refused("[1, 2]"),
            format!("content must be {CONTENT_MAP}, got an array")
        );
        assert!(refused("  42").ends_with("got a number"));
        assert!(refused("null").ends_with("got null"));
        assert!(refused("").starts_with("stdin is not valid JSON: EOF"));
        assert!(refused("{\"a\": ").starts_with("stdin is not valid JSON"));
        assert!(refused("{} {}").contains("trailing characters"));
        assert!(refused("<html>").starts_with("stdin is not valid JSON"));
        let missing = refused(r#"{"a": {"type": "label", "data": {}}, "b": {"type": "x"}}"#);
        assert!(
            missing.starts_with("content: object \"b\": missing field `data`"),
            "{missing}"
        );
        let not_entry = refused(r#"{"a": 5}"#);
        assert!(
            not_entry.starts_with(
                r#"content: object "a": invalid type: integer `5`, expected {"type", "data"}"#
            ),
            "{not_entry}"
        );
        let bad_data = refused(r#"{"a": {"type": "label", "data": [1]}}"#);
        assert!(
            bad_data.contains("expected a JSON object of properties"),
            "{bad_data}"
        );
        let bad_type = refused(r#"{"a": {"type": 3, "data": {}}}"#);
        assert!(bad_type.contains("expected a string"), "{bad_type}");
    }
}
