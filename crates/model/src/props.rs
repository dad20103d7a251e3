//! Object property rules: the seven types, defaults on create, validation and the merge.
//!
//! Validation knows a property by its name, whatever the object type: every name the spec and
//! the API notes give has one JSON shape wherever it appears (a colour is a colour on a label and
//! on an area alike). A property that is not known is kept as given.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::selector::json_kind;

/// The seven object types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectType {
    /// A component: a box of a catalogued kind, carrying `meta`.
    Component,
    /// Lines joining anchors, free or attached to components.
    LineGroup,
    /// A text label.
    Label,
    /// A Font Awesome icon.
    Icon,
    /// A filled polygon.
    Area,
    /// A chart widget.
    Widget,
    /// A picture.
    Image,
}

impl ObjectType {
    /// Every type, in the order the object tree groups them.
    pub const ALL: [ObjectType; 7] = [
        ObjectType::Component,
        ObjectType::LineGroup,
        ObjectType::Label,
        ObjectType::Icon,
        ObjectType::Area,
        ObjectType::Widget,
        ObjectType::Image,
    ];

    /// The wire name (`component`, `line-group`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectType::Component => "component",
            ObjectType::LineGroup => "line-group",
            ObjectType::Label => "label",
            ObjectType::Icon => "icon",
            ObjectType::Area => "area",
            ObjectType::Widget => "widget",
            ObjectType::Image => "image",
        }
    }
}

impl fmt::Display for ObjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ObjectType {
    type Err = PropertyProblem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ObjectType::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                PropertyProblem::new(
                    "type",
                    format!(
                        "unknown object type \"{s}\" (expected one of component, line-group, \
                         label, icon, area, widget, image)"
                    ),
                )
            })
    }
}

/// One thing wrong with one property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyProblem {
    /// The property's name (`position`, or `meta.region` for a meta entry).
    pub property: String,
    /// What is wrong, in words fit for a person.
    pub message: String,
}

impl PropertyProblem {
    /// Builds a problem report.
    pub fn new(property: impl Into<String>, message: impl Into<String>) -> PropertyProblem {
        PropertyProblem {
            property: property.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for PropertyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.message)
    }
}

/// The JSON shape a known property must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Colour,
    Number,
    Bool,
    Text,
    TextOrNull,
    Point,
    Size,
    FontStyle,
    Meta,
    Object,
    Array,
}

/// The shape of every property named in the spec and the API notes.
fn shape_of(property: &str) -> Option<Shape> {
    use Shape::*;
    Some(match property {
        "color" | "fillColor" | "backgroundColor" | "primaryColor" | "secondaryColor"
        | "iconColor" | "outlineColor" | "lineColor" | "strokeStyle" | "wallColor" => Colour,
        "fontSize" | "rotation" | "opacity" | "metaDataFontSize" | "metaDataRotation"
        | "outlineWidth" | "lineWidth" | "lineDash" | "shadowLevel" | "zIndex" | "imageSize"
        | "areaType" | "wallHeight" | "minY" | "maxY" => Number,
        "showMetaData" | "showMetaDataKeys" | "stretchToSize" | "fillChart" | "showLabels" => Bool,
        "text" | "componentId" | "textAlign" | "metaDataTextAlign" | "fontFamily" | "name"
        | "desc" | "path" | "widgetType" | "plotType" | "dataSource" | "yAxisSpace" => Text,
        "icon" | "imagePath" => TextOrNull,
        "position" => Point,
        "dimensions" => Size,
        "fontStyle" => FontStyle,
        "meta" => Meta,
        "links" | "arrowAnchorIndices" => Object,
        "anchors" | "lines" | "data" => Array,
        _ => return None,
    })
}

/// Whether a string is a colour the API accepts: `#RRGGBB` (any case), or `#00000000`.
///
/// ```
/// use diagtui_model::props::is_colour;
///
/// assert!(is_colour("#ff8800") && is_colour("#00000000"));
/// assert!(!is_colour("red") && !is_colour("#f80"));
/// ```
pub fn is_colour(text: &str) -> bool {
    let Some(hex) = text.strip_prefix('#') else {
        return false;
    };
    (hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit())) || hex == "00000000"
}

fn need_numbers(property: &str, value: &Value, fields: &[&str]) -> Option<String> {
    let Value::Object(map) = value else {
        return Some(format!(
            "must be an object {{{}}}, got {}",
            fields.join(", "),
            json_kind(value)
        ));
    };
    for field in fields {
        match map.get(*field) {
            Some(Value::Number(_)) => {}
            Some(other) => {
                return Some(format!(
                    "{property}.{field} must be a number, got {}",
                    json_kind(other)
                ));
            }
            None => {
                return Some(format!(
                    "needs both {} as numbers (the update replaces {property} whole); {field} is missing",
                    fields.join(" and ")
                ));
            }
        }
    }
    None
}

/// Checks one property value; `None` when it is acceptable.
pub fn check_property(property: &str, value: &Value) -> Option<PropertyProblem> {
    let shape = shape_of(property)?;
    let expected = |what: &str| Some(format!("must be {what}, got {}", json_kind(value)));
    let problem = match (shape, value) {
        (Shape::Colour, Value::String(s)) if is_colour(s) => None,
        (Shape::Colour, Value::String(s)) => Some(format!(
            "\"{s}\" is not a colour: expected #RRGGBB (or #00000000 for invisible)"
        )),
        (Shape::Colour, _) => expected("a colour string #RRGGBB"),
        (Shape::Number, Value::Number(_)) => None,
        (Shape::Number, _) => expected("a number"),
        (Shape::Bool, Value::Bool(_)) => None,
        (Shape::Bool, _) => expected("true or false"),
        (Shape::Text, Value::String(_)) => None,
        (Shape::Text, _) => expected("a string"),
        (Shape::TextOrNull, Value::String(_) | Value::Null) => None,
        (Shape::TextOrNull, _) => expected("a string or null"),
        (Shape::Point, _) => need_numbers(property, value, &["x", "y"]),
        (Shape::Size, _) => need_numbers(property, value, &["width", "height"]),
        (Shape::FontStyle, Value::Object(map)) => map
            .iter()
            .find(|(_, v)| !v.is_boolean())
            .map(|(k, v)| format!("fontStyle.{k} must be true or false, got {}", json_kind(v))),
        (Shape::FontStyle, _) => expected("an object {bold, italic}"),
        (Shape::Meta, Value::Object(map)) => {
            return map
                .iter()
                .find(|(_, v)| !(v.is_string() || v.is_number() || v.is_boolean()))
                .map(|(k, v)| {
                    PropertyProblem::new(
                        format!("meta.{k}"),
                        format!("must be a string, number or boolean, got {}", json_kind(v)),
                    )
                });
        }
        (Shape::Object, Value::Object(_)) => None,
        (Shape::Meta | Shape::Object, _) => expected("an object"),
        (Shape::Array, Value::Array(_)) => None,
        (Shape::Array, _) => expected("an array"),
    };
    problem.map(|message| PropertyProblem::new(property, message))
}

/// Every problem with a set of properties given to create or update an object of `kind`.
/// `creating` adds the rules that only hold on create (a component needs a `componentId`).
pub fn validate_props(
    kind: ObjectType,
    props: &Map<String, Value>,
    creating: bool,
) -> Vec<PropertyProblem> {
    let mut problems = check_each(props);
    if kind == ObjectType::Component {
        match props.get("componentId") {
            None if creating => problems.push(PropertyProblem::new(
                "componentId",
                "is required when creating a component (e.g. \"generic.server\")",
            )),
            Some(Value::String(id)) if id.trim().is_empty() => {
                problems.push(PropertyProblem::new("componentId", "must not be empty"))
            }
            _ => {}
        }
    }
    problems
}

/// Every problem with properties for an object whose type is the wire name `kind`. A type
/// outside the seven (content stored through set-content may carry one) has its properties
/// checked by name only.
pub fn validate_for(
    kind: &str,
    props: &Map<String, Value>,
    creating: bool,
) -> Vec<PropertyProblem> {
    match kind.parse::<ObjectType>() {
        Ok(kind) => validate_props(kind, props, creating),
        Err(_) => check_each(props),
    }
}

/// The problem of each property that breaks its name's rule.
fn check_each(props: &Map<String, Value>) -> Vec<PropertyProblem> {
    props
        .iter()
        .filter_map(|(name, value)| check_property(name, value))
        .collect()
}

/// The default data of a new object of `kind`. For components the defaults depend on the
/// `componentId` (generic components carry colours, an icon and an image).
pub fn defaults(kind: ObjectType, component_id: Option<&str>) -> Map<String, Value> {
    let value = match kind {
        ObjectType::Component => {
            let mut base = json!({
                "position": {"x": 0, "y": 0}, "rotation": 0, "opacity": 1, "meta": {},
                "showMetaData": false, "showMetaDataKeys": true, "metaDataFontSize": 0.25,
                "metaDataRotation": 0, "metaDataTextAlign": "center"
            });
            if component_id.is_some_and(|id| id.starts_with("generic.")) {
                let generic = json!({
                    "primaryColor": "#CCCCCC", "secondaryColor": "#CCCCCC",
                    "backgroundColor": "#FFFFFF", "icon": null, "iconColor": "#333333",
                    "imagePath": null, "imageSize": 1
                });
                merge(
                    base.as_object_mut().expect("object literal"),
                    generic.as_object().expect("object literal"),
                );
            }
            base
        }
        ObjectType::Label => json!({
            "text": "New Label", "color": "#333333", "fontSize": 0.5,
            "position": {"x": 0, "y": 0}, "rotation": 0,
            "fontStyle": {"bold": false, "italic": false}, "textAlign": "center",
            "dimensions": {"width": 4, "height": 1},
            "fontFamily": "\"Helvetica Neue\", Helvetica, Arial, sans-serif",
            "outlineColor": "#FFFFFF", "outlineWidth": 0.1
        }),
        ObjectType::LineGroup => json!({
            "strokeStyle": "#333333", "lineWidth": 0.05, "lineDash": 1,
            "anchors": [], "lines": [], "arrowAnchorIndices": {}
        }),
        ObjectType::Area => json!({
            "anchors": [], "fillColor": "#BFBFBF", "lineColor": "#606060",
            "lineWidth": 0.05, "shadowLevel": 0, "zIndex": 0
        }),
        ObjectType::Icon => json!({
            "icon": "heart", "color": "#333333", "fontSize": 0.5,
            "position": {"x": 0, "y": 0}, "rotation": 0,
            "outlineColor": "#00000000", "outlineWidth": 0
        }),
        ObjectType::Image => json!({
            "path": "no-image-selected.png", "position": {"x": 0, "y": 0},
            "dimensions": {"width": 1.625, "height": 1.125}, "stretchToSize": false,
            "rotation": 0
        }),
        ObjectType::Widget => json!({
            "widgetType": "chart", "plotType": "line", "dataSource": "api", "data": [],
            "fillChart": true, "lineColor": "#F79400", "showLabels": true, "yAxisSpace": "auto",
            "position": {"x": 0, "y": 0}, "dimensions": {"width": 8.875, "height": 4.375}
        }),
    };
    match value {
        Value::Object(map) => map,
        _ => unreachable!("every default is an object literal"),
    }
}

/// Merges `props` into `data`, non-recursively: each given top-level property replaces the old
/// value whole.
pub fn merge(data: &mut Map<String, Value>, props: &Map<String, Value>) {
    for (name, value) in props {
        data.insert(name.clone(), value.clone());
    }
}

/// Fills in every default property that `data` lacks, leaving present ones alone.
pub fn complete(kind: ObjectType, data: &mut Map<String, Value>) {
    let component_id = data.get("componentId").and_then(Value::as_str);
    for (name, value) in defaults(kind, component_id) {
        data.entry(name).or_insert(value);
    }
}

/// The data of a new object: defaults, then the given properties merged over them.
pub fn new_object_data(kind: ObjectType, props: &Map<String, Value>) -> Map<String, Value> {
    let component_id = props.get("componentId").and_then(Value::as_str);
    let mut data = defaults(kind, component_id);
    merge(&mut data, props);
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn colours() {
        for ok in ["#00ff00", "#ABCDEF", "#00000000"] {
            assert!(is_colour(ok), "{ok}");
        }
        for bad in ["00ff00", "#0f0", "#GGGGGG", "#11223344", "red", "#00ff00 "] {
            assert!(!is_colour(bad), "{bad}");
        }
    }

    #[test]
    fn each_bad_value_names_its_property() {
        let cases = [
            (json!({"color": "red"}), "color"),
            (json!({"color": 5}), "color"),
            (json!({"position": {"x": 1}}), "position"),
            (json!({"position": {"x": 1, "y": "2"}}), "position"),
            (json!({"position": [1, 2]}), "position"),
            (json!({"fontSize": "big"}), "fontSize"),
            (json!({"text": 3}), "text"),
            (json!({"fontStyle": {"bold": "yes"}}), "fontStyle"),
            (json!({"meta": {"a": {"b": 1}}}), "meta.a"),
            (json!({"meta": "x"}), "meta"),
            (json!({"dimensions": {"width": 1}}), "dimensions"),
            (json!({"showMetaData": "true"}), "showMetaData"),
        ];
        for (p, name) in cases {
            let problems = validate_props(ObjectType::Label, &props(p.clone()), false);
            assert_eq!(problems.len(), 1, "{p}");
            assert_eq!(problems[0].property, name, "{p}");
        }
        assert!(
            validate_props(ObjectType::Label, &props(json!({"custom": [1]})), false).is_empty()
        );
    }

    #[test]
    fn a_component_needs_its_id_on_create_only() {
        let none = props(json!({}));
        assert_eq!(
            validate_props(ObjectType::Component, &none, true)[0].property,
            "componentId"
        );
        assert!(validate_props(ObjectType::Component, &none, false).is_empty());
    }

    #[test]
    fn create_fills_defaults_and_merges_non_recursively() {
        let data = new_object_data(
            ObjectType::Component,
            &props(json!({"componentId": "generic.server", "position": {"x": 2, "y": 3}})),
        );
        assert_eq!(data["position"], json!({"x": 2, "y": 3}));
        assert_eq!(data["primaryColor"], "#CCCCCC");
        assert_eq!(data["meta"], json!({}));
        let aws = new_object_data(
            ObjectType::Component,
            &props(json!({"componentId": "aws.ec2"})),
        );
        assert!(!aws.contains_key("primaryColor"));

        let mut label = new_object_data(ObjectType::Label, &Map::new());
        merge(&mut label, &props(json!({"fontStyle": {"bold": true}})));
        assert_eq!(label["fontStyle"], json!({"bold": true}));
    }

    #[test]
    fn types_parse_by_wire_name() {
        for t in ObjectType::ALL {
            assert_eq!(t.as_str().parse::<ObjectType>().unwrap(), t);
        }
        assert_eq!("box".parse::<ObjectType>().unwrap_err().property, "type");
        assert_eq!(
            serde_json::to_value(ObjectType::LineGroup).unwrap(),
            "line-group"
        );
    }
}
