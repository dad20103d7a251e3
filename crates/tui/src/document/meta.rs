//! The index of the document's meta: every key with the values seen under it (the selector
//! form's type-ahead), counted so that a save or a removal updates it in place.

use std::collections::BTreeMap;

use crate::document::glance::MetaEntry;

/// Meta key to the values seen under it (as text).
pub type MetaIndex = BTreeMap<String, MetaValues>;

/// The values seen under one meta key, in order, each with how many objects have it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MetaValues {
    uses: BTreeMap<String, usize>,
}

impl MetaValues {
    /// The values, in order.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.uses.keys()
    }

    /// How many different values.
    pub fn len(&self) -> usize {
        self.uses.len()
    }

    /// Whether there are none (never, in an index: a key without values is dropped).
    pub fn is_empty(&self) -> bool {
        self.uses.is_empty()
    }

    /// Whether some object has `value`.
    pub fn contains(&self, value: &str) -> bool {
        self.uses.contains_key(value)
    }

    /// The values, in order, each with how many objects have it.
    pub fn counts(&self) -> impl Iterator<Item = (&str, usize)> {
        self.uses.iter().map(|(value, &n)| (value.as_str(), n))
    }
}

/// The meta index of all the objects, and one per type, kept together.
#[derive(Debug, Clone, Default)]
pub(super) struct MetaIndexes {
    /// Of all the objects.
    pub all: MetaIndex,
    /// Of each type's objects, by the type's index in the model.
    by_kind: Vec<MetaIndex>,
}

impl MetaIndexes {
    /// The index of the objects of type `kind` (an index into the model's types).
    pub fn of_kind(&self, kind: u16) -> Option<&MetaIndex> {
        self.by_kind.get(usize::from(kind))
    }

    fn kind_mut(&mut self, kind: u16) -> &mut MetaIndex {
        let kind = usize::from(kind);
        if self.by_kind.len() <= kind {
            self.by_kind.resize_with(kind + 1, MetaIndex::new);
        }
        &mut self.by_kind[kind]
    }

    /// Counts the meta of one object of type `kind` in.
    pub fn add(&mut self, kind: u16, meta: &[MetaEntry]) {
        add(&mut self.all, meta);
        add(self.kind_mut(kind), meta);
    }

    /// Takes the meta of one object of type `kind` out.
    pub fn remove(&mut self, kind: u16, meta: &[MetaEntry]) {
        remove(&mut self.all, meta);
        remove(self.kind_mut(kind), meta);
    }

    /// Adds the counts of `other`, whose type `k` is this one's `kinds[k]`.
    pub fn merge(&mut self, other: MetaIndexes, kinds: &[u16]) {
        merge(&mut self.all, other.all);
        for (k, index) in other.by_kind.into_iter().enumerate() {
            merge(self.kind_mut(kinds[k]), index);
        }
    }
}

/// Counts one object's meta into `index`.
fn add(index: &mut MetaIndex, meta: &[MetaEntry]) {
    for (key, value) in meta {
        let values = match index.get_mut(key.as_ref()) {
            Some(values) => values,
            None => index.entry(key.to_string()).or_default(),
        };
        match values.uses.get_mut(value.as_ref()) {
            Some(uses) => *uses += 1,
            None => {
                values.uses.insert(value.to_string(), 1);
            }
        }
    }
}

/// Adds the counts of `other` into `index`.
fn merge(index: &mut MetaIndex, other: MetaIndex) {
    for (key, values) in other {
        let Some(mine) = index.get_mut(&key) else {
            index.insert(key, values);
            continue;
        };
        for (value, uses) in values.uses {
            *mine.uses.entry(value).or_default() += uses;
        }
    }
}

/// Takes one object's meta out of `index`: a value no other object has goes, and a key left
/// without values.
fn remove(index: &mut MetaIndex, meta: &[MetaEntry]) {
    for (key, value) in meta {
        let Some(values) = index.get_mut(key.as_ref()) else {
            continue;
        };
        if let Some(uses) = values.uses.get_mut(value.as_ref()) {
            *uses -= 1;
            if *uses == 0 {
                values.uses.remove(value.as_ref());
            }
        }
        if values.uses.is_empty() {
            index.remove(key.as_ref());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn meta(entries: &[(&'static str, &'static str)]) -> Vec<MetaEntry<'static>> {
        entries
            .iter()
            .map(|&(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v)))
            .collect()
    }

    #[test]
    fn values_are_counted_and_go_with_their_last_object() {
        let mut index = MetaIndex::new();
        add(&mut index, &meta(&[("status", "down"), ("port", "80")]));
        add(&mut index, &meta(&[("status", "up")]));
        add(&mut index, &meta(&[("status", "down")]));
        let values = |index: &MetaIndex, key: &str| -> Vec<String> {
            index
                .get(key)
                .map(|v| v.iter().cloned().collect())
                .unwrap_or_default()
        };
        assert_eq!(values(&index, "status"), ["down", "up"]);
        assert_eq!(values(&index, "port"), ["80"]);
        remove(&mut index, &meta(&[("status", "down"), ("port", "80")]));
        assert_eq!(values(&index, "status"), ["down", "up"]);
        assert!(!index.contains_key("port"));
        remove(&mut index, &meta(&[("status", "down")]));
        assert_eq!(values(&index, "status"), ["up"]);
        assert!(index["status"].contains("up") && index["status"].len() == 1);
        let mut other = MetaIndex::new();
        add(&mut other, &meta(&[("status", "up"), ("zone", "a")]));
        merge(&mut index, other);
        assert_eq!(index["status"].uses["up"], 2);
        assert_eq!(values(&index, "zone"), ["a"]);
    }
}
