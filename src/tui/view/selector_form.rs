//! The selector form and the answer of its apply, as overlay contents.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::clip;
use super::objects::object_line;
use super::props::field_lines;
use crate::model::DiagramObject;
use crate::tui::app::App;
use crate::tui::input::LineInput;
use crate::tui::selector_form::{Field, FormFocus, RESULT_ROWS};
use crate::tui::words;

/// Width of the form's box.
const WIDTH: u16 = 100;
/// Preview rows listed.
const PREVIEW_ROWS: usize = 8;
/// Suggestions listed.
const SUGGESTIONS: usize = 6;

fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// A one-line field `[text]`, padded to `width`, with the cursor when focused.
fn field(input: &LineInput, focused: bool, width: usize) -> Span<'static> {
    let text = if focused {
        let chars: Vec<char> = input.text().chars().collect();
        let at = input.cursor().min(chars.len());
        let before: String = chars[..at].iter().collect();
        let after: String = chars[at..].iter().collect();
        format!("{before}▏{after}")
    } else {
        input.text().to_string()
    };
    let style = if focused {
        Style::new().fg(Color::Black).bg(Color::Cyan)
    } else {
        Style::new().add_modifier(Modifier::UNDERLINED)
    };
    Span::styled(format!("{:<width$}", clip(&text, width)), style)
}

/// The form: rows, type-ahead, props, the preview or error, the keys.
pub(super) fn form(app: &App) -> (String, Vec<Line<'static>>, u16, u16) {
    let form = &app.form;
    let inner = WIDTH as usize - 2;
    let mut lines = vec![Line::styled(
        "Objects whose meta match every row:",
        Style::new().add_modifier(Modifier::BOLD),
    )];
    for (i, row) in form.rows.iter().enumerate() {
        let at = |f: Field| form.focus == FormFocus::Row(i, f);
        let op_style = if at(Field::Op) {
            Style::new().fg(Color::Black).bg(Color::Cyan)
        } else {
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:>2} key ", i + 1), dim()),
            field(&row.key, at(Field::Key), 18),
            Span::raw(" "),
            Span::styled(format!(" {} ", row.op.op), op_style),
            Span::styled(format!(" {:<42}", row.op.op.meaning()), dim()),
            Span::styled("value ", dim()),
            field(&row.value, at(Field::Value), 18),
        ]));
        let suggestions = if matches!(form.focus, FormFocus::Row(r, _) if r == i) {
            form.suggestions(&app.objects.meta_index)
        } else {
            Vec::new()
        };
        if !suggestions.is_empty() {
            let mut spans = vec![Span::styled("    ↳ ", dim())];
            for (n, s) in suggestions.iter().take(SUGGESTIONS).enumerate() {
                let style = if form.suggestion == Some(n) {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new().fg(Color::Cyan)
                };
                spans.push(Span::styled(clip(s, 20), style));
                spans.push(Span::raw("  "));
            }
            if suggestions.len() > SUGGESTIONS {
                spans.push(Span::styled(
                    format!("+{} more ", suggestions.len() - SUGGESTIONS),
                    dim(),
                ));
            }
            spans.push(Span::styled("(↑↓ pick, Enter takes)", dim()));
            lines.push(Line::from(spans));
        }
    }
    lines.push(Line::raw(""));
    let props_focused = form.focus == FormFocus::Props;
    lines.push(Line::styled(
        "Props merged into every match (non-recursive, like any update):",
        if props_focused {
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        },
    ));
    lines.extend(field_lines(&form.props, props_focused, inner));
    lines.push(Line::raw(""));
    if form.busy {
        lines.push(Line::styled("running…", Style::new().fg(Color::Yellow)));
    }
    if let Some(error) = &form.error {
        lines.push(Line::styled(
            format!("✗ {error}"),
            Style::new().fg(Color::Red),
        ));
    }
    if let Some(preview) = &form.preview {
        let n = preview.matches.len();
        let mut head = vec![Span::styled(
            format!("Preview: {}", words::objects_match(n)),
            Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        )];
        if !form.preview_is_current() {
            head.push(Span::styled(
                "  (the rows changed since; Ctrl-P runs it again)",
                Style::new().fg(Color::Yellow),
            ));
        }
        lines.push(Line::from(head));
        lines.extend(
            preview
                .matches
                .iter()
                .take(PREVIEW_ROWS)
                .map(|(id, object)| typed_line(id, object, inner)),
        );
        if n > PREVIEW_ROWS {
            lines.push(Line::styled(
                format!("  … and {} more (marked in the tree)", n - PREVIEW_ROWS),
                dim(),
            ));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Tab/Shift-Tab field · ←→ or type the operator · Ctrl-N add row · Ctrl-D remove row",
        dim(),
    ));
    lines.push(Line::styled(
        "Ctrl-R recall a past selector · Ctrl-P preview · Ctrl-S apply · Esc close (the form is kept)",
        dim(),
    ));
    let height = lines.len() as u16 + 2;
    (" Selector ".to_string(), lines, WIDTH, height)
}

/// An object's type, then its readable row.
fn typed_line(id: &str, object: &DiagramObject, width: usize) -> Line<'static> {
    let kind = format!("  {:<11}", object.kind);
    let rest = width.saturating_sub(kind.chars().count());
    let mut line = object_line(id, object, rest, false);
    line.spans.insert(0, Span::styled(kind, dim()));
    line
}

/// The apply's answer: the count, a mismatch with the preview, and the ids to jump to.
pub(super) fn result(app: &App, selected: usize) -> (String, Vec<Line<'static>>, u16, u16) {
    let inner = WIDTH as usize - 2;
    let mut lines = Vec::new();
    let Some(applied) = &app.form.applied else {
        return (" Selector update ".into(), lines, WIDTH, 4);
    };
    lines.push(Line::from(vec![
        Span::styled(
            "updatedObjectCount: ",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            applied.updated.updated_object_count.to_string(),
            Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        ),
    ]));
    if let Some(mismatch) = applied.mismatch() {
        lines.push(Line::styled(
            format!("! {mismatch}"),
            Style::new().fg(Color::Yellow),
        ));
    }
    lines.push(Line::styled(
        "updatedObjectIds (Enter jumps to one):",
        dim(),
    ));
    let ids = &applied.updated.updated_object_ids;
    let rows = RESULT_ROWS;
    let first = selected.saturating_sub(rows - 1);
    for (i, id) in ids.iter().enumerate().skip(first).take(rows) {
        let mut line = match app.objects.object(id) {
            Some(object) => typed_line(id, object, inner),
            None => Line::raw(format!("  {id}")),
        };
        if i == selected {
            line = Line::styled(
                format!("{:inner$}", line.to_string()),
                Style::new().add_modifier(Modifier::REVERSED),
            );
        }
        lines.push(line);
    }
    if ids.len() > first + rows {
        lines.push(Line::styled(
            format!("  … {} more", ids.len() - first - rows),
            dim(),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "↑↓ move · Enter: jump to the object · w: back to the form · Esc: close",
        dim(),
    ));
    let height = lines.len() as u16 + 2;
    (" Selector update ".to_string(), lines, WIDTH, height)
}
