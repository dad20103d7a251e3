//! The open document: shared state that App owns and every component reads through `Cx` (the
//! tree, the properties, the selector form, the bulk edit; the map later). Its content sits in
//! an [`ObjectModel`], the one data model of the objects: the tree asks it for rows and never
//! touches the objects directly, so it can be swapped for a compact one.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

use super::load::Load;
use super::words;
use crate::model::{Content, DiagramObject, DocSummary, ObjectType, Props};

/// The document open in the objects pane.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenDoc {
    /// Its id and title.
    pub summary: DocSummary,
    /// Its objects.
    pub content: Load<ObjectModel>,
    /// The ids of the marked objects.
    pub marks: BTreeSet<String>,
}

impl OpenDoc {
    /// `doc`, its content still to come.
    pub fn new(summary: DocSummary) -> OpenDoc {
        OpenDoc {
            summary,
            content: Load::Idle,
            marks: BTreeSet::new(),
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.summary.id
    }

    /// Its objects, once (or while again) loaded.
    pub fn model(&self) -> Option<&ObjectModel> {
        self.content.value()
    }
}

/// A type and the objects of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The type's wire name.
    pub kind: String,
    /// Indexes of its objects, in id order.
    pub members: Vec<usize>,
}

/// One row of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeRow {
    /// A type heading: index into the groups and how many of its objects pass the filter.
    Group(usize, usize),
    /// An object: its index.
    Object(usize),
}

/// Meta key to the values seen under it (as text): the selector form's type-ahead.
pub type MetaIndex = BTreeMap<String, BTreeSet<String>>;

/// A document's objects, in id order, grouped by type, with the index of their meta.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjectModel {
    /// Changes with every change of the objects (and differs between models): what was drawn
    /// of one version is stale for another.
    version: u64,
    /// Shared with the copies handed to a scene build (so a copy costs nothing); a change
    /// while a build still holds them copies them first.
    objects: Arc<Vec<(String, DiagramObject)>>,
    groups: Vec<Group>,
    meta_index: MetaIndex,
}

impl ObjectModel {
    /// The model of `content`.
    pub fn new(content: Content) -> ObjectModel {
        let objects: Vec<(String, DiagramObject)> = content.into_iter().collect();
        let mut groups: Vec<Group> = ObjectType::ALL
            .iter()
            .map(|t| Group {
                kind: t.as_str().to_string(),
                members: Vec::new(),
            })
            .collect();
        for (i, (_, object)) in objects.iter().enumerate() {
            match groups.iter_mut().find(|g| g.kind == object.kind) {
                Some(group) => group.members.push(i),
                None => groups.push(Group {
                    kind: object.kind.clone(),
                    members: vec![i],
                }),
            }
        }
        groups.retain(|g| !g.members.is_empty());
        let mut model = ObjectModel {
            version: next_version(),
            objects: Arc::new(objects),
            groups,
            meta_index: MetaIndex::new(),
        };
        model.index_meta();
        model
    }

    /// How many objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// Changes with every change of the objects, and differs from every other model's.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The object at `index`: its id and the object.
    pub fn at(&self, index: usize) -> (&str, &DiagramObject) {
        let (id, object) = &self.objects[index];
        (id, object)
    }

    /// Every object, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &DiagramObject)> {
        self.objects.iter().map(|(id, o)| (id.as_str(), o))
    }

    /// The index of object `obj`.
    pub fn index_of(&self, obj: &str) -> Option<usize> {
        self.objects
            .binary_search_by(|(id, _)| id.as_str().cmp(obj))
            .ok()
    }

    /// Object `obj`.
    pub fn get(&self, obj: &str) -> Option<&DiagramObject> {
        self.index_of(obj).map(|i| &self.objects[i].1)
    }

    /// The groups, in the order of `ObjectType::ALL`, then unknown types.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every meta key with the values seen under it.
    pub fn meta_index(&self) -> &MetaIndex {
        &self.meta_index
    }

    /// The rows of the tree: every group heading, and under the unfolded ones the objects that
    /// pass `filter` (words that must all match: `key=value` a meta entry, any other word the
    /// id, the type or the row's text, ignoring case). With a filter, empty groups are left out.
    pub fn rows(&self, filter: &str, folded: &HashSet<String>) -> Vec<TreeRow> {
        let matcher = Matcher::new(filter);
        let mut rows = Vec::new();
        for (gi, group) in self.groups.iter().enumerate() {
            let shown: Vec<usize> = group
                .members
                .iter()
                .copied()
                .filter(|&i| matcher.matches(&self.objects[i].0, &self.objects[i].1))
                .collect();
            if shown.is_empty() && !matcher.is_empty() {
                continue;
            }
            rows.push(TreeRow::Group(gi, shown.len()));
            if !folded.contains(&group.kind) {
                rows.extend(shown.into_iter().map(TreeRow::Object));
            }
        }
        rows
    }

    /// Replaces one object's data (after a save or a re-read).
    pub fn replace_data(&mut self, obj: &str, data: Props) {
        if let Some(at) = self.index_of(obj) {
            Arc::make_mut(&mut self.objects)[at].1.data = data;
            self.version = next_version();
            self.index_meta();
        }
    }

    /// The model without the objects `objs`.
    pub fn without(&self, objs: &[String]) -> ObjectModel {
        let gone: BTreeSet<&str> = objs.iter().map(String::as_str).collect();
        ObjectModel::new(
            self.objects
                .iter()
                .filter(|(id, _)| !gone.contains(id.as_str()))
                .cloned()
                .collect(),
        )
    }

    fn index_meta(&mut self) {
        self.meta_index.clear();
        let metas = self
            .objects
            .iter()
            .filter_map(|(_, o)| o.data.get("meta").and_then(Value::as_object));
        for meta in metas {
            for (key, value) in meta {
                self.meta_index
                    .entry(key.clone())
                    .or_default()
                    .insert(scalar_text(value));
            }
        }
    }
}

/// A fresh version stamp.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The tree's filter: words that must all match.
struct Matcher {
    words: Vec<(String, Option<String>)>,
}

impl Matcher {
    fn new(text: &str) -> Matcher {
        let words = text
            .split_whitespace()
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_lowercase())),
                None => (w.to_lowercase(), None),
            })
            .collect();
        Matcher { words }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn matches(&self, id: &str, object: &DiagramObject) -> bool {
        if self.words.is_empty() {
            return true;
        }
        let text = row_text(object).to_lowercase();
        self.words.iter().all(|(word, value)| match value {
            Some(value) => object
                .data
                .get("meta")
                .and_then(|m| m.get(word))
                .is_some_and(|v| scalar_text(v).to_lowercase() == *value),
            None => {
                id.contains(word.as_str())
                    || object.kind.contains(word.as_str())
                    || text.contains(word.as_str())
            }
        })
    }
}

/// A JSON scalar as plain text (strings without quotes).
pub fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a row says about an object: a label's text, a component's kind and name with a
/// summary of its meta, a short fact for the other types.
pub fn row_text(object: &DiagramObject) -> String {
    let data = &object.data;
    let text = |key: &str| {
        data.get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let count = |key: &str| data.get(key).and_then(Value::as_array).map_or(0, Vec::len);
    match object.kind.as_str() {
        "label" => format!("\"{}\"", text("text")),
        "component" => {
            let mut out = text("componentId");
            let name = text("name");
            if !name.is_empty() {
                out.push_str(&format!(" ({name})"));
            }
            if let Some(Value::Object(meta)) = data.get("meta")
                && !meta.is_empty()
            {
                let summary: Vec<String> = meta
                    .iter()
                    .take(3)
                    .map(|(k, v)| format!("{k}={}", scalar_text(v)))
                    .collect();
                let more = if meta.len() > 3 { " …" } else { "" };
                out.push_str(&format!(" [{}{more}]", summary.join(" ")));
            }
            out
        }
        "line-group" => format!(
            "{}, {}",
            words::count(count("anchors"), "anchor", "anchors"),
            words::count(count("lines"), "line", "lines")
        ),
        "area" => format!(
            "{} {}",
            words::count(count("anchors"), "corner", "corners"),
            text("fillColor")
        ),
        "icon" => text("icon"),
        "image" => text("path"),
        "widget" => format!("{} {}", text("widgetType"), text("plotType")),
        _ => String::new(),
    }
}
