//! What a content map (an export, or a file about to go through set-content) holds and what is
//! wrong with it. Set-content does not validate, so this is the check made before it.
//!
//! A file that is not a JSON object at all is refused outright. Otherwise every entry is looked
//! at: an entry that is not `{type, data}` with an object `data`, an unknown type, a component
//! without `componentId`, and every property the rules of [`super::props`] refuse (a bad colour,
//! a `position` without `x`/`y`, a wrong type) are reported as problems.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use super::props::{ObjectType, check_property};
use super::selector::json_kind;
use super::wire::{Content, DiagramObject};

/// One problem found in one entry of a content map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentProblem {
    /// The object id it concerns.
    pub obj: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ContentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.obj, self.message)
    }
}

/// What a content map holds and what is wrong in it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ContentReport {
    /// How many objects of each type (by the type text given; `?` when there is none).
    pub counts: BTreeMap<String, usize>,
    /// Every problem found, in id order.
    pub problems: Vec<ContentProblem>,
    /// The content, when every entry has the `{type, data}` shape set-content takes (problems in
    /// the values aside); `None` when some entry does not.
    pub content: Option<Content>,
}

impl ContentReport {
    /// How many objects the map holds.
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }
}

/// Checks a parsed content map; `Err` says why it is not a content map at all.
pub fn check_content(value: &Value) -> Result<ContentReport, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "not a content map: expected a JSON object of object id to {{type, data}}, got {}",
            json_kind(value)
        ));
    };
    let mut report = ContentReport::default();
    let mut content = Some(Content::new());
    for (obj, entry) in map {
        let mut problem = |message: String| {
            report.problems.push(ContentProblem {
                obj: obj.clone(),
                message,
            })
        };
        let Value::Object(fields) = entry else {
            problem(format!(
                "not a map: expected {{type, data}}, got {}",
                json_kind(entry)
            ));
            *report.counts.entry("?".into()).or_default() += 1;
            content = None;
            continue;
        };
        let kind = match fields.get("type") {
            Some(Value::String(kind)) => {
                if ObjectType::from_str(kind).is_err() {
                    problem(format!("unknown type \"{kind}\""));
                }
                Some(kind.clone())
            }
            Some(other) => {
                problem(format!("type must be a string, got {}", json_kind(other)));
                None
            }
            None => {
                problem("has no type".into());
                None
            }
        };
        *report
            .counts
            .entry(kind.clone().unwrap_or_else(|| "?".into()))
            .or_default() += 1;
        let data = match fields.get("data") {
            Some(Value::Object(data)) => Some(data),
            Some(other) => {
                problem(format!("data is not a map: got {}", json_kind(other)));
                None
            }
            None => {
                problem("has no data".into());
                None
            }
        };
        let (Some(kind), Some(data)) = (kind, data) else {
            content = None;
            continue;
        };
        if kind == ObjectType::Component.as_str() && !data.contains_key("componentId") {
            problem("component without componentId".into());
        }
        for (property, value) in data {
            if let Some(p) = check_property(property, value) {
                problem(p.to_string());
            }
        }
        if let Some(content) = content.as_mut() {
            content.insert(
                obj.clone(),
                DiagramObject {
                    kind,
                    data: data.clone(),
                },
            );
        }
    }
    report.content = content;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_types_and_finds_every_problem() {
        let value = json!({
            "a": {"type": "component", "data": {"componentId": "generic.server"}},
            "b": {"type": "component", "data": {"meta": {}}},
            "c": {"type": "label", "data": {"color": "red", "position": {"x": 1}}},
            "d": {"type": "blob", "data": {}},
        });
        let report = check_content(&value).unwrap();
        assert_eq!(report.total(), 4);
        assert_eq!(report.counts["component"], 2);
        assert_eq!(report.counts["blob"], 1);
        let text: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(text.len(), 4, "{text:?}");
        assert!(text[0].starts_with("b: component without componentId"));
        assert!(text[1].contains("is not a colour"));
        assert!(text[2].contains("position") && text[2].contains("y"));
        assert!(text[3].contains("unknown type \"blob\""));
        assert_eq!(report.content.unwrap().len(), 4);
    }

    #[test]
    fn entries_of_the_wrong_shape_leave_no_content() {
        let report = check_content(&json!({"a": 5, "b": {"type": "label", "data": []}})).unwrap();
        assert_eq!(report.problems.len(), 2);
        assert!(report.problems[0].message.starts_with("not a map"));
        assert!(report.problems[1].message.starts_with("data is not a map"));
        assert!(report.content.is_none());
    }

    #[test]
    fn a_non_map_is_refused() {
        assert!(
            check_content(&json!([1, 2]))
                .unwrap_err()
                .contains("an array")
        );
    }
}
