//! Reading JSON leniently, straight from its text or from parsed values, through one serde
//! visitor: a [`Lenient`] reader takes the shapes of JSON it understands and turns every other
//! value into its [`Lenient::other`] case, so a read never fails on odd data (only on text that
//! is not JSON). Strings are borrowed from the input where it allows (text without escapes,
//! parsed values), and nothing is built as a `Value` except the odd values a message may quote.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A reader of one JSON value of any shape. Each case it does not override reads the value as
/// a `Value` and hands it to [`Lenient::other`].
pub trait Lenient<'de>: Sized {
    /// What it reads.
    type Out;

    /// A value of a shape this reader does not take.
    fn other(self, value: Value) -> Self::Out;

    /// A number.
    fn number(self, number: Number) -> Self::Out {
        self.other(Value::Number(number))
    }

    /// A string (borrowed when the input allows).
    fn string(self, text: Cow<'de, str>) -> Self::Out {
        self.other(Value::String(text.into_owned()))
    }

    /// A map, to be read to its end.
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(|value| self.other(value))
    }

    /// An array, to be read to its end.
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(|value| self.other(value))
    }
}

/// The serde seed of a [`Lenient`] reader: `map.next_value_seed(Leniently(reader))`.
pub struct Leniently<L>(pub L);

impl<'de, L: Lenient<'de>> DeserializeSeed<'de> for Leniently<L> {
    type Value = L::Out;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<L::Out, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, L: Lenient<'de>> Visitor<'de> for Leniently<L> {
    type Value = L::Out;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<L::Out, E> {
        Ok(self.0.other(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<L::Out, E> {
        Ok(self.0.number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<L::Out, E> {
        Ok(self.0.number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<L::Out, E> {
        // As `Value` reads it: a float JSON cannot hold is null.
        Ok(match Number::from_f64(v) {
            Some(number) => self.0.number(number),
            None => self.0.other(Value::Null),
        })
    }

    fn visit_str<E>(self, v: &str) -> Result<L::Out, E> {
        Ok(self.0.string(Cow::Owned(v.to_owned())))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<L::Out, E> {
        Ok(self.0.string(Cow::Borrowed(v)))
    }

    fn visit_string<E>(self, v: String) -> Result<L::Out, E> {
        Ok(self.0.string(Cow::Owned(v)))
    }

    fn visit_unit<E>(self) -> Result<L::Out, E> {
        Ok(self.0.other(Value::Null))
    }

    fn visit_none<E>(self) -> Result<L::Out, E> {
        Ok(self.0.other(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<L::Out, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<L::Out, A::Error> {
        self.0.map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<L::Out, A::Error> {
        self.0.seq(seq)
    }
}

/// A map key, borrowed where the input allows.
pub struct Key;

impl<'de> Lenient<'de> for Key {
    type Out = Cow<'de, str>;

    fn other(self, value: Value) -> Cow<'de, str> {
        // JSON keys are strings; other inputs' keys are quoted as text.
        Cow::Owned(value.to_string())
    }

    fn string(self, text: Cow<'de, str>) -> Cow<'de, str> {
        text
    }
}

/// The next key of `map`.
pub fn next_key<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<Cow<'de, str>>, A::Error> {
    map.next_key_seed(Leniently(Key))
}

/// Reads `value` with `reader`: the same reading for parsed data and for JSON text.
pub fn read<'de, L: Lenient<'de>>(
    value: impl Deserializer<'de, Error = serde_json::Error>,
    reader: L,
) -> serde_json::Result<L::Out> {
    Leniently(reader).deserialize(value)
}

/// Reads the JSON `text` with `reader`; an error when it is not one JSON value.
pub fn read_text<'de, L: Lenient<'de>>(text: &'de str, reader: L) -> serde_json::Result<L::Out> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let out = read(&mut deserializer, reader)?;
    deserializer.end()?;
    Ok(out)
}

/// A number; `None` for anything else.
pub struct AnyNumber;

impl<'de> Lenient<'de> for AnyNumber {
    type Out = Option<Number>;

    fn other(self, _: Value) -> Option<Number> {
        None
    }

    fn number(self, number: Number) -> Option<Number> {
        Some(number)
    }
}

/// A boolean; `None` for anything else.
pub struct AnyBool;

impl<'de> Lenient<'de> for AnyBool {
    type Out = Option<bool>;

    fn other(self, value: Value) -> Option<bool> {
        value.as_bool()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// What a value is, as a reader of every case sees it.
    struct Describe;

    impl<'de> Lenient<'de> for Describe {
        type Out = String;

        fn other(self, value: Value) -> String {
            format!("other {value}")
        }

        fn number(self, number: Number) -> String {
            format!("number {number}")
        }

        fn string(self, text: Cow<'de, str>) -> String {
            let how = if matches!(text, Cow::Borrowed(_)) {
                "borrowed"
            } else {
                "owned"
            };
            format!("{how} {text}")
        }
    }

    #[test]
    fn text_and_values_read_alike_and_strings_are_borrowed_where_they_can_be() {
        let cases = [
            (r#""plain""#, "borrowed plain"),
            (r#""esc\"aped""#, "owned esc\"aped"),
            ("12", "number 12"),
            ("-3", "number -3"),
            ("1.5e3", "number 1500.0"),
            ("18446744073709551615", "number 18446744073709551615"),
            ("null", "other null"),
            ("true", "other true"),
            (
                r#"{"a": [1, {"b": null}]}"#,
                r#"other {"a":[1,{"b":null}]}"#,
            ),
        ];
        for (text, read) in cases {
            assert_eq!(read_text(text, Describe).unwrap(), read, "{text}");
            let value: Value = serde_json::from_str(text).unwrap();
            let from_value = super::read(&value, Describe).unwrap();
            // A parsed string is always borrowed from its value.
            assert_eq!(
                from_value.replace("owned", "borrowed"),
                read.replace("owned", "borrowed")
            );
        }
    }

    #[test]
    fn only_text_that_is_not_json_fails() {
        assert!(read_text("{", Describe).is_err());
        assert!(read_text("1 2", Describe).is_err());
        assert!(read_text("1e400", Describe).is_err(), "beyond f64");
        assert_eq!(read_text("[1, true]", AnyNumber).unwrap(), None);
        assert_eq!(read_text(r#"{"a": 1}"#, AnyBool).unwrap(), None);
        assert_eq!(super::read(json!(false), AnyBool).unwrap(), Some(false));
    }
}
