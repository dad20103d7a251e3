//! A one-line prompt: a new title, an e-mail, a file name. Its text goes to the documents pane.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::app::action::{Action, DocsCall, PromptFor};
use crate::app::component::{Component, Cx};
use crate::keys::{Command, Context};
use crate::overlays::Overlay;
use crate::theme::Role;
use crate::widgets::input::LineInput;
use crate::widgets::pieces::{hint_line, input_spans, overlay_box};
use crate::widgets::typing::Typed;

/// Width of the box.
const WIDTH: u16 = 60;

/// A prompt.
#[derive(Debug)]
pub struct Prompt {
    title: String,
    label: String,
    input: LineInput,
    purpose: PromptFor,
}

/// The title of the prompt for a new document's file.
const FROM_FILE: &str = "New document from a file";
/// What it asks for.
const FROM_FILE_LABEL: &str = "File of entries: CSV, JSON, Mermaid or DOT (by extension, else content); the document takes its name";

impl Prompt {
    /// The prompt for the file a new document is made from, holding `path`.
    pub fn from_file(path: &str) -> Prompt {
        Prompt::new(FROM_FILE, FROM_FILE_LABEL, path, PromptFor::FromFile)
    }

    /// A prompt titled `title` asking for `label`, prefilled with `text`, for `purpose`.
    pub fn new(title: &str, label: &str, text: &str, purpose: PromptFor) -> Prompt {
        Prompt {
            title: title.to_string(),
            label: label.to_string(),
            input: LineInput::new(text),
            purpose,
        }
    }
}

impl Component for Prompt {
    fn context(&self) -> Context {
        Context::Prompt
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match command {
            Command::Submit => vec![
                Action::Close,
                Action::Docs(DocsCall::Submit(
                    self.purpose.clone(),
                    self.input.text().to_string(),
                )),
            ],
            Command::Cancel => vec![Action::Close],
            Command::FromFile if self.purpose == PromptFor::NewDoc => vec![
                Action::Close,
                Action::Open(Overlay::Prompt(Prompt::from_file(""))),
            ],
            Command::Erase => {
                self.input.clear();
                Vec::new()
            }
            Command::UndoText => {
                self.input.undo();
                Vec::new()
            }
            Command::RedoText => {
                self.input.redo();
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        self.input.handle(key);
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        self.input.paste(text);
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let mut keys = vec![
            (Command::Submit, "ok"),
            (Command::Cancel, "cancel"),
            (Command::Erase, "clear"),
        ];
        if self.purpose == PromptFor::NewDoc {
            keys.push((Command::FromFile, "from a file (CSV, JSON, Mermaid, DOT)"));
        }
        let hint = cx.keys.hint(Context::Prompt, &keys);
        let field = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let lines = vec![
            Line::styled(self.label.clone(), cx.style(Role::Dim)),
            Line::from(input_spans(&self.input, field, cx.theme)),
            Line::raw(""),
            hint_line(hint, cx.theme),
        ];
        overlay_box(
            frame,
            area,
            &format!(" {} ", self.title),
            lines,
            (WIDTH, 6),
            cx.theme,
        );
    }
}
