//! Drawing pieces shared by the components: pane borders, the filter
//! line, fuzzy highlights, JSON fields, diffs, and the box of an overlay (an object's row is
//! its [`crate::document::names::Name`]'s).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use crate::keys::{Command, Context};
use crate::text::json::{Check, Diff, PathEdit, highlight};
use crate::text::text_view;
use crate::text::text_view::clip;
use crate::theme::{Role, Theme};
use crate::vocab::action::Cx;
use crate::widgets::input::{Filter, LineInput};
use crate::widgets::list::ListCursor;
use crate::widgets::props_field::PropsField;

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

/// A list's filter line `width` columns wide: `/text`, with a cursor while it is typed (the
/// text scrolls to keep it in view).
pub fn filter_line(filter: &Filter, width: usize, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("/", theme.of(Role::Warning))];
    let width = width.saturating_sub(1);
    if filter.typing() {
        spans.extend(input_spans(filter.input(), width, theme));
    } else {
        spans.push(Span::raw(clip(filter.text(), width)));
    }
    Line::from(spans)
}

/// A one-line field's text with its cursor (a thin bar), in a window `width` columns wide that
/// keeps the cursor in view (`…` where the text goes on).
pub fn input_spans(input: &LineInput, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    let text = input.text();
    let before: String = text.chars().take(input.cursor()).collect();
    let after: String = text.chars().skip(input.cursor()).collect();
    let spans = vec![
        Span::raw(before),
        Span::styled("▏", theme.of(Role::Key)),
        Span::raw(after),
    ];
    text_view::window(spans, input.view_offset(width), width, theme.of(Role::Dim))
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
    let used: usize = line
        .spans
        .iter()
        .map(|s| text_view::width(&s.content))
        .sum();
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

/// The rows of an overlay's list that `cursor` shows: each drawn by `row`, the selected one
/// highlighted, then `… N more` (`more` names them: `older`, `more`) when some are below.
pub fn cursor_rows(
    cursor: &ListCursor,
    width: usize,
    row: impl Fn(usize) -> Line<'static>,
    more: &str,
    cx: &Cx,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = cursor
        .visible()
        .map(|i| {
            let line = row(i);
            if i == cursor.selected() {
                selected_line(line, width, cx.style(Role::Selected))
            } else {
                line
            }
        })
        .collect();
    let below = cursor.len().saturating_sub(cursor.visible().end);
    if below > 0 {
        lines.push(Line::styled(
            format!("  … {below} {more}"),
            cx.style(Role::Dim),
        ));
    }
    lines
}

/// The check's messages in full (the overlays wrap them): the syntax error, then the warnings.
fn check_lines(check: &Check, theme: &Theme) -> Vec<Line<'static>> {
    let syntax = check.syntax.iter().map(|e| {
        Line::styled(
            format!("✗ line {} col {}: {}", e.line, e.column, e.message),
            theme.of(Role::Error),
        )
    });
    let warnings = check.warnings.iter().map(|w| {
        Line::styled(
            format!("! line {}: {}", w.line, w.message),
            theme.of(Role::Warning),
        )
    });
    syntax.chain(warnings).collect()
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
/// check's messages below in full (the overlay wraps them).
pub fn field_lines(field: &PropsField, focused: bool, theme: &Theme) -> Vec<Line<'static>> {
    let (row, col) = field.editor.cursor();
    let mut lines: Vec<Line> = field
        .editor
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
    lines.extend(check_lines(&field.check, theme));
    lines
}

/// The lines of a diff, by path and whole (they wrap where drawn): `~ meta.ttl: 60 → 61`,
/// `+ meta.owner: added "ops"`, `- meta.zone: removed`; a top-level property gone from the text
/// says that an update cannot remove it. `indent` first.
pub fn diff_lines(diff: &Diff, indent: &str, theme: &Theme) -> Vec<Line<'static>> {
    let key = theme.of(Role::JsonKey);
    let (added, removed) = (theme.of(Role::DiffAdded), theme.of(Role::DiffRemoved));
    let mut lines: Vec<Line<'static>> = diff
        .paths()
        .into_iter()
        .map(|change| {
            let path = Span::styled(format!("{}: ", change.path), key);
            match change.edit {
                PathEdit::Changed(before, after) => Line::from(vec![
                    Span::styled(format!("{indent}~ "), theme.of(Role::DiffChanged)),
                    path,
                    Span::styled(before.to_string(), removed),
                    Span::raw(" → "),
                    Span::styled(after.to_string(), added),
                ]),
                PathEdit::Added(after) => Line::from(vec![
                    Span::styled(format!("{indent}+ "), added),
                    path,
                    Span::raw("added "),
                    Span::styled(after.to_string(), added),
                ]),
                PathEdit::Removed(before) => Line::from(vec![
                    Span::styled(format!("{indent}- "), removed),
                    path,
                    Span::raw("removed (was "),
                    Span::styled(before.to_string(), removed),
                    Span::raw(")"),
                ]),
            }
        })
        .collect();
    for gone in &diff.removed {
        lines.push(Line::styled(
            format!(
                "{indent}- {gone}: not in the text, but an update cannot remove a property: it stays as it is"
            ),
            theme.of(Role::Dim),
        ));
    }
    lines
}

/// The note said once under a diff: the nested properties sent whole, and why.
pub fn sent_whole_note(keys: &[&str], theme: &Theme) -> Option<Line<'static>> {
    let (first, rest) = keys.split_first()?;
    let names = match rest {
        [] => format!("{first} is"),
        _ => format!("{} are", keys.join(", ")),
    };
    Some(Line::styled(
        format!("note: {names} sent whole (an update merges top-level properties only)"),
        theme.of(Role::Dim),
    ))
}

/// A line of hints in the dim style.
pub fn hint_line(text: String, theme: &Theme) -> Line<'static> {
    Line::styled(text, theme.of(Role::Dim))
}

/// Draws an overlay: a box of at most `width` × `height`, centred in `area`, titled, holding
/// `body` (wrapped) above `footer` (its key lines). The box grows when wrapping makes the text
/// taller, up to the screen's height; the footer always shows, and a body that does not fit is
/// cut with a marker saying how much more there is (`↓ 3 more`). An overlay whose body can
/// scroll draws with [`scrolled_box`].
pub fn overlay_box(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    parts: (Vec<Line<'static>>, Vec<Line<'static>>),
    size: (u16, u16),
    theme: &Theme,
) {
    scrolled_box(frame, area, title, parts, size, 0, theme);
}

/// How many rows `lines` take, wrapped to `width` columns.
pub fn wrapped_rows(lines: &[Line<'static>], width: u16) -> usize {
    Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width)
}

/// Where a scrolled overlay's parts go: its box, its body's rows (all of them, wrapped), the rows
/// of the body shown, and the footer's place.
struct ScrolledLayout {
    rect: Rect,
    body_rows: usize,
    body: Rect,
    footer: Rect,
}

fn scrolled_layout(
    area: Rect,
    body: &Paragraph,
    footer: &Paragraph,
    (width, height): (u16, u16),
) -> ScrolledLayout {
    let width = width.min(area.width);
    let inner = width.saturating_sub(2);
    let body_rows = body.line_count(inner);
    let footer_rows = u16::try_from(footer.line_count(inner)).unwrap_or(u16::MAX);
    let needed = u16::try_from(body_rows)
        .unwrap_or(u16::MAX)
        .saturating_add(footer_rows)
        .saturating_add(2);
    let rect = centered(area, width, height.max(needed).min(area.height));
    let inside = Rect {
        x: rect.x + 1,
        y: rect.y + 1,
        width: inner,
        height: rect.height.saturating_sub(2),
    };
    let footer_rows = footer_rows.min(inside.height);
    let body_height = inside.height - footer_rows;
    ScrolledLayout {
        rect,
        body_rows,
        body: Rect {
            height: body_height,
            ..inside
        },
        footer: Rect {
            y: inside.y + body_height,
            height: footer_rows,
            ..inside
        },
    }
}

/// How far the body of a scrolled overlay (see [`scrolled_box`]) can scroll, and the rows of a
/// page of it, on a screen `area`.
pub fn scroll_room(
    area: Rect,
    body: Vec<Line<'static>>,
    footer: Vec<Line<'static>>,
    size: (u16, u16),
) -> (usize, usize) {
    let body = Paragraph::new(body).wrap(Wrap { trim: false });
    let footer = Paragraph::new(footer).wrap(Wrap { trim: false });
    let layout = scrolled_layout(area, &body, &footer, size);
    let page = usize::from(layout.body.height);
    (layout.body_rows.saturating_sub(page), page.max(1))
}

/// Draws an overlay whose body scrolls: at most `width` × `height` (taller when the text needs
/// it, up to the screen), the body wrapped and shown from row `scroll`, the `footer` (hints)
/// always at the bottom.
pub fn scrolled_box(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    (body, footer): (Vec<Line<'static>>, Vec<Line<'static>>),
    size: (u16, u16),
    scroll: usize,
    theme: &Theme,
) {
    let body = Paragraph::new(body).wrap(Wrap { trim: false });
    let footer = Paragraph::new(footer).wrap(Wrap { trim: false });
    let layout = scrolled_layout(area, &body, &footer, size);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.of(Role::OverlayBorder))
        .title(clip(
            title,
            usize::from(layout.rect.width.saturating_sub(2)),
        ));
    frame.render_widget(Clear, layout.rect);
    frame.render_widget(block, layout.rect);
    let page = usize::from(layout.body.height);
    let scroll = scroll.min(layout.body_rows.saturating_sub(page));
    frame.render_widget(
        body.scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        layout.body,
    );
    // Where the body goes on beyond the box, a marker on its first or last row says how far.
    let below = layout.body_rows.saturating_sub(scroll + page);
    let markers = [
        (scroll > 0 && page > 1, 0, format!("↑ {} more", scroll + 1)),
        (
            below > 0 && page > 0,
            page.saturating_sub(1),
            format!("↓ {} more", below + 1),
        ),
    ];
    for (shown, row, text) in markers {
        if !shown {
            continue;
        }
        let rect = Rect {
            y: layout.body.y + u16::try_from(row).unwrap_or(0),
            height: 1,
            ..layout.body
        };
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(Line::styled(text, theme.of(Role::Dim))),
            rect,
        );
    }
    frame.render_widget(footer, layout.footer);
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
        assert_eq!(clip("数据库 🚀", 6), "数据…", "in columns");
        assert_eq!(clip("数据库 🚀", 9), "数据库 🚀");
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
