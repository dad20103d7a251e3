//! JSON as the editors see it: the check as you type (syntax error with line and column, values
//! the server would refuse as warnings on their lines), the diff a save or a bulk edit would
//! send, and the highlighting of a line.

use ratatui::text::Span;
use serde_json::Value;

use crate::theme::{Role, Theme};
use diagtui_model::Props;
use diagtui_model::merge::Nested;
use diagtui_model::props::check_property;

/// A JSON syntax error at a place in the buffer (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A value the server would refuse, on its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line of the property.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What the check as you type found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// The syntax error, if the buffer does not parse as a JSON object.
    pub syntax: Option<SyntaxError>,
    /// Values the server would refuse.
    pub warnings: Vec<Warning>,
}

/// Checks a buffer: syntax first, then every top-level property against the model's rules.
/// Returns the properties when it parses as an object.
pub fn check(text: &str) -> (Check, Option<Props>) {
    check_for(text, Nested::Replace)
}

/// [`check`] of the props of a bulk change whose nested values are handled as `nested`: an
/// object to merge is checked once merged into each object, not here.
pub fn check_for(text: &str, nested: Nested) -> (Check, Option<Props>) {
    let syntax_error = |line, column, message| {
        (
            Check {
                syntax: Some(SyntaxError {
                    line,
                    column,
                    message,
                }),
                warnings: Vec::new(),
            },
            None,
        )
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return syntax_error(
                e.line().max(1),
                e.column().max(1),
                without_position(&e.to_string()),
            );
        }
    };
    let Value::Object(map) = value else {
        return syntax_error(1, 1, "the properties must be a JSON object { … }".into());
    };
    let warnings = map
        .iter()
        .filter(|(_, value)| nested.checks_as_given(value))
        .filter_map(|(key, value)| {
            check_property(key, value).map(|problem| Warning {
                line: line_of_key(text, key),
                message: problem.to_string(),
            })
        })
        .collect();
    (
        Check {
            syntax: None,
            warnings,
        },
        Some(map),
    )
}

/// serde_json's message without its trailing " at line L column C" (shown separately).
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// The 1-based line where top-level `key` is written (the least indented mention).
fn line_of_key(text: &str, key: &str) -> usize {
    let quoted = serde_json::to_string(key).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let trimmed = line.trim_start();
            let rest = trimmed.strip_prefix(quoted.as_str())?;
            rest.trim_start()
                .starts_with(':')
                .then_some((line.len() - trimmed.len(), i + 1))
        })
        .min()
        .map_or(1, |(_, line)| line)
}

/// Pretty JSON of a property map.
pub fn pretty(data: &Props) -> String {
    serde_json::to_string_pretty(data).unwrap_or_else(|_| "{}".into())
}

/// One changed top-level property.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The property.
    pub key: String,
    /// Its value before, if it had one.
    pub before: Option<Value>,
    /// Its new value.
    pub after: Value,
}

impl Change {
    /// Whether a nested value (object or array) is replaced whole by this change: the update
    /// merges top-level properties only, so the whole value is sent.
    pub fn replaces_nested(&self) -> bool {
        self.before.is_some() && (self.after.is_object() || self.after.is_array())
    }
}

/// What happened at one path of a diff (`meta.ttl`, `anchors[1].x`).
#[derive(Debug, Clone, PartialEq)]
pub enum PathEdit {
    /// The value changed from the first to the second.
    Changed(Value, Value),
    /// The path is new, with this value.
    Added(Value),
    /// The path is gone; it had this value.
    Removed(Value),
}

/// One leaf of a diff: where, and what happened there.
#[derive(Debug, Clone, PartialEq)]
pub struct PathChange {
    /// The path: keys joined by `.`, array indexes in brackets.
    pub path: String,
    /// What happened there.
    pub edit: PathEdit,
}

/// The leaves where `before` and `after` differ, under `path`, in key and index order.
fn path_changes(path: &str, before: &Value, after: &Value, out: &mut Vec<PathChange>) {
    let children: Vec<(String, Option<&Value>, Option<&Value>)> = match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let keys: std::collections::BTreeSet<&String> = b.keys().chain(a.keys()).collect();
            keys.into_iter()
                .map(|key| (format!("{path}.{key}"), b.get(key), a.get(key)))
                .collect()
        }
        (Value::Array(b), Value::Array(a)) => (0..b.len().max(a.len()))
            .map(|i| (format!("{path}[{i}]"), b.get(i), a.get(i)))
            .collect(),
        (b, a) => {
            if b != a {
                out.push(PathChange {
                    path: path.to_string(),
                    edit: PathEdit::Changed(b.clone(), a.clone()),
                });
            }
            return;
        }
    };
    for (at, b, a) in children {
        let edit = match (b, a) {
            (Some(b), Some(a)) => {
                path_changes(&at, b, a, out);
                continue;
            }
            (None, Some(a)) => PathEdit::Added(a.clone()),
            (Some(b), None) => PathEdit::Removed(b.clone()),
            (None, None) => continue,
        };
        out.push(PathChange { path: at, edit });
    }
}

/// What a save would send.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diff {
    /// The changed or added properties.
    pub changes: Vec<Change>,
    /// Properties removed in the buffer (an update cannot remove them).
    pub removed: Vec<String>,
}

impl Diff {
    /// Compares the top-level properties of `before` and `after`.
    pub fn between(before: &Props, after: &Props) -> Diff {
        let changes = after
            .iter()
            .filter(|(k, v)| before.get(*k) != Some(v))
            .map(|(k, v)| Change {
                key: k.clone(),
                before: before.get(k).cloned(),
                after: v.clone(),
            })
            .collect();
        let removed = before
            .keys()
            .filter(|k| !after.contains_key(*k))
            .cloned()
            .collect();
        Diff { changes, removed }
    }

    /// What merging `props` into `data` (as an update does) changes: the same as
    /// [`Diff::between`] `data` and the merge, without copying `data`. The merge replaces each
    /// given property whole and removes none: the changed ones come in `data`'s order, then
    /// the added ones in `props`' order. Only the properties `props` names are read, so `data`
    /// may hold just those ([`crate::document::Entry::data_named`]).
    pub fn of_merge(data: &Props, props: &Props) -> Diff {
        let changed = data.iter().filter_map(|(key, before)| {
            let after = props.get(key).filter(|after| *after != before)?;
            Some(Change {
                key: key.clone(),
                before: Some(before.clone()),
                after: after.clone(),
            })
        });
        let added = props
            .iter()
            .filter(|(key, _)| !data.contains_key(*key))
            .map(|(key, after)| Change {
                key: key.clone(),
                before: None,
                after: after.clone(),
            });
        Diff {
            changes: changed.chain(added).collect(),
            removed: Vec::new(),
        }
    }

    /// The properties to send: the changed ones only.
    pub fn props(&self) -> Props {
        self.changes
            .iter()
            .map(|c| (c.key.clone(), c.after.clone()))
            .collect()
    }

    /// The changes by path, leaf by leaf (`meta.ttl: 60 → 61`), in the order of the changed
    /// properties; the removed properties are not among them (see `removed`).
    pub fn paths(&self) -> Vec<PathChange> {
        let mut out = Vec::new();
        for change in &self.changes {
            match &change.before {
                Some(before) => path_changes(&change.key, before, &change.after, &mut out),
                None => out.push(PathChange {
                    path: change.key.clone(),
                    edit: PathEdit::Added(change.after.clone()),
                }),
            }
        }
        out
    }

    /// The properties whose whole nested value is sent although only part of it changed.
    pub fn sent_whole(&self) -> Vec<&str> {
        self.changes
            .iter()
            .filter(|c| c.replaces_nested())
            .map(|c| c.key.as_str())
            .collect()
    }
}

/// One marked object's part of a bulk edit.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkChange {
    /// Its id.
    pub obj: String,
    /// What changes in it.
    pub diff: Diff,
}

/// Splits a line of JSON into styled spans: keys, strings, numbers, literals, punctuation.
pub fn highlight(line: &str, theme: &Theme) -> Vec<Span<'static>> {
    let chars: Vec<char> = line.chars().collect();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let role = match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i = (i + 1).min(chars.len());
                let rest: String = chars[i..].iter().collect();
                if rest.trim_start().starts_with(':') {
                    Some(Role::JsonKey)
                } else {
                    Some(Role::JsonString)
                }
            }
            c if c == '-' || c.is_ascii_digit() => {
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || "+-.".contains(chars[i]))
                {
                    i += 1;
                }
                Some(Role::JsonNumber)
            }
            c if c.is_ascii_alphabetic() => {
                while i < chars.len() && chars[i].is_ascii_alphabetic() {
                    i += 1;
                }
                Some(Role::JsonLiteral)
            }
            _ => {
                i += 1;
                None
            }
        };
        let text: String = chars[start..i].iter().collect();
        spans.push(match role {
            Some(role) => Span::styled(text, theme.of(role)),
            None => Span::raw(text),
        });
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::props::merge;
    use serde_json::json;

    #[test]
    fn a_merge_diff_is_the_diff_between_the_data_and_its_merge() {
        let props_of = |v: serde_json::Value| v.as_object().unwrap().clone();
        let data = props_of(json!({"a": 1, "meta": {"x": 1, "y": 2}, "b": "same", "c": [1]}));
        for props in [
            json!({"b": "same"}),
            json!({"z": true, "c": [1, 2], "a": 2}),
            json!({"meta": {"x": 1}, "new": null, "b": "other"}),
            json!({}),
        ] {
            let props = props_of(props);
            let mut merged = data.clone();
            merge(&mut merged, &props);
            assert_eq!(
                Diff::of_merge(&data, &props),
                Diff::between(&data, &merged),
                "{props:?}"
            );
        }
    }

    #[test]
    fn keys_strings_numbers_and_literals_get_their_styles() {
        let theme = Theme::dark();
        let spans = highlight(r#"  "text": "a \"b\"", "n": -1.5e3, "ok": true"#, &theme);
        let texts: Vec<_> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(texts.contains(&"\"text\""));
        assert!(texts.contains(&r#""a \"b\"""#));
        assert!(texts.contains(&"-1.5e3"));
        assert!(texts.contains(&"true"));
        let key = spans.iter().find(|s| s.content == "\"text\"").unwrap();
        assert_eq!(key.style, theme.of(Role::JsonKey));
    }

    #[test]
    fn a_diff_lists_its_changes_by_path() {
        let props = |v: Value| -> Props { serde_json::from_value(v).unwrap() };
        let diff = Diff::between(
            &props(
                serde_json::json!({"meta": {"ttl": 60, "zone": "z"}, "anchors": [{"x": 1}], "n": 1}),
            ),
            &props(
                serde_json::json!({"meta": {"ttl": 61, "owner": "ops"}, "anchors": [{"x": 2}, {"x": 3}], "n": 1, "t": "a"}),
            ),
        );
        let shown: Vec<String> = diff
            .paths()
            .into_iter()
            .map(|c| match c.edit {
                PathEdit::Changed(b, a) => format!("{}: {b} → {a}", c.path),
                PathEdit::Added(a) => format!("{}: added {a}", c.path),
                PathEdit::Removed(b) => format!("{}: removed {b}", c.path),
            })
            .collect();
        assert_eq!(
            shown,
            [
                "meta.owner: added \"ops\"",
                "meta.ttl: 60 → 61",
                "meta.zone: removed \"z\"",
                "anchors[0].x: 1 → 2",
                "anchors[1]: added {\"x\":3}",
                "t: added \"a\"",
            ]
        );
        assert_eq!(diff.sent_whole(), ["meta", "anchors"]);
    }

    #[test]
    fn the_check_finds_syntax_errors_and_warnings_on_their_lines() {
        let (check_result, props) = check(
            "{\n  \"color\": \"red\",\n  \"position\": {\"x\": 1},\n  \"fontSize\": \"big\"\n}",
        );
        assert!(props.is_some());
        let lines: Vec<_> = check_result.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![2, 3, 4]);
        let (check_result, props) = check("{\n  \"a\": 1,\n  \"b\" 2\n}");
        assert!(props.is_none());
        let syntax = check_result.syntax.unwrap();
        assert_eq!((syntax.line, syntax.column), (3, 7));
        assert!(
            check("[1]")
                .0
                .syntax
                .unwrap()
                .message
                .contains("JSON object")
        );
    }
}
