//! What the tree says about an object, and the texts its filter searches.

use std::fmt::Write;

use serde_json::Value;

use crate::document::glance::{Glance, MetaEntry, scalar_str};
use crate::text::words;
use diagtui_model::DiagramObject;
use diagtui_scene::readable_component_id;

/// Surrounds each `key=value` of the meta text: no word typed holds it (words are split on
/// white space and this is a control character), so a `key=value` word matches whole entries.
pub(super) const META_SEP: char = '\u{1f}';

/// The `meta` entry a component's row reads as its status, said first in its meta summary.
pub const STATUS_KEY: &str = "status";

/// Separates the parts of a row text ([`RowParts`]): a control character no word typed holds
/// and no part holds (they are cleaned of control characters).
pub(super) const ROW_SEP: char = '\u{1e}';

/// The parts of a row text as the model keeps it: what names the object, what is said dimmed
/// after it, and the rest. Made by [`glance_row`], read by [`RowParts::of`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RowParts<'a> {
    /// What names the object from its data alone: a component's `name` (else its componentId
    /// made readable), a label's text, an area's `name` or its meta values, an icon's icon,
    /// an image's path, a widget's type and plot. Empty when the data has none (an area
    /// without name or meta, a line group: the scene names those).
    pub title: &'a str,
    /// Said dimmed after it: a component's componentId, an area's `fillColor`.
    pub hint: &'a str,
    /// The rest: a component's meta summary, an area's or a line group's counts.
    pub detail: &'a str,
}

impl<'a> RowParts<'a> {
    /// The parts of row text `row` (as [`glance_row`] made it).
    pub fn of(row: &'a str) -> RowParts<'a> {
        let mut parts = row.splitn(3, ROW_SEP);
        RowParts {
            title: parts.next().unwrap_or_default(),
            hint: parts.next().unwrap_or_default(),
            detail: parts.next().unwrap_or_default(),
        }
    }
}

/// A JSON scalar as plain text (strings without quotes).
pub fn scalar_text(value: &Value) -> String {
    scalar_str(value).into_owned()
}

/// What a row says about an object, from its data alone, as [`RowParts`] joined by
/// [`ROW_SEP`]: a label's text; a component's name, componentId and a summary of its meta; an
/// area's name or meta values, fill colour and corners; a short fact for the other types.
pub fn row_text(object: &DiagramObject) -> String {
    glance_row(&object.kind, &Glance::of(&object.data))
}

/// [`row_text`] of an object of type `kind`, from a glance at its data: its [`RowParts`]
/// joined by [`ROW_SEP`].
pub(super) fn glance_row(kind: &str, data: &Glance) -> String {
    let mut out = String::new();
    let meta = data.meta.as_deref().unwrap_or_default();
    match kind {
        "label" => push_clean(&mut out, data.text("text")),
        "component" => {
            let id = data.text("componentId");
            match data.text("name") {
                "" => out.extend(readable_component_id(id)),
                name => push_clean(&mut out, name),
            }
            out.push(ROW_SEP);
            push_clean(&mut out, id);
            out.push(ROW_SEP);
            if !meta.is_empty() {
                out.push('[');
                // The status first: it is what a narrow row keeps.
                let status = meta.iter().filter(|(key, _)| *key == STATUS_KEY);
                let rest = meta.iter().filter(|(key, _)| *key != STATUS_KEY);
                for (i, (key, value)) in status.chain(rest).take(3).enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    push_clean(&mut out, key);
                    out.push('=');
                    push_clean(&mut out, value);
                }
                out.push_str(if meta.len() > 3 { " …]" } else { "]" });
            }
        }
        "line-group" => {
            out.push(ROW_SEP);
            out.push(ROW_SEP);
            // Writing to a String cannot fail.
            let _ = write!(
                out,
                "{}, {}",
                words::count(data.count("anchors"), "anchor", "anchors"),
                words::count(data.count("lines"), "line", "lines")
            );
        }
        "area" => {
            match data.text("name") {
                "" => {
                    for (i, (_, value)) in meta.iter().take(3).enumerate() {
                        if i > 0 {
                            out.push_str(" · ");
                        }
                        push_clean(&mut out, value);
                    }
                }
                name => push_clean(&mut out, name),
            }
            out.push(ROW_SEP);
            push_clean(&mut out, data.text("fillColor"));
            out.push(ROW_SEP);
            out.push_str(&words::count(data.count("anchors"), "corner", "corners"));
        }
        "icon" => push_clean(&mut out, data.text("icon")),
        "image" => push_clean(&mut out, data.text("path")),
        "widget" => {
            push_clean(&mut out, data.text("widgetType"));
            out.push(' ');
            push_clean(&mut out, data.text("plotType"));
        }
        _ => {}
    }
    out
}

/// Appends `text` with every control character (a line break, a tab, [`ROW_SEP`]) as a space.
fn push_clean(out: &mut String, text: &str) {
    if text.bytes().all(|b| b >= b' ' && b != 0x7f) {
        out.push_str(text);
    } else {
        out.extend(text.chars().map(|c| if c.is_control() { ' ' } else { c }));
    }
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
