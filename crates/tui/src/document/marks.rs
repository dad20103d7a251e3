//! Which objects of the open document are marked: one bit per object, by its index in the
//! model, so that marking 100,000 objects is a pass over bits.

use crate::document::model::ObjectModel;

/// The marked objects, by index into the open document's model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Marks {
    bits: Vec<u64>,
    count: usize,
}

impl Marks {
    /// How many objects are marked.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the object at `index` is marked.
    pub fn contains(&self, index: usize) -> bool {
        self.bits
            .get(index / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }

    /// The indexes of the marked objects, ascending.
    pub fn indexes(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                let bit = (rest != 0).then(|| rest.trailing_zeros() as usize)?;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }

    /// Marks (`true`) or unmarks the object at `index`.
    pub fn set(&mut self, index: usize, on: bool) {
        if self.bits.len() <= index / 64 {
            self.bits.resize(index / 64 + 1, 0);
        }
        let (word, bit) = (&mut self.bits[index / 64], 1 << (index % 64));
        if (*word & bit != 0) != on {
            *word ^= bit;
            if on {
                self.count += 1;
            } else {
                self.count -= 1;
            }
        }
    }

    /// The marks after the objects where `keep` is false were taken out.
    pub(super) fn retained(&self, keep: &[bool]) -> Marks {
        let mut marks = Marks::default();
        let mut at = 0;
        for (i, &kept) in keep.iter().enumerate() {
            if kept {
                if self.contains(i) {
                    marks.set(at, true);
                }
                at += 1;
            }
        }
        marks
    }

    /// The marks after an object was put in at `index` (unmarked): those from `index` on move
    /// one up.
    pub(super) fn inserted(&self, index: usize) -> Marks {
        let mut marks = Marks::default();
        for i in self.indexes() {
            marks.set(if i < index { i } else { i + 1 }, true);
        }
        marks
    }

    /// These marks of `old`'s objects, carried to the same objects (by id) in `new`; those
    /// `new` no longer has are dropped. One walk over both, as their ids are sorted.
    pub(super) fn carried(&self, old: &ObjectModel, new: &ObjectModel) -> Marks {
        let mut marks = Marks::default();
        let mut j = 0;
        for i in self.indexes() {
            let id = old.id(i);
            while j < new.len() && new.id(j) < id {
                j += 1;
            }
            if j < new.len() && new.id(j) == id {
                marks.set(j, true);
            }
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_count_and_list_their_indexes() {
        let mut marks = Marks::default();
        for i in [3, 64, 130, 3] {
            marks.set(i, true);
        }
        marks.set(500, false);
        assert_eq!(marks.len(), 3);
        assert!(marks.contains(64) && !marks.contains(65) && !marks.contains(10_000));
        assert_eq!(marks.indexes().collect::<Vec<_>>(), vec![3, 64, 130]);
        marks.set(64, false);
        assert_eq!(marks.len(), 2);
        let kept = marks.retained(&[true, true, false, true, true]);
        assert_eq!(kept.indexes().collect::<Vec<_>>(), vec![2]);
        let moved = marks.inserted(100);
        assert_eq!(moved.indexes().collect::<Vec<_>>(), vec![3, 131]);
    }
}
