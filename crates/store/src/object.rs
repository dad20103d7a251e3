//! One object as the store keeps it in memory: its answer already written as JSON, its `meta`
//! parsed on first use, and the non-recursive merge done on the JSON text.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::raw::{RawEntries, plain_entries};
use diagtui_model::ObjectType;
use diagtui_model::props::defaults;

/// Bytes of bookkeeping counted per object besides its JSON, for the cache's budget.
const OVERHEAD: usize = 96;
/// Bytes counted per byte of JSON: the text, and room for the parsed `meta`.
const PER_JSON_BYTE: usize = 2;

/// An object: `{"type": …, "data": …}` as the API answers it, with its parsed `meta`.
#[derive(Debug)]
pub struct StoredObject {
    /// The type's wire name (shared between objects of a type).
    kind: Arc<str>,
    /// The answer for this object, `{"type":…,"data":…}`.
    json: Arc<String>,
    /// Where the data's text starts in `json`.
    data_at: usize,
    /// The `meta` map, parsed the first time a selector looks at it (or kept from the object
    /// this one was merged from, when the merge left `meta` alone).
    meta: OnceLock<Option<Arc<Map<String, Value>>>>,
    /// `Some(generic)` when the data is known to hold every default property of its type
    /// (with a generic component's when `generic`), as a merge or a create leaves it.
    complete: Option<bool>,
    /// The document version of the write that last created or changed it (0: not since its
    /// document's history began). Set by the writer once the write's version is known.
    version: u64,
}

/// An object's answer being written: `{"type":…,"data":` so far; the data follows.
pub struct ObjectWriter {
    kind: Arc<str>,
    json: String,
    data_at: usize,
}

impl ObjectWriter {
    /// Starts an object of type `kind`, with room for about `data_len` bytes of data.
    pub fn new(kind: Arc<str>, data_len: usize) -> ObjectWriter {
        let mut json = String::with_capacity(kind.len() + data_len + 20);
        json.push_str("{\"type\":");
        push_json_string(&mut json, &kind);
        json.push_str(",\"data\":");
        let data_at = json.len();
        ObjectWriter {
            kind,
            json,
            data_at,
        }
    }

    /// Where the data is written.
    pub fn data(&mut self) -> &mut String {
        &mut self.json
    }

    /// The object, its data written; `complete` as [`StoredObject`] tells it.
    pub fn finish(mut self, complete: Option<bool>) -> StoredObject {
        self.json.push('}');
        StoredObject {
            kind: self.kind,
            json: Arc::new(self.json),
            data_at: self.data_at,
            meta: OnceLock::new(),
            complete,
            version: 0,
        }
    }
}

/// An object's answer shared with a response body.
struct SharedJson(Arc<String>);

impl AsRef<[u8]> for SharedJson {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// The type names of objects read together, each kept once.
#[derive(Default)]
pub struct Kinds(Vec<Arc<str>>);

impl Kinds {
    /// The shared name for `kind`.
    pub fn get(&mut self, kind: &str) -> Arc<str> {
        match self.0.iter().find(|known| &***known == kind) {
            Some(known) => Arc::clone(known),
            None => {
                let new: Arc<str> = Arc::from(kind);
                self.0.push(Arc::clone(&new));
                new
            }
        }
    }
}

impl StoredObject {
    /// An object of type `kind` whose data is the JSON object text `data`, of which nothing
    /// more is known.
    pub fn new(kind: Arc<str>, data: &str) -> StoredObject {
        StoredObject::with_data(kind, data, None)
    }

    /// An object of type `kind` whose data is `data`, made whole by a create: it holds every
    /// default of its type.
    pub fn created(kind: ObjectType, data: &str) -> StoredObject {
        let generic = kind == ObjectType::Component
            && serde_json::from_str::<ComponentId<'_>>(data)
                .ok()
                .and_then(|c| c.component_id)
                .is_some_and(|id| is_generic(&id));
        StoredObject::with_data(Arc::from(kind.as_str()), data, Some(generic))
    }

    fn with_data(kind: Arc<str>, data: &str, complete: Option<bool>) -> StoredObject {
        let mut writer = ObjectWriter::new(kind, data.len());
        writer.data().push_str(data);
        writer.finish(complete)
    }

    /// The type's wire name.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The document version of the write that last created or changed it.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The same object at `version` (as read from its row).
    pub fn at_version(mut self, version: u64) -> StoredObject {
        self.version = version;
        self
    }

    /// Sets the version of an object a write made: in place when the write holds the only
    /// reference (as it does its plan's objects), else on a copy sharing the text.
    pub fn set_version(object: &mut Arc<StoredObject>, version: u64) {
        if let Some(only) = Arc::get_mut(object) {
            only.version = version;
            return;
        }
        let copy = StoredObject {
            kind: Arc::clone(&object.kind),
            json: Arc::clone(&object.json),
            data_at: object.data_at,
            meta: object.meta.clone(),
            complete: object.complete,
            version,
        };
        *object = Arc::new(copy);
    }

    /// The object with its version, `{"type":…,"data":…,"version":N}`, written to `out`.
    pub fn push_versioned(&self, out: &mut String) {
        out.push_str(&self.json[..self.json.len() - 1]);
        out.push_str(",\"version\":");
        let _ = write!(out, "{}}}", self.version);
    }

    /// The data as JSON text.
    pub fn data(&self) -> &str {
        &self.json[self.data_at..self.json.len() - 1]
    }

    /// The length of its answer's JSON, `{"type":…,"data":…}`.
    pub fn json_len(&self) -> usize {
        self.json.len()
    }

    /// The object as the API answers it, as a response body (shared, not copied).
    pub fn json(&self) -> Bytes {
        Bytes::from_owner(SharedJson(Arc::clone(&self.json)))
    }

    /// The object's `meta` map, if its data has one.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta
            .get_or_init(|| {
                #[derive(serde::Deserialize)]
                struct MetaOnly {
                    #[serde(default)]
                    meta: Option<Value>,
                }
                match serde_json::from_str::<MetaOnly>(self.data()) {
                    Ok(MetaOnly {
                        meta: Some(Value::Object(map)),
                    }) => Some(Arc::new(map)),
                    _ => None,
                }
            })
            .as_deref()
    }

    /// About how many bytes it holds once its `meta` is parsed.
    pub fn size(&self) -> usize {
        OVERHEAD + self.json.len() * PER_JSON_BYTE
    }
}

/// A component's data read for its `componentId` alone.
#[derive(serde::Deserialize)]
struct ComponentId<'a> {
    #[serde(rename = "componentId", borrow, default)]
    component_id: Option<Cow<'a, str>>,
}

/// Appends `text` as a JSON string.
pub fn push_json_string(out: &mut String, text: &str) {
    let plain = text
        .bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f);
    if plain {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        let quoted = serde_json::to_string(text).expect("a str always serialises");
        out.push_str(&quoted);
    }
}

/// Properties to merge, each value written as JSON text once per request rather than once
/// per object.
pub struct PropsText {
    entries: TextProps,
    /// The `componentId` given, when it is a string.
    component_id: Option<Option<String>>,
}

impl PropsText {
    /// The properties' text.
    pub fn new(props: &Map<String, Value>) -> PropsText {
        PropsText {
            entries: props
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect(),
            component_id: props
                .get("componentId")
                .map(|id| id.as_str().map(str::to_owned)),
        }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Properties as text: name and JSON value.
type TextProps = Vec<(String, String)>;

/// The defaults of a type as text (generic components have more), built once for the process:
/// every merge that completes an object reads them.
fn default_texts(kind: ObjectType, generic: bool) -> &'static [(String, String)] {
    static TEXTS: OnceLock<Vec<(ObjectType, bool, TextProps)>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        ObjectType::ALL
            .into_iter()
            .flat_map(|kind| [false, true].map(|generic| (kind, generic)))
            .map(|(kind, generic)| {
                let id = generic.then_some("generic.");
                let text = defaults(kind, id)
                    .into_iter()
                    .map(|(k, v)| (k, v.to_string()))
                    .collect();
                (kind, generic, text)
            })
            .collect()
    });
    texts
        .iter()
        .find(|(k, g, _)| *k == kind && *g == generic)
        .map_or(&[], |(_, _, text)| text.as_slice())
}

/// An object's top-level entries as a merge reads them.
enum Entries<'a> {
    /// Data in the plain form the store writes (see [`plain_entries`]): each key and where its
    /// value is in the data.
    Plain(Vec<(&'a str, Range<usize>)>),
    /// Any other data, read by the JSON parser.
    Parsed(Vec<(Cow<'a, str>, &'a RawValue)>),
}

impl<'a> Entries<'a> {
    /// The entries of `data`.
    fn of(data: &'a str) -> serde_json::Result<Entries<'a>> {
        Ok(match plain_entries(data) {
            Some(entries) => Entries::Plain(entries),
            None => Entries::Parsed(serde_json::from_str::<RawEntries<'a>>(data)?.0),
        })
    }

    /// The text of the value stored under `key` in `data`, if there is one.
    fn value(&self, data: &'a str, key: &str) -> Option<&'a str> {
        match self {
            Entries::Plain(entries) => entries
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, at)| &data[at.clone()]),
            Entries::Parsed(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, raw)| raw.get()),
        }
    }
}

/// Merges `props` into an object, non-recursively, then fills in each default property it
/// lacks (for the seven known types): the text form of `model::props::merge` followed by
/// `complete`. Untouched properties keep their text as stored; data in the plain form the store
/// writes is copied around the values replaced rather than rewritten entry by entry.
pub fn merged(current: &StoredObject, props: &PropsText) -> serde_json::Result<StoredObject> {
    let data = current.data();
    let entries = Entries::of(data)?;
    let mut writer = ObjectWriter::new(Arc::clone(&current.kind), data.len() + 64);
    let out = writer.data();
    let start = out.len() + 1;
    let put = |out: &mut String, key: &str, value: &str| {
        if out.len() > start {
            out.push(',');
        }
        push_json_string(out, key);
        out.push(':');
        out.push_str(value);
    };
    match &entries {
        Entries::Plain(plain) => {
            let mut copied = 0;
            for (key, at) in plain {
                if let Some(value) = props.get(key) {
                    out.push_str(&data[copied..at.start]);
                    out.push_str(value);
                    copied = at.end;
                }
            }
            // All but the closing brace: what the merge adds follows.
            out.push_str(&data[copied..data.len() - 1]);
        }
        Entries::Parsed(parsed) => {
            out.push('{');
            for (key, raw) in parsed {
                put(out, key, props.get(key).unwrap_or(raw.get()));
            }
        }
    }
    let stored = |key: &str| entries.value(data, key).is_some();
    for (key, value) in &props.entries {
        if !stored(key) {
            put(out, key, value);
        }
    }
    let mut complete = None;
    if let Ok(kind) = current.kind().parse::<ObjectType>() {
        let generic = match (&props.component_id, current.complete) {
            (Some(id), _) => id.as_deref().is_some_and(is_generic),
            (None, Some(generic)) => generic,
            (None, None) => entries
                .value(data, "componentId")
                .and_then(|raw| serde_json::from_str::<Cow<'_, str>>(raw).ok())
                .is_some_and(|id| is_generic(&id)),
        };
        // A merge only adds and replaces properties: data that held every default still does,
        // unless the component became generic (which adds some).
        if current.complete != Some(generic) {
            for (key, value) in default_texts(kind, generic) {
                if !stored(key) && props.get(key).is_none() {
                    put(out, key, value);
                }
            }
        }
        complete = Some(generic);
    }
    out.push('}');
    let object = writer.finish(complete);
    if props.get("meta").is_none()
        && let Some(meta) = current.meta.get()
    {
        let _ = object.meta.set(meta.clone());
    }
    Ok(object)
}

/// Whether a component id names a generic component, whose defaults include colours.
fn is_generic(component_id: &str) -> bool {
    component_id.starts_with("generic.")
}

/// Writes `{"id":{…},…}` for `objects` (already in id order): the content map as the API
/// answers it; each object with its `version` when `versions`.
pub fn content_json<'a, I>(objects: I, versions: bool) -> Bytes
where
    I: Iterator<Item = (&'a str, &'a StoredObject)> + Clone,
{
    let extra = if versions { 32 } else { 4 };
    let size: usize = objects
        .clone()
        .map(|(id, object)| id.len() + object.json.len() + extra)
        .sum();
    let mut out = String::with_capacity(size + 2);
    out.push('{');
    for (id, object) in objects {
        if out.len() > 1 {
            out.push(',');
        }
        push_json_string(&mut out, id);
        out.push(':');
        if versions {
            object.push_versioned(&mut out);
        } else {
            out.push_str(object.json.as_str());
        }
    }
    out.push('}');
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::props::{complete, merge};
    use serde_json::json;

    fn merged_the_old_way(data: &Value, kind: &str, props: &Value) -> String {
        let mut data = data.as_object().unwrap().clone();
        merge(&mut data, props.as_object().unwrap());
        if let Ok(kind) = kind.parse::<ObjectType>() {
            complete(kind, &mut data);
        }
        serde_json::to_string(&data).unwrap()
    }

    #[test]
    fn the_text_merge_equals_merge_then_complete() {
        let cases = [
            (
                json!({"text": "a", "x": [1]}),
                "label",
                json!({"text": "b", "new": 1}),
            ),
            (
                json!({"meta": {"a": 1}}),
                "component",
                json!({"componentId": "generic.db"}),
            ),
            (
                json!({"componentId": "generic.x"}),
                "component",
                json!({"opacity": 0.5}),
            ),
            (
                json!({"componentId": "aws.ec2", "meta": {}}),
                "component",
                json!({}),
            ),
            (
                json!({"q": "\"\\u00e9\n"}),
                "custom-thing",
                json!({"r\"": null}),
            ),
            (
                json!({}),
                "line-group",
                json!({"anchors": [{"type": 0, "x": 1, "y": 2}]}),
            ),
        ];
        for (data, kind, props) in cases {
            let compact = serde_json::to_string(&data).unwrap();
            // The same data with white space after its brace is read by the parser instead.
            let spaced = format!("{{ {}", &compact[1..]);
            for text in [compact, spaced] {
                let props_text = PropsText::new(props.as_object().unwrap());
                let current = StoredObject::new(Arc::from(kind), &text);
                let got = merged(&current, &props_text).unwrap();
                assert_eq!(got.kind(), kind);
                assert_eq!(
                    got.data(),
                    merged_the_old_way(&data, kind, &props),
                    "{text} + {props}"
                );
            }
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_its_last_value() {
        let current = StoredObject::new(Arc::from("x"), r#"{"a":1,"b":2,"a":3}"#);
        let got = merged(&current, &PropsText::new(&Map::new())).unwrap();
        assert_eq!(got.data(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn an_escaped_key_is_merged_as_the_key_it_names() {
        let current = StoredObject::new(Arc::from("x"), r#"{"\u0061":1,"b":2}"#);
        let props = PropsText::new(json!({"a": 3}).as_object().unwrap());
        let got = merged(&current, &props).unwrap();
        assert_eq!(got.data(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn objects_answer_their_json_and_their_meta() {
        let object = StoredObject::new(Arc::from("component"), r#"{"meta":{"s":"up"},"x":1}"#);
        assert_eq!(object.data(), r#"{"meta":{"s":"up"},"x":1}"#);
        let answer: Value = serde_json::from_slice(&object.json()).unwrap();
        assert_eq!(
            answer,
            json!({"type": "component", "data": {"meta": {"s": "up"}, "x": 1}})
        );
        assert_eq!(object.meta().unwrap()["s"], "up");
        assert!(StoredObject::new(Arc::from("label"), "{}").meta().is_none());
        let all = content_json([("a\"b", &object)].into_iter(), false);
        let all: Value = serde_json::from_slice(&all).unwrap();
        assert_eq!(all["a\"b"]["data"]["x"], 1);
        let object = object.at_version(12);
        let versioned = content_json([("a", &object)].into_iter(), true);
        let versioned: Value = serde_json::from_slice(&versioned).unwrap();
        assert_eq!(
            versioned,
            json!({"a": {"type": "component", "data": {"meta": {"s": "up"}, "x": 1}, "version": 12}})
        );
    }
}
