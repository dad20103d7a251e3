//! A new document made from a file of create-diagram entries (the new-document prompt's
//! `Ctrl-O`): the file is read (CSV, JSON, Mermaid or DOT, by extension, else by content, as
//! `diagtui doc create-diagram` reads it), a document named after the file is created (after
//! the title a Mermaid flowchart's front matter gives, if any), the file
//! is laid out into it by the server's create-diagram, and it opens with the map shown. A file
//! the server refuses leaves nothing behind (the new document is deleted again): the server's
//! 400 message (the entry and field, or the Mermaid or DOT line) is shown and the prompt opens again
//! with the path typed.

use std::path::Path;

use crate::app::update::{App, cx};
use crate::overlays::Prompt;
use crate::panes::MAP;
use crate::requests::api;
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, FromFileReply};
use crate::transfer::{FileError, FileJob, FileOutcome};
use crate::vocab::action::{Action, Cx, Overlay};
use diagtui_model::DocSummary;

/// The new document's title when the file gives none: its name without its extension.
fn title_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "diagram".to_owned())
}

/// The error shown when a step fails, and the prompt opened again with `path`.
fn failed(what: String, path: &str) -> Vec<Action> {
    vec![
        Action::error(what),
        Action::Open(Overlay::new(Prompt::from_file(path))),
    ]
}

impl App {
    /// The file of entries was read (or not): the new document is created, in `folder`.
    pub(super) fn diagram_file_read(
        &mut self,
        folder: Option<String>,
        job: &FileJob,
        outcome: FileOutcome,
    ) -> Vec<Action> {
        let path = job.path();
        let typed = path.display().to_string();
        let body = match outcome {
            Ok(body) => body,
            Err(FileError::Failed(why)) => {
                return failed(format!("cannot read {typed}: {why}"), &typed);
            }
            Err(FileError::Exists) => return Vec::new(),
        };
        if let Some(why) = diagtui_client::entries_unusable(body.as_bytes()) {
            return failed(format!("{typed}: {why}"), &typed);
        }
        let content_type = diagtui_client::entries_content_type(path, body.as_bytes());
        let title = diagtui_client::entries_title(content_type, body.as_bytes());
        let call = api::create_doc(title.unwrap_or_else(|| title_of(path)), folder);
        let content_type = content_type.to_owned();
        let cx = cx!(self, None);
        vec![Action::Send(cx.send(call, move |doc| {
            Answered::FromFile(FromFileReply::Created {
                path: typed,
                content_type,
                body,
                doc,
            })
        }))]
    }

    /// A step of a new document from a file answered.
    pub(super) fn file_diagram_answered(
        &mut self,
        reply: FromFileReply,
        request: Request,
    ) -> Vec<Action> {
        let cx = cx!(self, self.panes.props.unsaved());
        match reply {
            FromFileReply::Created {
                path,
                content_type,
                body,
                doc: Ok(doc),
            } => {
                let Request::CreateDoc { title, .. } = request else {
                    return Vec::new();
                };
                let diagram = api::create_diagram(doc, content_type, body);
                vec![Action::Send(cx.send(diagram, move |laid_out| {
                    Answered::FromFile(FromFileReply::Diagram {
                        path,
                        title,
                        laid_out,
                    })
                }))]
            }
            FromFileReply::Diagram {
                path,
                title,
                laid_out: Ok((count, notes)),
            } => {
                let Request::CreateDiagram { doc, .. } = request else {
                    return Vec::new();
                };
                let mut actions = self.panes.docs.refresh_selecting(doc.clone(), &cx);
                actions.extend([
                    Action::OpenDoc(DocSummary {
                        id: doc,
                        title: title.clone(),
                    }),
                    Action::Show(MAP, true),
                    Action::info(match notes.len() {
                        0 => format!("made \"{title}\" from {path}: {count} objects laid out"),
                        n => format!(
                            "made \"{title}\" from {path}: {count} objects laid out; {n} drawn \
                             otherwise: {}",
                            notes.join("; ")
                        ),
                    }),
                ]);
                actions
            }
            FromFileReply::Diagram {
                path,
                laid_out: Err(failure),
                ..
            } => {
                let Request::CreateDiagram { doc, .. } = &request else {
                    return Vec::new();
                };
                // Nothing is left behind: the document made for the file goes again.
                let cleanup = cx.send(api::delete_doc(doc.clone()), |deleted| {
                    Answered::FromFile(FromFileReply::Cleanup(deleted))
                });
                // The file's name (the prompt keeps the whole path): the server's words,
                // with the line they name, before anything is cut.
                let name = std::path::Path::new(&path)
                    .file_name()
                    .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
                let mut actions = failed(
                    format!("{name} was refused: {}", failure.said_for(&request)),
                    &path,
                );
                actions.push(Action::Send(cleanup));
                actions
            }
            FromFileReply::Created {
                path,
                doc: Err(failure),
                ..
            } => failed(
                format!(
                    "could not create a document for {path}: {}",
                    failure.said_for(&request)
                ),
                &path,
            ),
            FromFileReply::Cleanup(Ok(())) => Vec::new(),
            FromFileReply::Cleanup(Err(failure)) => vec![Action::error(format!(
                "the empty document made for the refused file stays: {}",
                failure.said_for(&request)
            ))],
        }
    }
}
