//! The bulk edit, its per-object diff, and the import report, as overlay contents.

use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::clip;
use super::objects::object_line;
use super::overlay::diff_lines;
use super::props::field_lines;
use crate::model::{ContentReport, DocSummary};
use crate::tui::app::App;
use crate::tui::bulk::BulkChange;
use crate::tui::words;

/// Width of these boxes.
const WIDTH: u16 = 90;
/// Objects listed in the bulk diff.
const DIFF_OBJECTS: usize = 8;
/// Problems listed in the import report.
const PROBLEMS: usize = 12;

fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// The bulk edit: one props JSON for every marked object.
pub(super) fn edit(app: &App) -> (String, Vec<Line<'static>>, u16, u16) {
    let n = app.objects.marks.len();
    let mut lines = vec![Line::styled(
        format!(
            "Props merged into each marked object, {} (only what changes is sent):",
            words::objects(n)
        ),
        bold(),
    )];
    lines.extend(field_lines(&app.bulk, true, WIDTH as usize - 2));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Ctrl-S: show what changes · Esc: close (the text is kept)",
        dim(),
    ));
    let height = lines.len() as u16 + 2;
    (format!(" Bulk edit · {n} marked "), lines, WIDTH, height)
}

/// What the bulk edit changes, object by object.
pub(super) fn diff(app: &App, changes: &[BulkChange]) -> (String, Vec<Line<'static>>, u16, u16) {
    let width = WIDTH as usize - 2;
    let mut lines = vec![Line::styled(
        format!(
            "{} change; these properties will be sent in one bulk update:",
            words::objects(changes.len())
        ),
        bold(),
    )];
    for change in changes.iter().take(DIFF_OBJECTS) {
        let line = match app.objects.object(&change.obj) {
            Some(object) => object_line(&change.obj, object, width, true),
            None => Line::raw(change.obj.clone()),
        };
        lines.push(line);
        lines.extend(diff_lines(&change.diff, "    "));
    }
    if changes.len() > DIFF_OBJECTS {
        lines.push(Line::styled(
            format!("  … and {} more objects", changes.len() - DIFF_OBJECTS),
            dim(),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "y / Enter: send the bulk update    n / Esc: back to the edit",
        dim(),
    ));
    let height = lines.len() as u16 + 2;
    (" Bulk update ".to_string(), lines, WIDTH, height)
}

/// What an import file holds, every problem in it, and whether it can replace the content.
pub(super) fn import_report(
    doc: &DocSummary,
    path: &Path,
    report: &Result<ContentReport, String>,
) -> (String, Vec<Line<'static>>, u16, u16) {
    let mut lines = vec![
        Line::from(vec![
            Span::styled("file  ", dim()),
            Span::raw(path.display().to_string()),
        ]),
        Line::from(vec![
            Span::styled("into  ", dim()),
            Span::raw(format!("\"{}\" (replaces ALL its content)", doc.title)),
        ]),
        Line::raw(""),
    ];
    let refused = match report {
        Err(why) => Some(why.clone()),
        Ok(report) => {
            let counts: Vec<String> = report
                .counts
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            lines.push(Line::from(vec![
                Span::styled(format!("{} objects: ", report.total()), bold()),
                Span::raw(counts.join(" · ")),
            ]));
            if report.problems.is_empty() {
                lines.push(Line::styled(
                    "no problems found",
                    Style::new().fg(Color::Green),
                ));
            } else {
                lines.push(Line::styled(
                    format!(
                        "{} problems (set-content does not validate; they would be stored as they are):",
                        report.problems.len()
                    ),
                    Style::new().fg(Color::Yellow),
                ));
            }
            for problem in report.problems.iter().take(PROBLEMS) {
                lines.push(Line::styled(
                    clip(&format!("  ! {problem}"), WIDTH as usize - 2),
                    Style::new().fg(Color::Yellow),
                ));
            }
            if report.problems.len() > PROBLEMS {
                lines.push(Line::styled(
                    format!("  … and {} more", report.problems.len() - PROBLEMS),
                    dim(),
                ));
            }
            report.content.is_none().then(|| {
                "some entries are not {type, data} objects; set-content cannot take them".into()
            })
        }
    };
    lines.push(Line::raw(""));
    match (refused, report) {
        (Some(why), _) => {
            lines.push(Line::styled(
                format!("✗ refused: {why}"),
                Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            ));
            lines.push(Line::styled("Esc: close; nothing is changed", dim()));
        }
        (None, Ok(report)) => {
            lines.push(Line::styled(
                format!(
                    "y / Enter: replace the content of \"{}\" with these {} objects",
                    doc.title,
                    report.total()
                ),
                Style::new().fg(Color::Yellow),
            ));
            lines.push(Line::styled("n / Esc: cancel; nothing is changed", dim()));
        }
        (None, Err(_)) => {}
    }
    let height = lines.len() as u16 + 2;
    (" Import ".to_string(), lines, WIDTH, height)
}
