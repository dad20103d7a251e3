//! The input formats, each read into the same list of raw entries: a JSON map (or list), CSV,
//! Mermaid flowcharts and Graphviz DOT.

mod csv;
mod dot;
mod json;
mod mermaid;

pub use self::csv::parse_csv;
pub use self::dot::parse_dot;
pub use self::json::parse_json;
pub use self::mermaid::parse_mermaid;

use serde_json::{Map, Value};

use crate::model::Direction;

/// Something in the input that could not be drawn as written: what was done instead, and
/// where. The input is laid out all the same; the answer lists these (`notes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The line of the input it concerns (1-based), when it has one.
    pub line: Option<usize>,
    /// What was left out or changed, for people.
    pub text: String,
}

impl Note {
    /// The note for a fill given to a component the pictures draw in its product's own look
    /// (its `primaryColor` is kept all the same); `None` when the pictures show the fill, or
    /// when it is white (Graphviz's usual `style=filled` default, no colour of its own).
    pub(crate) fn unshown_fill(
        line: Option<usize>,
        node: &str,
        fill: &str,
        component_id: &str,
    ) -> Option<Note> {
        let white = ["#fff", "#ffffff", "white"]
            .iter()
            .any(|w| fill.trim().eq_ignore_ascii_case(w));
        (!white && !crate::catalogue::shows_fill(component_id)).then(|| Note {
            line,
            text: format!(
                "node {node}: its fill {fill} is kept as its primaryColor, but the pictures draw \
                 a {component_id} in the product's own look"
            ),
        })
    }
}

/// A body read: its entries, the flow's direction when the format states one (Mermaid's
/// `flowchart LR`, DOT's `rankdir`), and the notes of what could not be drawn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    /// The entries, in input order.
    pub entries: Vec<RawEntry>,
    /// The direction of the whole diagram's flow, when the input gives one.
    pub direction: Option<Direction>,
    /// What could not be drawn as written.
    pub notes: Vec<Note>,
}

impl Parsed {
    /// Entries with no direction and nothing to note (JSON and CSV).
    pub fn entries(entries: Vec<RawEntry>) -> Parsed {
        Parsed {
            entries,
            ..Parsed::default()
        }
    }
}

/// The longest entry id: ids of the objects made for an entry add to it (`web:label`,
/// `a->b`), and an object id holds at most 128 characters.
pub const MAX_ID_CHARS: usize = 60;

/// One entry as the input gave it: its id and its fields (`type` among them), not yet checked.
#[derive(Debug, Clone, PartialEq)]
pub struct RawEntry {
    /// The entry's id, which becomes its object's id.
    pub id: String,
    /// Its fields; CSV gives every value as text.
    pub fields: Map<String, Value>,
    /// Whether the values came as text (CSV) and may be read as numbers or booleans.
    pub textual: bool,
}

/// The format of a body, chosen by its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `application/json`: a map of entry id to entry (or a list of entries with an `id`).
    Json,
    /// `text/csv`: a header row of field names, then one row per entry.
    Csv,
    /// `text/vnd.mermaid`: a Mermaid flowchart.
    Mermaid,
    /// `text/vnd.graphviz`: a Graphviz DOT graph.
    Dot,
}

impl Format {
    /// The format of a media type (its essence, parameters ignored, any case), if it is one.
    pub fn from_media_type(media_type: &str) -> Option<Format> {
        let essence = media_type.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "application/json" => Some(Format::Json),
            "text/csv" => Some(Format::Csv),
            "text/vnd.mermaid" => Some(Format::Mermaid),
            "text/vnd.graphviz" => Some(Format::Dot),
            _ => None,
        }
    }

    /// Reads a body of this format.
    pub fn parse(self, body: &[u8]) -> crate::LayoutResult<Parsed> {
        match self {
            Format::Json => parse_json(body).map(Parsed::entries),
            Format::Csv => parse_csv(body).map(Parsed::entries),
            Format::Mermaid => parse_mermaid(body),
            Format::Dot => parse_dot(body),
        }
    }
}
