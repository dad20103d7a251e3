//! The session's write history: every write to a document's objects that went through (saves,
//! bulk edits, selector applies, deletes, imports, empties), each with what is needed to undo
//! it and nothing more: the values an update replaced (never a copy of the document), a deleted
//! object as it was with the line groups attached to it, the content an import or an empty
//! replaced; and the writes to the account's folders (under [`FOLDERS`]: made, renamed,
//! deleted, documents moved). App keeps it; `u` and `U` read it through `Cx` (see `undo.rs`,
//! `folder_undo.rs`), and an undo marks what it put back.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;

use crate::document::ObjectModel;
use crate::document::names::{Name, Names};
use crate::text::json::Diff;
use crate::text::words;
use diagtui_model::{DiagramObject, DocSummary, FolderRef, Props};

/// What wrote properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A save of the properties pane.
    Save,
    /// A bulk edit of the marked objects.
    BulkEdit,
    /// A selector apply, with the selector as text.
    Selector(String),
    /// A version of the server's history (made in any session, by anyone), by its number.
    Version(u64),
}

impl Source {
    /// Its name in lists and messages.
    pub fn name(&self) -> &'static str {
        match self {
            Source::Save => "save",
            Source::BulkEdit => "bulk edit",
            Source::Selector(_) => "selector apply",
            Source::Version(_) => "change",
        }
    }
}

/// One object's part of a write of properties.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectWrite {
    /// The object.
    pub obj: String,
    /// Each property written, with its value before (`None`: the write added it).
    pub before: BTreeMap<String, Option<Value>>,
    /// The values written.
    pub after: Props,
    /// Whether it has been undone.
    pub undone: bool,
}

impl ObjectWrite {
    /// The part of `obj` in a write that sent `diff`.
    pub fn from_diff(obj: &str, diff: &Diff) -> ObjectWrite {
        ObjectWrite {
            obj: obj.to_string(),
            before: diff
                .changes
                .iter()
                .map(|c| (c.key.clone(), c.before.clone()))
                .collect(),
            after: diff.props(),
            undone: false,
        }
    }

    /// What undoing it sends: the values the write replaced.
    pub fn previous(&self) -> Props {
        self.before
            .iter()
            .filter_map(|(k, v)| v.clone().map(|v| (k.clone(), v)))
            .collect()
    }

    /// The properties the write added, which an update cannot take away again.
    pub fn added(&self) -> Vec<&str> {
        self.before
            .iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| k.as_str())
            .collect()
    }

    /// What undoing it changes, as a diff from the values written to the values before.
    pub fn undo_diff(&self) -> Diff {
        let previous = self.previous();
        let written: Props = self
            .after
            .iter()
            .filter(|(k, _)| previous.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Diff::between(&written, &previous)
    }
}

/// A deleted object as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// Its id.
    pub obj: String,
    /// Its type and data.
    pub object: DiagramObject,
    /// The line groups whose anchors were attached to it.
    pub attached: Vec<String>,
    /// Its new id once created again.
    pub again: Option<String>,
}

impl Removed {
    /// The objects `objs` of `model` as they are now, each with the line groups attached to it.
    pub fn capture(model: &ObjectModel, objs: &[String]) -> Vec<Removed> {
        let mut attached = attached_line_groups(model, objs);
        objs.iter()
            .filter_map(|obj| {
                Some(Removed {
                    obj: obj.clone(),
                    object: model.entry(model.index_of(obj)?).object(),
                    attached: attached.remove(obj.as_str()).unwrap_or_default(),
                    again: None,
                })
            })
            .collect()
    }

    /// Its name, from its data as it was.
    pub fn name(&self, names: &Names) -> Name {
        names.of_object(&self.obj, &self.object)
    }
}

/// The line groups of `model` whose anchors are attached to each of the objects `objs` (one
/// pass over the line groups, reading only their anchors); an object nothing is attached to is
/// left out.
pub fn attached_line_groups(model: &ObjectModel, objs: &[String]) -> BTreeMap<String, Vec<String>> {
    let wanted: BTreeSet<&str> = objs.iter().map(String::as_str).collect();
    let mut attached: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let line_groups = model.groups().iter().filter(|g| g.kind == "line-group");
    for entry in line_groups.flat_map(|g| g.members.iter().map(|&i| model.entry(i))) {
        let Ok(LineAnchors { anchors }) = serde_json::from_str(entry.data_json) else {
            continue;
        };
        let targets: BTreeSet<&str> = anchors
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.get("id").and_then(Value::as_str))
            .filter_map(|target| wanted.get(target).copied())
            .collect();
        for target in targets {
            attached
                .entry(target.to_string())
                .or_default()
                .push(entry.id.to_string());
        }
    }
    attached
}

/// A line group's anchors pointed at new ids: each anchor attached to a component (`{type: 1,
/// id, index}`) whose id `moved` maps to a new one names the new one, its corner kept. `None`
/// when no anchor names a moved id.
pub fn repointed(data: &Props, moved: &BTreeMap<String, String>) -> Option<Value> {
    let mut anchors = data.get("anchors")?.clone();
    let mut changed = false;
    for anchor in anchors.as_array_mut()?.iter_mut() {
        let Some(fields) = anchor.as_object_mut() else {
            continue;
        };
        let new = fields
            .get("id")
            .and_then(Value::as_str)
            .and_then(|old| moved.get(old));
        if let Some(new) = new {
            fields.insert("id".into(), Value::String(new.clone()));
            changed = true;
        }
    }
    changed.then_some(anchors)
}

/// A line group's anchors, the rest of its data skipped.
#[derive(Deserialize)]
struct LineAnchors {
    #[serde(default)]
    anchors: Value,
}

/// What a write did.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteKind {
    /// Properties written to objects.
    Update {
        /// What wrote them.
        source: Source,
        /// Each object's part.
        objects: Vec<ObjectWrite>,
    },
    /// Objects deleted.
    Delete(Vec<Removed>),
    /// A write to the account's folders (kept under [`FOLDERS`], not under a document).
    Folder {
        /// What it changed.
        change: FolderChange,
        /// Whether it was undone.
        undone: bool,
    },
    /// The content replaced whole: by an import, or emptied.
    Replace {
        /// What replaced it.
        by: Replacement,
        /// The content before (read just before the write).
        previous: Box<ObjectModel>,
        /// The document version the write made (our server's; `None` from others): what its
        /// undo names (`If-Match`), so that it sets nothing back over a later write.
        made: Option<u64>,
        /// Whether the previous content was set back.
        undone: bool,
    },
}

/// Where the write history keeps the folder writes (in place of a document's id).
pub const FOLDERS: &str = "";

/// What a folder write changed, with what its undo needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderChange {
    /// A folder was made (its undo deletes it, if it is still empty).
    Created(FolderRef),
    /// A folder was renamed.
    Renamed {
        /// The folder, with its title before.
        folder: FolderRef,
        /// Its new title.
        to: String,
    },
    /// A folder was deleted, with the documents it held (these titles): the API deletes them
    /// with it, and has no way to bring a document back.
    Deleted {
        /// The folder.
        folder: FolderRef,
        /// The titles of the documents deleted with it.
        docs: Vec<String>,
    },
    /// Documents were moved to folder `to`, each from the folder given with it.
    Moved {
        /// Each document moved and the folder it was in.
        docs: Vec<(DocSummary, FolderRef)>,
        /// The folder they went to.
        to: FolderRef,
    },
}

impl FolderChange {
    /// Its name in lists and messages.
    pub fn name(&self) -> &'static str {
        match self {
            FolderChange::Created(_) => "new folder",
            FolderChange::Renamed { .. } => "folder rename",
            FolderChange::Deleted { .. } => "folder delete",
            FolderChange::Moved { .. } => "move",
        }
    }

    /// What it did, in a few words.
    pub fn summary(&self) -> String {
        match self {
            FolderChange::Created(folder) => format!("\"{}\"", folder.title),
            FolderChange::Renamed { folder, to } => format!("\"{}\" → \"{to}\"", folder.title),
            FolderChange::Deleted { folder, docs } => match docs.len() {
                0 => format!("\"{}\" (empty)", folder.title),
                n => format!(
                    "\"{}\" with {}",
                    folder.title,
                    words::count(n, "document", "documents")
                ),
            },
            FolderChange::Moved { docs, to } => {
                let whom = match docs.as_slice() {
                    [(doc, _)] => format!("\"{}\"", doc.title),
                    many => words::count(many.len(), "document", "documents"),
                };
                format!("{whom} to \"{}\"", to.title)
            }
        }
    }
}

/// What replaced a document's content whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    /// An import that set this many objects.
    Import(usize),
    /// Emptying the document.
    Empty,
}

/// One write of the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    /// Its number in the session (from 1).
    pub id: u64,
    /// The document it wrote to.
    pub doc: String,
    /// What it did.
    pub kind: WriteKind,
}

impl Write {
    /// Its name in lists and messages (`save`, `delete`, ...).
    pub fn name(&self) -> &'static str {
        match &self.kind {
            WriteKind::Update { source, .. } => source.name(),
            WriteKind::Delete(_) => "delete",
            WriteKind::Folder { change, .. } => change.name(),
            WriteKind::Replace {
                by: Replacement::Import(_),
                ..
            } => "import",
            WriteKind::Replace {
                by: Replacement::Empty,
                ..
            } => "empty",
        }
    }

    /// What it touched, in a few words, naming objects by `names`.
    pub fn summary(&self, names: &Names) -> String {
        match &self.kind {
            WriteKind::Update { source, objects } => {
                let keys: BTreeSet<&str> = objects
                    .iter()
                    .flat_map(|o| o.before.keys().map(String::as_str))
                    .collect();
                let keys = keys.into_iter().collect::<Vec<_>>().join(", ");
                let whom = match objects.as_slice() {
                    [one] => names.text(&one.obj),
                    many => words::objects(many.len()),
                };
                match source {
                    Source::Selector(selector) => format!("{whom} matching {selector}: {keys}"),
                    Source::Version(version) => format!("{whom} (version {version}): {keys}"),
                    _ => format!("{whom}: {keys}"),
                }
            }
            WriteKind::Delete(removed) => match removed.as_slice() {
                [one] => one.name(names).described(),
                many => format!(
                    "{}: {}, …",
                    words::objects(many.len()),
                    many[0].name(names).described()
                ),
            },
            WriteKind::Folder { change, .. } => change.summary(),
            WriteKind::Replace { by, previous, .. } => match by {
                Replacement::Import(imported) => format!(
                    "{} replaced the {} before",
                    words::objects(*imported),
                    words::objects(previous.len())
                ),
                Replacement::Empty => format!("removed all {}", words::objects(previous.len())),
            },
        }
    }

    /// How much of it has been undone: none, some or all of it.
    pub fn undone(&self) -> Undone {
        let (done, all) = match &self.kind {
            WriteKind::Update { objects, .. } => {
                (objects.iter().filter(|o| o.undone).count(), objects.len())
            }
            WriteKind::Delete(removed) => (
                removed.iter().filter(|r| r.again.is_some()).count(),
                removed.len(),
            ),
            WriteKind::Replace { undone, .. } | WriteKind::Folder { undone, .. } => {
                (usize::from(*undone), 1)
            }
        };
        match done {
            0 => Undone::No,
            n if n == all => Undone::All,
            _ => Undone::Partly,
        }
    }

    /// The part of `obj` in an update, if it has one.
    pub fn part(&self, obj: &str) -> Option<&ObjectWrite> {
        match &self.kind {
            WriteKind::Update { objects, .. } => objects.iter().find(|o| o.obj == obj),
            _ => None,
        }
    }
}

/// How much of a write has been undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undone {
    /// Nothing.
    No,
    /// Some of its objects.
    Partly,
    /// All of it.
    All,
}

/// What an undo put back, to mark in the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoneMark {
    /// These objects' parts of update `write`.
    Objects {
        /// The write.
        write: u64,
        /// The objects.
        objs: Vec<String>,
    },
    /// Object `old`, deleted by `write`, was created again as `new`.
    Recreated {
        /// The write.
        write: u64,
        /// Its old id.
        old: String,
        /// Its new id.
        new: String,
    },
    /// The content an import or an empty replaced was set back.
    Replaced(u64),
    /// Folder write `write` was undone.
    Folder(u64),
}

/// Every write of the session, oldest first; and whether the server keeps histories (then undo
/// reads them: `server_undo.rs`).
#[derive(Debug, Default)]
pub struct WriteHistory {
    writes: Vec<Write>,
    server_keeps: Option<bool>,
    /// The writes made of the server's versions, by document, version and the one object undone
    /// (`None`: the whole version), so that undoing one again finds what was undone of it.
    versions: BTreeMap<(String, u64, Option<String>), u64>,
    /// Those of them the user has not chosen to undo yet: a version only asked about (and
    /// kept) is no write of this session, so the lists leave it out.
    unconfirmed: BTreeSet<u64>,
}

impl WriteHistory {
    /// Adds a write to `doc`; answers its id.
    pub fn record(&mut self, doc: String, kind: WriteKind) -> u64 {
        let id = self.writes.len() as u64 + 1;
        self.writes.push(Write { id, doc, kind });
        id
    }

    /// The write made of version `version` of `doc` (only object `obj`'s part, when given),
    /// kept as `kind` the first time it is asked for; answers its id.
    pub fn of_version(
        &mut self,
        doc: String,
        version: u64,
        obj: Option<String>,
        kind: WriteKind,
    ) -> u64 {
        let key = (doc.clone(), version, obj);
        if let Some(id) = self.versions.get(&key) {
            return *id;
        }
        let id = self.record(doc, kind);
        self.versions.insert(key, id);
        self.unconfirmed.insert(id);
        id
    }

    /// The user chose to undo write `id`: listed from now on, if it was a server's version
    /// only asked about.
    pub fn confirm(&mut self, id: u64) {
        self.unconfirmed.remove(&id);
    }

    /// Whether the server keeps documents' histories: `None` until a history route answered.
    pub fn server_keeps(&self) -> Option<bool> {
        self.server_keeps
    }

    /// A history route answered (`true`) or is missing (`false`).
    pub fn set_server_keeps(&mut self, keeps: bool) {
        self.server_keeps = Some(keeps);
    }

    /// Write `id`.
    pub fn get(&self, id: u64) -> Option<&Write> {
        id.checked_sub(1)
            .and_then(|i| self.writes.get(usize::try_from(i).ok()?))
    }

    /// The writes to `doc`, newest first (a server's version only asked about left out).
    pub fn of_doc<'a>(&'a self, doc: &str) -> impl Iterator<Item = &'a Write> + use<'a> {
        let doc = doc.to_string();
        (self.writes.iter().rev())
            .filter(move |w| w.doc == doc && !self.unconfirmed.contains(&w.id))
    }

    /// The newest write to object `obj` of `doc` not yet undone, with its part.
    pub fn latest_of(&self, doc: &str, obj: &str) -> Option<(&Write, &ObjectWrite)> {
        self.writes
            .iter()
            .rev()
            .filter(|w| w.doc == doc)
            .find_map(|w| w.part(obj).filter(|p| !p.undone).map(|p| (w, p)))
    }

    /// Marks what an undo put back.
    pub fn mark(&mut self, mark: UndoneMark) {
        let id = match &mark {
            UndoneMark::Objects { write, .. }
            | UndoneMark::Recreated { write, .. }
            | UndoneMark::Replaced(write)
            | UndoneMark::Folder(write) => *write,
        };
        self.unconfirmed.remove(&id);
        let Some(write) = id
            .checked_sub(1)
            .and_then(|i| self.writes.get_mut(i as usize))
        else {
            return;
        };
        match (&mut write.kind, mark) {
            (WriteKind::Update { objects, .. }, UndoneMark::Objects { objs, .. }) => {
                for part in objects.iter_mut().filter(|o| objs.contains(&o.obj)) {
                    part.undone = true;
                }
            }
            (WriteKind::Delete(removed), UndoneMark::Recreated { old, new, .. }) => {
                if let Some(r) = removed.iter_mut().find(|r| r.obj == old) {
                    r.again = Some(new);
                }
            }
            (WriteKind::Replace { undone, .. }, UndoneMark::Replaced(_))
            | (WriteKind::Folder { undone, .. }, UndoneMark::Folder(_)) => *undone = true,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn props(value: Value) -> Props {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn an_update_keeps_what_it_replaced_and_what_it_added() {
        let before = props(json!({"text": "a", "meta": {"ttl": 60}}));
        let after = props(json!({"text": "b", "meta": {"ttl": 61}, "color": "#FF0000"}));
        let part = ObjectWrite::from_diff("o", &Diff::between(&before, &after));
        assert_eq!(part.previous(), before);
        assert_eq!(part.added(), vec!["color"]);
        let undo = part.undo_diff();
        assert_eq!(undo.props(), before);
        assert!(undo.removed.is_empty(), "what was added is said apart");
    }

    #[test]
    fn a_line_groups_anchors_are_pointed_at_the_new_ids_their_corners_kept() {
        let data = props(json!({
            "anchors": [
                {"type": 1, "id": "a", "index": 2},
                {"type": 0, "x": 1, "y": 1},
                {"type": 1, "id": "b", "index": 0}
            ],
            "lines": [[0, 1], [1, 2]]
        }));
        let moved: BTreeMap<String, String> = [("a".to_string(), "n".to_string())].into();
        assert_eq!(
            repointed(&data, &moved),
            Some(json!([
                {"type": 1, "id": "n", "index": 2},
                {"type": 0, "x": 1, "y": 1},
                {"type": 1, "id": "b", "index": 0}
            ]))
        );
        let elsewhere: BTreeMap<String, String> = [("z".to_string(), "n".to_string())].into();
        assert_eq!(repointed(&data, &elsewhere), None, "nothing to change");
        assert_eq!(repointed(&props(json!({"text": "x"})), &moved), None);
    }

    /// Object `obj`'s part of a write that set `n` to `v`.
    fn part(obj: &str, v: i64) -> ObjectWrite {
        ObjectWrite {
            obj: obj.into(),
            before: [("n".to_string(), Some(json!(v - 1)))].into(),
            after: props(json!({"n": v})),
            undone: false,
        }
    }

    fn update(source: Source, objects: Vec<ObjectWrite>) -> WriteKind {
        WriteKind::Update { source, objects }
    }

    #[test]
    fn the_newest_write_not_undone_is_found_per_object_and_marked() {
        let mut history = WriteHistory::default();
        history.record("d".into(), update(Source::Save, vec![part("a", 1)]));
        history.record(
            "d".into(),
            update(Source::BulkEdit, vec![part("b", 2), part("c", 2)]),
        );
        history.record("other".into(), update(Source::Save, vec![part("b", 9)]));
        let (write, found) = history.latest_of("d", "b").unwrap();
        assert_eq!((write.id, found.after["n"].clone()), (2, json!(2)));
        assert_eq!(history.latest_of("d", "a").unwrap().0.id, 1);
        history.mark(UndoneMark::Objects {
            write: 2,
            objs: vec!["b".into()],
        });
        assert!(history.latest_of("d", "b").is_none());
        assert_eq!(history.get(2).unwrap().undone(), Undone::Partly);
        assert_eq!(
            history.of_doc("d").map(|w| w.id).collect::<Vec<_>>(),
            vec![2, 1]
        );
    }

    #[test]
    fn a_version_only_asked_about_is_listed_once_something_of_it_is_undone() {
        let mut history = WriteHistory::default();
        history.record("d".into(), update(Source::Save, vec![part("a", 1)]));
        let version = update(Source::Version(7), vec![part("b", 2)]);
        let id = history.of_version("d".into(), 7, Some("b".into()), version.clone());
        // Asked about and kept: not a write of this session.
        assert_eq!(
            history.of_doc("d").map(|w| w.id).collect::<Vec<_>>(),
            vec![1]
        );
        // Asked about again, it is the same write; undone, it is listed.
        assert_eq!(
            history.of_version("d".into(), 7, Some("b".into()), version),
            id
        );
        history.mark(UndoneMark::Objects {
            write: id,
            objs: vec!["b".into()],
        });
        assert_eq!(
            history.of_doc("d").map(|w| w.id).collect::<Vec<_>>(),
            vec![id, 1]
        );
    }
}
