//! Showing lines longer than their pane: a window that scrolls sideways with a marker (`…`)
//! where a line goes on beyond an edge, or soft wrap. Counted in terminal columns: a wide
//! character (CJK, most emoji) takes two, so the cursor stays in its true column.

use ratatui::style::Style;
use ratatui::text::Span;
use unicode_width::UnicodeWidthChar;

/// The marker drawn where a line goes on beyond the edge.
pub const MORE: &str = "…";

/// The columns a character takes (a control character none).
pub fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The columns a text takes.
pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// Cuts `text` to at most `columns` terminal columns (a wide character takes two), ending with
/// `…` when cut.
pub fn clip(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = char_width(c);
        if used + w + 1 > columns {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// The column where character `chars` of `text` starts (its width when past the end).
pub fn column_of(text: &str, chars: usize) -> usize {
    text.chars().take(chars).map(char_width).sum()
}

/// The columns the cursor on character `chars` of `text` covers: the character's, one past
/// the end.
pub fn cell_at(text: &str, chars: usize) -> usize {
    text.chars().nth(chars).map_or(1, char_width).max(1)
}

/// The first column to show, `width` columns wide, so that the cursor (at column `col`,
/// `cell` columns wide) shows with a column to spare at each edge for the markers, moving from
/// `offset` as little as possible.
pub fn follow(offset: usize, col: usize, cell: usize, width: usize) -> usize {
    let end = col + cell;
    if width < cell + 2 {
        col
    } else if col <= offset {
        col.saturating_sub(1)
    } else if end > offset + width - 1 {
        end + 1 - width
    } else {
        offset
    }
}

/// The first column to show so that the end of a line `len` columns long shows: the start when
/// the whole line fits.
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
    let len: usize = spans.iter().map(|s| self::width(&s.content)).sum();
    let cut_left = offset > 0 && len > 0;
    let cut_right = len > offset + width;
    let start = offset + usize::from(cut_left);
    let end = (offset + width).min(len) - usize::from(cut_right && width > 1);
    let mut out = Vec::new();
    if cut_left {
        out.push(Span::styled(MORE, marker));
    }
    out.extend(slice(spans, start, end.max(start)));
    if cut_right && width > 1 {
        out.push(Span::styled(MORE, marker));
    }
    out
}

/// The columns `start..end` of a line in spans, each piece keeping its style; a wide character
/// cut by an edge shows as blanks.
pub fn slice(spans: Vec<Span<'static>>, start: usize, end: usize) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut at = 0;
    for span in spans {
        let mut text = String::new();
        for c in span.content.chars() {
            let w = char_width(c);
            let (from, to) = (start.max(at), end.min(at + w));
            if from == at && to == at + w && w > 0 {
                text.push(c);
            } else if from < to {
                text.extend(std::iter::repeat_n(' ', to - from));
            } else if w == 0 && (start..end).contains(&at) {
                text.push(c);
            }
            at += w;
        }
        if !text.is_empty() {
            out.push(Span::styled(text, span.style));
        }
    }
    out
}

/// Where the rows of a line wrapped at `width` columns start (the first at 0): a wide
/// character that would not fit goes whole to the next row.
pub fn row_starts(text: &str, width: usize) -> Vec<usize> {
    let width = width.max(2);
    let mut starts = vec![0];
    let mut at = 0;
    for c in text.chars() {
        let w = char_width(c);
        if at + w > starts[starts.len() - 1] + width {
            starts.push(at);
        }
        at += w;
    }
    starts
}

/// `text` broken into rows of at most `width` columns, at spaces where it can.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(2);
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let (have, need) = (self::width(&row), self::width(word));
        if have > 0 && have + 1 + need > width {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
        while self::width(&row) > width {
            let cut = row_starts(&row, width)[1];
            let (mut taken, mut at) = (String::new(), 0);
            let mut chars = row.chars().peekable();
            while let Some(&c) = chars.peek() {
                if at + char_width(c) > cut {
                    break;
                }
                at += char_width(c);
                taken.push(c);
                chars.next();
            }
            rows.push(taken);
            row = chars.collect();
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
        assert_eq!(follow(0, 5, 1, 10), 0);
        assert_eq!(follow(0, 9, 1, 10), 1, "the last column holds the marker");
        assert_eq!(follow(1, 9, 1, 10), 1);
        assert_eq!(follow(20, 20, 1, 10), 19, "back left, one to spare");
        assert_eq!(follow(20, 0, 1, 10), 0);
        assert_eq!(follow(0, 7, 2, 10), 0, "a wide cursor that fits");
        assert_eq!(
            follow(0, 8, 2, 10),
            1,
            "a wide cursor that would cover the marker"
        );
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
        assert_eq!(row_starts("", 5), [0]);
        assert_eq!(row_starts("abcde", 5), [0]);
        assert_eq!(row_starts("abcdef", 5), [0, 5]);
    }

    #[test]
    fn wide_characters_take_two_columns_and_are_never_cut_in_half() {
        let label = "数据库 🚀";
        assert_eq!(width(label), 9);
        assert_eq!(column_of(label, 3), 6);
        assert_eq!(cell_at(label, 4), 2, "the rocket");
        assert_eq!(cell_at(label, 5), 1, "past the end");
        let line = || vec![Span::raw("ab数据库")];
        assert_eq!(text(&slice(line(), 0, 4)), "ab数");
        assert_eq!(
            text(&slice(line(), 0, 5)),
            "ab数 ",
            "half a character is a blank"
        );
        assert_eq!(text(&slice(line(), 3, 6)), " 据");
        assert_eq!(text(&window(line(), 0, 6, Style::new())), "ab数 …");
        assert_eq!(row_starts("ab数据库", 5), [0, 4]);
        assert_eq!(wrap_words("数据库数据库", 5), ["数据", "库数", "据库"]);
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
