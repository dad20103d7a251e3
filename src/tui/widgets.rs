//! Drawing pieces shared by the components: cutting text with `…`, pane borders, the filter
//! line, fuzzy highlights, object rows, JSON fields, diffs, and the box of an overlay.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use serde_json::Value;

use super::component::Cx;
use super::document::row_text;
use super::input::{Filter, LineInput};
use super::json::{Check, Diff, highlight};
use super::keys::{Command, Context};
use super::props_field::PropsField;
use super::theme::{Role, Theme};
use crate::model::DiagramObject;

/// Cuts `text` to at most `width` characters, ending with `…` when cut.
pub fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The bordered block of a pane `width` wide: thick and highlighted with the focus, its title
/// cut to fit.
pub fn pane_block(title: &str, width: u16, focused: bool, theme: &Theme) -> Block<'static> {
    let (border, style) = if focused {
        (BorderType::Thick, theme.of(Role::FocusBorder))
    } else {
        (BorderType::Plain, theme.of(Role::Border))
    };
    Block::new()
        .borders(Borders::ALL)
        .border_type(border)
        .border_style(style)
        .title(clip(title, usize::from(width.saturating_sub(2))))
}

/// A list's filter line: `/text`, with a cursor while it is typed.
pub fn filter_line(filter: &Filter, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("/", theme.of(Role::Warning))];
    if filter.typing() {
        spans.extend(input_spans(filter.input(), theme));
    } else {
        spans.push(Span::raw(filter.text().to_string()));
    }
    Line::from(spans)
}

/// A one-line field's text with its cursor (a thin bar).
pub fn input_spans(input: &LineInput, theme: &Theme) -> Vec<Span<'static>> {
    let text = input.text();
    let before: String = text.chars().take(input.cursor()).collect();
    let after: String = text.chars().skip(input.cursor()).collect();
    vec![
        Span::raw(before),
        Span::styled("▏", theme.of(Role::Key)),
        Span::raw(after),
    ]
}

/// What a pane shows when its list could not be loaded: `what`, why, and the key that retries.
pub fn load_error_lines(what: &str, error: &str, cx: &Cx) -> Vec<Line<'static>> {
    vec![
        Line::styled(format!("Could not load {what}:"), cx.style(Role::Error)),
        Line::raw(error.to_string()),
        Line::styled(
            format!(
                "Press {} to retry.",
                cx.key(Context::Global, Command::Refresh)
            ),
            cx.style(Role::Strong),
        ),
    ]
}

/// `text` cut to `width`, the characters at `positions` in the match style.
pub fn highlighted(
    text: &str,
    positions: &[usize],
    width: usize,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let cut = clip(text, width);
    let matched = theme.of(Role::Match);
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut run_matched = false;
    for (i, c) in cut.chars().enumerate() {
        let is_match = positions.contains(&i);
        if is_match != run_matched && !run.is_empty() {
            let text = std::mem::take(&mut run);
            spans.push(if run_matched {
                Span::styled(text, matched)
            } else {
                Span::raw(text)
            });
        }
        run_matched = is_match;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(if run_matched {
            Span::styled(run, matched)
        } else {
            Span::raw(run)
        });
    }
    spans
}

/// The spans of `line` padded with spaces to `width` and drawn in `style` (a selected row).
pub fn selected_line(line: Line<'static>, width: usize, style: Style) -> Line<'static> {
    let used: usize = line.spans.iter().map(|s| s.content.chars().count()).sum();
    let mut spans: Vec<Span<'static>> = line
        .spans
        .into_iter()
        .map(|s| {
            let patched = s.style.patch(style);
            Span::styled(s.content, patched)
        })
        .collect();
    if used < width {
        spans.push(Span::styled(" ".repeat(width - used), style));
    }
    Line::from(spans)
}

/// An object's readable row: a mark (`●` when marked), its text, then its id dimmed where
/// there is room; at most `width` characters.
pub fn object_line(
    id: &str,
    object: &DiagramObject,
    width: usize,
    marked: bool,
    theme: &Theme,
) -> Line<'static> {
    object_row_line(id, &row_text(object), width, marked, theme)
}

/// [`object_line`] of an object whose row text is `row` (as the model keeps it).
pub fn object_row_line(
    id: &str,
    row: &str,
    width: usize,
    marked: bool,
    theme: &Theme,
) -> Line<'static> {
    let mark = if marked { "● " } else { "  " };
    let text = clip(row, width.saturating_sub(2));
    let room = width.saturating_sub(text.chars().count() + 3);
    let id = if room >= 6 {
        format!(" {}", clip(id, room))
    } else {
        String::new()
    };
    Line::from(vec![
        Span::styled(mark, theme.of(Role::Marked)),
        Span::raw(text),
        Span::styled(id, theme.of(Role::Dim)),
    ])
}

/// The check's messages: the syntax error, then up to three warnings, cut to `width`.
pub fn check_lines(check: &Check, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(e) = &check.syntax {
        lines.push(Line::styled(
            clip(
                &format!("✗ line {} col {}: {}", e.line, e.column, e.message),
                width,
            ),
            theme.of(Role::Error),
        ));
    }
    for w in check.warnings.iter().take(3) {
        lines.push(Line::styled(
            clip(&format!("! line {}: {}", w.line, w.message), width),
            theme.of(Role::Warning),
        ));
    }
    lines
}

/// The cursor line of a text area: plain text with the cursor cell reversed.
pub fn with_cursor(text: &str, col: usize, theme: &Theme) -> Vec<Span<'static>> {
    let before: String = text.chars().take(col).collect();
    let at: String = text.chars().nth(col).map_or(" ".into(), String::from);
    let after: String = text.chars().skip(col + 1).collect();
    vec![
        Span::raw(before),
        Span::styled(at, theme.of(Role::Cursor)),
        Span::raw(after),
    ]
}

/// A props JSON field as lines: numbered, highlighted, the cursor shown when `focused`, the
/// check's messages below.
pub fn field_lines(
    field: &PropsField,
    focused: bool,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let (row, col) = (field.area.cursor().0, field.area.cursor().1);
    let mut lines: Vec<Line> = field
        .area
        .lines()
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut spans = vec![Span::styled(format!("{:>3} ", i + 1), theme.of(Role::Dim))];
            if focused && i == row {
                spans.extend(with_cursor(text, col, theme));
            } else {
                spans.extend(highlight(text, theme));
            }
            Line::from(spans)
        })
        .collect();
    lines.extend(check_lines(&field.check, width, theme));
    lines
}

/// A value on one line, cut to a readable length.
fn compact(value: &Value) -> String {
    clip(&value.to_string(), 60)
}

/// The lines of a diff: each changed property (`~` before → after, or `+` added), a note when a
/// nested value is replaced whole, and `-` for the properties an update cannot remove;
/// `indent` first.
pub fn diff_lines(diff: &Diff, indent: &str, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let key = theme.of(Role::JsonKey);
    for change in &diff.changes {
        let after = compact(&change.after);
        let line = match &change.before {
            Some(before) => Line::from(vec![
                Span::styled(format!("{indent}~ "), theme.of(Role::DiffChanged)),
                Span::styled(format!("{}: ", change.key), key),
                Span::styled(compact(before), theme.of(Role::DiffRemoved)),
                Span::raw(" → "),
                Span::styled(after, theme.of(Role::DiffAdded)),
            ]),
            None => Line::from(vec![
                Span::styled(format!("{indent}+ "), theme.of(Role::DiffAdded)),
                Span::styled(format!("{}: ", change.key), key),
                Span::styled(after, theme.of(Role::DiffAdded)),
            ]),
        };
        lines.push(line);
        if change.replaces_nested() {
            lines.push(Line::styled(
                format!(
                    "{indent}    note: {} is replaced whole (the update does not merge inside it)",
                    change.key
                ),
                theme.of(Role::Dim),
            ));
        }
    }
    for key in &diff.removed {
        lines.push(Line::styled(
            format!("{indent}- {key}: an update cannot remove a property; it stays as it is"),
            theme.of(Role::Dim),
        ));
    }
    lines
}

/// A line of hints in the dim style.
pub fn hint_line(text: String, theme: &Theme) -> Line<'static> {
    Line::styled(text, theme.of(Role::Dim))
}

/// Draws an overlay: a box of at most `width` × `height`, centred in `area`, titled, holding
/// `lines` (wrapped). The box grows when wrapping makes the text taller, so the hints at its
/// bottom always show (up to the screen's height).
pub fn overlay_box(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    lines: Vec<Line<'static>>,
    (width, height): (u16, u16),
    theme: &Theme,
) {
    let width = width.min(area.width);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.of(Role::OverlayBorder))
        .title(clip(title, usize::from(width.saturating_sub(2))));
    let paragraph = Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block);
    let needed = u16::try_from(paragraph.line_count(width)).unwrap_or(u16::MAX);
    let height = height.max(needed).min(area.height);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(paragraph, rect);
}

/// A rectangle of at most `width` × `height` centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_text_ends_in_an_ellipsis() {
        assert_eq!(clip("Network overview", 8), "Network…");
        assert_eq!(clip("short", 8), "short");
        assert_eq!(clip("abc", 0), "…");
    }

    #[test]
    fn matched_letters_are_highlighted_in_runs() {
        let theme = Theme::dark();
        let spans = highlighted("Production", &[0, 1, 3], 20, &theme);
        let parts: Vec<(&str, bool)> = spans
            .iter()
            .map(|s| (s.content.as_ref(), s.style == theme.of(Role::Match)))
            .collect();
        assert_eq!(
            parts,
            vec![("Pr", true), ("o", false), ("d", true), ("uction", false)]
        );
    }
}
