//! Selectors: `[key, operator, value]` conditions matched against an object's `meta` map.
//!
//! A [`Selector`] is one condition or a list of them (all must match). The semantics follow
//! `api-notes.md`; the decisions it leaves open are ours:
//! - `eq` and `co` are case-sensitive for strings;
//! - a value "reads as a number" when it is a JSON number or a string that parses fully as a
//!   finite float (surrounding white space is not allowed);
//! - values are compared through their text form (`"16"` equals `16`, `"true"` equals `true`),
//!   and numerically when both sides read as numbers (`"16.0"` equals `16`);
//! - a meta value that is an object, an array or null is compared through its JSON text;
//! - a missing key (or a missing `meta`) matches nothing except `no`.

use std::borrow::Cow;
use std::fmt;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A selector operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// Equal, type-insensitively.
    Eq,
    /// Greater than (numeric when both read as numbers, else string order).
    Gt,
    /// Less than (numeric when both read as numbers, else string order).
    Lt,
    /// Contains as a substring.
    Co,
    /// Not equal, or the key is absent.
    No,
}

impl Operator {
    /// Every operator, in the order the TUI cycles through them.
    pub const ALL: [Operator; 5] = [
        Operator::Eq,
        Operator::Gt,
        Operator::Lt,
        Operator::Co,
        Operator::No,
    ];

    /// The operator's wire name (`eq`, `gt`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::Eq => "eq",
            Operator::Gt => "gt",
            Operator::Lt => "lt",
            Operator::Co => "co",
            Operator::No => "no",
        }
    }

    /// A short human description, shown beside the operator in forms and help.
    pub fn meaning(self) -> &'static str {
        match self {
            Operator::Eq => "equals (\"16\" equals 16)",
            Operator::Gt => "greater than (numeric if both are numbers)",
            Operator::Lt => "less than (numeric if both are numbers)",
            Operator::Co => "contains the text",
            Operator::No => "not equal, or key absent",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|op| op.as_str() == name)
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One `[key, operator, value]` condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The meta key to look at.
    pub key: String,
    /// How to compare.
    pub op: Operator,
    /// What to compare with: a string, number or boolean.
    pub value: Value,
}

impl Condition {
    /// Builds a condition; the value must be a string, number or boolean.
    pub fn new(key: impl Into<String>, op: Operator, value: impl Into<Value>) -> Condition {
        Condition {
            key: key.into(),
            op,
            value: value.into(),
        }
    }

    /// Whether an object whose metadata is `meta` matches this condition.
    pub fn matches(&self, meta: Option<&Map<String, Value>>) -> bool {
        let Some(actual) = meta.and_then(|m| meta_value(m, &self.key)) else {
            return self.op == Operator::No;
        };
        match self.op {
            Operator::Eq => loosely_equal(actual, &self.value),
            Operator::No => !loosely_equal(actual, &self.value),
            Operator::Gt => compare(actual, &self.value) == std::cmp::Ordering::Greater,
            Operator::Lt => compare(actual, &self.value) == std::cmp::Ordering::Less,
            Operator::Co => text_of(actual).contains(&*text_of(&self.value)),
        }
    }

    fn to_json(&self) -> Value {
        Value::Array(vec![
            Value::String(self.key.clone()),
            Value::String(self.op.as_str().to_owned()),
            self.value.clone(),
        ])
    }

    fn from_json(value: &Value, position: Option<usize>) -> Result<Condition, SelectorError> {
        let at = |msg: String| match position {
            Some(i) => SelectorError(format!("selector {}: {msg}", i + 1)),
            None => SelectorError(msg),
        };
        let Value::Array(parts) = value else {
            return Err(at(format!(
                "expected [key, operator, value], got {}",
                json_kind(value)
            )));
        };
        if parts.len() != 3 {
            return Err(at(format!(
                "expected 3 elements [key, operator, value], got {}",
                parts.len()
            )));
        }
        let key = match &parts[0] {
            Value::String(k) if !k.is_empty() => k.clone(),
            Value::String(_) => return Err(at("the key is empty".into())),
            other => {
                return Err(at(format!(
                    "the key must be a string, got {}",
                    json_kind(other)
                )));
            }
        };
        let op = match &parts[1] {
            Value::String(name) => Operator::parse(name).ok_or_else(|| {
                at(format!(
                    "unknown operator \"{name}\" (expected one of eq, gt, lt, co, no)"
                ))
            })?,
            other => {
                return Err(at(format!(
                    "the operator must be a string, got {}",
                    json_kind(other)
                )));
            }
        };
        let value = match &parts[2] {
            v @ (Value::String(_) | Value::Number(_) | Value::Bool(_)) => v.clone(),
            other => {
                return Err(at(format!(
                    "the value must be a string, number or boolean, got {}",
                    json_kind(other)
                )));
            }
        };
        Ok(Condition { key, op, value })
    }
}

/// One condition or several that must all match (AND).
///
/// ```
/// use diagtui_model::Selector;
/// use serde_json::json;
///
/// let down_and_busy = Selector::parse(r#"[["status","eq","down"],["cpu","gt",80]]"#).unwrap();
/// let meta = json!({"status": "down", "cpu": "91"});
/// assert!(down_and_busy.matches(meta.as_object()));
/// assert!(!down_and_busy.matches(None), "a missing key matches nothing but `no`");
/// assert_eq!(
///     Selector::parse(r#"["status","eq","down"]"#).unwrap().to_path_segment(),
///     "%5B%22status%22%2C%22eq%22%2C%22down%22%5D"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    conditions: Vec<Condition>,
    /// Whether it was written as a list (`[[k,op,v], ...]`); kept so it round-trips as given.
    list: bool,
}

/// What is wrong with a selector, in words fit for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError(pub String);

impl fmt::Display for SelectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelectorError {}

/// Characters escaped in a path segment: everything but unreserved characters.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

impl Selector {
    /// A selector of one condition.
    pub fn single(condition: Condition) -> Selector {
        Selector {
            conditions: vec![condition],
            list: false,
        }
    }

    /// A selector of several conditions, all of which must match. A list of one is written as
    /// a single condition.
    pub fn all(conditions: Vec<Condition>) -> Result<Selector, SelectorError> {
        if conditions.is_empty() {
            return Err(SelectorError(
                "a selector needs at least one condition".into(),
            ));
        }
        let list = conditions.len() > 1;
        Ok(Selector { conditions, list })
    }

    /// Reads a selector from JSON: `[k, op, v]` or `[[k, op, v], ...]`.
    pub fn from_json(value: &Value) -> Result<Selector, SelectorError> {
        match value {
            Value::Array(items) if items.first().is_some_and(Value::is_array) => {
                let conditions = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| Condition::from_json(item, Some(i)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Selector {
                    conditions,
                    list: true,
                })
            }
            Value::Array(items) if items.is_empty() => Err(SelectorError(
                "the selector is empty: expected [key, operator, value]".into(),
            )),
            other => Ok(Selector::single(Condition::from_json(other, None)?)),
        }
    }

    /// Reads a selector from JSON text.
    pub fn parse(text: &str) -> Result<Selector, SelectorError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| SelectorError(format!("the selector is not valid JSON: {e}")))?;
        Selector::from_json(&value)
    }

    /// The selector as JSON, in the shape it was given.
    pub fn to_json(&self) -> Value {
        if self.list {
            Value::Array(self.conditions.iter().map(Condition::to_json).collect())
        } else {
            self.conditions[0].to_json()
        }
    }

    /// The selector as one fully percent-encoded URL path segment.
    pub fn to_path_segment(&self) -> String {
        utf8_percent_encode(&self.to_json().to_string(), PATH_SEGMENT).to_string()
    }

    /// Whether an object whose metadata is `meta` matches every condition.
    pub fn matches(&self, meta: Option<&Map<String, Value>>) -> bool {
        self.conditions.iter().all(|c| c.matches(meta))
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

impl Serialize for Selector {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Selector {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Selector::from_json(&value).map_err(serde::de::Error::custom)
    }
}

/// Metadata maps with at most this many keys are searched by a scan, cheaper than hashing.
const SCAN_KEYS_UP_TO: usize = 16;

/// The value under `key` in a metadata map.
fn meta_value<'a>(meta: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if meta.len() <= SCAN_KEYS_UP_TO {
        meta.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    } else {
        meta.get(key)
    }
}

/// The text a value is compared by: strings as they are, everything else as JSON.
fn text_of(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(other.to_string()),
    }
}

/// The value as a finite number, if it reads as one.
fn number_of(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

fn loosely_equal(actual: &Value, wanted: &Value) -> bool {
    match (number_of(actual), number_of(wanted)) {
        (Some(a), Some(b)) => a == b,
        _ => text_of(actual) == text_of(wanted),
    }
}

fn compare(actual: &Value, wanted: &Value) -> std::cmp::Ordering {
    match (number_of(actual), number_of(wanted)) {
        (Some(a), Some(b)) => a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal),
        _ => text_of(actual).cmp(&text_of(wanted)),
    }
}

/// A word for a JSON value's kind, for error messages.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn operators_follow_the_api_notes() {
        let m = meta(json!({"port": 16, "flag": true, "name": "web-01", "load": "0.75"}));
        let cases: &[(Value, bool)] = &[
            (json!(["port", "eq", "16"]), true),
            (json!(["port", "eq", 16.0]), true),
            (json!(["flag", "eq", "true"]), true),
            (json!(["name", "eq", "WEB-01"]), false),
            (json!(["port", "gt", 9]), true),
            (json!(["port", "gt", "9"]), true),
            (json!(["name", "gt", "web-00"]), true),
            (json!(["load", "lt", 1]), true),
            (json!(["name", "co", "eb-0"]), true),
            (json!(["port", "co", "1"]), true),
            (json!(["name", "no", "web-01"]), false),
            (json!(["name", "no", "web-02"]), true),
            (json!(["absent", "no", "x"]), true),
            (json!(["absent", "eq", "x"]), false),
            (json!(["absent", "lt", "x"]), false),
            (json!(["absent", "co", ""]), false),
            (json!([["port", "gt", 9], ["name", "co", "web"]]), true),
            (json!([["port", "gt", 9], ["name", "co", "db"]]), false),
        ];
        for (sel, expected) in cases {
            let s = Selector::from_json(sel).unwrap();
            assert_eq!(s.matches(Some(&m)), *expected, "{sel}");
        }
        let no = Selector::from_json(&json!(["k", "no", "v"])).unwrap();
        assert!(no.matches(None), "no meta at all still matches `no`");
    }

    #[test]
    fn malformed_selectors_say_what_is_wrong() {
        let cases = [
            (json!("x"), "expected [key, operator, value], got a string"),
            (json!([]), "empty"),
            (json!(["a", "eq"]), "expected 3 elements"),
            (json!(["a", "like", "b"]), "unknown operator \"like\""),
            (json!([1, "eq", "b"]), "the key must be a string"),
            (
                json!(["a", "eq", null]),
                "the value must be a string, number or boolean",
            ),
            (
                json!([["a", "eq", "b"], ["c"]]),
                "selector 2: expected 3 elements",
            ),
        ];
        for (sel, msg) in cases {
            let err = Selector::from_json(&sel).unwrap_err();
            assert!(err.0.contains(msg), "{sel}: {err}");
        }
    }

    #[test]
    fn round_trips_and_encodes_for_a_path() {
        let s = Selector::parse(r#"["a/b","eq","50% & \"q\" é"]"#).unwrap();
        assert_eq!(Selector::from_json(&s.to_json()).unwrap(), s);
        let seg = s.to_path_segment();
        assert!(!seg.contains('/') && !seg.contains('&') && !seg.contains('"'));
        let decoded = percent_encoding::percent_decode_str(&seg)
            .decode_utf8()
            .unwrap();
        assert_eq!(Selector::parse(&decoded).unwrap(), s);
        let list = Selector::parse(r#"[["a","eq",1],["b","no",true]]"#).unwrap();
        assert_eq!(list.to_json(), json!([["a", "eq", 1], ["b", "no", true]]));
    }
}
