//! A question and its answers: every "are you sure?" of the app (delete, empty, quit, drop
//! edits, replace a file), the save diff, the bulk diff, the import report and the save
//! conflict. The component that asks prepares the actions of each answer; the question only
//! shows them and hands back the chosen ones.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::model::{ContentReport, DocSummary};
use crate::tui::action::Action;
use crate::tui::component::{Component, Cx};
use crate::tui::json::{BulkChange, Diff};
use crate::tui::keys::{Command, Context};
use crate::tui::theme::Role;
use crate::tui::widgets::{clip, diff_lines, hint_line, object_line, overlay_box};
use crate::tui::words;

/// Objects listed in the bulk diff.
const DIFF_OBJECTS: usize = 8;
/// Problems listed in the import report.
const PROBLEMS: usize = 12;
/// Width of the boxes that show data.
const WIDE: u16 = 90;

/// What the question shows above its answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A sentence naming what it acts on.
    Text(String),
    /// What a save will send.
    Diff(Diff),
    /// What a bulk edit changes, object by object.
    BulkDiff(Vec<BulkChange>),
    /// What an import file holds, every problem in it, and whether it can be imported.
    Import {
        /// The document whose content it would replace.
        doc: DocSummary,
        /// The file.
        path: PathBuf,
        /// The check, or why the file is refused.
        report: Result<ContentReport, String>,
    },
}

/// One answer: the command that gives it, what the hint calls it, and what it does.
#[derive(Debug)]
pub struct Choice {
    command: Command,
    label: Option<String>,
    actions: Vec<Action>,
}

impl Choice {
    /// An answer listed in the hint as `keys: label`.
    pub fn new(command: Command, label: &str, actions: Vec<Action>) -> Choice {
        Choice {
            command,
            label: Some(label.to_string()),
            actions,
        }
    }

    /// An answer the body itself explains (not listed in the hint).
    pub fn hidden(command: Command, actions: Vec<Action>) -> Choice {
        Choice {
            command,
            label: None,
            actions,
        }
    }
}

/// A question.
#[derive(Debug)]
pub struct Question {
    title: String,
    body: Body,
    choices: Vec<Choice>,
    context: Context,
}

impl Question {
    /// A question answered with the keys of the `confirm` context.
    pub fn new(title: &str, body: Body, choices: Vec<Choice>) -> Question {
        Question {
            title: title.to_string(),
            body,
            choices,
            context: Context::Confirm,
        }
    }

    /// The same question answered with the keys of `context`.
    pub fn in_context(self, context: Context) -> Question {
        Question { context, ..self }
    }

    /// Whether its yes quits the app (a second Ctrl-C answers it).
    pub fn is_quit(&self) -> bool {
        self.choices
            .iter()
            .any(|c| c.command == Command::Yes && matches!(c.actions[..], [Action::Quit]))
    }

    /// The lines of the body and the box's width, for a screen `room` columns wide.
    fn body_lines(&self, cx: &Cx, room: u16) -> (Vec<Line<'static>>, u16) {
        let inner = usize::from(WIDE.min(room)).saturating_sub(2);
        let strong = cx.style(Role::Strong);
        let dim = cx.style(Role::Dim);
        match &self.body {
            Body::Text(text) => (vec![Line::raw(text.clone())], 60),
            Body::Diff(diff) => {
                let mut lines = vec![Line::styled(
                    "These top-level properties will be sent:",
                    strong,
                )];
                lines.extend(diff_lines(diff, "", cx.theme));
                (lines, WIDE)
            }
            Body::BulkDiff(changes) => {
                let width = inner;
                let mut lines = vec![Line::styled(
                    format!(
                        "{} change; these properties will be sent in one bulk update:",
                        words::objects(changes.len())
                    ),
                    strong,
                )];
                let model = cx.doc.and_then(|d| d.model());
                for change in changes.iter().take(DIFF_OBJECTS) {
                    lines.push(match model.and_then(|m| m.get(&change.obj)) {
                        Some(object) => object_line(&change.obj, object, width, true, cx.theme),
                        None => Line::raw(change.obj.clone()),
                    });
                    lines.extend(diff_lines(&change.diff, "    ", cx.theme));
                }
                if changes.len() > DIFF_OBJECTS {
                    lines.push(Line::styled(
                        format!("  … and {} more objects", changes.len() - DIFF_OBJECTS),
                        dim,
                    ));
                }
                (lines, WIDE)
            }
            Body::Import { doc, path, report } => {
                (import_lines(doc, path, report, inner, cx), WIDE)
            }
        }
    }
}

/// What an import file holds, every problem in it (cut to `width`), and the keys that answer.
fn import_lines(
    doc: &DocSummary,
    path: &std::path::Path,
    report: &Result<ContentReport, String>,
    width: usize,
    cx: &Cx,
) -> Vec<Line<'static>> {
    let dim = cx.style(Role::Dim);
    let warning = cx.style(Role::Warning);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("file  ", dim),
            Span::raw(path.display().to_string()),
        ]),
        Line::from(vec![
            Span::styled("into  ", dim),
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
                Span::styled(
                    format!("{} objects: ", report.total()),
                    cx.style(Role::Strong),
                ),
                Span::raw(counts.join(" · ")),
            ]));
            if report.problems.is_empty() {
                lines.push(Line::styled("no problems found", cx.style(Role::Success)));
            } else {
                lines.push(Line::styled(
                    format!(
                        "{} problems (set-content does not validate; they would be stored as they are):",
                        report.problems.len()
                    ),
                    warning,
                ));
            }
            for problem in report.problems.iter().take(PROBLEMS) {
                lines.push(Line::styled(
                    clip(&format!("  ! {problem}"), width),
                    warning,
                ));
            }
            if report.problems.len() > PROBLEMS {
                lines.push(Line::styled(
                    format!("  … and {} more", report.problems.len() - PROBLEMS),
                    dim,
                ));
            }
            report.content.is_none().then(|| {
                "some entries are not {type, data} objects; set-content cannot take them".into()
            })
        }
    };
    lines.push(Line::raw(""));
    let keys = |command| {
        cx.keys
            .binding(Context::Confirm, command)
            .map(|b| b.keys_text())
            .unwrap_or_default()
    };
    match (refused, report) {
        (Some(why), _) => {
            lines.push(Line::styled(
                format!("✗ refused: {why}"),
                cx.style(Role::Error)
                    .add_modifier(ratatui::style::Modifier::BOLD),
            ));
            lines.push(Line::styled(
                format!("{}: close; nothing is changed", keys(Command::No)),
                dim,
            ));
        }
        (None, Ok(report)) => {
            lines.push(Line::styled(
                format!(
                    "{}: replace the content of \"{}\" with these {} objects",
                    keys(Command::Yes),
                    doc.title,
                    report.total()
                ),
                warning,
            ));
            lines.push(Line::styled(
                format!("{}: cancel; nothing is changed", keys(Command::No)),
                dim,
            ));
        }
        (None, Err(_)) => {}
    }
    lines
}

impl Component for Question {
    fn context(&self) -> Context {
        self.context
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match self.choices.iter_mut().find(|c| c.command == command) {
            Some(choice) => {
                let mut actions = vec![Action::Close];
                actions.append(&mut choice.actions);
                actions
            }
            None => Vec::new(),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let (mut lines, width) = self.body_lines(cx, area.width);
        let items: Vec<(Command, &str)> = self
            .choices
            .iter()
            .filter_map(|c| c.label.as_deref().map(|label| (c.command, label)))
            .collect();
        if !items.is_empty() {
            lines.push(Line::raw(""));
            lines.push(hint_line(cx.keys.hint(self.context, &items), cx.theme));
        }
        let height = lines.len() as u16 + 2;
        overlay_box(
            frame,
            area,
            &format!(" {} ", self.title),
            lines,
            (width, height),
            cx.theme,
        );
    }
}
