//! [`ObjectModel`]: a document's objects in a compact form, built once (in the worker, off the
//! input loop) from the content's JSON: each object's data kept as its JSON text and parsed only
//! when asked for, with its row text, its lowercase search text and its meta built in that one
//! pass, and its version on the server where the server gives versions (our extension: what a
//! save names in `If-Match`). A save, a removal and a filter work on it in place.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use memchr::memmem::Finder;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::document::filter::{Matches, Query, Word};
use crate::document::glance::Glance;
use crate::document::meta::{MetaIndex, MetaIndexes};
use crate::document::row::{glance_row, push_lowercase, write_meta_text};
use crate::document::texts::Texts;
use diagtui_model::{Content, DiagramObject, ObjectType, Props};

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

/// One object as the model keeps it: its id, its type and its data as JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Its index in the model.
    pub index: usize,
    /// Its id.
    pub id: &'a str,
    /// Its type's wire name.
    pub kind: &'a str,
    /// Its `data`, as compact JSON text (an object).
    pub data_json: &'a str,
}

impl Entry<'_> {
    /// Its data, parsed (each call parses again; nothing is kept).
    pub fn data(&self) -> Props {
        parse_data(self.data_json)
    }

    /// Of its data, only the properties `names` names, in their order in the data (the rest
    /// is skipped without being built): what a merge of `names` needs to know
    /// ([`crate::text::json::Diff::of_merge`]).
    pub fn data_named(&self, names: &Props) -> Props {
        let mut json = serde_json::Deserializer::from_str(self.data_json);
        Named(names)
            .deserialize(&mut json)
            .expect("an object's data was checked to be a JSON object")
    }

    /// The object, parsed (each call parses again; nothing is kept).
    pub fn object(&self) -> DiagramObject {
        DiagramObject {
            kind: self.kind.to_string(),
            data: self.data(),
        }
    }
}

/// Reads the properties of an object's data that a map names ([`Entry::data_named`]).
struct Named<'a>(&'a Props);

impl<'de> DeserializeSeed<'de> for Named<'_> {
    type Value = Props;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Props, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Named<'_> {
    type Value = Props;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object's data")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Props, A::Error> {
        let mut named = Props::new();
        while let Some(key) = map.next_key_seed(NamedKey(self.0))? {
            match key {
                Some(key) => {
                    named.insert(key, map.next_value()?);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(named)
    }
}

/// A property's name, kept (allocated) only when the map names it.
struct NamedKey<'a>(&'a Props);

impl<'de> DeserializeSeed<'de> for NamedKey<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NamedKey<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a property's name")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.contains_key(key).then(|| key.to_owned()))
    }
}

/// A document's objects, in id order, grouped by type, with the index of their meta.
#[derive(Clone)]
pub struct ObjectModel {
    /// Changes with every change of the objects (and differs between models): what was found
    /// in one version is no answer for another.
    version: u64,
    // The ids, types and data are shared with the scene's builds (`ObjectTexts`): changed in
    // place here, they are copied only while a build still reads them.
    ids: Arc<Texts>,
    /// Each object's type, as an index into `kinds`.
    kind_of: Arc<Vec<u16>>,
    /// The type names met: those of `ObjectType::ALL` first, in that order, then the others.
    kinds: Vec<String>,
    data: Arc<Texts>,
    rows: Texts,
    search: Texts,
    meta: Texts,
    /// Each object's version on the server ([`NO_VERSION`] where it gave none).
    server_versions: Vec<u64>,
    /// The objects parsed so far (those shown in the properties, diffed, copied, ...).
    parsed: Vec<OnceLock<Box<DiagramObject>>>,
    groups: Vec<Group>,
    meta_index: MetaIndexes,
}

/// The objects' ids, types and data as JSON text, shared with the model they come from
/// ([`ObjectModel::texts`]): what a scene build reads, handed over without a copy.
#[derive(Clone)]
pub struct ObjectTexts {
    ids: Arc<Texts>,
    kind_of: Arc<Vec<u16>>,
    kinds: Vec<String>,
    data: Arc<Texts>,
}

impl fmt::Debug for ObjectTexts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectTexts")
            .field("objects", &self.len())
            .finish_non_exhaustive()
    }
}

impl ObjectTexts {
    /// How many objects.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every object, in id order: id, type and data as JSON text.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry<'_>> {
        (0..self.len()).map(|index| entry(&self.ids, &self.kinds, &self.kind_of, &self.data, index))
    }
}

/// The object at `index` of these ids, types and data.
fn entry<'a>(
    ids: &'a Texts,
    kinds: &'a [String],
    kind_of: &[u16],
    data: &'a Texts,
    index: usize,
) -> Entry<'a> {
    Entry {
        index,
        id: ids.get(index),
        kind: &kinds[usize::from(kind_of[index])],
        data_json: data.get(index),
    }
}

/// An object's version unknown: the server gives none (or the object was not read with it).
const NO_VERSION: u64 = u64::MAX;

/// Objects per thread, at least, when a content's JSON is read on several threads.
const PER_THREAD: usize = 10_000;

/// A fresh version stamp.
fn next_version() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Data the model made itself: it was checked to be a JSON object when it came in.
fn parse_data(json: &str) -> Props {
    serde_json::from_str(json).expect("an object's data was checked to be a JSON object")
}

impl Default for ObjectModel {
    /// No objects, under a version of its own (a scene or a filter result of the objects it
    /// replaced is no answer for it).
    fn default() -> ObjectModel {
        ObjectModel::blank().finish()
    }
}

impl ObjectModel {
    /// The model of `content`.
    pub fn new(content: Content) -> ObjectModel {
        let mut model = ObjectModel::blank();
        for (id, object) in &content {
            let json = serde_json::to_string(&object.data).expect("a map serializes");
            model.push(id, &object.kind, &json, &Glance::of(&object.data), None);
        }
        model.finish()
    }

    /// The model of a content answer's JSON text (`{objectId: {type, data}}`, each entry with
    /// its `version` when read with `?versions=true`), read in one pass. Of two entries with one id, the later counts (as in any JSON map).
    pub fn from_json(json: &[u8]) -> Result<ObjectModel, serde_json::Error> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        ObjectModel::from_json_on(json, threads)
    }

    /// [`ObjectModel::from_json`] on at most `threads` threads.
    fn from_json_on(json: &[u8], threads: usize) -> Result<ObjectModel, serde_json::Error> {
        let Listing(mut entries) = serde_json::from_slice(json)?;
        // Stable: of equal ids the later stays last, and dedup keeps it in the earlier's place.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                std::mem::swap(later, earlier);
            }
            same
        });
        // Each part on a thread of its own, then joined in order.
        let chunk = entries.len().div_ceil(threads).max(PER_THREAD);
        let parts: Vec<Result<ObjectModel, serde_json::Error>> = if entries.len() <= chunk {
            vec![ObjectModel::part(&entries)]
        } else {
            std::thread::scope(|scope| {
                let workers: Vec<_> = entries
                    .chunks(chunk)
                    .map(|part| scope.spawn(|| ObjectModel::part(part)))
                    .collect();
                workers
                    .into_iter()
                    .map(|worker| worker.join().expect("reading a part never panics"))
                    .collect()
            })
        };
        // The first part becomes the model: only the later ones are copied onto its end.
        let mut parts = parts.into_iter();
        let mut model = parts.next().unwrap_or_else(|| Ok(ObjectModel::blank()))?;
        for part in parts {
            model.append(part?);
        }
        Ok(model.finish())
    }

    /// The model of some of a content's entries (in id order), not yet finished.
    fn part(entries: &[(String, ListedObject)]) -> Result<ObjectModel, serde_json::Error> {
        let mut part = ObjectModel::blank();
        for (id, entry) in entries {
            let json = entry.data.get();
            part.push(id, &entry.kind, json, &Glance::read(json)?, entry.version);
        }
        Ok(part)
    }

    /// Adds the objects of `part` (whose ids all come after these) after these.
    fn append(&mut self, part: ObjectModel) {
        let kinds: Vec<u16> = part.kinds.iter().map(|k| self.kind_index(k)).collect();
        Arc::make_mut(&mut self.kind_of)
            .extend(part.kind_of.iter().map(|&k| kinds[usize::from(k)]));
        Arc::make_mut(&mut self.ids).append(&part.ids);
        Arc::make_mut(&mut self.data).append(&part.data);
        self.rows.append(&part.rows);
        self.search.append(&part.search);
        self.meta.append(&part.meta);
        self.server_versions.extend(part.server_versions);
        self.parsed.extend(part.parsed);
        self.meta_index.merge(part.meta_index, &kinds);
    }

    /// Adds an object (after the others: callers give them in id order).
    fn push(&mut self, id: &str, kind: &str, json: &str, data: &Glance, version: Option<u64>) {
        let kind_index = self.kind_index(kind);
        let row = glance_row(kind, data);
        Arc::make_mut(&mut self.ids).push(id);
        Arc::make_mut(&mut self.kind_of).push(kind_index);
        Arc::make_mut(&mut self.data).push(json);
        self.search.push_with(|out| push_lowercase(out, &row));
        self.rows.push(&row);
        let meta = data.meta.as_deref().unwrap_or_default();
        self.meta.push_with(|out| write_meta_text(out, meta));
        self.meta_index.add(kind_index, meta);
        self.server_versions.push(version.unwrap_or(NO_VERSION));
        self.parsed.push(OnceLock::new());
    }

    /// The index of type `kind` in `kinds`, added when new.
    fn kind_index(&mut self, kind: &str) -> u16 {
        if self.kinds.is_empty() {
            self.kinds = ObjectType::ALL
                .iter()
                .map(|t| t.as_str().to_string())
                .collect();
        }
        let at = match self.kinds.iter().position(|k| k == kind) {
            Some(at) => at,
            None => {
                self.kinds.push(kind.to_string());
                self.kinds.len() - 1
            }
        };
        u16::try_from(at).expect("fewer than 65,536 object types")
    }

    /// No objects yet, before [`ObjectModel::finish`] gives it its groups and a version.
    fn blank() -> ObjectModel {
        ObjectModel {
            version: 0,
            ids: Arc::default(),
            kind_of: Arc::default(),
            kinds: Vec::new(),
            data: Arc::default(),
            rows: Texts::default(),
            search: Texts::default(),
            meta: Texts::default(),
            server_versions: Vec::new(),
            parsed: Vec::new(),
            groups: Vec::new(),
            meta_index: MetaIndexes::default(),
        }
    }

    /// Done adding or removing: groups the objects, frees what was kept for growth and takes a
    /// new version.
    fn finish(mut self) -> ObjectModel {
        for texts in self.texts_mut() {
            texts.shrink_to_fit();
        }
        self.server_versions.shrink_to_fit();
        self.regroup();
        self.version = next_version();
        self
    }

    /// Every per-object text, to change them alike.
    fn texts_mut(&mut self) -> [&mut Texts; 5] {
        [
            Arc::make_mut(&mut self.ids),
            Arc::make_mut(&mut self.data),
            &mut self.rows,
            &mut self.search,
            &mut self.meta,
        ]
    }

    fn regroup(&mut self) {
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.kinds.len()];
        for (i, &kind) in self.kind_of.iter().enumerate() {
            members[usize::from(kind)].push(i);
        }
        self.groups = self
            .kinds
            .iter()
            .zip(members)
            .filter(|(_, members)| !members.is_empty())
            .map(|(kind, members)| Group {
                kind: kind.clone(),
                members,
            })
            .collect();
    }

    /// How many objects.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ids.len() == 0
    }

    /// Changes with every change of the objects, and differs from every other model's.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The version on the server of the object at `index`: the document version of the write
    /// that last changed it, as last read or written; `None` from a server without versions.
    pub fn server_version(&self, index: usize) -> Option<u64> {
        Some(self.server_versions[index]).filter(|&v| v != NO_VERSION)
    }

    /// [`ObjectModel::server_version`] of object `obj`.
    pub fn server_version_of(&self, obj: &str) -> Option<u64> {
        self.server_version(self.index_of(obj)?)
    }

    /// Sets object `obj`'s version on the server (after a write or a read that told it).
    pub fn set_server_version(&mut self, obj: &str, version: Option<u64>) {
        if let Some(at) = self.index_of(obj) {
            self.server_versions[at] = version.unwrap_or(NO_VERSION);
        }
    }

    /// The id of the object at `index`.
    pub fn id(&self, index: usize) -> &str {
        self.ids.get(index)
    }

    /// The type (wire name) of the object at `index`.
    pub fn kind(&self, index: usize) -> &str {
        &self.kinds[usize::from(self.kind_of[index])]
    }

    /// What the tree's row says about the object at `index` ([`crate::document::row_text`]).
    pub fn row_text(&self, index: usize) -> &str {
        self.rows.get(index)
    }

    /// The object at `index` as kept: id, type and data as JSON text.
    pub fn entry(&self, index: usize) -> Entry<'_> {
        entry(&self.ids, &self.kinds, &self.kind_of, &self.data, index)
    }

    /// The ids, types and data, shared (no copy): for a build off the input loop.
    pub fn texts(&self) -> ObjectTexts {
        ObjectTexts {
            ids: Arc::clone(&self.ids),
            kind_of: Arc::clone(&self.kind_of),
            kinds: self.kinds.clone(),
            data: Arc::clone(&self.data),
        }
    }

    /// Every object as kept, in id order, without parsing any: for a caller that reads them
    /// all (a picture of the document, say) one at a time.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry<'_>> {
        (0..self.len()).map(|i| self.entry(i))
    }

    /// The objects as values, each parsed: for the rare caller that must send them all (an
    /// import undone sets the content back).
    pub fn to_content(&self) -> Content {
        self.entries()
            .map(|entry| (entry.id.to_string(), entry.object()))
            .collect()
    }

    /// The object at `index`: its id and the object (parsed the first time it is asked for,
    /// then kept).
    pub fn at(&self, index: usize) -> (&str, &DiagramObject) {
        let object = self.parsed[index].get_or_init(|| Box::new(self.entry(index).object()));
        (self.ids.get(index), object)
    }

    /// The index of object `obj`.
    pub fn index_of(&self, obj: &str) -> Option<usize> {
        let at = self.ids_partition(obj);
        (at < self.len() && self.ids.get(at) == obj).then_some(at)
    }

    /// Object `obj` (parsed the first time it is asked for, then kept).
    pub fn get(&self, obj: &str) -> Option<&DiagramObject> {
        self.index_of(obj).map(|i| self.at(i).1)
    }

    /// The groups, in the order of `ObjectType::ALL`, then unknown types.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every meta key with the values seen under it (kept up to date in place).
    pub fn meta_index(&self) -> &MetaIndex {
        &self.meta_index.all
    }

    /// Every meta key the objects of type `kind` carry, with the values seen under it and how
    /// many of them have each (kept up to date in place).
    pub fn kind_meta(&self, kind: &str) -> Option<&MetaIndex> {
        let at = self.kinds.iter().position(|k| k == kind)?;
        self.meta_index.of_kind(u16::try_from(at).ok()?)
    }

    /// The objects `filter` matches (words that must all match: `key=value` a meta entry, any
    /// other word the id, the type or the row's text, ignoring case). When `last` was found in
    /// this version and `filter` only narrows its filter, only its objects are searched.
    pub fn matches(&self, filter: &str, last: Option<&Matches>) -> Matches {
        self.find(Query::parse(filter), last)
    }

    /// What `query` matches, narrowing `last` where it can.
    fn find(&self, query: Query, last: Option<&Matches>) -> Matches {
        let last = last.filter(|l| l.version == self.version && query.narrows(&l.query));
        let mut hits = last.and_then(|l| l.hits.clone());
        for word in &query.words {
            if last.is_some_and(|l| l.query.words.contains(word)) {
                continue;
            }
            hits = Some(match word {
                Word::Text(needle) => self.find_text(needle, hits),
                Word::Meta(needle) => {
                    let finder = Finder::new(needle.as_bytes());
                    match hits {
                        None => self.meta.containing(&finder),
                        Some(mut candidates) => {
                            candidates.retain(|&i| self.meta.contains(i, &finder));
                            candidates
                        }
                    }
                }
            });
        }
        Matches {
            version: self.version,
            query,
            hits,
        }
    }

    /// The objects (of `candidates`, else of all) whose id, type or row text holds `needle`
    /// (the id as it is, the others in lowercase, as the word was lowered), ascending.
    fn find_text(&self, needle: &str, candidates: Option<Vec<usize>>) -> Vec<usize> {
        let finder = Finder::new(needle.as_bytes());
        let kind_holds: Vec<bool> = self.kinds.iter().map(|k| k.contains(needle)).collect();
        let holds = |i: usize| {
            kind_holds[usize::from(self.kind_of[i])]
                || self.search.contains(i, &finder)
                || self.ids.contains(i, &finder)
        };
        match candidates {
            Some(mut candidates) => {
                candidates.retain(|&i| holds(i));
                candidates
            }
            None => {
                let mut hit = vec![false; self.len()];
                for i in self.search.containing(&finder) {
                    hit[i] = true;
                }
                for i in self.ids.containing(&finder) {
                    hit[i] = true;
                }
                for (i, &kind) in self.kind_of.iter().enumerate() {
                    hit[i] |= kind_holds[usize::from(kind)];
                }
                (0..self.len()).filter(|&i| hit[i]).collect()
            }
        }
    }

    /// The rows of the tree: every group heading, and under the unfolded ones the objects
    /// `matches` holds. With a filter, empty groups are left out. Matches of another version
    /// are found again in this one.
    pub fn tree(&self, matches: &Matches, folded: &HashSet<String>) -> Vec<TreeRow> {
        let current = if matches.version == self.version {
            Cow::Borrowed(matches)
        } else {
            Cow::Owned(self.find(matches.query.clone(), None))
        };
        let shown: Vec<Cow<[usize]>> = match &current.hits {
            None => self
                .groups
                .iter()
                .map(|g| Cow::Borrowed(g.members.as_slice()))
                .collect(),
            Some(hits) => {
                let mut group_of_kind = vec![usize::MAX; self.kinds.len()];
                for (gi, group) in self.groups.iter().enumerate() {
                    group_of_kind[usize::from(self.kind_of[group.members[0]])] = gi;
                }
                let mut per_group = vec![Vec::new(); self.groups.len()];
                for &i in hits {
                    per_group[group_of_kind[usize::from(self.kind_of[i])]].push(i);
                }
                per_group.into_iter().map(Cow::Owned).collect()
            }
        };
        let filtered = current.hits.is_some();
        let mut rows =
            Vec::with_capacity(self.groups.len() + current.count().unwrap_or(self.len()));
        for (gi, (group, shown)) in self.groups.iter().zip(shown).enumerate() {
            if shown.is_empty() && filtered {
                continue;
            }
            rows.push(TreeRow::Group(gi, shown.len()));
            if !folded.contains(&group.kind) {
                rows.extend(shown.iter().map(|&i| TreeRow::Object(i)));
            }
        }
        rows
    }

    /// The rows of the tree under `filter` ([`ObjectModel::matches`], then
    /// [`ObjectModel::tree`]).
    pub fn rows(&self, filter: &str, folded: &HashSet<String>) -> Vec<TreeRow> {
        self.tree(&self.matches(filter, None), folded)
    }

    /// Replaces one object's data (after a save or a re-read), in place: its row, its search
    /// text and the meta index follow.
    pub fn replace_data(&mut self, obj: &str, data: Props) {
        let Some(at) = self.index_of(obj) else {
            return;
        };
        self.forget_meta(at);
        let glance = Glance::of(&data);
        let row = glance_row(self.kind(at), &glance);
        let mut search = String::new();
        push_lowercase(&mut search, &row);
        let meta = glance.meta.as_deref().unwrap_or_default();
        let mut meta_text = String::new();
        write_meta_text(&mut meta_text, meta);
        self.meta_index.add(self.kind_of[at], meta);
        Arc::make_mut(&mut self.data)
            .replace(at, &serde_json::to_string(&data).expect("a map serializes"));
        self.rows.replace(at, &row);
        self.search.replace(at, &search);
        self.meta.replace(at, &meta_text);
        self.parsed[at] = OnceLock::new();
        self.version = next_version();
    }

    /// Adds object `obj` (one the model does not have) at `version` in its place by id, in
    /// place: its row, its search text and the meta index follow. Returns its index.
    pub fn insert(&mut self, obj: &str, kind: &str, data: &Props, version: Option<u64>) -> usize {
        let at = self.ids_partition(obj);
        let kind_index = self.kind_index(kind);
        let glance = Glance::of(data);
        let row = glance_row(kind, &glance);
        let mut search = String::new();
        push_lowercase(&mut search, &row);
        let meta = glance.meta.as_deref().unwrap_or_default();
        let mut meta_text = String::new();
        write_meta_text(&mut meta_text, meta);
        self.meta_index.add(kind_index, meta);
        Arc::make_mut(&mut self.ids).insert(at, obj);
        Arc::make_mut(&mut self.kind_of).insert(at, kind_index);
        Arc::make_mut(&mut self.data)
            .insert(at, &serde_json::to_string(data).expect("a map serializes"));
        self.rows.insert(at, &row);
        self.search.insert(at, &search);
        self.meta.insert(at, &meta_text);
        self.server_versions
            .insert(at, version.unwrap_or(NO_VERSION));
        self.parsed.insert(at, OnceLock::new());
        self.regroup();
        self.version = next_version();
        at
    }

    /// The index of the first object whose id is not before `obj`.
    fn ids_partition(&self, obj: &str) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.ids.get(mid) < obj {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    /// Takes the meta of the object at `index` out of the meta index.
    fn forget_meta(&mut self, index: usize) {
        let glance = Glance::read(self.data.get(index)).expect("kept data is a JSON object");
        let meta = glance.meta.as_deref().unwrap_or_default();
        self.meta_index.remove(self.kind_of[index], meta);
    }

    /// Takes out the objects at the indexes where `keep` is false, in place.
    pub(super) fn retain(&mut self, keep: &[bool]) {
        for i in (0..self.len()).filter(|&i| !keep[i]) {
            self.forget_meta(i);
        }
        for texts in self.texts_mut() {
            texts.retain(keep);
        }
        retain_kept(Arc::make_mut(&mut self.kind_of), keep);
        retain_kept(&mut self.parsed, keep);
        retain_kept(&mut self.server_versions, keep);
        self.regroup();
        self.version = next_version();
    }
}

/// Keeps the items at the indexes where `keep` is true, in order.
fn retain_kept<T>(items: &mut Vec<T>, keep: &[bool]) {
    let mut at = 0;
    items.retain(|_| {
        at += 1;
        keep[at - 1]
    });
}

impl fmt::Debug for ObjectModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectModel")
            .field("objects", &self.len())
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// Models are equal when they hold the same objects (what was parsed or found in them aside).
impl PartialEq for ObjectModel {
    fn eq(&self, other: &ObjectModel) -> bool {
        self.len() == other.len() && self.entries().zip(other.entries()).all(|(a, b)| a == b)
    }
}

/// Serializes as the content it holds, `{objectId: {type, data}}` in id order, the same text
/// as the content's values give, parsing one object at a time (an export of 100,000 objects
/// never holds them all as values).
impl Serialize for ObjectModel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries().map(|entry| (entry.id, entry.object())))
    }
}

/// The content's entries as they come: id, type, data as JSON text.
struct Listing<'a>(Vec<(String, ListedObject<'a>)>);

#[derive(Deserialize)]
struct ListedObject<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    data: &'a RawValue,
    /// With `?versions=true` (our extension).
    #[serde(default)]
    version: Option<u64>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Listing<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListingVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for ListingVisitor<'a> {
            type Value = Listing<'a>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of object id to {type, data}")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Listing<'a>, M::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, ListedObject<'de>>()? {
                    entries.push(entry);
                }
                Ok(Listing(entries))
            }
        }
        deserializer.deserialize_map(ListingVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests;
