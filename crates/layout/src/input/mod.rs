//! The input formats, each read into the same list of raw entries: a JSON map (or list), CSV
//! and Mermaid flowcharts.

mod csv;
mod json;
mod mermaid;

pub use self::csv::parse_csv;
pub use self::json::parse_json;
pub use self::mermaid::parse_mermaid;

use serde_json::{Map, Value};

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
}

impl Format {
    /// The format of a media type (its essence, parameters ignored, any case), if it is one.
    pub fn from_media_type(media_type: &str) -> Option<Format> {
        let essence = media_type.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "application/json" => Some(Format::Json),
            "text/csv" => Some(Format::Csv),
            "text/vnd.mermaid" => Some(Format::Mermaid),
            _ => None,
        }
    }

    /// Reads a body of this format into raw entries.
    pub fn parse(self, body: &[u8]) -> crate::LayoutResult<Vec<RawEntry>> {
        match self {
            Format::Json => parse_json(body),
            Format::Csv => parse_csv(body),
            Format::Mermaid => parse_mermaid(body),
        }
    }
}
