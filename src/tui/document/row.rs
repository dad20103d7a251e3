//! What the tree says about an object, and the texts its filter searches.

use std::fmt::Write;

use serde_json::Value;

use super::glance::{Glance, MetaEntry, scalar_str};
use crate::model::DiagramObject;
use crate::tui::words;

/// Surrounds each `key=value` of the meta text: no word typed holds it (words are split on
/// white space and this is a control character), so a `key=value` word matches whole entries.
pub(super) const META_SEP: char = '\u{1f}';

/// A JSON scalar as plain text (strings without quotes).
pub fn scalar_text(value: &Value) -> String {
    scalar_str(value).into_owned()
}

/// What a row says about an object: a label's text, a component's kind and name with a
/// summary of its meta, a short fact for the other types.
pub fn row_text(object: &DiagramObject) -> String {
    glance_row(&object.kind, &Glance::of(&object.data))
}

/// [`row_text`] of an object of type `kind`, from a glance at its data.
pub(super) fn glance_row(kind: &str, data: &Glance) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = match kind {
        "label" => write!(out, "\"{}\"", data.text("text")),
        "component" => {
            out.push_str(data.text("componentId"));
            let name = data.text("name");
            if !name.is_empty() {
                let _ = write!(out, " ({name})");
            }
            if let Some(meta) = data.meta.as_ref().filter(|m| !m.is_empty()) {
                out.push_str(" [");
                for (i, (key, value)) in meta.iter().take(3).enumerate() {
                    let gap = if i == 0 { "" } else { " " };
                    let _ = write!(out, "{gap}{key}={value}");
                }
                out.push_str(if meta.len() > 3 { " …]" } else { "]" });
            }
            Ok(())
        }
        "line-group" => write!(
            out,
            "{}, {}",
            words::count(data.count("anchors"), "anchor", "anchors"),
            words::count(data.count("lines"), "line", "lines")
        ),
        "area" => write!(
            out,
            "{} {}",
            words::count(data.count("anchors"), "corner", "corners"),
            data.text("fillColor")
        ),
        "icon" => write!(out, "{}", data.text("icon")),
        "image" => write!(out, "{}", data.text("path")),
        "widget" => write!(out, "{} {}", data.text("widgetType"), data.text("plotType")),
        _ => Ok(()),
    };
    out
}

/// Appends the text a `key=value` word of the filter searches: each meta entry as
/// `key=value` (the value in lowercase) between [`META_SEP`]s; nothing without meta.
pub(super) fn write_meta_text(out: &mut String, meta: &[MetaEntry]) {
    if meta.is_empty() {
        return;
    }
    out.push(META_SEP);
    for (key, value) in meta {
        out.push_str(key);
        out.push('=');
        push_lowercase(out, value);
        out.push(META_SEP);
    }
}

/// Appends `text` in lowercase, character by character: the texts searched and the words
/// typed are lowered alike.
pub(super) fn push_lowercase(out: &mut String, text: &str) {
    if text.is_ascii() {
        let start = out.len();
        out.push_str(text);
        out[start..].make_ascii_lowercase();
    } else {
        out.extend(text.chars().flat_map(char::to_lowercase));
    }
}
