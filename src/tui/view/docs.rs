//! The documents pane: filter line, the grouped list, the selected document's details.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{clip, filter_line, load_error_lines, pane_block, selected_style};
use crate::tui::app::{App, Pane};
use crate::tui::docs::DocRow;
use crate::tui::layout;

/// Draws the documents pane into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let docs = &app.docs;
    let title = format!(" 1 Documents ({}) ", docs.docs.len());
    let block = pane_block(app, Pane::Docs, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [filter_area, list_area, details_area] = Layout::vertical([
        Constraint::Length(u16::from(docs.filter.shown())),
        Constraint::Min(1),
        Constraint::Length(layout::details_height(area)),
    ])
    .areas(inner);
    if docs.filter.shown() {
        frame.render_widget(Paragraph::new(filter_line(&docs.filter)), filter_area);
    }
    let width = list_area.width as usize;
    let lines: Vec<Line> = if let Some(error) = &docs.load_error {
        load_error_lines("documents", error)
    } else if !docs.loaded {
        vec![Line::styled("loading…", Style::new().fg(Color::DarkGray))]
    } else if docs.rows.is_empty() {
        vec![Line::styled(
            "no documents (n creates one)",
            Style::new().fg(Color::DarkGray),
        )]
    } else {
        let focused = app.focus == Pane::Docs;
        docs.rows
            .iter()
            .enumerate()
            .skip(docs.offset)
            .take(list_area.height as usize)
            .map(|(i, row)| match row {
                DocRow::Folder(title, count) => Line::styled(
                    clip(&format!("▾ {title} ({count})"), width),
                    Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
                ),
                DocRow::Doc(d) => {
                    let open = app
                        .objects
                        .doc
                        .as_ref()
                        .is_some_and(|o| o.id == docs.docs[*d].id);
                    let mark = if open { "● " } else { "  " };
                    let text = clip(&format!("{mark}{}", docs.docs[*d].title), width);
                    let style = if i == docs.selected {
                        selected_style(focused)
                    } else {
                        Style::new()
                    };
                    Line::styled(format!("{text:width$}"), style)
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
    frame.render_widget(Paragraph::new(details(app, width)), details_area);
}

fn details(app: &App, width: usize) -> Vec<Line<'static>> {
    let docs = &app.docs;
    let label = Style::new().fg(Color::DarkGray);
    let row = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<8}"), label),
            Span::raw(clip(&value, width.saturating_sub(8))),
        ])
    };
    if let Some(error) = &docs.details_error {
        return vec![Line::styled(
            clip(&format!("details: {error}"), width),
            Style::new().fg(Color::Red),
        )];
    }
    let Some(selected) = docs.selected_doc() else {
        return Vec::new();
    };
    let Some(d) = docs.details.as_ref().filter(|d| d.id == selected.id) else {
        return vec![Line::styled("details loading…", label)];
    };
    // What the open document's tree counted is fresher than the details.
    let count = docs
        .counts
        .get(&d.id)
        .copied()
        .or(d.object_count)
        .map_or_else(|| "open it to count".to_string(), |n| n.to_string());
    let short = |t: &str| t.replace('T', " ").chars().take(19).collect::<String>();
    vec![
        Line::styled(clip(&"─".repeat(width), width), label),
        row("created", short(&d.created)),
        row("changed", short(&d.last_change)),
        row("owner", d.user.email.clone()),
        row("folder", d.folder.title.clone()),
        row("objects", count),
    ]
}
