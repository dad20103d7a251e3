//! Showing lines longer than their pane: a window that scrolls sideways with a marker (`…`)
//! where a line goes on beyond an edge, or soft wrap. Counted in characters.

use ratatui::style::Style;
use ratatui::text::Span;

/// The marker drawn where a line goes on beyond the edge.
pub const MORE: &str = "…";

/// The first column to show, `width` columns wide, so that column `col` (the cursor) shows with
/// a column to spare at each edge for the markers, moving from `offset` as little as possible.
pub fn follow(offset: usize, col: usize, width: usize) -> usize {
    if width < 3 {
        col
    } else if col <= offset {
        col.saturating_sub(1)
    } else if col > offset + width - 2 {
        col + 2 - width
    } else {
        offset
    }
}

/// The first column to show so that the end of a line `len` long shows: the start when the
/// whole line fits.
pub fn end_in_view(len: usize, width: usize) -> usize {
    if len <= width { 0 } else { len + 1 - width }
}

/// Spans cut to the columns `offset..offset + width`, the first and last shown column replaced
/// by the marker (in `marker`'s style) where the line goes on beyond them.
pub fn window(
    spans: Vec<Span<'static>>,
    offset: usize,
    width: usize,
    marker: Style,
) -> Vec<Span<'static>> {
    let len: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let cut_left = offset > 0 && len > 0;
    let cut_right = len > offset + width;
    let start = offset + usize::from(cut_left);
    let end = (offset + width).min(len) - usize::from(cut_right && width > 1);
    let mut out = Vec::new();
    if cut_left {
        out.push(Span::styled(MORE, marker));
    }
    out.extend(slice(spans, start, end));
    if cut_right && width > 1 {
        out.push(Span::styled(MORE, marker));
    }
    out
}

/// The characters `start..end` of a line in spans, each piece keeping its style.
pub fn slice(spans: Vec<Span<'static>>, start: usize, end: usize) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut at = 0;
    for span in spans {
        let n = span.content.chars().count();
        let (from, to) = (start.max(at), end.min(at + n));
        if from < to {
            let text: String = span
                .content
                .chars()
                .skip(from - at)
                .take(to - from)
                .collect();
            out.push(Span::styled(text, span.style));
        }
        at += n;
    }
    out
}

/// How many rows a line `len` long takes wrapped at `width` (one at least).
pub fn rows(len: usize, width: usize) -> usize {
    len.div_ceil(width.max(1)).max(1)
}

/// `text` broken into rows of at most `width` characters, at spaces where it can.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let (have, need) = (row.chars().count(), word.chars().count());
        if have > 0 && have + 1 + need > width {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
        while row.chars().count() > width {
            let rest: String = row.chars().skip(width).collect();
            rows.push(row.chars().take(width).collect());
            row = rest;
        }
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(spans: &[Span]) -> String {
        spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn the_window_follows_the_cursor_with_room_for_the_markers() {
        assert_eq!(follow(0, 5, 10), 0);
        assert_eq!(follow(0, 9, 10), 1, "the last column holds the marker");
        assert_eq!(follow(1, 9, 10), 1);
        assert_eq!(follow(20, 20, 10), 19, "back left, one to spare");
        assert_eq!(follow(20, 0, 10), 0);
        assert_eq!(end_in_view(8, 10), 0);
        assert_eq!(end_in_view(30, 10), 21);
    }

    #[test]
    fn a_cut_line_shows_markers_where_it_goes_on() {
        let line = || vec![Span::raw("abcdef"), Span::raw("ghij")];
        assert_eq!(text(&window(line(), 0, 20, Style::new())), "abcdefghij");
        assert_eq!(text(&window(line(), 0, 5, Style::new())), "abcd…");
        assert_eq!(text(&window(line(), 3, 5, Style::new())), "…efg…");
        assert_eq!(text(&window(line(), 6, 5, Style::new())), "…hij");
        assert_eq!(
            text(&window(line(), 12, 5, Style::new())),
            "…",
            "scrolled past it"
        );
        assert_eq!(text(&slice(line(), 4, 8)), "efgh");
        assert_eq!((rows(0, 5), rows(5, 5), rows(6, 5)), (1, 1, 2));
    }

    #[test]
    fn words_wrap_at_spaces_and_long_words_are_broken() {
        assert_eq!(
            wrap_words("! line 7: lineColor is not a colour", 12),
            vec!["! line 7:", "lineColor is", "not a colour"]
        );
        assert_eq!(wrap_words("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap_words("", 4), vec![""]);
    }
}
