//! A document's history as the API shows it (our extension): its versions, what each changed,
//! and the difference between two versions by property path (`meta.status: "up" → "down"`),
//! computed here by pure code from two contents.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::wire::{Content, DiagramObject};

/// What kind of write made a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum VersionKind {
    /// The history began with the content as it was (a document older than its history).
    Started,
    /// The document was created, empty.
    Created,
    /// The document was created as a copy of another (`source` names it).
    Cloned,
    /// One object was created.
    ObjectCreated,
    /// One object was updated.
    ObjectUpdated,
    /// One object was deleted.
    ObjectDeleted,
    /// Several objects were updated, each with its own properties.
    BulkUpdate,
    /// The objects a selector matched were updated.
    SelectorUpdate,
    /// The whole content was replaced.
    SetContent,
    /// Every object was removed.
    Empty,
    /// The title changed (`title` holds the new one).
    TitleChange,
    /// The content was set back as it was at `restoredFrom`.
    Restore,
    /// Objects were added (or replaced, by id) from a laid-out diagram.
    CreateDiagram,
    /// The document was moved to another folder (`folder` names it).
    Moved,
}

/// Every kind with its text, in one table both directions read.
const KINDS: [(VersionKind, &str); 14] = [
    (VersionKind::Started, "started"),
    (VersionKind::Created, "created"),
    (VersionKind::Cloned, "cloned"),
    (VersionKind::ObjectCreated, "object-created"),
    (VersionKind::ObjectUpdated, "object-updated"),
    (VersionKind::ObjectDeleted, "object-deleted"),
    (VersionKind::BulkUpdate, "bulk-update"),
    (VersionKind::SelectorUpdate, "selector-update"),
    (VersionKind::SetContent, "set-content"),
    (VersionKind::Empty, "empty"),
    (VersionKind::TitleChange, "title-change"),
    (VersionKind::Restore, "restore"),
    (VersionKind::CreateDiagram, "create-diagram"),
    (VersionKind::Moved, "moved"),
];

impl VersionKind {
    /// The kind as it is stored and travels: `object-updated`.
    pub fn as_str(self) -> &'static str {
        KINDS
            .iter()
            .find(|(kind, _)| *kind == self)
            .expect("every kind is in KINDS")
            .1
    }

    /// Reads a kind from its text.
    pub fn parse(text: &str) -> Option<VersionKind> {
        KINDS
            .iter()
            .find(|(_, known)| *known == text)
            .map(|(kind, _)| *kind)
    }
}

/// The document (and its version) a clone was copied from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VersionSource {
    /// The document copied.
    pub doc_id: String,
    /// Its version when it was copied; absent when its history had not begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

/// One version of a document: who made it, when, how, and how many objects it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Version {
    /// Its number: every write adds one, never reused.
    pub version: u64,
    /// When it was written (ISO 8601 UTC, milliseconds).
    pub at: String,
    /// The e-mail address of the account that wrote it; absent when none did (the history
    /// began) or the account is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// What kind of write it was.
    pub kind: VersionKind,
    /// How many objects it changed.
    pub changed: u64,
    /// What it says beyond its kind.
    #[serde(flatten)]
    pub notes: VersionNotes,
}

/// What a version says beyond its kind, each absent where it does not apply.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VersionNotes {
    /// The new title, for a title change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What a clone was copied from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<VersionSource>,
    /// The version a restore set the content back to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restored_from: Option<u64>,
    /// The folder a move put the document in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<crate::FolderRef>,
}

/// `GET …/history`: a page of versions, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    /// The versions, newest first.
    pub versions: Vec<Version>,
    /// The newest version (0 when the history has not begun: no write since history was kept).
    pub head: u64,
    /// The oldest version still kept (older ones were compacted away).
    pub oldest: u64,
    /// The `before` that asks for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_before: Option<u64>,
}

/// One object's data before and after a version (absent: it did not exist).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectChange {
    /// The object id.
    pub obj_id: String,
    /// The object before the version; absent when the version created it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<DiagramObject>,
    /// The object after the version; absent when the version deleted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<DiagramObject>,
}

/// `GET …/history/{version}`: one version with its changed objects, in id order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VersionDetails {
    /// The version.
    pub version: Version,
    /// Each object it changed, in id order.
    pub objects: Vec<ObjectChange>,
}

/// One property that differs, by its path (`meta.status`); a side is absent where the property
/// is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PathChange {
    /// The property's path: names joined by dots (`type` for the object's type).
    pub path: String,
    /// Its value in the older version; absent when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Value>,
    /// Its value in the newer version; absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Value>,
}

/// `GET …/diff?from&to`: the objects added, removed and changed between two versions.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Diff {
    /// The older version.
    pub from: u64,
    /// The newer version.
    pub to: u64,
    /// The objects that exist in `to` only.
    pub added: BTreeMap<String, DiagramObject>,
    /// The objects that existed in `from` only, as they were.
    pub removed: BTreeMap<String, DiagramObject>,
    /// The objects in both that differ: each changed property by path, in path order.
    pub changed: BTreeMap<String, Vec<PathChange>>,
}

/// `POST …/restore`: which version to set the content back to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RestoreRequest {
    /// The version whose content becomes the document's content again.
    pub version: u64,
}

/// What a restore answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    /// Always `true`.
    pub success: bool,
    /// The new version the restore made (a restore can itself be restored away).
    pub version: u64,
    /// How many objects it changed.
    pub changed: u64,
}

/// The difference between two contents: added, removed and changed objects (by path).
pub fn diff_contents(from_version: u64, from: &Content, to_version: u64, to: &Content) -> Diff {
    let mut diff = Diff {
        from: from_version,
        to: to_version,
        ..Diff::default()
    };
    for (id, old) in from {
        match to.get(id) {
            None => {
                diff.removed.insert(id.clone(), old.clone());
            }
            Some(new) => {
                let changes = object_changes(old, new);
                if !changes.is_empty() {
                    diff.changed.insert(id.clone(), changes);
                }
            }
        }
    }
    for (id, new) in to {
        if !from.contains_key(id) {
            diff.added.insert(id.clone(), new.clone());
        }
    }
    diff
}

/// The properties that differ between two states of an object, by path, in path order: nested
/// objects are followed (`meta.status`), anything else (arrays too) compared whole.
pub fn object_changes(old: &DiagramObject, new: &DiagramObject) -> Vec<PathChange> {
    let mut changes = Vec::new();
    if old.kind != new.kind {
        changes.push(PathChange {
            path: "type".into(),
            from: Some(Value::String(old.kind.clone())),
            to: Some(Value::String(new.kind.clone())),
        });
    }
    map_changes("", &old.data, &new.data, &mut changes);
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    changes
}

/// Adds the differences between two maps under `prefix`.
fn map_changes(
    prefix: &str,
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    out: &mut Vec<PathChange>,
) {
    let path = |key: &str| {
        if prefix.is_empty() {
            key.to_owned()
        } else {
            format!("{prefix}.{key}")
        }
    };
    for (key, from) in old {
        match (from, new.get(key)) {
            (_, None) => out.push(PathChange {
                path: path(key),
                from: Some(from.clone()),
                to: None,
            }),
            (Value::Object(a), Some(Value::Object(b))) => map_changes(&path(key), a, b, out),
            (_, Some(to)) if to != from => out.push(PathChange {
                path: path(key),
                from: Some(from.clone()),
                to: Some(to.clone()),
            }),
            _ => {}
        }
    }
    for (key, to) in new {
        if !old.contains_key(key) {
            out.push(PathChange {
                path: path(key),
                from: None,
                to: Some(to.clone()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(kind: &str, data: Value) -> DiagramObject {
        DiagramObject {
            kind: kind.into(),
            data: data.as_object().unwrap().clone(),
        }
    }

    #[test]
    fn nested_changes_are_named_by_their_path() {
        let old = object(
            "component",
            json!({"x": 1, "meta": {"status": "up", "gone": 1}}),
        );
        let new = object(
            "component",
            json!({"x": 1, "meta": {"status": "down", "new": [1]}}),
        );
        let paths: Vec<_> = object_changes(&old, &new)
            .into_iter()
            .map(|c| (c.path, c.from, c.to))
            .collect();
        assert_eq!(
            paths,
            [
                ("meta.gone".into(), Some(json!(1)), None),
                ("meta.new".into(), None, Some(json!([1]))),
                ("meta.status".into(), Some(json!("up")), Some(json!("down"))),
            ]
        );
    }

    #[test]
    fn a_value_becoming_an_object_is_one_change_and_types_compare() {
        let old = object("label", json!({"meta": "x"}));
        let new = object("icon", json!({"meta": {"a": 1}}));
        let changes = object_changes(&old, &new);
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert_eq!(changes[0].path, "meta");
        assert_eq!(changes[1].path, "type");
    }

    #[test]
    fn contents_differ_by_added_removed_and_changed_objects() {
        let a = object("label", json!({"text": "a"}));
        let b = object("label", json!({"text": "b"}));
        let from = Content::from([("1".into(), a.clone()), ("2".into(), a.clone())]);
        let to = Content::from([("2".into(), b), ("3".into(), a.clone())]);
        let diff = diff_contents(4, &from, 9, &to);
        assert_eq!((diff.from, diff.to), (4, 9));
        assert_eq!(diff.removed.keys().collect::<Vec<_>>(), ["1"]);
        assert_eq!(diff.added.keys().collect::<Vec<_>>(), ["3"]);
        assert_eq!(diff.changed["2"][0].path, "text");
        assert!(diff_contents(1, &from, 2, &from).changed.is_empty());
    }

    #[test]
    fn every_kind_reads_back_as_itself() {
        for (kind, text) in KINDS {
            assert_eq!(VersionKind::parse(text), Some(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(text));
        }
        assert_eq!(VersionKind::parse("nothing"), None);
    }
}
