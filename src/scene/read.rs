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

/// A coordinate: a JSON number within ±[`FAR`].
pub fn coordinate(value: &Value) -> Option<f64> {
    value.as_f64().filter(|v| v.abs() <= FAR)
}

/// A point `{x, y}` of coordinates.
pub fn point(value: &Value) -> Option<Point> {
    Some(Point::new(
        coordinate(value.get("x")?)?,
        coordinate(value.get("y")?)?,
    ))
}

/// The required point under `key`, or what is wrong with it.
pub fn required_point(data: &Map<String, Value>, key: &str) -> Result<Point, Problem> {
    let value = data.get(key).ok_or_else(|| format!("no {key}"))?;
    point(value).ok_or_else(|| format!("{key} is not {{x, y}} numbers"))
}

/// A number under `key` accepted by `keep`, else `default`.
pub fn number_or(
    data: &Map<String, Value>,
    key: &str,
    default: f64,
    keep: impl Fn(f64) -> bool,
) -> f64 {
    data.get(key)
        .and_then(coordinate)
        .filter(|&v| keep(v))
        .unwrap_or(default)
}

/// A positive size under `key`, else `default`.
pub fn size_or(data: &Map<String, Value>, key: &str, default: f64) -> f64 {
    number_or(data, key, default, |v| v > 0.0)
}

/// The rotation in radians, 0 when missing or not a number.
pub fn rotation(data: &Map<String, Value>) -> f64 {
    number_or(data, "rotation", 0.0, |_| true)
}

/// `dimensions {width, height}` when both are positive numbers.
pub fn dimensions(data: &Map<String, Value>) -> Option<(f64, f64)> {
    let dims = data.get("dimensions")?;
    let width = coordinate(dims.get("width")?).filter(|&v| v > 0.0)?;
    let height = coordinate(dims.get("height")?).filter(|&v| v > 0.0)?;
    Some((width, height))
}

/// A text under `key` (a number or boolean reads as its JSON text), else `default`.
pub fn text_or(data: &Map<String, Value>, key: &str, default: &str) -> String {
    match data.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => v.to_string(),
        _ => default.to_owned(),
    }
}

/// A non-empty string under `key`.
pub fn non_empty<'a>(data: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    data.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The colour under `key`: `#RRGGBB` (any case) is that colour, `#00000000` is invisible
/// (`None`); anything else (missing, or not a colour) is `default`.
pub fn colour_or(data: &Map<String, Value>, key: &str, default: Option<Rgb>) -> Option<Rgb> {
    match data.get(key).and_then(Value::as_str) {
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

/// A boolean under `key` inside the object under `outer` (`fontStyle.bold`), false otherwise.
pub fn flag(data: &Map<String, Value>, outer: &str, key: &str) -> bool {
    data.get(outer)
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
    fn points_need_numbers_within_reach() {
        let d = data(json!({"a": {"x": 1, "y": -2.5}, "b": {"x": "1", "y": 0},
                            "c": {"x": 2e6, "y": 0}, "d": [1, 2]}));
        assert_eq!(required_point(&d, "a"), Ok(Point::new(1.0, -2.5)));
        for key in ["b", "c", "d"] {
            assert_eq!(
                required_point(&d, key),
                Err(format!("{key} is not {{x, y}} numbers"))
            );
        }
        assert_eq!(required_point(&d, "e"), Err("no e".to_owned()));
    }

    #[test]
    fn colours_fall_back_and_may_be_invisible() {
        let grey = Some(Rgb::new(1, 2, 3));
        let d = data(json!({"a": "#ff8000", "b": "#00000000", "c": "red", "d": "#ÿÿÿ", "e": 5}));
        assert_eq!(colour_or(&d, "a", grey), Some(Rgb::new(255, 128, 0)));
        assert_eq!(colour_or(&d, "b", grey), None);
        for key in ["c", "d", "e", "missing"] {
            assert_eq!(colour_or(&d, key, grey), grey, "{key}");
        }
        assert_eq!(Rgb::new(255, 128, 0).hex(), "#FF8000");
    }

    #[test]
    fn other_values_fall_back_to_their_defaults() {
        let d = data(json!({"size": -1, "rotation": "left", "text": 42,
                            "dimensions": {"width": 3, "height": 0}}));
        assert_eq!(size_or(&d, "size", 0.5), 0.5);
        assert_eq!(rotation(&d), 0.0);
        assert_eq!(text_or(&d, "text", "x"), "42");
        assert_eq!(text_or(&d, "none", "x"), "x");
        assert_eq!(dimensions(&d), None);
        assert!(!flag(&d, "fontStyle", "bold"));
    }
}
