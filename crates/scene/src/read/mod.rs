//! Reading an object's data for the scene: one typed pass ([`Fields::read`]) over its JSON text
//! or its parsed values alike, keeping only what placing needs and borrowing its strings, never
//! building the data as values. Leniently: any data reads (where an object is must be given and
//! numeric, else placing says why it cannot place it; everything else falls back to its
//! default); only text that is not JSON fails. A property given twice takes its last value, as
//! parsed data would.

mod values;

use std::borrow::Cow;

use serde::de::{IgnoredAny, MapAccess};
use serde_json::Value;

use super::geometry::Point;
use super::lenient::{self, AnyNumber, Lenient, Leniently, next_key};
use super::shape::{Rgb, Status};
use diagtui_model::Props;
pub use values::{Anchor, List, Pair, Text, coordinate};
use values::{
    ReadAnchor, ReadArrows, ReadDimensions, ReadFontStyle, ReadList, ReadPair, ReadPoint,
    ReadStatus, ReadText,
};

/// Why an object could not be placed, in words.
pub type Problem = String;

/// One object's data as a scene is given it: parsed, or as the JSON text of an object.
#[derive(Debug, Clone, Copy)]
pub enum Data<'a> {
    /// Parsed values (a content's objects).
    Parsed(&'a Props),
    /// JSON text (the TUI's compact model).
    Json(&'a str),
}

/// What the scene reads of an object's data. Numbers are kept when they are coordinates
/// ([`coordinate`]); a missing or unusable property is `None`.
#[derive(Debug, Default, PartialEq)]
pub struct Fields<'a> {
    /// `position`: `None` when missing, `Some(None)` when not `{x, y}` coordinates.
    pub position: Option<Option<Point>>,
    /// `rotation`.
    pub rotation: Option<f64>,
    /// `dimensions`, when both `width` and `height` are positive coordinates.
    pub dimensions: Option<(f64, f64)>,
    /// `opacity`.
    pub opacity: Option<f64>,
    /// `fontSize`.
    pub font_size: Option<f64>,
    /// `lineWidth`.
    pub line_width: Option<f64>,
    /// `outlineWidth`.
    pub outline_width: Option<f64>,
    /// `zIndex`.
    pub z_index: Option<f64>,
    /// `lineDash`, when an integer.
    pub line_dash: Option<i64>,
    /// `areaType`, when an integer (1 is walled).
    pub area_type: Option<i64>,
    /// `wallHeight`.
    pub wall_height: Option<f64>,
    /// `wallColor`.
    pub wall_color: Option<Text<'a>>,
    /// `componentId`.
    pub component_id: Option<Text<'a>>,
    /// `name`.
    pub name: Option<Text<'a>>,
    /// `text`.
    pub text: Option<Text<'a>>,
    /// `icon`.
    pub icon: Option<Text<'a>>,
    /// `path`.
    pub path: Option<Text<'a>>,
    /// `widgetType`.
    pub widget_type: Option<Text<'a>>,
    /// `plotType`.
    pub plot_type: Option<Text<'a>>,
    /// `textAlign`.
    pub text_align: Option<Text<'a>>,
    /// `fillColor`.
    pub fill_color: Option<Text<'a>>,
    /// `primaryColor`.
    pub primary_color: Option<Text<'a>>,
    /// `lineColor`.
    pub line_color: Option<Text<'a>>,
    /// `color`.
    pub color: Option<Text<'a>>,
    /// `outlineColor`.
    pub outline_color: Option<Text<'a>>,
    /// `strokeStyle`.
    pub stroke_style: Option<Text<'a>>,
    /// `fontStyle.bold` and `fontStyle.italic` are `true`.
    pub bold_italic: (bool, bool),
    /// The status named by `meta` under the status key.
    pub status: Status,
    /// `anchors`.
    pub anchors: List<Anchor<'a>>,
    /// `lines`.
    pub lines: List<Pair>,
    /// `arrowAnchorIndices` (`{"<anchor index>": true}`), its keys with whether their value
    /// is `true`.
    pub arrows: Vec<(Cow<'a, str>, bool)>,
}

impl<'a> Fields<'a> {
    /// Reads `data`; `status_key` names the `meta` entry read as the status. Fails only on
    /// text that is not a JSON object.
    pub fn read(data: Data<'a>, status_key: &str) -> Result<Fields<'a>, Problem> {
        let mut fields = Fields::default();
        fields.fill(data, status_key)?;
        Ok(fields)
    }

    /// [`Fields::read`] into these fields, forgetting what they held but keeping the buffers
    /// of their lists: a caller reading many objects reuses one `Fields` (filled in place, as
    /// the fields are many and moving them through each layer of serde's results would copy
    /// them several times).
    pub fn fill(&mut self, data: Data<'a>, status_key: &str) -> Result<(), Problem> {
        let (mut anchors, mut lines, mut arrows) = (
            std::mem::take(&mut self.anchors),
            std::mem::take(&mut self.lines),
            std::mem::take(&mut self.arrows),
        );
        anchors.clear();
        lines.clear();
        arrows.clear();
        *self = Fields {
            anchors,
            lines,
            arrows,
            ..Fields::default()
        };
        let reader = ReadFields {
            fields: self,
            status_key,
        };
        let read = match data {
            Data::Parsed(props) => lenient::read(props, reader),
            Data::Json(text) => lenient::read_text(text, reader),
        };
        read.map_err(|error| format!("its data is not JSON ({error})"))?
    }

    /// Whether anchor `i` ends in an arrow tip.
    pub fn arrow(&self, i: usize) -> bool {
        self.arrows
            .iter()
            .any(|(key, tip)| *tip && key.parse() == Ok(i))
    }
}

/// The reader of [`Fields`], into `fields`.
struct ReadFields<'f, 'de, 'k> {
    fields: &'f mut Fields<'de>,
    status_key: &'k str,
}

impl<'de> Lenient<'de> for ReadFields<'_, 'de, '_> {
    type Out = Result<(), Problem>;

    fn other(self, value: Value) -> Self::Out {
        Err(format!("its data is {value}, not an object"))
    }

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        let f = self.fields;
        let number = |map: &mut A| map.next_value_seed(Leniently(AnyNumber));
        let far = |map: &mut A| number(map).map(|n| coordinate(n.as_ref()));
        let text = |map: &mut A| map.next_value_seed(Leniently(ReadText)).map(Some);
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "position" => f.position = Some(map.next_value_seed(Leniently(ReadPoint))?),
                "rotation" => f.rotation = far(&mut map)?,
                "dimensions" => f.dimensions = map.next_value_seed(Leniently(ReadDimensions))?,
                "opacity" => f.opacity = far(&mut map)?,
                "fontSize" => f.font_size = far(&mut map)?,
                "lineWidth" => f.line_width = far(&mut map)?,
                "outlineWidth" => f.outline_width = far(&mut map)?,
                "zIndex" => f.z_index = far(&mut map)?,
                "lineDash" => f.line_dash = number(&mut map)?.and_then(|n| n.as_i64()),
                "areaType" => f.area_type = number(&mut map)?.and_then(|n| n.as_i64()),
                "wallHeight" => f.wall_height = far(&mut map)?,
                "wallColor" => f.wall_color = text(&mut map)?,
                "componentId" => f.component_id = text(&mut map)?,
                "name" => f.name = text(&mut map)?,
                "text" => f.text = text(&mut map)?,
                "icon" => f.icon = text(&mut map)?,
                "path" => f.path = text(&mut map)?,
                "widgetType" => f.widget_type = text(&mut map)?,
                "plotType" => f.plot_type = text(&mut map)?,
                "textAlign" => f.text_align = text(&mut map)?,
                "fillColor" => f.fill_color = text(&mut map)?,
                "primaryColor" => f.primary_color = text(&mut map)?,
                "lineColor" => f.line_color = text(&mut map)?,
                "color" => f.color = text(&mut map)?,
                "outlineColor" => f.outline_color = text(&mut map)?,
                "strokeStyle" => f.stroke_style = text(&mut map)?,
                "fontStyle" => f.bold_italic = map.next_value_seed(Leniently(ReadFontStyle))?,
                "meta" => f.status = map.next_value_seed(Leniently(ReadStatus(self.status_key)))?,
                "anchors" => {
                    map.next_value_seed(Leniently(ReadList(&mut f.anchors, ReadAnchor)))?
                }
                "lines" => map.next_value_seed(Leniently(ReadList(&mut f.lines, ReadPair)))?,
                "arrowAnchorIndices" => {
                    map.next_value_seed(Leniently(ReadArrows(&mut f.arrows)))?
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Ok(()))
    }
}

/// A number accepted by `keep`, else `default`.
pub fn number_or(value: Option<f64>, default: f64, keep: impl Fn(f64) -> bool) -> f64 {
    value.filter(|&v| keep(v)).unwrap_or(default)
}

/// A positive size, else `default`.
pub fn size_or(value: Option<f64>, default: f64) -> f64 {
    number_or(value, default, |v| v > 0.0)
}

/// The required point `name`, or what is wrong with it.
pub fn required_point(value: Option<Option<Point>>, name: &str) -> Result<Point, Problem> {
    value
        .ok_or_else(|| format!("no {name}"))?
        .ok_or_else(|| format!("{name} is not {{x, y}} numbers"))
}

/// A text (a number or boolean reads as its JSON text), else `default`.
pub fn text_or(value: &Option<Text<'_>>, default: &str) -> String {
    match value {
        Some(Text::Str(s)) => s.as_ref().to_owned(),
        Some(Text::Scalar(s)) => s.clone(),
        _ => default.to_owned(),
    }
}

/// A string that is not blank.
pub fn non_empty<'t>(value: &'t Option<Text<'_>>) -> Option<&'t str> {
    value
        .as_ref()
        .and_then(Text::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// A colour: `#RRGGBB` (any case) is that colour, `#00000000` is invisible (`None`); anything
/// else (missing, or not a colour) is `default`.
pub fn colour_or(value: &Option<Text<'_>>, default: Option<Rgb>) -> Option<Rgb> {
    match value.as_ref().and_then(Text::as_str) {
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

#[cfg(test)]
mod tests {
    use serde_json::{Number, json};

    use super::*;

    /// `json` read as text and as parsed values, which must read alike.
    fn read(json: &str) -> Fields<'_> {
        let from_text = Fields::read(Data::Json(json), "status").expect("readable");
        let parsed: Props = serde_json::from_str(json).expect("an object");
        let from_values = Fields::read(Data::Parsed(&parsed), "status").expect("readable");
        assert_eq!(from_text, from_values, "{json}");
        from_text
    }

    #[test]
    fn the_fields_the_scene_needs_are_read_and_the_rest_skipped() {
        let f = read(
            r##"{"position": {"x": 1, "y": -2.5, "z": 9}, "rotation": 0.5, "name": "web-01",
                 "componentId": "a.b", "meta": {"cpu": [1, 2], "status": " Down "},
                 "fontStyle": {"bold": true, "italic": false}, "color": "#ff8000",
                 "dimensions": {"width": 3, "height": 0.5}, "lineDash": 2,
                 "anchors": [{"type": 1, "id": "c", "index": 2}, {"x": 3, "y": 4}, 7],
                 "lines": [[0, 1], [1], [0, 1, 2], "x"], "arrowAnchorIndices": {"1": true, "0": 1},
                 "unknown": {"deep": [[{"a": null}]]}}"##,
        );
        assert_eq!(f.position, Some(Some(Point::new(1.0, -2.5))));
        assert_eq!((f.rotation, f.line_dash), (Some(0.5), Some(2)));
        assert_eq!(f.name, Some(Text::Str("web-01".into())));
        assert_eq!(f.status, Status::Error);
        assert_eq!(f.bold_italic, (true, false));
        assert_eq!(f.dimensions, Some((3.0, 0.5)));
        assert_eq!(colour_or(&f.color, None), Some(Rgb::new(0xFF, 0x80, 0x00)));
        assert_eq!(
            f.anchors.get().unwrap(),
            [
                Anchor::Object {
                    kind: Some(json!(1)),
                    id: Some(Text::Str("c".into())),
                    index: Some(2.into()),
                    point: None
                },
                Anchor::Object {
                    kind: None,
                    id: None,
                    index: None,
                    point: Some(Point::new(3.0, 4.0))
                },
                Anchor::Other(json!(7)),
            ]
        );
        assert_eq!(
            f.lines.get().unwrap(),
            [
                Pair::Two(json!(0), json!(1)),
                Pair::Other(json!([1])),
                Pair::Other(json!([0, 1, 2])),
                Pair::Other(json!("x")),
            ]
        );
        assert!(f.arrows.len() == 2 && !f.arrows[1].1);
    }

    #[test]
    fn numbers_given_as_strings_are_not_numbers() {
        let f = read(
            r#"{"position": {"x": "1", "y": 2}, "rotation": "0.5", "fontSize": "3",
                "dimensions": {"width": "2", "height": 1}, "lineDash": "2",
                "anchors": [{"type": "1", "id": "c", "index": "0", "x": "0", "y": 0}],
                "text": 42, "name": 7, "color": 16711680, "fontStyle": {"bold": "true"}}"#,
        );
        assert_eq!(f.position, Some(None));
        assert_eq!((f.rotation, f.font_size, f.dimensions), (None, None, None));
        assert_eq!(f.line_dash, None);
        let Some(
            [
                Anchor::Object {
                    kind, index, point, ..
                },
            ],
        ) = f.anchors.get()
        else {
            panic!("{:?}", f.anchors)
        };
        assert_eq!((kind, index, point), (&Some(json!("1")), &None, &None));
        assert_eq!(text_or(&f.text, "x"), "42", "a number reads as its text");
        assert_eq!(non_empty(&f.name), None, "a title must be a string");
        assert_eq!(colour_or(&f.color, None), None);
        assert_eq!(f.bold_italic, (false, false));
    }

    #[test]
    fn nulls_at_any_depth_are_values_of_the_wrong_shape() {
        let f = read(
            r#"{"position": null, "meta": null, "name": null, "rotation": null,
                "anchors": [null, {"x": null, "y": 1, "id": null}], "lines": [[null, 1], null],
                "fontStyle": {"bold": null}, "arrowAnchorIndices": {"0": null},
                "dimensions": {"width": null, "height": 1}}"#,
        );
        assert_eq!(f.position, Some(None), "given, but not a point");
        assert!(!f.arrow(0));
        assert_eq!(
            (f.status, f.name, f.rotation),
            (Status::Unknown, Some(Text::Other), None)
        );
        assert_eq!(
            f.anchors.get().unwrap(),
            [
                Anchor::Other(Value::Null),
                Anchor::Object {
                    kind: None,
                    id: Some(Text::Other),
                    index: None,
                    point: None
                },
            ]
        );
        assert_eq!(
            f.lines.get().unwrap(),
            [Pair::Two(Value::Null, json!(1)), Pair::Other(Value::Null)]
        );
        assert_eq!((f.bold_italic, f.dimensions), ((false, false), None));
        let f = read(r#"{"anchors": null, "lines": {}}"#);
        assert_eq!((f.anchors.get(), f.lines.get()), (None, None));
    }

    #[test]
    fn of_a_key_given_twice_the_last_counts() {
        let f = read(
            r#"{"position": {"x": 1, "y": 2}, "position": {"x": 3, "x": 4, "y": 5},
                "meta": {"status": "up", "status": "down"}, "name": "a", "name": 7,
                "arrowAnchorIndices": {"1": true, "2": true, "1": false},
                "fontStyle": {"bold": true}, "fontStyle": {"italic": true},
                "anchors": [{"x": 0, "y": 0}], "anchors": 3}"#,
        );
        assert_eq!(f.position, Some(Some(Point::new(4.0, 5.0))));
        assert_eq!(f.status, Status::Error);
        assert_eq!(f.name, Some(Text::Scalar("7".into())));
        assert_eq!((f.arrow(1), f.arrow(2)), (false, true));
        assert_eq!(f.bold_italic, (false, true));
        assert_eq!(f.anchors.get(), None);
    }

    #[test]
    fn huge_numbers_are_out_of_reach_and_beyond_f64_unreadable() {
        let f = read(
            r#"{"position": {"x": 18446744073709551615, "y": 0}, "rotation": 1e308,
                "lineDash": 18446744073709551615, "zIndex": -5e-324, "opacity": -9223372036854775808,
                "anchors": [{"type": 1, "id": "c", "index": 18446744073709551615}],
                "lines": [[18446744073709551615, -1]]}"#,
        );
        assert_eq!(f.position, Some(None), "beyond ±FAR");
        assert_eq!((f.rotation, f.line_dash, f.opacity), (None, None, None));
        assert_eq!(f.z_index, Some(-5e-324));
        let Some([Anchor::Object { index, .. }]) = f.anchors.get() else {
            panic!()
        };
        assert_eq!(index.as_ref().and_then(Number::as_u64), Some(u64::MAX));
        assert_eq!(
            f.lines.get().unwrap(),
            [Pair::Two(json!(u64::MAX), json!(-1))]
        );
        // A number beyond f64 in a property the scene reads makes text it cannot read (parsed
        // data never holds one); in a property it skips, it is skipped like the rest.
        let text = r#"{"position": {"x": 1e400, "y": 0}}"#;
        let read = Fields::read(Data::Json(text), "status");
        assert!(read.is_err_and(|e| e.starts_with("its data is not JSON")));
        let text = r#"{"other": [1e400], "rotation": 1}"#;
        assert_eq!(
            Fields::read(Data::Json(text), "status").unwrap().rotation,
            Some(1.0)
        );
    }

    #[test]
    fn escaped_text_reads_as_parsed_data_does() {
        let f = read(
            r#"{"posit\u0069on": {"\u0078": 1, "y": 2}, "name": "a\"b\u00e9", "meta": {"st\u0061tus": "ok"}}"#,
        );
        assert_eq!(f.position, Some(Some(Point::new(1.0, 2.0))));
        assert_eq!(non_empty(&f.name), Some("a\"bé"));
        assert_eq!(f.status, Status::Good);
    }

    #[test]
    fn fields_filled_again_forget_the_last_object() {
        let first = r#"{"anchors": [{"x": 1, "y": 2}], "lines": [[0, 0]], "name": "a",
                        "arrowAnchorIndices": {"0": true}, "meta": {"status": "up"}}"#;
        let second = r#"{"anchors": 5, "position": {"x": 0, "y": 0}}"#;
        let mut fields = Fields::default();
        fields.fill(Data::Json(first), "status").unwrap();
        assert_eq!(fields.anchors.get().map(<[_]>::len), Some(1));
        fields.fill(Data::Json(second), "status").unwrap();
        assert_eq!(fields, Fields::read(Data::Json(second), "status").unwrap());
    }

    #[test]
    fn data_that_is_not_an_object_cannot_be_read() {
        assert_eq!(
            Fields::read(Data::Json("[1, 2]"), "status"),
            Err("its data is [1,2], not an object".to_owned())
        );
        assert!(Fields::read(Data::Json(r#"{"a": 1} x"#), "status").is_err());
    }

    #[test]
    fn colours_fall_back_and_may_be_invisible() {
        let grey = Some(Rgb::new(1, 2, 3));
        let f = |json| read(json).color;
        assert_eq!(
            colour_or(&f(r##"{"color": "#ff8000"}"##), grey),
            Some(Rgb::new(255, 128, 0))
        );
        assert_eq!(colour_or(&f(r##"{"color": "#00000000"}"##), grey), None);
        for json in [
            r#"{"color": "red"}"#,
            r##"{"color": "#ÿÿÿ"}"##,
            r#"{"color": 5}"#,
            "{}",
        ] {
            assert_eq!(colour_or(&f(json), grey), grey, "{json}");
        }
        assert_eq!(Rgb::new(255, 128, 0).hex(), "#FF8000");
    }

    #[test]
    fn other_values_fall_back_to_their_defaults() {
        let f = read(
            r#"{"fontSize": -1, "rotation": "left", "text": true, "dimensions": {"width": 3, "height": 0}}"#,
        );
        assert_eq!(size_or(f.font_size, 0.5), 0.5);
        assert_eq!(f.rotation, None);
        assert_eq!(text_or(&f.text, "x"), "true");
        assert_eq!(text_or(&f.icon, "x"), "x");
        assert_eq!(f.dimensions, None);
        assert_eq!(
            required_point(f.position, "position"),
            Err("no position".to_owned())
        );
    }
}
