//! The folder picker of a move: the account's folders narrowed fuzzily as you type (the matched
//! letters highlighted), the documents' own folder left out; picking one asks before the move.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::overlays::search::{Outcome, Search};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Choice, Component, Cx};
use crate::vocab::calls::{Body, DocsCall};
use crate::widgets::pieces::{highlighted, input_spans, overlay_box, selected_line};
use diagtui_model::{DocSummary, FolderRef};

/// Rows the list shows.
const ROWS: usize = 10;
/// The box's width.
const WIDTH: usize = 54;
/// How many documents the question names before `+N`.
const NAMED: usize = 3;

/// Where documents go: a folder picked from the account's folders.
#[derive(Debug)]
pub struct FolderPicker {
    docs: Vec<DocSummary>,
    folders: Vec<FolderRef>,
    search: Search,
}

impl FolderPicker {
    /// A picker moving `docs` into one of `folders` (those to offer, in the order shown).
    pub fn new(docs: Vec<DocSummary>, folders: Vec<FolderRef>) -> FolderPicker {
        let titles = folders.iter().map(|f| f.title.clone()).collect();
        FolderPicker {
            docs,
            folders,
            search: Search::new(titles, ROWS),
        }
    }

    /// What moves, in words: `"Web platform"` or `3 documents ("a", "b", "c")`.
    fn subject(&self) -> String {
        subject(&self.docs)
    }
}

/// Documents in words: `"Web platform"`, or `3 documents ("a", "b" +1)`.
pub fn subject(docs: &[DocSummary]) -> String {
    match docs {
        [one] => format!("\"{}\"", one.title),
        _ => {
            let mut names: Vec<String> = docs
                .iter()
                .take(NAMED)
                .map(|d| format!("\"{}\"", d.title))
                .collect();
            if docs.len() > NAMED {
                names.push(format!("+{}", docs.len() - NAMED));
            }
            format!(
                "{} ({})",
                words::count(docs.len(), "document", "documents"),
                names.join(", ")
            )
        }
    }
}

/// The question before a move: what moves and where to. Moving several is a write to many:
/// the safe answer is highlighted.
fn ask(docs: Vec<DocSummary>, folder: FolderRef) -> Ask {
    let what = subject(&docs);
    let several = docs.len() > 1;
    let text = format!(
        "Move {what} to the folder \"{}\"? The documents keep their content; each move is a version in its history.",
        folder.title
    );
    let title = folder.title.clone();
    let question = Ask::new(
        "Move to folder",
        Body::Text(text),
        vec![
            Choice::new(
                Command::Yes,
                &format!("move to \"{title}\""),
                vec![Action::to_pane(DocsCall::Move(docs, folder))],
            ),
            Choice::new(Command::No, "cancel; nothing moves", Vec::new()),
        ],
    );
    if several {
        question.destructive()
    } else {
        question
    }
}

impl Component for FolderPicker {
    fn context(&self) -> Context {
        Context::Search
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match self.search.command(command) {
            Some(Outcome::Picked(index)) => match self.folders.get(index) {
                Some(folder) => vec![
                    Action::Close,
                    Action::Ask(ask(std::mem::take(&mut self.docs), folder.clone())),
                ],
                None => Vec::new(),
            },
            Some(Outcome::Cancelled) => {
                vec![Action::Close, Action::info("move cancelled; nothing moved")]
            }
            Some(Outcome::Typed) | None => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        self.search.key(key);
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        self.search.paste(text);
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let mut field = vec![Span::styled("folder: ", cx.style(Role::Dim))];
        field.extend(input_spans(self.search.input(), WIDTH - 8, cx.theme));
        let (matches, all) = self.search.counts();
        let mut lines = vec![
            Line::styled(
                clip(&format!("moving {}", self.subject()), WIDTH),
                cx.style(Role::Dim),
            ),
            Line::from(field),
            Line::styled(
                format!("{matches} of {}", words::count(all, "folder", "folders")),
                cx.style(Role::Dim),
            ),
        ];
        lines.extend(self.search.rows().map(|row| {
            let mut spans = vec![Span::raw(if row.selected { "› " } else { "  " })];
            spans.extend(highlighted(row.text, row.positions, WIDTH - 2, cx.theme));
            let line = Line::from(spans);
            if row.selected {
                selected_line(line, WIDTH, cx.style(Role::Selected))
            } else {
                line
            }
        }));
        if all == 0 {
            let new = cx.key(Context::Documents, Command::NewFolder);
            lines.push(Line::styled(
                format!("no other folder: {new} in the documents pane makes one"),
                cx.style(Role::Dim),
            ));
        }
        let footer = vec![Line::styled(
            cx.keys.hint(
                Context::Search,
                &[(Command::Pick, "pick"), (Command::Cancel, "cancel")],
            ),
            cx.style(Role::Dim),
        )];
        overlay_box(
            frame,
            area,
            " Move to folder ",
            (lines, footer),
            (WIDTH as u16 + 2, ROWS as u16 + 6),
            cx.theme,
        );
    }
}
