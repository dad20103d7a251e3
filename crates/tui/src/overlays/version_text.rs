//! How the history overlay words a version: its row (when, who, what by the objects' names) and
//! what it changed, object by object and property by path (`meta.status: "up" → "down"`).

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::Cx;
use diagtui_model::DiagramObject;
use diagtui_model::history::{
    ObjectChange, PathChange, Version, VersionDetails, VersionKind, object_changes,
};

/// How many objects a row names before `+N`.
const NAMED: usize = 3;

/// When a version was written, as the row shows it: `2026-11-27 16:40:03` (UTC).
pub fn when(version: &Version) -> String {
    version
        .at
        .get(..19)
        .unwrap_or(&version.at)
        .replacen('T', " ", 1)
}

/// The name of an object a version changed, from its data after (else before) the version.
fn name_of(change: &ObjectChange, cx: &Cx) -> String {
    match change.after.as_ref().or(change.before.as_ref()) {
        Some(object) => cx
            .names()
            .of_object(&change.obj_id, object)
            .text()
            .to_owned(),
        None => change.obj_id.clone(),
    }
}

/// What a version did, in words: the objects it changed by name when its details are known
/// (`web-1, db +2`), else how many; a title change, a restore or a clone says so.
fn what(version: &Version, details: Option<&VersionDetails>, cx: &Cx) -> String {
    let notes = &version.notes;
    let said = match version.kind {
        VersionKind::TitleChange => notes.title.as_ref().map(|t| format!("title \"{t}\"")),
        VersionKind::Restore => notes.restored_from.map(|v| format!("back to version {v}")),
        VersionKind::Moved => notes
            .folder
            .as_ref()
            .map(|f| format!("to folder \"{}\"", f.title)),
        VersionKind::Cloned => notes
            .source
            .as_ref()
            .map(|s| format!("copied from {}", s.doc_id)),
        _ => None,
    };
    let objects = match (details, version.changed) {
        (_, 0) => None,
        (Some(details), _) => {
            let mut names: Vec<String> = details
                .objects
                .iter()
                .take(NAMED)
                .map(|c| name_of(c, cx))
                .collect();
            let more = details.objects.len().saturating_sub(NAMED);
            if more > 0 {
                names.push(format!("+{more}"));
            }
            Some(names.join(", "))
        }
        (None, 1) => Some("1 object".to_owned()),
        (None, n) => Some(format!("{n} objects")),
    };
    [said, objects]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Below this width a version's row leaves out who wrote it.
const NARROW: usize = 76;

/// A version's row: number, when, who (where there is room), kind, what.
pub fn row(
    version: &Version,
    details: Option<&VersionDetails>,
    width: usize,
    cx: &Cx,
) -> Line<'static> {
    let who = version.account.as_deref().unwrap_or("—");
    // Who is left out where the row would not leave room for what it changed.
    let head = if width >= NARROW {
        format!(
            "{:>5}  {}  {:<22} {:<16} ",
            version.version,
            when(version),
            clip(who, 22),
            version.kind.as_str()
        )
    } else {
        format!(
            "{:>5}  {}  {:<16} ",
            version.version,
            when(version),
            version.kind.as_str()
        )
    };
    let room = width.saturating_sub(head.chars().count());
    Line::from(vec![
        Span::styled(head, cx.style(Role::Strong)),
        Span::raw(clip(&what(version, details, cx), room)),
    ])
}

/// A value as the diff shows it: JSON, cut to `columns`.
fn value_text(value: &Value, columns: usize) -> String {
    clip(&value.to_string(), columns)
}

/// One property's change by path: `meta.status: "up" → "down"`, `meta.owner: added "ops"`,
/// `meta.zone: removed`.
fn path_line(change: &PathChange, width: usize) -> String {
    let room = width / 3;
    let said = match (&change.from, &change.to) {
        (Some(from), Some(to)) => format!("{} → {}", value_text(from, room), value_text(to, room)),
        (None, Some(to)) => format!("added {}", value_text(to, room)),
        (Some(_), None) => "removed".to_owned(),
        (None, None) => "unchanged".to_owned(),
    };
    format!("{}: {said}", change.path)
}

/// The lines saying what a version changed: each object by name (`+` created, `-` deleted,
/// `~` changed), a changed one's properties by path under it.
pub fn change_lines(details: &VersionDetails, width: usize, cx: &Cx) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for change in &details.objects {
        let name = format!("{} ({})", name_of(change, cx), change.obj_id);
        match (&change.before, &change.after) {
            (None, Some(after)) => lines.push(Line::styled(
                clip(&format!("+ {name} created: {}", after.kind), width),
                cx.style(Role::DiffAdded),
            )),
            (Some(before), None) => lines.push(Line::styled(
                clip(&format!("- {name} deleted: {}", before.kind), width),
                cx.style(Role::DiffRemoved),
            )),
            (Some(before), Some(after)) => {
                lines.extend(changed_lines(&name, before, after, width, cx))
            }
            (None, None) => {}
        }
    }
    lines
}

/// An object changed by a version: its name, then each property that differs by path.
fn changed_lines(
    name: &str,
    before: &DiagramObject,
    after: &DiagramObject,
    width: usize,
    cx: &Cx,
) -> Vec<Line<'static>> {
    let changes = object_changes(before, after);
    let mut lines = vec![Line::styled(
        clip(&format!("~ {name}"), width),
        cx.style(Role::DiffChanged),
    )];
    if changes.is_empty() {
        lines.push(Line::styled("    (left as it was)", cx.style(Role::Dim)));
    }
    lines.extend(
        changes
            .iter()
            .map(|c| Line::raw(clip(&format!("    {}", path_line(c, width)), width))),
    );
    lines
}
