//! The properties pane: the JSON buffer with highlighting, markers on the lines the check
//! flags, the cursor in edit mode, and the check's messages below.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::json::highlight;
use super::{clip, pane_block};
use crate::tui::app::{App, Pane};
use crate::tui::editor::{Check, Mode};
use crate::tui::props_field::PropsField;

/// Draws the properties pane into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let editor = &app.editor;
    let title = match editor.target() {
        Some(t) => {
            let mode = if editor.mode == Mode::Edit {
                "EDIT"
            } else {
                "VIEW"
            };
            let dirty = if editor.is_dirty() { " ●" } else { "" };
            let saving = if editor.saving { " saving…" } else { "" };
            format!(
                " 3 Properties [{mode}]{dirty} {} {}{saving} ",
                t.kind, t.obj
            )
        }
        None => " 3 Properties ".to_string(),
    };
    let block = pane_block(app, Pane::Props, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if editor.target().is_none() {
        let hint = Line::styled(
            "select an object to see its properties",
            Style::new().fg(Color::DarkGray),
        );
        frame.render_widget(Paragraph::new(hint), inner);
        return;
    }
    let [text_area, footer_area] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(editor.footer_lines() as u16),
    ])
    .areas(inner);
    let syntax_line = editor.check.syntax.as_ref().map(|e| e.line);
    let warned = |n: usize| editor.check.warnings.iter().any(|w| w.line == n);
    let (cursor_row, cursor_col) = (editor.area.cursor().0, editor.area.cursor().1);
    let editing = editor.mode == Mode::Edit && app.focus == Pane::Props;
    let lines: Vec<Line> = editor
        .area
        .lines()
        .iter()
        .enumerate()
        .skip(editor.scroll)
        .take(text_area.height as usize)
        .map(|(i, text)| {
            let n = i + 1;
            let (mark, mark_style) = if syntax_line == Some(n) {
                (
                    "✗",
                    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
                )
            } else if warned(n) {
                (
                    "!",
                    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
                )
            } else {
                (" ", Style::new())
            };
            let mut spans = vec![
                Span::styled(format!("{n:>3}"), Style::new().fg(Color::DarkGray)),
                Span::styled(mark, mark_style),
            ];
            if editing && i == cursor_row {
                spans.extend(with_cursor(text, cursor_col));
            } else {
                spans.extend(highlight(text));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), text_area);
    let footer = check_lines(&editor.check, footer_area.width as usize);
    frame.render_widget(Paragraph::new(footer), footer_area);
}

/// The check's messages: the syntax error, then up to three warnings, cut to `width`.
pub(super) fn check_lines(check: &Check, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(e) = &check.syntax {
        lines.push(Line::styled(
            clip(
                &format!("✗ line {} col {}: {}", e.line, e.column, e.message),
                width,
            ),
            Style::new().fg(Color::Red),
        ));
    }
    for w in check.warnings.iter().take(3) {
        lines.push(Line::styled(
            clip(&format!("! line {}: {}", w.line, w.message), width),
            Style::new().fg(Color::Yellow),
        ));
    }
    lines
}

/// A props JSON field as lines: numbered, highlighted, the cursor shown when `focused`, the
/// check's messages below.
pub(super) fn field_lines(field: &PropsField, focused: bool, width: usize) -> Vec<Line<'static>> {
    let (row, col) = (field.area.cursor().0, field.area.cursor().1);
    let mut lines: Vec<Line> = field
        .area
        .lines()
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut spans = vec![Span::styled(
                format!("{:>3} ", i + 1),
                Style::new().fg(Color::DarkGray),
            )];
            if focused && i == row {
                spans.extend(with_cursor(text, col));
            } else {
                spans.extend(highlight(text));
            }
            Line::from(spans)
        })
        .collect();
    lines.extend(check_lines(&field.check, width));
    lines
}

/// The cursor line: plain text with the cursor cell reversed.
fn with_cursor(text: &str, col: usize) -> Vec<Span<'static>> {
    let before: String = text.chars().take(col).collect();
    let at: String = text.chars().nth(col).map_or(" ".into(), String::from);
    let after: String = text.chars().skip(col + 1).collect();
    vec![
        Span::raw(before),
        Span::styled(at, Style::new().add_modifier(Modifier::REVERSED)),
        Span::raw(after),
    ]
}
