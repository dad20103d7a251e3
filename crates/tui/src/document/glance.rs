//! A glance at an object's data: the few fields its row, its search text and the meta index
//! read, taken from parsed data or straight from its JSON text (skipping the rest, without
//! building it as values: the content of 100,000 objects is read this way).

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

use diagtui_model::Props;

/// The fields of an object's data read as text, in the order of [`TEXT_FIELDS`].
const TEXT_FIELDS: [&str; 8] = [
    "text",
    "componentId",
    "name",
    "fillColor",
    "icon",
    "path",
    "widgetType",
    "plotType",
];

/// A field a glance keeps.
enum Field {
    /// One of [`TEXT_FIELDS`], by its index.
    Text(usize),
    /// An array whose length counts: `anchors` or `lines`.
    Count(usize),
    /// `meta`.
    Meta,
}

const COUNT_FIELDS: [&str; 2] = ["anchors", "lines"];

fn field(key: &str) -> Option<Field> {
    if key == "meta" {
        return Some(Field::Meta);
    }
    if let Some(i) = TEXT_FIELDS.iter().position(|f| *f == key) {
        return Some(Field::Text(i));
    }
    COUNT_FIELDS
        .iter()
        .position(|f| *f == key)
        .map(Field::Count)
}

/// One meta entry: its key and its value as text ([`crate::document::scalar_text`]).
pub(super) type MetaEntry<'a> = (Cow<'a, str>, Cow<'a, str>);

/// What an object's row and meta need of its data.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Glance<'a> {
    /// The [`TEXT_FIELDS`] that are strings ("" for the others).
    texts: [Cow<'a, str>; TEXT_FIELDS.len()],
    /// The lengths of the [`COUNT_FIELDS`] that are arrays (0 for the others).
    counts: [usize; COUNT_FIELDS.len()],
    /// The meta entries in order; `None` when `meta` is not a map.
    pub meta: Option<Vec<MetaEntry<'a>>>,
}

impl<'a> Glance<'a> {
    /// A glance at parsed data.
    pub fn of(data: &'a Props) -> Glance<'a> {
        let mut glance = Glance::default();
        for (key, value) in data {
            match field(key) {
                Some(Field::Text(i)) => {
                    glance.texts[i] = Cow::Borrowed(value.as_str().unwrap_or(""));
                }
                Some(Field::Count(i)) => glance.counts[i] = value.as_array().map_or(0, Vec::len),
                Some(Field::Meta) => {
                    glance.meta = value.as_object().map(|meta| {
                        meta.iter()
                            .map(|(k, v)| (Cow::Borrowed(k.as_str()), scalar_str(v)))
                            .collect()
                    });
                }
                None => {}
            }
        }
        glance
    }

    /// A glance at data given as JSON text, which must be an object.
    pub fn read(json: &'a str) -> serde_json::Result<Glance<'a>> {
        serde_json::from_str(json)
    }

    /// Text field `name` (one of [`TEXT_FIELDS`]).
    pub fn text(&self, name: &str) -> &str {
        let i = TEXT_FIELDS.iter().position(|f| *f == name);
        i.map_or("", |i| &self.texts[i])
    }

    /// The length of array field `name` (one of [`COUNT_FIELDS`]).
    pub fn count(&self, name: &str) -> usize {
        let i = COUNT_FIELDS.iter().position(|f| *f == name);
        i.map_or(0, |i| self.counts[i])
    }
}

/// A JSON value as plain text: strings without quotes, the rest as JSON.
pub(super) fn scalar_str(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(other.to_string()),
    }
}

impl<'de> Deserialize<'de> for Glance<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = Glance<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object's data (a map)")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Glance<'de>, M::Error> {
                let mut glance = Glance::default();
                while let Some(key) = map.next_key_seed(Want::Text)? {
                    let Seen::Text(key) = key else {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    };
                    match field(&key) {
                        Some(Field::Text(i)) => {
                            if let Seen::Text(text) = map.next_value_seed(Want::Text)? {
                                glance.texts[i] = text;
                            } else {
                                glance.texts[i] = Cow::Borrowed("");
                            }
                        }
                        Some(Field::Count(i)) => {
                            glance.counts[i] = match map.next_value_seed(Want::Count)? {
                                Seen::Count(n) => n,
                                _ => 0,
                            };
                        }
                        Some(Field::Meta) => {
                            glance.meta = match map.next_value_seed(Want::Meta)? {
                                Seen::Meta(entries) => Some(entries),
                                _ => None,
                            };
                        }
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(glance)
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// What a glance wants of one JSON value; the rest of the value is skipped.
#[derive(Clone, Copy)]
enum Want {
    /// The string, when it is one.
    Text,
    /// The array's length, when it is one.
    Count,
    /// The value as text, like [`scalar_str`].
    Scalar,
    /// The map's entries (values as text) in order, when it is one. A key given twice keeps
    /// its first place and takes its last value, as parsed data would.
    Meta,
}

/// What was found.
enum Seen<'a> {
    Text(Cow<'a, str>),
    Count(usize),
    Meta(Vec<MetaEntry<'a>>),
    /// Not what was wanted.
    Other,
}

impl Want {
    fn string(self, text: Cow<'_, str>) -> Seen<'_> {
        match self {
            Want::Text | Want::Scalar => Seen::Text(text),
            Want::Count | Want::Meta => Seen::Other,
        }
    }

    fn scalar<'a>(self, value: Value) -> Seen<'a> {
        match self {
            Want::Scalar => Seen::Text(Cow::Owned(value.to_string())),
            _ => Seen::Other,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Want {
    type Value = Seen<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Seen<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Want {
    type Value = Seen<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Seen<'de>, E> {
        Ok(self.string(Cow::Borrowed(text)))
    }

    fn visit_str<E>(self, text: &str) -> Result<Seen<'de>, E> {
        Ok(self.string(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E>(self, text: String) -> Result<Seen<'de>, E> {
        Ok(self.string(Cow::Owned(text)))
    }

    fn visit_bool<E>(self, b: bool) -> Result<Seen<'de>, E> {
        Ok(self.scalar(Value::from(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Seen<'de>, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Seen<'de>, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Seen<'de>, E> {
        Ok(self.scalar(Value::from(n)))
    }

    fn visit_unit<E>(self) -> Result<Seen<'de>, E> {
        Ok(self.scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seen<'de>, A::Error> {
        match self {
            Want::Count => {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Seen::Count(n))
            }
            Want::Scalar => Ok(self.scalar(Value::deserialize(SeqAccessDeserializer::new(seq))?)),
            Want::Text | Want::Meta => {
                IgnoredAny.visit_seq(seq)?;
                Ok(Seen::Other)
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen<'de>, A::Error> {
        match self {
            Want::Meta => {
                let mut entries: Vec<MetaEntry<'de>> = Vec::new();
                while let Some(key) = map.next_key_seed(Want::Text)? {
                    let (Seen::Text(key), Seen::Text(value)) =
                        (key, map.next_value_seed(Want::Scalar)?)
                    else {
                        continue;
                    };
                    match entries.iter_mut().find(|(k, _)| *k == key) {
                        Some(entry) => entry.1 = value,
                        None => entries.push((key, value)),
                    }
                }
                Ok(Seen::Meta(entries))
            }
            Want::Scalar => Ok(self.scalar(Value::deserialize(MapAccessDeserializer::new(map))?)),
            Want::Text | Want::Count => {
                IgnoredAny.visit_map(map)?;
                Ok(Seen::Other)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A glance at the JSON text is the glance at the parsed data.
    #[test]
    fn reading_the_text_sees_what_the_parsed_data_shows() {
        let data = json!({
            "componentId": "generic.server",
            "name": "web \"1\"",
            "text": 5,
            "position": {"x": 1.5, "y": [1, {"z": null}]},
            "anchors": [{"x": 0}, {"x": 1}, {"x": 2}],
            "lines": {"not": "an array"},
            "meta": {"status": "down", "port": 8080, "ratio": 0.25, "up": true,
                     "none": null, "list": [1, "a"], "map": {"k": "v"}, "status": "up"},
            "ignored": ["text", {"meta": 1}]
        });
        let props = data.as_object().unwrap().clone();
        let text = serde_json::to_string(&props).unwrap();
        let read = Glance::read(&text).unwrap();
        assert_eq!(read, Glance::of(&props));
        assert_eq!(read.text("componentId"), "generic.server");
        assert_eq!(read.text("name"), "web \"1\"");
        assert_eq!(read.text("text"), "");
        assert_eq!((read.count("anchors"), read.count("lines")), (3, 0));
        let meta: Vec<(&str, &str)> = read
            .meta
            .iter()
            .flatten()
            .map(|(k, v)| (k.as_ref(), v.as_ref()))
            .collect();
        assert_eq!(
            meta,
            [
                ("status", "up"),
                ("port", "8080"),
                ("ratio", "0.25"),
                ("up", "true"),
                ("none", "null"),
                ("list", "[1,\"a\"]"),
                ("map", "{\"k\":\"v\"}")
            ]
        );
        assert!(Glance::read("[1]").is_err());
        assert_eq!(Glance::read(r#"{"meta": 3}"#).unwrap().meta, None);
    }
}
