//! Reading one entry's fields: each known field taken out by the shape it must have (text from
//! CSV read as a number, a boolean or a comma list where that is the shape), what is left
//! passed through to the objects.

use serde_json::{Map, Number, Value};

use crate::error::{LayoutError, LayoutResult};
use diagtui_model::selector::json_kind as kind;

/// One entry's fields, being read.
pub struct Fields {
    entry: String,
    map: Map<String, Value>,
    textual: bool,
}

impl Fields {
    /// The fields of entry `entry`; `textual` when they came as CSV text.
    pub fn new(entry: &str, map: Map<String, Value>, textual: bool) -> Fields {
        Fields {
            entry: entry.to_owned(),
            map,
            textual,
        }
    }

    /// The entry's id.
    pub fn entry(&self) -> &str {
        &self.entry
    }

    /// A refusal naming this entry and `field`.
    pub fn error(&self, field: &str, message: impl Into<String>) -> LayoutError {
        LayoutError::field(&self.entry, field, message)
    }

    /// Takes `field` out, null counting as absent.
    fn take(&mut self, field: &str) -> Option<Value> {
        self.map.remove(field).filter(|v| !v.is_null())
    }

    /// A text field.
    pub fn text(&mut self, field: &str) -> LayoutResult<Option<String>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => {
                Err(self.error(field, format!("must be a string, got {}", kind(&other))))
            }
        }
    }

    /// A text field that must be one of `choices`.
    pub fn choice(
        &mut self,
        field: &str,
        choices: &[&'static str],
    ) -> LayoutResult<Option<&'static str>> {
        let Some(text) = self.text(field)? else {
            return Ok(None);
        };
        choices
            .iter()
            .find(|c| c.eq_ignore_ascii_case(text.trim()))
            .copied()
            .map(Some)
            .ok_or_else(|| {
                self.error(
                    field,
                    format!("\"{text}\" is not one of {}", choices.join(", ")),
                )
            })
    }

    /// A number field (CSV text that reads as a number counts).
    pub fn number(&mut self, field: &str) -> LayoutResult<Option<f64>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(Value::String(s)) if self.textual => s
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .map(Some)
                .ok_or_else(|| self.error(field, format!("\"{s}\" is not a number"))),
            Some(other) => {
                Err(self.error(field, format!("must be a number, got {}", kind(&other))))
            }
        }
    }

    /// A boolean field (CSV `true`/`false`, `1`/`0` count).
    pub fn boolean(&mut self, field: &str) -> LayoutResult<Option<bool>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(Value::String(s)) if self.textual => {
                match s.trim().to_ascii_lowercase().as_str() {
                    "true" | "1" | "yes" => Ok(Some(true)),
                    "false" | "0" | "no" => Ok(Some(false)),
                    _ => Err(self.error(field, format!("\"{s}\" is not true or false"))),
                }
            }
            Some(other) => Err(self.error(
                field,
                format!("must be true or false, got {}", kind(&other)),
            )),
        }
    }

    /// A list of ids: a JSON array of strings, or one string of comma-separated items (each
    /// trimmed, empty ones dropped).
    pub fn list(&mut self, field: &str) -> LayoutResult<Vec<String>> {
        match self.take(field) {
            None => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(split_list(&s)),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
                    other => Err(self.error(
                        field,
                        format!(
                            "every item must be an id (a non-empty string), got {}",
                            kind(&other)
                        ),
                    )),
                })
                .collect(),
            Some(other) => Err(self.error(
                field,
                format!(
                    "must be a list of ids or a comma-separated string, got {}",
                    kind(&other)
                ),
            )),
        }
    }

    /// Takes every field whose name starts with `prefix`, the prefix removed.
    pub fn prefixed(&mut self, prefix: &str) -> Vec<(String, Value)> {
        let names: Vec<String> = self
            .map
            .keys()
            .filter(|k| k.starts_with(prefix) && k.len() > prefix.len())
            .cloned()
            .collect();
        names
            .into_iter()
            .filter_map(|name| {
                let value = self.map.remove(&name)?;
                Some((name[prefix.len()..].to_owned(), scalar(self.textual, value)))
            })
            .collect()
    }

    /// An object field (`meta` in JSON).
    pub fn object(&mut self, field: &str) -> LayoutResult<Map<String, Value>> {
        match self.take(field) {
            None => Ok(Map::new()),
            Some(Value::Object(map)) => Ok(map),
            Some(other) => {
                Err(self.error(field, format!("must be an object, got {}", kind(&other))))
            }
        }
    }

    /// What is left: the fields passed through to the object, CSV text read as numbers and
    /// booleans where it reads so.
    pub fn rest(self) -> Map<String, Value> {
        let textual = self.textual;
        self.map
            .into_iter()
            .map(|(k, v)| (k, scalar(textual, v)))
            .collect()
    }
}

/// A value as passed through: CSV text that reads as a number or a boolean becomes one.
fn scalar(textual: bool, value: Value) -> Value {
    match value {
        Value::String(s) if textual => {
            let t = s.trim();
            if let Some(n) = number_as_written(t) {
                Value::Number(n)
            } else if let Some(n) = t.parse::<f64>().ok().and_then(Number::from_f64) {
                Value::Number(n)
            } else if t.eq_ignore_ascii_case("true") {
                Value::Bool(true)
            } else if t.eq_ignore_ascii_case("false") {
                Value::Bool(false)
            } else {
                Value::String(s)
            }
        }
        other => other,
    }
}

/// An integer written as one stays an integer (`1`, not `1.0`).
fn number_as_written(text: &str) -> Option<Number> {
    text.parse::<i64>().ok().map(Number::from)
}

/// The items of a comma-separated list, trimmed, empty ones dropped.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
