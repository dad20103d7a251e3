//! Titles cut to a width and still told apart: a title that would read like another once cut
//! (`Web platfor…` for both *Web platform* and *Web platform (copy)*) keeps the end that tells it
//! apart, its start cut instead (`Web platform… (copy)`).

use crate::text::text_view::{char_width, clip, width};

/// A title fitted into some columns: the text, and where each character of the title went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// What to show: at most the columns given.
    pub text: String,
    /// For each character of the title, its index in `text`; `None` for one cut away.
    pub places: Vec<Option<usize>>,
}

impl Fitted {
    /// The characters `positions` of the title (a filter's matched letters) as characters of
    /// the text shown, those cut away left out.
    pub fn moved(&self, positions: &[usize]) -> Vec<usize> {
        positions
            .iter()
            .filter_map(|&p| self.places.get(p).copied().flatten())
            .collect()
    }
}

/// `title` in at most `columns` columns, told apart from `others` (the other titles of the
/// list): cut at its end as usual, unless another title would then read the same and they
/// differ further on; then its end from the word where they differ stays, its start is cut with
/// `…` (`Web platform… (copy)`), the end itself cut to two thirds of the columns at most.
pub fn fit<'a>(title: &str, others: impl IntoIterator<Item = &'a str>, columns: usize) -> Fitted {
    let chars: Vec<char> = title.chars().collect();
    if width(title) <= columns {
        return Fitted {
            text: title.to_owned(),
            places: (0..chars.len()).map(Some).collect(),
        };
    }
    let shown = clip(title, columns);
    let differ = others
        .into_iter()
        .filter(|other| *other != title && clip(other, columns) == shown)
        .map(|other| {
            chars
                .iter()
                .zip(other.chars())
                .take_while(|(a, b)| **a == *b)
                .count()
        })
        .filter(|&common| common < chars.len())
        .min();
    let kept = shown.chars().count() - 1;
    let Some(from) = differ.filter(|_| columns >= 8) else {
        return Fitted {
            text: shown,
            places: (0..chars.len()).map(|i| (i < kept).then_some(i)).collect(),
        };
    };
    let start = word_start(&chars, from);
    let tail: String = chars[start..].iter().collect();
    let tail = clip(&tail, columns * 2 / 3);
    let tail_len = tail.chars().count() - usize::from(tail.ends_with('…'));
    let mut room = columns - width(&tail) - 1;
    let mut text = String::new();
    let mut head = 0;
    for &c in &chars[..start] {
        let w = char_width(c);
        if w > room {
            break;
        }
        room -= w;
        text.push(c);
        head += 1;
    }
    text.push('…');
    text.push_str(&tail);
    let places = (0..chars.len())
        .map(|i| {
            if i < head {
                Some(i)
            } else if i >= start && i < start + tail_len {
                Some(head + 1 + i - start)
            } else {
                None
            }
        })
        .collect();
    Fitted { text, places }
}

/// Where the word holding character `at` starts, with the space before it (` (copy)`); `at`
/// itself when it is a space, or when the word is the title's first.
fn word_start(chars: &[char], at: usize) -> usize {
    if chars[at].is_whitespace() {
        return at;
    }
    let mut start = at;
    while start > 0 && !chars[start - 1].is_whitespace() {
        start -= 1;
    }
    if start == 0 { at } else { start - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_keeps_the_end_that_tells_it_apart() {
        let all = [
            "Web platform (production)",
            "Web platform (production) (copy)",
        ];
        let copy = fit(all[1], all, 20);
        assert_eq!(copy.text, "Web platform… (copy)");
        assert_eq!(width(&copy.text), 20);
        // The original is the copy's start: cut as usual, still told apart.
        assert_eq!(fit(all[0], all, 20).text, "Web platform (produ…");
        // Where they differ in a word, the word stays whole.
        let all = ["Network plan 2024", "Network plan 2025"];
        assert_eq!(fit(all[1], all, 12).text, "Networ… 2025");
    }

    #[test]
    fn titles_that_fit_or_differ_early_are_cut_at_their_end() {
        let all = ["Network overview", "Production cluster"];
        assert_eq!(fit(all[0], all, 30).text, "Network overview");
        assert_eq!(fit(all[1], all, 10).text, "Productio…");
        assert_eq!(fit(all[1], all, 10).moved(&[0, 8, 9]), vec![0, 8]);
    }

    #[test]
    fn the_letters_matched_follow_the_end_kept() {
        let all = [
            "Web platform (production)",
            "Web platform (production) (copy)",
        ];
        let copy = fit(all[1], all, 20);
        // `W` and the `c` of `(copy)`.
        assert_eq!(copy.moved(&[0, 27]), vec![0, 15]);
        assert_eq!(copy.text.chars().nth(15), Some('c'));
    }
}
