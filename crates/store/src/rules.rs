//! The rules a request must meet before it reaches the database: lengths, the shape of an
//! e-mail address, the size of a selector, the properties by their names. They run on the
//! request's own task, so the writer is held only to write.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::error::{StoreError, StoreResult};
use diagtui_model::props::validate_for;
use diagtui_model::{Props, Selector};

/// The longest document or folder title, in characters.
pub const MAX_TITLE_CHARS: usize = 1000;
/// The longest e-mail address, in characters (RFC 5321's limit on a path).
pub const MAX_EMAIL_CHARS: usize = 254;
/// The longest object id, in characters.
pub const MAX_OBJECT_ID_CHARS: usize = 128;
/// The most conditions a selector may hold.
pub const MAX_SELECTOR_CONDITIONS: usize = 64;
/// How deep a selector's JSON may nest: a list of conditions of scalars is three levels.
const MAX_SELECTOR_DEPTH: usize = 3;

/// Checks a document or folder title: not empty or all white space, and not too long.
pub fn check_title(title: &str) -> StoreResult<()> {
    if title.trim().is_empty() {
        return Err(StoreError::Invalid("title: must not be empty".into()));
    }
    check_length("title", title, MAX_TITLE_CHARS)
}

/// Checks that an e-mail address looks like one: `local@domain`, no white space, not too long.
pub fn check_email(email: &str) -> StoreResult<()> {
    check_email_length(email)?;
    let plausible = email
        .split_once('@')
        .is_some_and(|(local, domain)| !local.is_empty() && !domain.is_empty())
        && !email.chars().any(char::is_whitespace);
    if plausible {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "email: \"{email}\" is not an e-mail address"
        )))
    }
}

/// Checks that an e-mail address is not too long (a shorter one may still name no account).
pub fn check_email_length(email: &str) -> StoreResult<()> {
    check_length("email", email, MAX_EMAIL_CHARS)
}

/// Checks an object id given by a client; `label` names it in the message
/// (`content.<id>`, `objects.<id>`, `objId`).
pub fn check_object_id(label: &str, id: &str) -> StoreResult<()> {
    if id.is_empty() {
        return Err(StoreError::Invalid(format!(
            "{label}: an object id must not be empty"
        )));
    }
    check_length(label, id, MAX_OBJECT_ID_CHARS)
}

/// Refuses text longer than `max` characters, without counting past the limit.
fn check_length(label: &str, text: &str, max: usize) -> StoreResult<()> {
    if text.len() <= max || text.chars().nth(max).is_none() {
        return Ok(());
    }
    let label = if label.chars().count() > 80 {
        let short: String = label.chars().take(77).collect();
        format!("{short}...")
    } else {
        label.to_owned()
    };
    Err(StoreError::Invalid(format!(
        "{label}: must be at most {max} characters"
    )))
}

/// Checks properties by their names alone (the rules that hold whatever the object type).
pub fn check_props_by_name(props: &Props) -> StoreResult<()> {
    check_props_for("", props, false).map_err(StoreError::Invalid)
}

/// Checks properties given for an object whose type is `kind` (a wire name), as one message.
pub fn check_props_for(kind: &str, props: &Props, creating: bool) -> Result<(), String> {
    let problems = validate_for(kind, props, creating);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "))
    }
}

/// Reads a selector from JSON text, refusing one of more than [`MAX_SELECTOR_CONDITIONS`]
/// conditions while it is read: an oversized selector costs no more than scanning it.
pub fn parse_selector(text: &str) -> StoreResult<Selector> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = BoundedSeed { depth: 0 }
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value))
        .map_err(|e| {
            StoreError::InvalidSelector(match e.classify() {
                serde_json::error::Category::Data => {
                    let text = e.to_string();
                    text.rfind(" at line ")
                        .map_or(text.clone(), |at| text[..at].to_owned())
                }
                _ => format!("the selector is not valid JSON: {e}"),
            })
        })?;
    Selector::from_json(&value).map_err(|e| StoreError::InvalidSelector(e.0))
}

/// Reads JSON into a [`Value`] whose arrays and objects hold at most
/// [`MAX_SELECTOR_CONDITIONS`] entries, nested at most [`MAX_SELECTOR_DEPTH`] deep.
struct BoundedSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for BoundedSeed {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl BoundedSeed {
    /// Fails when one more level would be too deep.
    fn deeper<E: de::Error>(&self) -> Result<BoundedSeed, E> {
        if self.depth >= MAX_SELECTOR_DEPTH {
            return Err(E::custom(format!(
                "a selector nests at most {MAX_SELECTOR_DEPTH} levels: [[key, operator, value], ...]"
            )));
        }
        Ok(BoundedSeed {
            depth: self.depth + 1,
        })
    }
}

/// The error for one entry too many.
fn too_many<E: de::Error>() -> E {
    E::custom(format!(
        "a selector has at most {MAX_SELECTOR_CONDITIONS} conditions"
    ))
}

impl<'de> Visitor<'de> for BoundedSeed {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a selector")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.deeper()?)? {
            if items.len() == MAX_SELECTOR_CONDITIONS {
                return Err(too_many());
            }
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if entries.len() == MAX_SELECTOR_CONDITIONS {
                return Err(too_many());
            }
            let value = map.next_value_seed(self.deeper()?)?;
            entries.insert(key, value);
        }
        Ok(Value::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_emails_and_ids_have_caps() {
        assert!(check_title(&"t".repeat(MAX_TITLE_CHARS)).is_ok());
        assert!(
            check_title(&"é".repeat(MAX_TITLE_CHARS)).is_ok(),
            "characters"
        );
        assert!(check_title(&"t".repeat(MAX_TITLE_CHARS + 1)).is_err());
        assert!(check_title(" ").is_err());
        let long_email = format!("{}@example.com", "a".repeat(MAX_EMAIL_CHARS));
        assert!(check_email(&long_email).is_err());
        assert!(check_object_id("objId", &"a".repeat(MAX_OBJECT_ID_CHARS)).is_ok());
        let err = check_object_id("objId", &"a".repeat(MAX_OBJECT_ID_CHARS + 1)).unwrap_err();
        assert_eq!(err.to_string(), "objId: must be at most 128 characters");
    }

    #[test]
    fn emails_need_an_at_sign_between_two_parts() {
        for ok in ["a@b", "local@diagtui.localhost"] {
            assert!(check_email(ok).is_ok(), "{ok}");
        }
        for bad in ["", "ab", "@b", "a@", "a b@c"] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn selectors_are_capped_while_read() {
        let term = r#"["k","eq",1]"#;
        let list = |n: usize| format!("[{}]", vec![term; n].join(","));
        assert!(parse_selector(&list(MAX_SELECTOR_CONDITIONS)).is_ok());
        let err = parse_selector(&list(MAX_SELECTOR_CONDITIONS + 1)).unwrap_err();
        assert_eq!(err.to_string(), "a selector has at most 64 conditions");
        let err = parse_selector(r#"[[["k"]]]"#).unwrap_err();
        assert!(err.to_string().contains("[key, operator, value]"), "{err}");
        let err = parse_selector("[1,").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
        let err = parse_selector(r#"["a","like","b"]"#).unwrap_err();
        assert!(err.to_string().contains("unknown operator"), "{err}");
    }
}
