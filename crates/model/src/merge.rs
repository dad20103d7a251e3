//! Nested merges: what a bulk change does to a nested value it gives. The API's update merges
//! top-level properties only (a given `meta` replaces the whole `meta`); a nested merge reads
//! each object first and sends it its own value, the old one with the given keys merged in
//! (objects merge key by key, at any depth; arrays and scalars replace).

use serde_json::Value;

use super::Props;
use super::props::{PropertyProblem, validate_for};

/// Objects a refusal names.
const NAMED: usize = 3;

/// How a bulk change treats a nested value (a JSON object) it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nested {
    /// Merged into the object's value, keeping the keys it does not give.
    #[default]
    Merge,
    /// Put in place of the object's value whole (the API's own semantics).
    Replace,
}

impl Nested {
    /// Its name, as the switch and the messages show it.
    pub fn name(self) -> &'static str {
        match self {
            Nested::Merge => "merge",
            Nested::Replace => "replace",
        }
    }

    /// The other one.
    pub fn toggled(self) -> Nested {
        match self {
            Nested::Merge => Nested::Replace,
            Nested::Replace => Nested::Merge,
        }
    }

    /// The value each property of `props` takes in an object whose data is `data`: given
    /// whole (replace), or merged into the value `data` has (merge). `data` needs to hold
    /// only the properties `props` names.
    pub fn values(self, data: &Props, props: &Props) -> Props {
        props
            .iter()
            .map(|(key, value)| {
                let value = match (self, data.get(key)) {
                    (Nested::Merge, Some(old)) => merged(old, value),
                    _ => value.clone(),
                };
                (key.clone(), value)
            })
            .collect()
    }

    /// Whether a given property value is checked against the property rules as it is given
    /// (else its merge into each object is checked: `{"position":{"x":3}}` is fine to merge).
    pub fn checks_as_given(self, value: &Value) -> bool {
        self == Nested::Replace || !value.is_object()
    }
}

/// What an update sends to an object of type `kind` (wire name) whose data is `data` to give
/// it `props` as `nested` says: the properties whose value changes, each with its new value
/// (empty: nothing changes); or the property rule the new values break. `data` needs to hold
/// only the properties `props` names.
pub fn update_for(
    kind: &str,
    data: &Props,
    props: &Props,
    nested: Nested,
) -> Result<Props, PropertyProblem> {
    let sent: Props = nested
        .values(data, props)
        .into_iter()
        .filter(|(key, value)| data.get(key) != Some(value))
        .collect();
    match validate_for(kind, &sent, false).into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(sent),
    }
}

/// The sentence refusing a bulk change whose values break a rule in the objects `refused`
/// (each `id: problem`): how many, and the first few.
pub fn refusal(nested: Nested, refused: &[String]) -> String {
    let named: Vec<&str> = refused.iter().take(NAMED).map(String::as_str).collect();
    let more = match refused.len().saturating_sub(NAMED) {
        0 => String::new(),
        1 => " (and 1 more)".to_string(),
        n => format!(" (and {n} more)"),
    };
    let objects = match refused.len() {
        1 => "1 object".to_string(),
        n => format!("{n} objects"),
    };
    format!(
        "the {} would break a property rule in {objects}: {}{more}",
        nested.name(),
        named.join("; ")
    )
}

/// `value` deep-merged into `old`: two objects merge key by key (recursively); anything else
/// is `value`.
///
/// ```
/// use diagtui_model::merge::merged;
/// use serde_json::json;
///
/// let old = json!({"owner": "dev", "status": "up", "tags": [1]});
/// let new = json!({"owner": "ops", "tags": [2]});
/// assert_eq!(merged(&old, &new), json!({"owner": "ops", "status": "up", "tags": [2]}));
/// ```
pub fn merged(old: &Value, value: &Value) -> Value {
    let mut out = old.clone();
    deep_merge(&mut out, value);
    out
}

/// Merges `value` into `into`, in place (see [`merged`]).
pub fn deep_merge(into: &mut Value, value: &Value) {
    match (into, value) {
        (Value::Object(into), Value::Object(given)) => {
            for (key, value) in given {
                match into.get_mut(key) {
                    Some(old) => deep_merge(old, value),
                    None => {
                        into.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (into, value) => *into = value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn props(v: Value) -> Props {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn objects_merge_at_any_depth_and_the_rest_replaces() {
        let old = json!({"a": {"b": {"c": 1, "d": 2}, "e": [1, 2]}, "f": 1});
        let given = json!({"a": {"b": {"c": 9}, "e": [3]}, "g": {"h": true}});
        assert_eq!(
            merged(&old, &given),
            json!({"a": {"b": {"c": 9, "d": 2}, "e": [3]}, "f": 1, "g": {"h": true}})
        );
        // An object given over a scalar (or the reverse) replaces it.
        assert_eq!(merged(&json!(5), &json!({"x": 1})), json!({"x": 1}));
        assert_eq!(merged(&json!({"x": 1}), &json!("text")), json!("text"));
        // null is a value like any other: it is set, not a removal.
        assert_eq!(
            merged(&json!({"x": 1}), &json!({"x": null})),
            json!({"x": null})
        );
    }

    #[test]
    fn merge_keeps_the_other_keys_and_replace_gives_the_value_whole() {
        let data = props(json!({
            "meta": {"owner": "dev", "status": "up"},
            "position": {"x": 1, "y": 2},
            "name": "web-01"
        }));
        let given = props(json!({"meta": {"owner": "ops"}, "position": {"x": 3}, "opacity": 0.5}));
        assert_eq!(
            Value::Object(Nested::Merge.values(&data, &given)),
            json!({
                "meta": {"owner": "ops", "status": "up"},
                "position": {"x": 3, "y": 2},
                "opacity": 0.5
            })
        );
        assert_eq!(Nested::Replace.values(&data, &given), given);
    }

    #[test]
    fn an_update_sends_what_changes_and_checks_it_once_merged() {
        let data = props(json!({"position": {"x": 1, "y": 2}, "meta": {"a": 1}}));
        let sent = update_for(
            "component",
            &data,
            &props(json!({"position": {"x": 3}, "meta": {"a": 1}})),
            Nested::Merge,
        )
        .unwrap();
        assert_eq!(Value::Object(sent), json!({"position": {"x": 3, "y": 2}}));
        let problem = update_for(
            "component",
            &data,
            &props(json!({"position": {"x": 3}})),
            Nested::Replace,
        )
        .unwrap_err();
        assert_eq!(problem.property, "position");
        let problem = update_for(
            "component",
            &data,
            &props(json!({"meta": {"b": {"deep": 1}}})),
            Nested::Merge,
        )
        .unwrap_err();
        assert_eq!(problem.property, "meta.b");
        let refused: Vec<String> = (1..=5).map(|i| format!("o{i}: bad")).collect();
        assert_eq!(
            refusal(Nested::Merge, &refused),
            "the merge would break a property rule in 5 objects: o1: bad; o2: bad; o3: bad (and 2 more)"
        );
    }

    #[test]
    fn only_merged_objects_wait_for_their_check() {
        assert!(!Nested::Merge.checks_as_given(&json!({"x": 3})));
        assert!(Nested::Merge.checks_as_given(&json!(3)));
        assert!(Nested::Merge.checks_as_given(&json!([1])));
        assert!(Nested::Replace.checks_as_given(&json!({"x": 3})));
        assert_eq!(Nested::default(), Nested::Merge);
        assert_eq!(Nested::Merge.toggled().name(), "replace");
    }
}
