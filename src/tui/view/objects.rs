//! The objects pane: filter line and the tree, building text only for the rows on screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{clip, filter_line, load_error_lines, pane_block, selected_style};
use crate::model::DiagramObject;
use crate::tui::app::{App, Pane};
use crate::tui::objects::{TreeRow, row_text};

/// Draws the objects pane into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let pane = &app.objects;
    let title = match &pane.doc {
        Some(doc) if !pane.marks.is_empty() => format!(
            " 2 Objects · {} marked · {} ({}) ",
            pane.marks.len(),
            doc.title,
            pane.objects.len()
        ),
        Some(doc) => format!(" 2 Objects · {} ({}) ", doc.title, pane.objects.len()),
        None => " 2 Objects ".to_string(),
    };
    let block = pane_block(app, Pane::Objects, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [filter_area, list_area] = Layout::vertical([
        Constraint::Length(u16::from(pane.filter.shown())),
        Constraint::Min(0),
    ])
    .areas(inner);
    if pane.filter.shown() {
        frame.render_widget(Paragraph::new(filter_line(&pane.filter)), filter_area);
    }
    let dim = Style::new().fg(Color::DarkGray);
    let lines: Vec<Line> = if pane.doc.is_none() {
        vec![Line::styled(
            "open a document (Enter in the documents pane)",
            dim,
        )]
    } else if let Some(error) = &pane.error {
        load_error_lines("the objects", error)
    } else if pane.loading && pane.objects.is_empty() {
        vec![Line::styled("loading…", dim)]
    } else if pane.rows.is_empty() {
        let what = if pane.filter.text().is_empty() {
            "no objects (a adds one)"
        } else {
            "nothing matches the filter"
        };
        vec![Line::styled(what, dim)]
    } else {
        let width = list_area.width as usize;
        let focused = app.focus == Pane::Objects;
        pane.rows
            .iter()
            .enumerate()
            .skip(pane.offset)
            .take(list_area.height as usize)
            .map(|(i, row)| {
                let selected = i == pane.selected;
                let line = match *row {
                    TreeRow::Group(g, shown) => {
                        let group = &pane.groups[g];
                        let arrow = if pane.collapsed.contains(&group.kind) {
                            "▸"
                        } else {
                            "▾"
                        };
                        let count = if shown == group.members.len() {
                            shown.to_string()
                        } else {
                            format!("{shown}/{}", group.members.len())
                        };
                        Line::styled(
                            clip(&format!("{arrow} {} ({count})", group.kind), width),
                            Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
                        )
                    }
                    TreeRow::Object(o) => {
                        let (id, object) = &pane.objects[o];
                        object_line(id, object, width, pane.marks.contains(id))
                    }
                };
                if selected {
                    let padded = format!("{:width$}", line.to_string());
                    Line::styled(padded, selected_style(focused))
                } else {
                    line
                }
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
}

/// An object's readable row: a mark (`●` when marked), its text, then its id dimmed where
/// there is room; at most `width` characters.
pub(super) fn object_line(
    id: &str,
    object: &DiagramObject,
    width: usize,
    marked: bool,
) -> Line<'static> {
    let mark = if marked { "● " } else { "  " };
    let text = clip(&row_text(object), width.saturating_sub(2));
    let room = width.saturating_sub(text.chars().count() + 3);
    let id = if room >= 6 {
        format!(" {}", clip(id, room))
    } else {
        String::new()
    };
    Line::from(vec![
        Span::styled(mark, Style::new().fg(Color::Yellow)),
        Span::raw(text),
        Span::styled(id, Style::new().fg(Color::DarkGray)),
    ])
}
