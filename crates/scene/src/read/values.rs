//! The values an object's data holds, as the scene reads them: texts, anchors, line pairs,
//! lists and coordinates, each read leniently by its own reader (what does not fit falls back,
//! never fails).

use std::borrow::Cow;

use serde::de::{IgnoredAny, MapAccess, SeqAccess};
use serde_json::{Number, Value};

use crate::geometry::Point;
use crate::lenient::{AnyBool, AnyNumber, Lenient, Leniently, next_key};
use crate::shape::Status;

/// The largest coordinate accepted: 10,000 times the grid. Beyond it a value is taken for
/// garbage, and every sum and product of coordinates stays finite.
pub const FAR: f64 = 1_000_000.0;

/// A text property as given.
#[derive(Debug, Clone, PartialEq)]
pub enum Text<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// A number or a boolean, as its JSON text.
    Scalar(String),
    /// Anything else.
    Other,
}

impl Text<'_> {
    /// The string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Text::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One of an area's or a line group's `anchors`.
#[derive(Debug, Clone, PartialEq)]
pub enum Anchor<'a> {
    /// An object: its `type` as given, its `id` and `index` (an attached anchor's component and
    /// corner), and its `x, y` when both are coordinates.
    Object {
        /// `type` (0 free, 1 attached), as given.
        kind: Option<Value>,
        /// `id`, as given.
        id: Option<Text<'a>>,
        /// `index`, when a number.
        index: Option<Number>,
        /// `x, y`, when both are coordinates.
        point: Option<Point>,
    },
    /// Anything else, as given (to be quoted).
    Other(Value),
}

/// One of a line group's `lines`.
#[derive(Debug, Clone, PartialEq)]
pub enum Pair {
    /// A pair of values (anchor indices when all is well).
    Two(Value, Value),
    /// Anything else, as given (to be quoted).
    Other(Value),
}

/// An array property's items, or none when it is missing or not an array. Its buffer is kept
/// from one read to the next.
#[derive(Debug, PartialEq)]
pub struct List<T> {
    items: Vec<T>,
    is_array: bool,
}

impl<T> Default for List<T> {
    fn default() -> List<T> {
        List {
            items: Vec::new(),
            is_array: false,
        }
    }
}

impl<T> List<T> {
    /// The items, when the property is an array.
    pub fn get(&self) -> Option<&[T]> {
        self.is_array.then_some(self.items.as_slice())
    }

    /// Forgets the items, keeping their buffer.
    pub(super) fn clear(&mut self) {
        self.items.clear();
        self.is_array = false;
    }
}

/// A coordinate: a number within ±[`FAR`].
pub fn coordinate(number: Option<&Number>) -> Option<f64> {
    number?.as_f64().filter(|v| v.abs() <= FAR)
}

/// A [`Text`].
pub(super) struct ReadText;

impl<'de> Lenient<'de> for ReadText {
    type Out = Text<'de>;

    fn other(self, value: Value) -> Text<'de> {
        match value {
            Value::Bool(_) | Value::Number(_) => Text::Scalar(value.to_string()),
            _ => Text::Other,
        }
    }

    fn string(self, text: Cow<'de, str>) -> Text<'de> {
        Text::Str(text)
    }
}

/// `{x, y}` coordinates as a point; `None` for anything else.
pub(super) struct ReadPoint;

impl<'de> Lenient<'de> for ReadPoint {
    type Out = Option<Point>;

    fn other(self, _: Value) -> Option<Point> {
        None
    }

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Point>, A::Error> {
        let [x, y] = numbers(map, ["x", "y"])?;
        Ok(point(x, y))
    }
}

/// The point at `x, y` when both are coordinates.
fn point(x: Option<Number>, y: Option<Number>) -> Option<Point> {
    let (x, y) = coordinate(x.as_ref()).zip(coordinate(y.as_ref()))?;
    Some(Point::new(x, y))
}

/// The numbers under the named keys of a map (the last of each, as parsed data keeps).
fn numbers<'de, A: MapAccess<'de>, const N: usize>(
    mut map: A,
    names: [&str; N],
) -> Result<[Option<Number>; N], A::Error> {
    let mut found = [const { None }; N];
    while let Some(key) = next_key(&mut map)? {
        match names.iter().position(|name| *name == key) {
            Some(at) => found[at] = map.next_value_seed(Leniently(AnyNumber))?,
            None => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    Ok(found)
}

/// `dimensions {width, height}` when both are positive coordinates.
pub(super) struct ReadDimensions;

impl<'de> Lenient<'de> for ReadDimensions {
    type Out = Option<(f64, f64)>;

    fn other(self, _: Value) -> Option<(f64, f64)> {
        None
    }

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Option<(f64, f64)>, A::Error> {
        let [width, height] = numbers(map, ["width", "height"])?;
        let positive = |n: Option<Number>| coordinate(n.as_ref()).filter(|&v| v > 0.0);
        Ok(positive(width).zip(positive(height)))
    }
}

/// `fontStyle`'s `bold` and `italic`, each when `true`.
pub(super) struct ReadFontStyle;

impl<'de> Lenient<'de> for ReadFontStyle {
    type Out = (bool, bool);

    fn other(self, _: Value) -> (bool, bool) {
        (false, false)
    }

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<(bool, bool), A::Error> {
        let (mut bold, mut italic) = (false, false);
        while let Some(key) = next_key(&mut map)? {
            let flag = match &*key {
                "bold" => &mut bold,
                "italic" => &mut italic,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *flag = map.next_value_seed(Leniently(AnyBool))? == Some(true);
        }
        Ok((bold, italic))
    }
}

/// The status `meta` names under a key ([`Status::of`]); unknown when `meta` is not a map.
pub(super) struct ReadStatus<'k>(pub(super) &'k str);

impl<'de> Lenient<'de> for ReadStatus<'_> {
    type Out = Status;

    fn other(self, _: Value) -> Status {
        Status::Unknown
    }

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Status, A::Error> {
        let mut status = Status::Unknown;
        while let Some(key) = next_key(&mut map)? {
            if key == self.0 {
                status = Status::of(map.next_value_seed(Leniently(ReadText))?.as_str());
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(status)
    }
}

/// An array into a [`List`], each item read by the inner reader.
pub(super) struct ReadList<'l, T, L>(pub(super) &'l mut List<T>, pub(super) L);

impl<'de, T, L: Lenient<'de, Out = T> + Copy> Lenient<'de> for ReadList<'_, T, L> {
    type Out = ();

    fn other(self, _: Value) {
        self.0.clear();
    }

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let ReadList(list, item) = self;
        list.clear();
        list.is_array = true;
        while let Some(item) = seq.next_element_seed(Leniently(item))? {
            list.items.push(item);
        }
        Ok(())
    }
}

/// An [`Anchor`].
#[derive(Clone, Copy)]
pub(super) struct ReadAnchor;

impl<'de> Lenient<'de> for ReadAnchor {
    type Out = Anchor<'de>;

    fn other(self, value: Value) -> Anchor<'de> {
        Anchor::Other(value)
    }

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Anchor<'de>, A::Error> {
        let (mut kind, mut id, mut index, mut x, mut y) = (None, None, None, None, None);
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "type" => kind = Some(map.next_value::<Value>()?),
                "id" => id = Some(map.next_value_seed(Leniently(ReadText))?),
                "index" => index = map.next_value_seed(Leniently(AnyNumber))?,
                "x" => x = map.next_value_seed(Leniently(AnyNumber))?,
                "y" => y = map.next_value_seed(Leniently(AnyNumber))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Anchor::Object {
            kind,
            id,
            index,
            point: point(x, y),
        })
    }
}

/// A [`Pair`].
#[derive(Clone, Copy)]
pub(super) struct ReadPair;

impl<'de> Lenient<'de> for ReadPair {
    type Out = Pair;

    fn other(self, value: Value) -> Pair {
        Pair::Other(value)
    }

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair, A::Error> {
        let from = seq.next_element::<Value>()?;
        let to = seq.next_element::<Value>()?;
        let more = seq.next_element::<Value>()?;
        let items = match (from, to, more) {
            (Some(from), Some(to), None) => return Ok(Pair::Two(from, to)),
            (from, to, more) => [from, to, more].into_iter().flatten(),
        };
        let mut items: Vec<Value> = items.collect();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Pair::Other(Value::Array(items)))
    }
}

/// `arrowAnchorIndices`' keys with whether their value is `true` (a key given twice keeps its
/// last value).
pub(super) struct ReadArrows<'l, 'de>(pub(super) &'l mut Vec<(Cow<'de, str>, bool)>);

impl<'de> Lenient<'de> for ReadArrows<'_, 'de> {
    type Out = ();

    fn other(self, _: Value) {
        self.0.clear();
    }

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let tips = self.0;
        tips.clear();
        while let Some(key) = next_key(&mut map)? {
            let tip = map.next_value_seed(Leniently(AnyBool))? == Some(true);
            match tips.iter_mut().find(|(seen, _)| *seen == key) {
                Some(seen) => seen.1 = tip,
                None => tips.push((key, tip)),
            }
        }
        Ok(())
    }
}
