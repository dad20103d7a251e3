//! The tree's filter: words that must all match, `key=value` a meta entry and any other word the
//! id, the type or the row's text, ignoring case. What a filter matched is kept
//! ([`Matches`]) so that the next one, when it only narrows it (a word typed longer, a word
//! added), searches those objects instead of all.

use crate::document::row::{META_SEP, push_lowercase};

/// One word of the filter, as the needle it looks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Word {
    /// A plain word, in lowercase: found in the search text (id, type, row).
    Text(String),
    /// `key=value`: found in the meta text as `␟key=value␟` (the value in lowercase).
    Meta(String),
}

impl Word {
    fn parse(word: &str) -> Word {
        let mut needle = String::new();
        match word.split_once('=') {
            Some((key, value)) => {
                needle.push(META_SEP);
                needle.push_str(key);
                needle.push('=');
                push_lowercase(&mut needle, value);
                needle.push(META_SEP);
                Word::Meta(needle)
            }
            None => {
                push_lowercase(&mut needle, word);
                Word::Text(needle)
            }
        }
    }

    /// Whether every object this word matches, `wider` matches too.
    fn implies(&self, wider: &Word) -> bool {
        match (self, wider) {
            (Word::Text(this), Word::Text(wider)) => this.contains(wider.as_str()),
            (Word::Meta(this), Word::Meta(wider)) => this == wider,
            _ => false,
        }
    }
}

/// A filter's words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Query {
    pub words: Vec<Word>,
}

impl Query {
    pub fn parse(text: &str) -> Query {
        Query {
            words: text.split_whitespace().map(Word::parse).collect(),
        }
    }

    /// Whether everything this query matches, `last` matched too.
    pub fn narrows(&self, last: &Query) -> bool {
        last.words
            .iter()
            .all(|wider| self.words.iter().any(|word| word.implies(wider)))
    }
}

/// The objects a filter matched, found in one version of an [`crate::document::ObjectModel`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Matches {
    /// The version of the model they were found in.
    pub(super) version: u64,
    pub(super) query: Query,
    /// The indexes of the objects matched, ascending; `None`: all (no filter).
    pub(super) hits: Option<Vec<usize>>,
}

impl Matches {
    /// Counts object `index` among the matches (the tree keeps the row of an object whose
    /// edits are unsaved, whatever the filter).
    pub fn include(&mut self, index: usize) {
        if let Some(hits) = self.hits.as_mut()
            && let Err(at) = hits.binary_search(&index)
        {
            hits.insert(at, index);
        }
    }

    /// How many objects matched, `None` meaning all of them.
    pub fn count(&self) -> Option<usize> {
        self.hits.as_ref().map(Vec::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_narrows_the_last_when_each_old_word_is_implied() {
        let q = Query::parse;
        assert!(q("srv-1").narrows(&q("srv")));
        assert!(q("srv db").narrows(&q("srv")));
        assert!(q("db SRV").narrows(&q("srv")));
        assert!(q("status=down").narrows(&q("status=Down")));
        assert!(q("anything").narrows(&q("")));
        assert!(!q("sr").narrows(&q("srv")));
        assert!(!q("status=downs").narrows(&q("status=down")));
        assert!(!q("status").narrows(&q("status=down")));
        assert!(!q("").narrows(&q("srv")));
    }
}
