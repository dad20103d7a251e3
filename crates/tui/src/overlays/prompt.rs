//! A one-line prompt: a new title, an e-mail, a file name. Its text goes to the documents pane.
//! A file prompt completes the name typed with Tab, as a shell does: the directory typed (`~`
//! its home) is listed by the runner (a file job) and the one name that fits is filled in, or
//! what the names that fit share, and the message lists them.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::keys::{Command, Context};
use crate::theme::Role;
use crate::transfer::{FileFor, FileJob, FileOutcome};
use crate::vocab::action::{Action, Component, Cx, Overlay};
use crate::vocab::calls::{DocsCall, PromptFor};
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

    /// Whether it asks for a file (Tab completes it).
    fn takes_a_file(&self) -> bool {
        matches!(
            self.purpose,
            PromptFor::FromFile | PromptFor::Export(_) | PromptFor::Import(_)
        )
    }

    /// The listing Tab asked for arrived (`typed`: the text it was asked for): the name is
    /// completed if the text is still that, and the message says what fits.
    pub fn completed(&mut self, typed: &str, listing: FileOutcome) -> Vec<Action> {
        if self.input.text() != typed {
            return Vec::new();
        }
        let names = match listing {
            Ok(names) => names,
            Err(_) => return vec![Action::info(format!("no directory to complete {typed} in"))],
        };
        let names: Vec<&str> = names.lines().collect();
        let (dir, begun) = split_path(typed);
        let fits: Vec<&str> = names
            .into_iter()
            .filter(|n| n.starts_with(begun) && (begun.starts_with('.') || !n.starts_with('.')))
            .collect();
        let shared = shared_start(&fits);
        if shared.len() > begun.len() {
            self.input = LineInput::new(format!("{dir}{shared}"));
        }
        match fits.as_slice() {
            [] => vec![Action::info(format!("no file name starts with {typed}"))],
            [_] => Vec::new(),
            many => {
                let shown: Vec<&str> = many.iter().take(8).copied().collect();
                let more = match many.len() - shown.len() {
                    0 => String::new(),
                    n => format!(" +{n}"),
                };
                vec![Action::info(format!(
                    "{} names fit: {}{more}",
                    many.len(),
                    shown.join("  ")
                ))]
            }
        }
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

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        match command {
            Command::Complete if self.takes_a_file() => {
                let typed = self.input.text().to_string();
                let (dir, _) = split_path(&typed);
                let dir = cx.places.resolve(if dir.is_empty() { "." } else { dir });
                vec![Action::File(FileFor::Complete(typed), FileJob::List(dir))]
            }
            Command::Submit => vec![
                Action::Close,
                Action::to_pane(DocsCall::Submit(
                    self.purpose.clone(),
                    self.input.text().to_string(),
                )),
            ],
            Command::Cancel => vec![Action::Close],
            Command::FromFile if self.purpose == PromptFor::NewDoc => vec![
                Action::Close,
                Action::Open(Overlay::new(Prompt::from_file(""))),
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
        if self.takes_a_file() {
            keys.push((Command::Complete, "complete"));
        }
        let hint = cx.keys.hint(Context::Prompt, &keys);
        let field = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let lines = vec![
            Line::styled(self.label.clone(), cx.style(Role::Dim)),
            Line::from(input_spans(&self.input, field, cx.theme)),
        ];
        let footer = vec![Line::raw(""), hint_line(hint, cx.theme)];
        overlay_box(
            frame,
            area,
            &format!(" {} ", self.title),
            (lines, footer),
            (WIDTH, 6),
            cx.theme,
        );
    }
}

/// A typed path as its directory (up to its last `/`, kept as typed) and the name begun.
fn split_path(typed: &str) -> (&str, &str) {
    match typed.rfind('/') {
        Some(at) => typed.split_at(at + 1),
        None if typed == "~" => (typed, ""),
        None => ("", typed),
    }
}

/// The start every one of `names` shares.
fn shared_start<'a>(names: &[&'a str]) -> &'a str {
    let Some((first, rest)) = names.split_first() else {
        return "";
    };
    let mut end = first.len();
    for name in rest {
        end = first
            .char_indices()
            .zip(name.chars())
            .take_while(|((_, a), b)| a == b)
            .map(|((i, a), _)| i + a.len_utf8())
            .last()
            .unwrap_or(0)
            .min(end);
    }
    &first[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::DocSummary;

    fn export_prompt(text: &str) -> Prompt {
        let doc = DocSummary {
            id: "d1".into(),
            title: "Plan".into(),
        };
        Prompt::new("Export", "File", text, PromptFor::Export(doc))
    }

    #[test]
    fn tab_completes_the_one_name_that_fits_or_what_several_share() {
        let mut prompt = export_prompt("plans/ne");
        let listing = Ok("network.json\nnew/\nold.json".to_string());
        let said = prompt.completed("plans/ne", listing.clone());
        assert_eq!(prompt.input.text(), "plans/ne");
        assert!(
            matches!(said.as_slice(), [Action::Notify(n)] if n.text == "2 names fit: network.json  new/"),
            "{said:?}"
        );
        let mut prompt = export_prompt("plans/netw");
        assert!(prompt.completed("plans/netw", listing.clone()).is_empty());
        assert_eq!(prompt.input.text(), "plans/network.json");
        let mut prompt = export_prompt("o");
        prompt.completed("o", listing.clone());
        assert_eq!(prompt.input.text(), "old.json");
        // A listing for text typed since is dropped.
        let mut prompt = export_prompt("x");
        assert!(prompt.completed("o", listing).is_empty());
        assert_eq!(prompt.input.text(), "x");
    }

    #[test]
    fn paths_split_at_their_last_slash() {
        assert_eq!(split_path("~/plans/a"), ("~/plans/", "a"));
        assert_eq!(split_path("a.json"), ("", "a.json"));
        assert_eq!(split_path("~"), ("~", ""));
        assert_eq!(shared_start(&["network.json", "new/"]), "ne");
        assert_eq!(shared_start(&["données", "donnée"]), "donnée");
    }
}
