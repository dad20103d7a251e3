//! Undo of the session's folder writes (`record::FolderChange`), asked for with `u` in the
//! documents pane (the newest not undone) or picked in its `U`: a new folder is deleted (after
//! reading the folders: only while it is still empty, since a folder's delete takes its
//! documents with it); a rename is renamed back; a deleted folder is made again under its
//! title (a new id), the question naming the documents deleted with it, which cannot come back
//! (the API has no way to bring a document back); documents moved are moved back, each to the
//! folder it came from. Every undo asks first; the documents pane reads the lists again after.

use crate::keys::Command;
use crate::requests::api::{self, Call};
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, FolderUndoReply, UndoReply};
use crate::session::record::{FolderChange, UndoneMark, Write, WriteKind};
use crate::text::words;
use crate::vocab::action::{Action, Ask, Choice, Cx};
use crate::vocab::calls::{Body, DocsCall};
use diagtui_model::FolderRef;

/// How many titles a question names before `+N`.
const NAMED: usize = 5;

/// The question before undoing folder write `write`.
pub fn ask(write: &Write, cx: &Cx) -> Vec<Action> {
    let WriteKind::Folder { change, undone } = &write.kind else {
        return Vec::new();
    };
    if *undone {
        return vec![Action::info(format!(
            "write {} is undone already",
            write.id
        ))];
    }
    let id = write.id;
    // Each request undoing the folder write; its answer is done or not.
    let send = |call: Call<()>| {
        Action::Send(cx.send(call, move |done| {
            Answered::Undo(UndoReply::Folder(id, FolderUndoReply::Done(done)))
        }))
    };
    let (text, yes, actions, destructive) = match change {
        FolderChange::Created(folder) => (
            format!(
                "Delete the folder \"{}\" made in this session? The folders are read first: it is deleted only if it is still empty.",
                folder.title
            ),
            "delete it if empty",
            vec![Action::Send(cx.send(api::folders(), move |folders| {
                Answered::Undo(UndoReply::Folder(id, FolderUndoReply::Check(folders)))
            }))],
            false,
        ),
        FolderChange::Renamed { folder, to } => (
            format!("Rename the folder \"{to}\" back to \"{}\"?", folder.title),
            "rename it back",
            vec![send(api::rename_folder(
                folder.id.clone(),
                folder.title.clone(),
            ))],
            false,
        ),
        FolderChange::Deleted { folder, docs } => (
            format!(
                "Make the folder \"{}\" again (a new folder: its id changes)? {}",
                folder.title,
                lost(docs)
            ),
            "make it again",
            vec![send(api::create_folder(folder.title.clone()).map(|_| ()))],
            false,
        ),
        FolderChange::Moved { docs, to } => {
            let back: Vec<String> = docs
                .iter()
                .map(|(doc, from)| format!("\"{}\" to \"{}\"", doc.title, from.title))
                .collect();
            (
                format!(
                    "Move back from \"{}\": {}?",
                    to.title,
                    named(&back).join(", ")
                ),
                "move them back",
                docs.iter()
                    .map(|(doc, from)| send(api::move_doc(doc.id.clone(), from.id.clone())))
                    .collect(),
                docs.len() > 1,
            )
        }
    };
    let question = Ask::new(
        &format!("Undo the {}", change.name()),
        Body::Text(text),
        vec![
            Choice::new(Command::Yes, yes, actions),
            Choice::new(Command::No, "leave it", Vec::new()),
        ],
    );
    let question = if destructive {
        question.destructive()
    } else {
        question
    };
    vec![Action::Ask(question)]
}

/// What a folder's delete took that cannot come back.
fn lost(docs: &[String]) -> String {
    match docs.len() {
        0 => "It held no document.".to_owned(),
        n => {
            let titles: Vec<String> = docs.iter().map(|t| format!("\"{t}\"")).collect();
            format!(
                "The {} deleted with it ({}) cannot come back: the API has no way to restore a deleted document.",
                words::count(n, "document", "documents"),
                named(&titles).join(", ")
            )
        }
    }
}

/// The first [`NAMED`] of `items`, then `+N` for the rest.
fn named(items: &[String]) -> Vec<String> {
    let mut shown: Vec<String> = items.iter().take(NAMED).cloned().collect();
    if items.len() > NAMED {
        shown.push(format!("+{}", items.len() - NAMED));
    }
    shown
}

/// The answer to a request of a folder write's undo.
pub fn on_reply(write: u64, reply: FolderUndoReply, request: Request, cx: &Cx) -> Vec<Action> {
    let Some(change) = cx.writes.get(write).and_then(|w| match &w.kind {
        WriteKind::Folder { change, .. } => Some(change),
        _ => None,
    }) else {
        return Vec::new();
    };
    let refresh = Action::to_pane(DocsCall::Refresh);
    match reply {
        FolderUndoReply::Check(Ok(folders)) => {
            let FolderChange::Created(folder) = change else {
                return Vec::new();
            };
            match folders.get(&folder.id) {
                None => vec![
                    Action::Undone(UndoneMark::Folder(write)),
                    Action::info(format!(
                        "the folder \"{}\" is gone already: nothing to undo",
                        folder.title
                    )),
                    refresh,
                ],
                Some(entry) if !entry.docs.is_empty() => vec![Action::error(format!(
                    "the folder \"{}\" now holds {}: deleting it would delete them too; nothing was done (move them out first)",
                    entry.title,
                    words::count(entry.docs.len(), "document", "documents")
                ))],
                Some(_) => vec![Action::Send(cx.send(
                    api::delete_folder(folder.id.clone()),
                    move |done| {
                        Answered::Undo(UndoReply::Folder(write, FolderUndoReply::Done(done)))
                    },
                ))],
            }
        }
        FolderUndoReply::Done(Ok(())) => {
            let said = match (change, &request) {
                (FolderChange::Created(folder), ..) => {
                    format!("undid the new folder: \"{}\" deleted", folder.title)
                }
                (FolderChange::Renamed { folder, to }, ..) => {
                    format!("renamed the folder \"{to}\" back to \"{}\"", folder.title)
                }
                (FolderChange::Deleted { folder, docs }, _) => {
                    let gone = match docs.len() {
                        0 => String::new(),
                        n => format!(
                            " ({} deleted with it cannot come back)",
                            words::count(n, "document", "documents")
                        ),
                    };
                    format!("made the folder \"{}\" again{gone}", folder.title)
                }
                (FolderChange::Moved { docs, .. }, Request::MoveDoc { doc, folder }) => {
                    let title = docs
                        .iter()
                        .find(|(d, _)| &d.id == doc)
                        .map_or(doc.as_str(), |(d, _)| d.title.as_str());
                    let to = docs
                        .iter()
                        .map(|(_, from)| from)
                        .find(|f| &f.id == folder)
                        .map_or(folder.as_str(), |f: &FolderRef| f.title.as_str());
                    format!("moved \"{title}\" back to \"{to}\"")
                }
                _ => format!("undid the {}", change.name()),
            };
            vec![
                Action::Undone(UndoneMark::Folder(write)),
                Action::info(said),
                refresh,
            ]
        }
        FolderUndoReply::Check(Err(failure)) | FolderUndoReply::Done(Err(failure)) => vec![
            Action::error(format!(
                "could not undo the {}: {}",
                change.name(),
                failure.said_for(&request)
            )),
            refresh,
        ],
    }
}
