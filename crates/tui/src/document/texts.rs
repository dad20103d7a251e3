//! Many strings kept in one buffer and found by index: the objects' ids, data, rows and search
//! text without an allocation each, and searched in one pass over the buffer.

use memchr::memmem::Finder;

/// Strings by index, back to back in one buffer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Texts {
    buf: String,
    /// Where each string ends in `buf`; string `i` starts where string `i - 1` ends.
    ends: Vec<usize>,
}

impl Texts {
    /// How many strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Adds a string.
    pub fn push(&mut self, text: &str) {
        self.push_with(|buf| buf.push_str(text));
    }

    /// Adds the string `write` appends to the buffer (built in place, without a copy).
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.buf);
        self.ends.push(self.buf.len());
    }

    /// String `i`.
    pub fn get(&self, i: usize) -> &str {
        &self.buf[self.start(i)..self.ends[i]]
    }

    fn start(&self, i: usize) -> usize {
        if i == 0 { 0 } else { self.ends[i - 1] }
    }

    /// Replaces string `i` by `text`; the strings after it move.
    pub fn replace(&mut self, i: usize, text: &str) {
        let (start, end) = (self.start(i), self.ends[i]);
        self.buf.replace_range(start..end, text);
        let grown = text.len() as isize - (end - start) as isize;
        for end in &mut self.ends[i..] {
            *end = end
                .checked_add_signed(grown)
                .expect("ends stay in the buffer");
        }
    }

    /// Puts `text` in as string `i`; the strings from `i` on move one up.
    pub fn insert(&mut self, i: usize, text: &str) {
        let start = self.start(i);
        self.buf.insert_str(start, text);
        for end in &mut self.ends[i..] {
            *end += text.len();
        }
        self.ends.insert(i, start + text.len());
    }

    /// Keeps string `i` where `keep[i]`, in order.
    pub fn retain(&mut self, keep: &[bool]) {
        let mut kept = Texts::default();
        for i in (0..self.len()).filter(|&i| keep[i]) {
            kept.push(self.get(i));
        }
        kept.buf.shrink_to_fit();
        *self = kept;
    }

    /// Appends all of `other`'s strings, in order.
    pub fn append(&mut self, other: &Texts) {
        let base = self.buf.len();
        self.buf.push_str(&other.buf);
        self.ends.extend(other.ends.iter().map(|end| end + base));
    }

    /// Frees the room kept for growth.
    pub fn shrink_to_fit(&mut self) {
        self.buf.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// The indexes of the strings that contain what `finder` looks for, ascending: one pass
    /// over the whole buffer (a match across two strings counts for neither).
    pub fn containing(&self, finder: &Finder) -> Vec<usize> {
        let hay = self.buf.as_bytes();
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(at) = finder.find(&hay[from..]) {
            let at = from + at;
            let i = self.ends.partition_point(|&end| end <= at);
            if at + finder.needle().len() <= self.ends[i] {
                found.push(i);
                from = self.ends[i];
            } else {
                // A match running into the next string is none: look again from its next byte.
                from = at + 1;
            }
        }
        found
    }

    /// Whether string `i` contains what `finder` looks for.
    pub fn contains(&self, i: usize, finder: &Finder) -> bool {
        finder.find(self.get(i).as_bytes()).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(strings: &[&str]) -> Texts {
        let mut texts = Texts::default();
        for s in strings {
            texts.push(s);
        }
        texts
    }

    #[test]
    fn strings_by_index_replaced_kept_and_appended() {
        let mut t = texts(&["alpha", "", "gamma"]);
        assert_eq!(
            (t.len(), t.get(0), t.get(1), t.get(2)),
            (3, "alpha", "", "gamma")
        );
        t.replace(0, "a");
        t.replace(1, "beta");
        assert_eq!((t.get(0), t.get(1), t.get(2)), ("a", "beta", "gamma"));
        t.retain(&[true, false, true]);
        assert_eq!((t.len(), t.get(0), t.get(1)), (2, "a", "gamma"));
        t.append(&texts(&["delta"]));
        assert_eq!((t.len(), t.get(2)), (3, "delta"));
        t.insert(0, "first");
        t.insert(2, "");
        t.insert(5, "last");
        assert_eq!(
            (0..t.len()).map(|i| t.get(i)).collect::<Vec<_>>(),
            ["first", "a", "", "gamma", "delta", "last"]
        );
    }

    #[test]
    fn finds_the_strings_holding_a_needle_once_each() {
        let t = texts(&["srv-1 srv-1", "", "db", "srv-2"]);
        assert_eq!(t.containing(&Finder::new("srv")), vec![0, 3]);
        assert_eq!(t.containing(&Finder::new("db")), vec![2]);
        // "1" + "db": across two strings.
        assert!(t.containing(&Finder::new("1db")).is_empty());
        assert_eq!(t.containing(&Finder::new("bs")), Vec::<usize>::new());
        assert!(t.containing(&Finder::new("nothing")).is_empty());
        assert!(t.contains(3, &Finder::new("2")));
        assert!(!t.contains(1, &Finder::new("2")));
    }
}
