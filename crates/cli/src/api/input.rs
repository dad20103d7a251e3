//! Reading the CLI's inputs: JSON from an argument, a file or stdin, and selectors from JSON or
//! three words. Every error is a sentence for the person at the prompt (a usage error). (The
//! content file of `doc import`, which can be big, has its own module: `content_file`.)

use std::collections::BTreeMap;
use std::io::Read;

use serde::de::DeserializeOwned;
use serde_json::Value;

use diagtui_model::selector::json_kind;
use diagtui_model::{Props, Selector};

/// Where a JSON input comes from: `-` is stdin, `@PATH` a file, anything else the JSON itself.
pub fn read_json_arg(arg: &str) -> Result<Value, String> {
    match arg.strip_prefix('@') {
        Some(path) => parse_json(&read_file(path)?, path),
        None if arg == "-" => parse_json(&read_stdin()?, "stdin"),
        None => parse_json(arg, "the argument"),
    }
}

/// Props (a JSON object) from an argument, `@file` or `-`.
pub fn props_arg(arg: &str) -> Result<Props, String> {
    typed(read_json_arg(arg)?, "props", "a JSON object of properties")
}

/// The bulk-update map `{objId: props}` from an argument, `@file` or `-`.
pub fn objects_arg(arg: &str) -> Result<BTreeMap<String, Props>, String> {
    typed(
        read_json_arg(arg)?,
        "objects",
        "a JSON object mapping object ids to objects of properties",
    )
}

/// A selector from its words on the command line: one word of JSON
/// (`'["status","eq","down"]'`, or a list of such) or three words `KEY OP VALUE`. In the
/// three-word form the value is read as JSON when it is a JSON number, boolean or string
/// (`16`, `true`, `"16"`), else taken as the text it is (`down`).
pub fn selector_words(words: &[String]) -> Result<Selector, String> {
    match words {
        [json] => Selector::parse(json).map_err(|e| {
            format!("{e} (give the selector as JSON '[\"key\",\"eq\",\"value\"]' or as three words: key eq value)")
        }),
        [key, op, value] => {
            let value = match serde_json::from_str::<Value>(value) {
                Ok(v @ (Value::Number(_) | Value::Bool(_) | Value::String(_))) => v,
                _ => Value::String(value.clone()),
            };
            let json = Value::Array(vec![key.as_str().into(), op.as_str().into(), value]);
            Selector::from_json(&json).map_err(|e| e.to_string())
        }
        _ => Err(format!(
            "a selector is one JSON word or three words (key op value), got {} words",
            words.len()
        )),
    }
}

fn typed<T: DeserializeOwned>(value: Value, what: &str, expected: &str) -> Result<T, String> {
    let kind = json_kind(&value);
    serde_json::from_value(value).map_err(|e| {
        if kind == "an object" {
            format!("{what}: {e}")
        } else {
            format!("{what} must be {expected}, got {kind}")
        }
    })
}

fn parse_json(text: &str, source: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{source} is not valid JSON: {e}"))
}

fn read_file(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn read_stdin() -> Result<String, String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn selectors_from_json_or_three_words() {
        let from = |w: &[&str]| selector_words(&words(w)).map(|s| s.to_json());
        assert_eq!(
            from(&[r#"["status","eq","down"]"#]),
            Ok(json!(["status", "eq", "down"]))
        );
        assert_eq!(
            from(&["status", "eq", "down"]),
            Ok(json!(["status", "eq", "down"]))
        );
        assert_eq!(from(&["port", "gt", "16"]), Ok(json!(["port", "gt", 16])));
        assert_eq!(from(&["up", "eq", "true"]), Ok(json!(["up", "eq", true])));
        assert_eq!(
            from(&["id", "eq", r#""16""#]),
            Ok(json!(["id", "eq", "16"]))
        );
        assert_eq!(from(&["n", "eq", "null"]), Ok(json!(["n", "eq", "null"])));
        assert_eq!(from(&["p", "co", "a/b %"]), Ok(json!(["p", "co", "a/b %"])));
        assert!(from(&["status", "like", "x"]).unwrap_err().contains("like"));
        assert!(from(&["a", "b"]).unwrap_err().contains("2 words"));
        assert!(from(&["status"]).unwrap_err().contains("not valid JSON"));
        assert!(from(&["", "eq", "x"]).unwrap_err().contains("empty"));
    }

    #[test]
    fn json_inputs_say_what_is_wrong() {
        assert_eq!(props_arg(r#"{"text":"hi"}"#).unwrap()["text"], "hi");
        assert!(props_arg("[1]").unwrap_err().contains("got an array"));
        assert!(props_arg("{").unwrap_err().contains("not valid JSON"));
        assert!(
            props_arg("@/nonexistent.json")
                .unwrap_err()
                .contains("cannot read")
        );
        assert!(
            objects_arg(r#"{"a": 1}"#)
                .unwrap_err()
                .starts_with("objects:")
        );

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("content.json");
        std::fs::write(&path, r#"{"o1":{"type":"label","data":{"text":"x"}}}"#).unwrap();
        let props = props_arg(&format!("@{}", path.display())).unwrap();
        assert!(props.contains_key("o1"));
    }
}
