//! JSON bodies: a map of entry id to fields (duplicate ids refused), or a list of entries that
//! carry their `id` (ours).

use std::fmt;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::Value;

use super::RawEntry;
use crate::error::{LayoutError, LayoutResult};

/// A JSON map read with its keys in order, duplicates kept (serde_json's map would drop them).
struct Pairs(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Pairs, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = Pairs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of entry id to entry")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, Value>()? {
                    pairs.push(pair);
                }
                Ok(Pairs(pairs))
            }
        }
        deserializer.deserialize_map(PairsVisitor)
    }
}

/// Reads a JSON body: `{id: {type, ...}}`, or `[{id, type, ...}]`.
pub fn parse_json(body: &[u8]) -> LayoutResult<Vec<RawEntry>> {
    let syntax =
        |e: serde_json::Error| LayoutError::input(format!("the body is not valid JSON: {e}"));
    let value: Value = serde_json::from_slice(body).map_err(syntax)?;
    let pairs = match value {
        Value::Object(_) => serde_json::from_slice::<Pairs>(body).map_err(syntax)?.0,
        Value::Array(items) => listed(items)?,
        _ => {
            return Err(LayoutError::input(
                "the body must be a JSON map of entry id to entry (or a list of entries with an id)",
            ));
        }
    };
    pairs
        .into_iter()
        .map(|(id, value)| match value {
            Value::Object(mut fields) => {
                fields.remove("id");
                Ok(RawEntry {
                    id,
                    fields,
                    textual: false,
                })
            }
            _ => Err(LayoutError::entry(&id, "must be an object of fields")),
        })
        .collect()
}

/// The entries of a list, each naming its own `id`.
fn listed(items: Vec<Value>) -> LayoutResult<Vec<(String, Value)>> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let id = item.get("id").and_then(Value::as_str).ok_or_else(|| {
                LayoutError::setting(
                    &format!("[{i}]"),
                    "an entry in a list needs an id (a string)",
                )
            })?;
            Ok((id.to_owned(), item))
        })
        .collect()
}
