//! Fuzzy matching with `nucleo-matcher` (the matcher of the helix editor): the document filter,
//! the command palette and the componentId picker rank what they show by it and highlight the
//! letters it matched.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// One item that matched: its index in the list given, its score, and the positions (in
/// characters) of the letters matched, for highlighting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Index into the items ranked.
    pub index: usize,
    /// Higher is better.
    pub score: u32,
    /// Character positions matched, ascending.
    pub positions: Vec<usize>,
}

/// The items matching `query` (words, each matched fuzzily, case ignored unless typed in upper
/// case), best first; of equal scores the shorter item first, then the items' order. An empty
/// query matches everything, in order.
pub fn rank<'a>(query: &str, items: impl IntoIterator<Item = &'a str>) -> Vec<Hit> {
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut chars = Vec::new();
    let mut positions = Vec::new();
    let mut hits: Vec<(Hit, usize)> = items
        .into_iter()
        .enumerate()
        .filter_map(|(index, item)| {
            positions.clear();
            let haystack = Utf32Str::new(item, &mut chars);
            let score = pattern.indices(haystack, &mut matcher, &mut positions)?;
            let mut matched: Vec<usize> = positions.iter().map(|&p| p as usize).collect();
            matched.sort_unstable();
            matched.dedup();
            let hit = Hit {
                index,
                score,
                positions: matched,
            };
            Some((hit, item.len()))
        })
        .collect();
    if !pattern.atoms.is_empty() {
        hits.sort_by_key(|(hit, len)| (std::cmp::Reverse(hit.score), *len, hit.index));
    }
    hits.into_iter().map(|(hit, _)| hit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_fuzzily_and_says_which_letters_matched() {
        let items = ["Network overview", "Production cluster", "Shared plan"];
        let hits = rank("prd", items);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].index, 1);
        assert_eq!(hits[0].positions, vec![0, 1, 3]);
        assert!(rank("prdq", items).is_empty());
        let all = rank("", items);
        assert_eq!(
            all.iter().map(|h| h.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // A closer match ranks first.
        let ids = ["generic.database-replica", "generic.db", "generic.database"];
        assert_eq!(rank("database", ids)[0].index, 2);
    }
}
