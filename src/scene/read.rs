//! Reading an object's properties from its JSON data, leniently: where an object is must be
//! given and numeric (else the object cannot be placed, and the error says why), everything
//! else falls back to its default.

use serde_json::{Map, Value};

use super::geometry::Point;
use super::shape::Rgb;

/// The largest coordinate accepted: 10,000 times the grid. Beyond it a value is taken for
/// garbage, and every sum and product of coordinates stays finite.
pub const FAR: f64 = 1_000_000.0;

/// Why an object could not be placed, in words.
pub type Problem = String;

/// The values of the named properties of `data`, in the order of `names`: one pass over the
/// data, which is several times quicker than a hashed look-up per name (each of which lands on
/// memory far from the last).
pub fn fields<'a, const N: usize>(
    data: &'a Map<String, Value>,
    names: [&str; N],
) -> [Option<&'a Value>; N] {
    let mut found = [None; N];
    for (key, value) in data {
        if let Some(at) = names.iter().position(|name| name == key) {
            found[at] = Some(value);
        }
    }
    found
}

/// A coordinate: a JSON number within ±[`FAR`].
pub fn coordinate(value: &Value) -> Option<f64> {
    value.as_f64().filter(|v| v.abs() <= FAR)
}

/// A point `{x, y}` of coordinates.
pub fn point(value: &Value) -> Option<Point> {
    let [x, y] = fields(value.as_object()?, ["x", "y"]);
    Some(Point::new(coordinate(x?)?, coordinate(y?)?))
}

/// The required point `name`, or what is wrong with it.
pub fn required_point(value: Option<&Value>, name: &str) -> Result<Point, Problem> {
    let value = value.ok_or_else(|| format!("no {name}"))?;
    point(value).ok_or_else(|| format!("{name} is not {{x, y}} numbers"))
}

/// A number accepted by `keep`, else `default`.
pub fn number_or(value: Option<&Value>, default: f64, keep: impl Fn(f64) -> bool) -> f64 {
    value
        .and_then(coordinate)
        .filter(|&v| keep(v))
        .unwrap_or(default)
}

/// A positive size, else `default`.
pub fn size_or(value: Option<&Value>, default: f64) -> f64 {
    number_or(value, default, |v| v > 0.0)
}

/// A rotation in radians, 0 when missing or not a number.
pub fn rotation(value: Option<&Value>) -> f64 {
    number_or(value, 0.0, |_| true)
}

/// `dimensions {width, height}` when both are positive numbers.
pub fn dimensions(value: Option<&Value>) -> Option<(f64, f64)> {
    let [width, height] = fields(value?.as_object()?, ["width", "height"]);
    let positive = |v: Option<&Value>| coordinate(v?).filter(|&v| v > 0.0);
    Some((positive(width)?, positive(height)?))
}

/// A text (a number or boolean reads as its JSON text), else `default`.
pub fn text_or(value: Option<&Value>, default: &str) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => v.to_string(),
        _ => default.to_owned(),
    }
}

/// A string that is not blank.
pub fn non_empty(value: Option<&Value>) -> Option<&str> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// A colour: `#RRGGBB` (any case) is that colour, `#00000000` is invisible (`None`); anything
/// else (missing, or not a colour) is `default`.
pub fn colour_or(value: Option<&Value>, default: Option<Rgb>) -> Option<Rgb> {
    match value.and_then(Value::as_str) {
        Some("#00000000") => None,
        Some(text) => parse_hex(text).or(default),
        None => default,
    }
}

/// `#RRGGBB` as a colour.
fn parse_hex(text: &str) -> Option<Rgb> {
    let hex = text.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |at: usize| u8::from_str_radix(hex.get(at..at + 2)?, 16).ok();
    Some(Rgb::new(byte(0)?, byte(2)?, byte(4)?))
}

/// The boolean under `key` in an object (`bold` in `fontStyle`), false otherwise.
pub fn flag(value: Option<&Value>, key: &str) -> bool {
    value
        .and_then(|o| o.get(key))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn data(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn fields_are_found_in_one_pass_in_the_order_asked() {
        let d = data(json!({"b": 2, "a": 1, "c": 3}));
        assert_eq!(
            fields(&d, ["a", "z", "b"]),
            [Some(&json!(1)), None, Some(&json!(2))]
        );
    }

    #[test]
    fn points_need_numbers_within_reach() {
        let d = data(json!({"a": {"x": 1, "y": -2.5}, "b": {"x": "1", "y": 0},
                            "c": {"x": 2e6, "y": 0}, "d": [1, 2]}));
        assert_eq!(required_point(d.get("a"), "a"), Ok(Point::new(1.0, -2.5)));
        for key in ["b", "c", "d"] {
            assert_eq!(
                required_point(d.get(key), key),
                Err(format!("{key} is not {{x, y}} numbers"))
            );
        }
        assert_eq!(required_point(None, "e"), Err("no e".to_owned()));
    }

    #[test]
    fn colours_fall_back_and_may_be_invisible() {
        let grey = Some(Rgb::new(1, 2, 3));
        let d = data(json!({"a": "#ff8000", "b": "#00000000", "c": "red", "d": "#ÿÿÿ", "e": 5}));
        assert_eq!(colour_or(d.get("a"), grey), Some(Rgb::new(255, 128, 0)));
        assert_eq!(colour_or(d.get("b"), grey), None);
        for key in ["c", "d", "e", "missing"] {
            assert_eq!(colour_or(d.get(key), grey), grey, "{key}");
        }
        assert_eq!(Rgb::new(255, 128, 0).hex(), "#FF8000");
    }

    #[test]
    fn other_values_fall_back_to_their_defaults() {
        let d = data(json!({"size": -1, "rotation": "left", "text": 42,
                            "dimensions": {"width": 3, "height": 0}}));
        assert_eq!(size_or(d.get("size"), 0.5), 0.5);
        assert_eq!(rotation(d.get("rotation")), 0.0);
        assert_eq!(text_or(d.get("text"), "x"), "42");
        assert_eq!(text_or(None, "x"), "x");
        assert_eq!(dimensions(d.get("dimensions")), None);
        assert!(!flag(d.get("fontStyle"), "bold"));
    }
}
