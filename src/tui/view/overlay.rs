//! Overlays: a centred box over the panes.

use ratatui::Frame;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use serde_json::Value;

use super::{bulk, clip, selector_form};
use crate::model::ObjectType;
use crate::tui::app::App;
use crate::tui::editor::Diff;
use crate::tui::keys;
use crate::tui::layout::centered;
use crate::tui::overlay::{Overlay, component_ids};

/// Draws `overlay` over the screen.
pub fn draw(app: &App, overlay: &Overlay, frame: &mut Frame) {
    let area = frame.area();
    let (title, lines, width, height) = match overlay {
        Overlay::Help(pane) => {
            let mut lines = Vec::new();
            for (title, keys) in keys::for_pane(*pane) {
                lines.push(Line::styled(
                    title,
                    Style::new().add_modifier(Modifier::BOLD),
                ));
                for (key, what) in keys {
                    lines.push(Line::from(vec![
                        Span::styled(format!("  {key:<22}"), Style::new().fg(Color::Cyan)),
                        Span::raw(*what),
                    ]));
                }
            }
            let height = lines.len() as u16 + 2;
            (" Keys (any key closes) ".to_string(), lines, 76, height)
        }
        Overlay::Log { scroll } => (
            " Request log (Esc closes) ".to_string(),
            log_lines(app, *scroll),
            100,
            30,
        ),
        Overlay::Confirm { title, message, .. } => (
            format!(" {title} "),
            vec![
                Line::raw(message.clone()),
                Line::raw(""),
                Line::styled(
                    "y / Enter: yes    n / Esc: no",
                    Style::new().fg(Color::DarkGray),
                ),
            ],
            60,
            7,
        ),
        Overlay::Input {
            title,
            prompt,
            input,
            ..
        } => {
            let text = input.text();
            let (before, after): (String, String) = (
                text.chars().take(input.cursor()).collect(),
                text.chars().skip(input.cursor()).collect(),
            );
            (
                format!(" {title} "),
                vec![
                    Line::styled(prompt.clone(), Style::new().fg(Color::DarkGray)),
                    Line::from(vec![
                        Span::raw(before),
                        Span::styled("▏", Style::new().fg(Color::Cyan)),
                        Span::raw(after),
                    ]),
                    Line::raw(""),
                    Line::styled(
                        "Enter: ok    Esc: cancel    Ctrl-U: clear",
                        Style::new().fg(Color::DarkGray),
                    ),
                ],
                60,
                6,
            )
        }
        Overlay::SaveDiff(diff) => {
            let mut lines = vec![Line::styled(
                "These top-level properties will be sent:",
                Style::new().add_modifier(Modifier::BOLD),
            )];
            lines.extend(diff_lines(diff, ""));
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                "y / Enter: save (re-reads the object first)    n / Esc: keep editing",
                Style::new().fg(Color::DarkGray),
            ));
            let height = lines.len() as u16 + 2;
            (" Save ".to_string(), lines, 90, height)
        }
        Overlay::Conflict(_) => (
            " Changed on the server ".to_string(),
            vec![
                Line::raw("This object changed on the server since you opened it."),
                Line::raw(""),
                Line::styled(
                    "o: overwrite with your edit",
                    Style::new().fg(Color::Yellow),
                ),
                Line::styled(
                    "r: reload it and lose your edit",
                    Style::new().fg(Color::Yellow),
                ),
                Line::styled(
                    "Esc: cancel the save, keep editing",
                    Style::new().fg(Color::DarkGray),
                ),
            ],
            60,
            7,
        ),
        Overlay::SelectorForm => selector_form::form(app),
        Overlay::SelectorResult { selected } => selector_form::result(app, *selected),
        Overlay::BulkEdit => bulk::edit(app),
        Overlay::BulkDiff(changes) => bulk::diff(app, changes),
        Overlay::ImportReport { doc, path, report } => bulk::import_report(doc, path, report),
        Overlay::TypePicker { selected } => {
            let lines = ObjectType::ALL
                .iter()
                .enumerate()
                .map(|(i, t)| pick_line(t.as_str(), i == *selected))
                .collect();
            (" New object: type ".to_string(), lines, 30, 9)
        }
        Overlay::ComponentPicker { query, selected } => {
            let matches = component_ids(query.text());
            let rows = 12usize;
            let first = selected.saturating_sub(rows - 1);
            let mut lines = vec![
                Line::from(vec![
                    Span::styled("componentId: ", Style::new().fg(Color::DarkGray)),
                    Span::raw(query.text().to_string()),
                    Span::styled("▏", Style::new().fg(Color::Cyan)),
                ]),
                Line::styled(
                    format!("{} match", matches.len()),
                    Style::new().fg(Color::DarkGray),
                ),
            ];
            lines.extend(
                matches
                    .iter()
                    .enumerate()
                    .skip(first)
                    .take(rows)
                    .map(|(i, id)| pick_line(id, i == *selected)),
            );
            (
                " New component (type to narrow, Enter picks) ".to_string(),
                lines,
                56,
                rows as u16 + 4,
            )
        }
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(Color::Cyan))
        .title(title);
    let paragraph = Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block);
    // Grow the box when wrapping makes its text taller than planned, so the key hints at the
    // bottom always show.
    let width = width.min(area.width);
    let needed = u16::try_from(paragraph.line_count(width)).unwrap_or(u16::MAX);
    let height = height.max(needed).min(area.height);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(paragraph, rect);
}

fn pick_line(text: &str, selected: bool) -> Line<'static> {
    if selected {
        Line::styled(
            format!("› {text}"),
            Style::new().add_modifier(Modifier::REVERSED),
        )
    } else {
        Line::raw(format!("  {text}"))
    }
}

/// A value on one line, cut to a readable length.
fn compact(value: &Value) -> String {
    clip(&value.to_string(), 60)
}

/// The log, newest first, from `scroll`.
fn log_lines(app: &App, scroll: usize) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(
        format!(
            "{:<5} {:<58} {:>6} {:>8}  error",
            "", "path", "status", "ms"
        ),
        Style::new().fg(Color::DarkGray),
    )];
    lines.extend(app.log.iter().rev().skip(scroll).map(|entry| {
        let status = entry.status.map_or("…".to_string(), |s| {
            if s == 0 { "—".into() } else { s.to_string() }
        });
        let latency = entry.latency.map_or(String::new(), |l| {
            format!("{:.1}", l.as_secs_f64() * 1000.0)
        });
        let style = match entry.status {
            Some(200) => Style::new(),
            None => Style::new().fg(Color::DarkGray),
            Some(_) => Style::new().fg(Color::Red),
        };
        Line::styled(
            format!(
                "{:<5} {:<58} {:>6} {:>8}  {}",
                entry.method,
                clip(&entry.path, 58),
                status,
                latency,
                entry.error.clone().unwrap_or_default()
            ),
            style,
        )
    }));
    if app.log.is_empty() {
        lines.push(Line::raw("no requests yet"));
    }
    lines
}

/// The lines of a diff: each changed property (before → after, or added), a note when a
/// nested value is replaced whole, and the properties an update cannot remove; `indent` first.
pub(super) fn diff_lines(diff: &Diff, indent: &str) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for change in &diff.changes {
        let after = compact(&change.after);
        let line = match &change.before {
            Some(before) => Line::from(vec![
                Span::styled(format!("{indent}~ "), Style::new().fg(Color::Yellow)),
                Span::styled(format!("{}: ", change.key), Style::new().fg(Color::Cyan)),
                Span::styled(compact(before), Style::new().fg(Color::Red)),
                Span::raw(" → "),
                Span::styled(after, Style::new().fg(Color::Green)),
            ]),
            None => Line::from(vec![
                Span::styled(format!("{indent}+ "), Style::new().fg(Color::Green)),
                Span::styled(format!("{}: ", change.key), Style::new().fg(Color::Cyan)),
                Span::styled(after, Style::new().fg(Color::Green)),
            ]),
        };
        lines.push(line);
        if change.replaces_nested() {
            lines.push(Line::styled(
                format!(
                    "{indent}    note: {} is replaced whole (the update does not merge inside it)",
                    change.key
                ),
                Style::new().fg(Color::DarkGray),
            ));
        }
    }
    for key in &diff.removed {
        lines.push(Line::styled(
            format!("{indent}- {key}: an update cannot remove a property; it stays as it is"),
            Style::new().fg(Color::DarkGray),
        ));
    }
    lines
}
