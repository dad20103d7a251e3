//! What comes before and around the statements: the YAML front matter (`---` … `---`: a
//! `title` is noted, `config` such as `layout`, `curve`, `look` and `theme` are hints left
//! out), `%%{init: …}%%` directives (left out), and `%%` comment lines, among them diagtui's
//! `%% componentType NODE COMPONENT_ID`. Each is blanked so lines keep their numbers.

use std::collections::BTreeMap;

use super::statements::Refusal;
use crate::input::Note;

/// The text with front matter, directives and comments blanked, and what they said.
pub(super) struct Prelude {
    /// The flowchart's text, line for line as given.
    pub text: String,
    /// `%% componentType` comments: node id to (line, componentId).
    pub types: BTreeMap<String, (usize, String)>,
    /// Notes on what was left out (a title).
    pub notes: Vec<Note>,
}

/// Reads the front matter, directives and comments of `text`.
pub(super) fn read(text: &str) -> Result<Prelude, Refusal> {
    let mut prelude = Prelude {
        text: String::with_capacity(text.len()),
        types: BTreeMap::new(),
        notes: Vec::new(),
    };
    let mut front = FrontMatter::NotYet;
    let mut directive = false;
    for (n, line) in text.split('\n').enumerate() {
        let number = n + 1;
        let trimmed = line.trim();
        let keep = match front {
            FrontMatter::NotYet if trimmed == "---" => {
                front = FrontMatter::Inside;
                false
            }
            FrontMatter::Inside => {
                if trimmed == "---" {
                    front = FrontMatter::Done;
                } else if let Some(title) = line.strip_prefix("title:") {
                    let title = title.trim().trim_matches(['"', '\'']);
                    prelude.notes.push(Note {
                        line: Some(number),
                        text: format!("the title \"{title}\" is not drawn"),
                    });
                }
                false
            }
            _ if directive => {
                directive = !trimmed.contains("}%%");
                false
            }
            _ if trimmed.starts_with("%%{") => {
                directive = !trimmed.contains("}%%");
                false
            }
            _ if trimmed.starts_with("%%") => {
                component_type(&trimmed[2..], number, &mut prelude)?;
                false
            }
            _ => true,
        };
        if !matches!(front, FrontMatter::Inside) && !trimmed.is_empty() && keep {
            front = FrontMatter::Done;
        }
        if n > 0 {
            prelude.text.push('\n');
        }
        if keep {
            prelude.text.push_str(line);
        }
    }
    if matches!(front, FrontMatter::Inside) {
        return Err(Refusal {
            line: 1,
            what: "the front matter `---` is not closed with a second `---`".into(),
        });
    }
    Ok(prelude)
}

/// Where the front matter is.
#[derive(Clone, Copy)]
enum FrontMatter {
    /// Nothing but blank lines so far: a `---` opens it.
    NotYet,
    /// Inside it.
    Inside,
    /// Past it (or there is none).
    Done,
}

/// A `%%` comment: `componentType NODE ID` names a node's componentId; others are comments.
fn component_type(comment: &str, line: usize, prelude: &mut Prelude) -> Result<(), Refusal> {
    let mut words = comment.split_whitespace();
    if words.next() != Some("componentType") {
        return Ok(());
    }
    match (words.next(), words.next(), words.next()) {
        (Some(node), Some(id), None) => {
            prelude.types.insert(node.to_owned(), (line, id.to_owned()));
            Ok(())
        }
        _ => Err(Refusal {
            line,
            what: "a componentType comment reads `%% componentType NODE COMPONENT_ID`".into(),
        }),
    }
}
