//! The documents pane's folders: folding a heading, making, renaming and deleting a folder,
//! marking documents and moving them (the selected one or the marked ones) to a folder picked
//! from a list. Every write says what it will do first (a prompt, a question, the picker and
//! its question), and once done enters the write history under `FOLDERS`: `u` here undoes the
//! newest, `U` lists them (see `writes/folder_undo.rs`). The server also keeps a move as a
//! version of the document's history.

use std::collections::HashMap;

use ratatui::text::{Line, Span};

use super::{DocAction, DocsReply};
use super::{DocRow, DocsPane, RowKey, SHARED};
use crate::keys::{Command, Context};
use crate::overlays::{FolderPicker, WritesView, docs_subject};
use crate::requests::api;
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, Outcome};
use crate::session::record::{FOLDERS, FolderChange, Undone, WriteKind};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Choice, Cx, Overlay};
use crate::vocab::calls::{Body, DocsCall, PromptFor};
use crate::writes::folder_undo;
use diagtui_model::{DocSummary, FolderEntry, FolderRef};

/// How many documents a folder's delete question names before `+N`.
const NAMED: usize = 5;

/// The moves sent and not yet answered, to say once how they went.
#[derive(Debug, Default)]
pub(super) struct Moving {
    /// Moves not yet answered.
    left: usize,
    /// The documents moved so far, each with the folder it came from.
    moved: Vec<(DocSummary, FolderRef)>,
    /// The folder each document sent was in, by its id.
    from: HashMap<String, FolderRef>,
}

impl DocsPane {
    /// A command about folders, marks or folding: its actions, or `None` when it is none of
    /// those here (a document's command, then).
    pub(super) fn folder_command(&mut self, command: Command, cx: &Cx) -> Option<Vec<Action>> {
        let heading = self.on_heading();
        Some(match command {
            Command::New => self.ask_new_doc(),
            Command::NewFolder => DocsPane::prompt(
                "New folder",
                "Title of the folder",
                "",
                PromptFor::NewFolder,
            ),
            Command::Mark => self.toggle_mark(cx),
            Command::Undo => match cx
                .writes
                .of_doc(FOLDERS)
                .find(|w| w.undone() != Undone::All)
            {
                Some(write) => folder_undo::ask(write, cx),
                None => vec![Action::info(
                    "nothing to undo: no folder write (new, rename, delete, move) in this session",
                )],
            },
            Command::History => vec![Action::Open(Overlay::new(WritesView::new(FOLDERS)))],
            Command::MoveToFolder => self.ask_move(cx),
            Command::Fold => self.fold(Some(true), cx),
            Command::Unfold if heading => self.fold(Some(false), cx),
            Command::Open if heading => self.fold(None, cx),
            Command::Unfold => match self.selected_doc() {
                Some(doc) => vec![Action::OpenDoc(doc.clone())],
                None => Vec::new(),
            },
            Command::Rename if heading => match self.selected_folder(cx) {
                Ok(folder) => DocsPane::prompt(
                    "Rename folder",
                    "Title",
                    &folder.title.clone(),
                    PromptFor::RenameFolder(folder),
                ),
                Err(why) => why,
            },
            Command::Delete if heading => match self.selected_folder(cx) {
                Ok(folder) => self.ask_delete_folder(folder),
                Err(why) => why,
            },
            Command::Clone
            | Command::Share
            | Command::Export
            | Command::Import
            | Command::Empty
            | Command::CopyEmbedUrl
                if heading =>
            {
                vec![Action::info(format!(
                    "that works on a document: select one ({}/{})",
                    cx.key(Context::Move, Command::Down),
                    cx.key(Context::Move, Command::Up)
                ))]
            }
            _ => return None,
        })
    }

    /// `n`: the title of a new document, made in the selected folder.
    fn ask_new_doc(&self) -> Vec<Action> {
        let place = match (self.selected_heading(), self.target_folder()) {
            (Some((_, title)), Some(_)) => format!("in \"{title}\""),
            _ => "in your first folder".to_owned(),
        };
        DocsPane::prompt(
            "New document",
            &format!("Title (the document goes {place})"),
            "",
            PromptFor::NewDoc,
        )
    }

    /// The selected heading's folder, or why it has none to act on (*Shared with me*).
    fn selected_folder(&self, cx: &Cx) -> Result<FolderRef, Vec<Action>> {
        match self.selected_heading() {
            Some((Some(id), title)) => Ok(FolderRef { id, title }),
            _ => Err(vec![Action::info(format!(
                "\"{SHARED}\" is not a folder: it lists the documents other accounts share with you ({} in it opens one)",
                cx.key(Context::Documents, Command::Open)
            ))]),
        }
    }

    /// Folds (`Some(true)`), unfolds (`Some(false)`) or toggles the selected heading, or the
    /// heading of the selected document, which is then selected.
    fn fold(&mut self, fold: Option<bool>, cx: &Cx) -> Vec<Action> {
        let Some((folder, _)) = self.selected_heading() else {
            return Vec::new();
        };
        let folded = self.folded.contains(&folder);
        if fold.unwrap_or(!folded) {
            self.folded.insert(folder.clone());
        } else {
            self.folded.remove(&folder);
        }
        let before = self.selected_key();
        self.rebuild(Some(RowKey::Folder(folder)));
        if self.selected_key() == before {
            Vec::new()
        } else {
            self.request_details(cx)
        }
    }

    /// `Space`: marks or unmarks the selected document, then selects the next row.
    fn toggle_mark(&mut self, cx: &Cx) -> Vec<Action> {
        let Some(id) = self.selected_doc().map(|d| d.id.clone()) else {
            return vec![Action::info("select a document to mark it")];
        };
        if !self.marked.remove(&id) {
            self.marked.insert(id);
        }
        self.step(1, cx)
    }

    /// The documents a move takes: the marked ones (in list order), else the selected one.
    fn to_move(&self) -> Vec<DocSummary> {
        if self.marked.is_empty() {
            self.selected_doc().cloned().into_iter().collect()
        } else {
            self.docs()
                .iter()
                .filter(|d| self.marked.contains(&d.id))
                .cloned()
                .collect()
        }
    }

    /// The account's folder holding document `doc`, if it owns it.
    fn folder_of(&self, doc: &str) -> Option<&String> {
        self.folders
            .as_ref()?
            .iter()
            .find(|(_, f)| f.docs.contains_key(doc))
            .map(|(id, _)| id)
    }

    /// `M`: the folder picker for the documents to move, or why there is nothing to move.
    fn ask_move(&self, cx: &Cx) -> Vec<Action> {
        let docs = self.to_move();
        if docs.is_empty() {
            return vec![Action::info(format!(
                "select a document to move (or mark some with {})",
                cx.key(Context::Documents, Command::Mark)
            ))];
        }
        let Some(folders) = &self.folders else {
            return vec![Action::error(
                "the folders are not known yet: nothing to move to",
            )];
        };
        let shared: Vec<DocSummary> = docs
            .iter()
            .filter(|d| self.folder_of(&d.id).is_none())
            .cloned()
            .collect();
        if !shared.is_empty() {
            return vec![Action::error(format!(
                "only a document's owner can move it: {} shared with you; nothing was moved",
                docs_subject(&shared)
            ))];
        }
        let from: Vec<&String> = docs.iter().filter_map(|d| self.folder_of(&d.id)).collect();
        let all_in = from
            .first()
            .filter(|first| from.iter().all(|f| f == *first));
        let mut offered: Vec<FolderRef> = folders
            .iter()
            .filter(|(id, _)| all_in.is_none_or(|here| *here != *id))
            .map(|(id, f)| FolderRef {
                id: id.clone(),
                title: f.title.clone(),
            })
            .collect();
        offered.sort_by(|a, b| (&a.title, &a.id).cmp(&(&b.title, &b.id)));
        if offered.is_empty() {
            return vec![Action::info(format!(
                "there is no other folder to move to: {} makes one",
                cx.key(Context::Documents, Command::NewFolder)
            ))];
        }
        vec![Action::Open(Overlay::new(FolderPicker::new(docs, offered)))]
    }

    /// The move was confirmed: one request per document; the list shows them in their new
    /// folder at once, and the marks go.
    pub(super) fn send_moves(
        &mut self,
        docs: Vec<DocSummary>,
        folder: FolderRef,
        cx: &Cx,
    ) -> Vec<Action> {
        self.marked.clear();
        if let Some(folders) = self.folders.as_mut() {
            for doc in &docs {
                for (id, entry) in folders.iter_mut() {
                    if entry.docs.remove(&doc.id).is_some() {
                        let from = FolderRef {
                            id: id.clone(),
                            title: entry.title.clone(),
                        };
                        self.moving.from.insert(doc.id.clone(), from);
                    }
                }
                if let Some(entry) = folders.get_mut(&folder.id) {
                    entry.docs.insert(doc.id.clone(), doc.title.clone());
                }
            }
        }
        self.rebuild(self.selected_key());
        self.moving.left += docs.len();
        docs.into_iter()
            .map(|doc| {
                let call = api::move_doc(doc.id.clone(), folder.id.clone());
                let folder = folder.clone();
                Action::Send(cx.send(call, move |moved| {
                    Answered::pane(DocsReply::Move { doc, folder, moved })
                }))
            })
            .collect()
    }

    /// A move answered: a failure says so at once; once every move is answered, one message
    /// says what moved (and how to move it back), and the lists are read again.
    pub(super) fn moved(
        &mut self,
        doc: DocSummary,
        folder: FolderRef,
        outcome: Outcome<()>,
        cx: &Cx,
    ) -> Vec<Action> {
        self.moving.left = self.moving.left.saturating_sub(1);
        let mut actions = Vec::new();
        match outcome {
            Ok(_) => {
                if let Some(from) = self.moving.from.remove(&doc.id) {
                    self.moving.moved.push((doc, from));
                }
            }
            Err(failure) => actions.push(Action::error(format!(
                "could not move \"{}\" to \"{}\": {}",
                doc.title, folder.title, failure.message
            ))),
        }
        if self.moving.left > 0 {
            return actions;
        }
        let moved = std::mem::take(&mut self.moving.moved);
        self.moving.from.clear();
        let back = cx.key(Context::Documents, Command::Undo);
        let note = match moved.as_slice() {
            [] => None,
            [(one, _)] => Some(format!(
                "moved \"{}\" to \"{}\" ({back} moves it back)",
                one.title, folder.title
            )),
            many => Some(format!(
                "moved {} to \"{}\" ({back} moves them back)",
                words::count(many.len(), "document", "documents"),
                folder.title
            )),
        };
        actions.extend(note.map(Action::info));
        if !moved.is_empty() {
            actions.push(Action::Record {
                doc: FOLDERS.to_owned(),
                kind: WriteKind::Folder {
                    change: FolderChange::Moved {
                        docs: moved,
                        to: folder,
                    },
                    undone: false,
                },
            });
        }
        actions.extend(self.refresh(cx));
        actions
    }

    /// A folder write answered: said, and on success kept in the write history (`u` undoes
    /// it).
    pub(super) fn folder_written(
        &mut self,
        (what, change): (DocAction, FolderChange),
        request: &Request,
        outcome: Outcome<()>,
        cx: &Cx,
    ) -> Vec<Action> {
        match outcome {
            Ok(()) => {
                let mut actions = vec![Action::Record {
                    doc: FOLDERS.to_owned(),
                    kind: WriteKind::Folder {
                        change,
                        undone: false,
                    },
                }];
                actions.extend(self.action_done(what, request, None, cx));
                actions
            }
            Err(failure) => self.action_failed(what, request, &failure, cx),
        }
    }

    /// The question before a folder's delete, naming how many documents go with it; the last
    /// folder is refused at once (the server keeps one).
    fn ask_delete_folder(&self, folder: FolderRef) -> Vec<Action> {
        let Some(folders) = &self.folders else {
            return Vec::new();
        };
        if folders.len() <= 1 {
            return vec![Action::error(format!(
                "\"{}\" is your last folder: an account keeps one to hold its documents; nothing was deleted",
                folder.title
            ))];
        }
        let docs: Vec<(String, String)> = folders
            .get(&folder.id)
            .map(|f| f.docs.clone().into_iter().collect())
            .unwrap_or_default();
        let title = &folder.title;
        let (text, yes) = if docs.is_empty() {
            (
                format!("Delete the empty folder \"{title}\"?"),
                "delete the folder".to_owned(),
            )
        } else {
            let count = words::count(docs.len(), "document", "documents");
            let mut names: Vec<String> = docs
                .iter()
                .take(NAMED)
                .map(|(_, t)| format!("\"{t}\""))
                .collect();
            if docs.len() > NAMED {
                names.push(format!("+{}", docs.len() - NAMED));
            }
            (
                format!(
                    "Delete the folder \"{title}\" and the {count} in it ({}), with all their objects? This cannot be undone.",
                    names.join(", ")
                ),
                format!("delete the folder and its {count}"),
            )
        };
        let ids = docs.into_iter().map(|(id, _)| id).collect();
        vec![Action::Ask(
            Ask::new(
                "Delete folder",
                Body::Text(text),
                vec![
                    Choice::new(
                        Command::Yes,
                        &yes,
                        vec![Action::to_pane(DocsCall::DeleteFolder(folder, ids))],
                    ),
                    Choice::new(Command::No, "keep it", Vec::new()),
                ],
            )
            .destructive(),
        )]
    }

    /// The folder's delete was confirmed: it and its documents leave the list at once (the
    /// open document among them closes), and the delete is sent.
    pub(super) fn delete_folder(
        &mut self,
        folder: FolderRef,
        docs: Vec<String>,
        cx: &Cx,
    ) -> Vec<Action> {
        if let Some(folders) = self.folders.as_mut() {
            folders.remove(&folder.id);
        }
        let titles: Vec<String> = self
            .list
            .value()
            .into_iter()
            .flatten()
            .filter(|d| docs.contains(&d.id))
            .map(|d| d.title.clone())
            .collect();
        if let Some(list) = self.list.value_mut() {
            list.retain(|d| !docs.contains(&d.id));
        }
        for doc in &docs {
            self.marked.remove(doc);
        }
        self.rebuild(None);
        let mut actions: Vec<Action> = docs.into_iter().map(Action::DocDeleted).collect();
        actions.push(Action::Send(
            cx.send(api::delete_folder(folder.id.clone()), move |deleted| {
                Answered::pane(DocsReply::DeleteFolder(folder, titles, deleted))
            }),
        ));
        actions.extend(self.request_details(cx));
        actions
    }

    /// A folder's new title was typed: shown at once, then sent.
    pub(super) fn rename_folder(
        &mut self,
        folder: FolderRef,
        title: String,
        cx: &Cx,
    ) -> Vec<Action> {
        if let Some(entry) = self
            .folders
            .as_mut()
            .and_then(|folders| folders.get_mut(&folder.id))
        {
            entry.title = title.clone();
        }
        self.rebuild(self.selected_key());
        let call = api::rename_folder(folder.id.clone(), title);
        vec![Action::Send(cx.send(call, move |renamed| {
            Answered::pane(DocsReply::RenameFolder(folder, renamed))
        }))]
    }

    /// A folder was made: it shows (empty) and is selected; the message says how to fill it.
    pub(super) fn folder_created(&mut self, id: String, title: &str) -> String {
        if let Some(folders) = self.folders.as_mut() {
            folders.insert(
                id.clone(),
                FolderEntry {
                    title: title.to_owned(),
                    docs: Default::default(),
                },
            );
        }
        self.rebuild(Some(RowKey::Folder(Some(id))));
        format!("folder \"{title}\" created")
    }

    /// The details of a selected heading: the folder, how many documents it holds, and the
    /// keys that work on it.
    pub(super) fn heading_lines(&self, width: usize, cx: &Cx) -> Vec<Line<'static>> {
        let label = cx.style(Role::Dim);
        let row = |name: &str, value: String| {
            Line::from(vec![
                Span::styled(format!("{name:<8}"), label),
                Span::raw(clip(&value, width.saturating_sub(8))),
            ])
        };
        let Some(DocRow::Folder { folder, title, .. }) = self.rows.get(self.cursor.selected())
        else {
            return Vec::new();
        };
        let rule = Line::styled(clip(&"─".repeat(width), width), label);
        let key = |command| cx.key(Context::Documents, command);
        match folder {
            None => vec![
                rule,
                row("folder", title.clone()),
                Line::styled(
                    clip("documents other accounts share with you", width),
                    label,
                ),
            ],
            Some(id) => {
                let docs = self
                    .folders
                    .as_ref()
                    .and_then(|f| f.get(id))
                    .map_or(0, |f| f.docs.len());
                vec![
                    rule,
                    row("folder", title.clone()),
                    row("holds", words::count(docs, "document", "documents")),
                    Line::styled(
                        clip(&format!("{} new document here", key(Command::New)), width),
                        label,
                    ),
                    Line::styled(
                        clip(
                            &format!(
                                "{} rename · {} delete",
                                key(Command::Rename),
                                key(Command::Delete)
                            ),
                            width,
                        ),
                        label,
                    ),
                ]
            }
        }
    }
}
