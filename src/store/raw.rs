//! JSON text handled as text: a map's entries with their values left unparsed, and white space
//! removed without parsing.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;

/// Maps with more entries than this find repeated keys through an index rather than a scan.
const SCAN_UP_TO: usize = 32;

/// The top-level entries of a JSON object's text, in order, their values left as text. A
/// repeated key keeps its first place and takes the last value, as a parsed map would.
pub struct RawEntries<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for RawEntries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = RawEntries<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEntries<'de>, A::Error> {
                let mut entries: Vec<(Cow<'de, str>, &'de RawValue)> = Vec::with_capacity(16);
                let mut index: HashMap<Cow<'de, str>, usize> = HashMap::new();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    let seen = if entries.len() < SCAN_UP_TO {
                        entries.iter().position(|(k, _)| *k == key)
                    } else {
                        if index.is_empty() {
                            index.extend(
                                entries.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)),
                            );
                        }
                        index.get(&key).copied()
                    };
                    match seen {
                        Some(at) => entries[at].1 = value,
                        None => {
                            if !index.is_empty() {
                                index.insert(key.clone(), entries.len());
                            }
                            entries.push((key, value));
                        }
                    }
                }
                Ok(RawEntries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// JSON text with the white space between tokens removed (strings kept as they are), so that
/// data given with indentation is stored and answered compactly. Text that has none is
/// returned as is.
pub fn compact(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let spaced = |b: u8| matches!(b, b' ' | b'\n' | b'\r' | b'\t');
    let mut in_string = false;
    let mut escaped = false;
    let first_space = bytes.iter().position(|&b| {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            false
        } else if b == b'"' {
            in_string = true;
            false
        } else {
            spaced(b)
        }
    });
    let Some(start) = first_space else {
        return Cow::Borrowed(text);
    };
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..start]);
    for &b in &bytes[start..] {
        if in_string {
            out.push(b);
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
        } else if !spaced(b) {
            out.push(b);
        }
    }
    Cow::Owned(String::from_utf8(out).expect("only ASCII white space was removed"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_repeated_key_keeps_its_place_and_its_last_value_in_small_and_large_maps() {
        for size in [3, 100] {
            let mut text = String::from("{");
            for i in 0..size {
                text.push_str(&format!("\"k{i}\":{i},"));
            }
            text.push_str("\"k1\":\"last\"}");
            let RawEntries(entries) = serde_json::from_str(&text).unwrap();
            assert_eq!(entries.len(), size, "{size}");
            assert_eq!(entries[1].0, "k1");
            assert_eq!(entries[1].1.get(), "\"last\"");
        }
    }

    #[test]
    fn compact_drops_white_space_outside_strings() {
        assert!(matches!(compact(r#"{"a":1}"#), Cow::Borrowed(_)));
        let text = "{ \"a b\" : [1, 2],\n\t\"c\\\" d\": \" x \" }";
        assert_eq!(compact(text), r#"{"a b":[1,2],"c\" d":" x "}"#);
        let parsed: Value = serde_json::from_str(&compact(text)).unwrap();
        assert_eq!(parsed, serde_json::from_str::<Value>(text).unwrap());
    }
}
