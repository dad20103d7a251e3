//! JSON text handled as text: a map's entries with their values left unparsed, and white space
//! removed without parsing.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

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

/// The top-level entries of a JSON object's text, in order: each key, and where its value's
/// text is. Only for text in the plain form the store writes: no white space between the
/// top-level tokens, no key written with an escape, no key repeated, at most [`SCAN_UP_TO`]
/// entries; `None` for any other text, which [`RawEntries`] reads. Only the top level is looked
/// at, so the text must be valid JSON, as every object's data is checked before it is stored.
pub fn plain_entries(text: &str) -> Option<Vec<(&str, Range<usize>)>> {
    let bytes = text.as_bytes();
    let mut entries: Vec<(&str, Range<usize>)> = Vec::with_capacity(16);
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut at = 1;
    if bytes.get(at) == Some(&b'}') {
        return (bytes.len() == 2).then_some(entries);
    }
    loop {
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(bytes, at)?;
        let key = &text[at + 1..key_end - 1];
        if key.contains('\\')
            || entries.len() == SCAN_UP_TO
            || entries.iter().any(|(seen, _)| *seen == key)
            || bytes.get(key_end) != Some(&b':')
        {
            return None;
        }
        let value = key_end + 1..value_end(bytes, key_end + 1)?;
        at = value.end;
        entries.push((key, value));
        match bytes.get(at) {
            Some(b',') => at += 1,
            Some(b'}') if at + 1 == bytes.len() => return Some(entries),
            _ => return None,
        }
    }
}

/// Where the JSON string whose opening quote is at `at` ends: just past its closing quote.
fn string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    at += 1;
    loop {
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// Where the JSON value starting at `at` ends: past its closing quote or bracket, or at the
/// first byte that cannot continue a number or a literal.
fn value_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            loop {
                match bytes.get(at)? {
                    b'"' => {
                        at = string_end(bytes, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let len = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'))?;
            (len > 0).then_some(at + len)
        }
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
    fn plain_entries_find_each_top_level_value_or_leave_the_text_to_the_parser() {
        let text = r#"{"a":"x\"}[","b":{"c":[1,{"d":"]"}]},"e":-1.5e3,"f":[],"g":null}"#;
        let entries = plain_entries(text).unwrap();
        let found: Vec<(&str, &str)> = entries
            .iter()
            .map(|(k, r)| (*k, &text[r.clone()]))
            .collect();
        let RawEntries(parsed) = serde_json::from_str(text).unwrap();
        let parsed: Vec<(&str, &str)> = parsed.iter().map(|(k, v)| (k.as_ref(), v.get())).collect();
        assert_eq!(found, parsed);
        assert_eq!(plain_entries("{}").unwrap().len(), 0);
        for other in [
            r#"{ "a":1}"#,
            r#"{"a" :1}"#,
            r#"{"a":1 }"#,
            r#"{"a":1,"a":2}"#,
            r#"{"\u0061":1}"#,
            r#"{"a":1}x"#,
            r#"["a"]"#,
            r#"{"a":}"#,
            r#"{"a":"1}"#,
        ] {
            assert!(plain_entries(other).is_none(), "{other}");
        }
        let many = format!(
            "{{{}}}",
            (0..=SCAN_UP_TO)
                .map(|i| format!("\"k{i}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(
            plain_entries(&many).is_none(),
            "more entries than a scan finds repeats in"
        );
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
