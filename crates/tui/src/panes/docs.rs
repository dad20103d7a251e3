//! The documents pane: the list grouped by folder under headings that select and fold, its
//! fuzzy filter (matched letters highlighted), the selected document's details (its embeds
//! among them, see [`doc_embeds`](super::doc_embeds)), the marks, and the document actions
//! (create, rename, clone, share, export, import, empty, delete, copy an embed's URL). The
//! folders' own actions (create, rename, delete, move documents) are in [`folders`].

mod folders;

use std::collections::{BTreeSet, HashMap, HashSet};

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::document::ObjectModel;
use crate::requests::purpose::{DocAction, DocsWork, Purpose};
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, DocsCall, PromptFor};
use crate::widgets::fuzzy;
use crate::widgets::input::Filter;
use diagtui_model::{
    Content, ContentReport, DocDetails, DocSummary, ErrorCode, FolderList, FolderRef, check_content,
};

use super::doc_embeds::DocEmbeds;
use crate::document::RequestId;
use crate::document::load::Load;
use crate::keys::{Command, Context};
use crate::overlays::Prompt;
use crate::panes::Filtered;
use crate::requests::call::{Answer, Failure, Request};
use crate::session::record::{FOLDERS, FolderChange, Replacement, WriteKind};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::transfer::{FileError, FileFor, FileJob, FileOutcome, export_name};
use crate::vocab::layout;
use crate::widgets::list::{ListCursor, Pointer};
use crate::widgets::pieces::{
    filter_line, highlighted, load_error_lines, pane_block, selected_line,
};
use crate::widgets::titles;

/// One row of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum DocRow {
    /// A folder heading: the folder (`None`: the documents shared with the account), its
    /// title, and how many of its documents the filter lets through.
    Folder {
        /// The folder's id; `None` for *Shared with me*.
        folder: Option<String>,
        /// Its title.
        title: String,
        /// How many of its documents show (folded or not).
        count: usize,
    },
    /// A document: its index in the list, and the letters of its title the filter matched.
    Doc(usize, Vec<usize>),
}

/// What a row shows, to select it again after the rows are rebuilt.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RowKey {
    /// A document, by id.
    Doc(String),
    /// A folder heading (`None`: *Shared with me*).
    Folder(Option<String>),
}

/// The title of the heading of documents shared with the account.
const SHARED: &str = "Shared with me";

/// The documents pane.
#[derive(Debug, Default)]
pub struct DocsPane {
    list: Load<Vec<DocSummary>>,
    folders: Option<FolderList>,
    filter: Filter,
    rows: Vec<DocRow>,
    cursor: ListCursor,
    details: Load<DocDetails>,
    embeds: DocEmbeds,
    /// Object counts known from opened documents (fresher than the details).
    counts: HashMap<String, usize>,
    replacing: Option<Replacing>,
    /// The folded headings (`None`: *Shared with me*).
    folded: HashSet<Option<String>>,
    /// The marked documents, by id.
    marked: BTreeSet<String>,
    /// The moves sent and not yet answered.
    moving: folders::Moving,
    area: Rect,
}

/// A write that replaces a document's content whole (an import, an empty), under way: first
/// the content it replaces is read (kept to undo it), then the write is sent.
#[derive(Debug)]
enum Replacing {
    /// Reading the content it replaces (request `read`), to do `next` after.
    Reading { read: RequestId, next: Next },
    /// The write (request `sent`), replacing `previous`.
    Writing {
        sent: RequestId,
        previous: Box<ObjectModel>,
    },
}

/// What follows the read of the content a write replaces.
#[derive(Debug)]
enum Next {
    /// Set this content (the import was confirmed).
    Import(Content),
    /// Ask whether to empty the document, with how many objects go.
    AskEmpty,
}

impl DocsPane {
    /// A pane with nothing loaded yet.
    pub fn new() -> DocsPane {
        DocsPane {
            cursor: ListCursor::with_lead(1),
            ..DocsPane::default()
        }
    }

    /// The requests that fill it: the documents and the folders.
    pub fn load(&mut self, cx: &Cx) -> Vec<Action> {
        let list = cx.send(Request::ListDocs, Purpose::Docs(DocsWork::List));
        self.list.start(list.id);
        let folders = cx.send(Request::Folders, Purpose::Docs(DocsWork::Folders));
        vec![Action::Send(list), Action::Send(folders)]
    }

    /// `R`: the lists, the details and the embeds again.
    pub fn refresh(&mut self, cx: &Cx) -> Vec<Action> {
        self.embeds.forget();
        let mut actions = self.load(cx);
        actions.extend(self.request_details(cx));
        actions
    }

    /// Every document listed (for the palette).
    pub fn docs(&self) -> &[DocSummary] {
        self.list.value().map_or(&[], Vec::as_slice)
    }

    /// The key of the selected row.
    fn selected_key(&self) -> Option<RowKey> {
        match self.rows.get(self.cursor.selected())? {
            DocRow::Doc(i, _) => self.docs().get(*i).map(|d| RowKey::Doc(d.id.clone())),
            DocRow::Folder { folder, .. } => Some(RowKey::Folder(folder.clone())),
        }
    }

    /// The heading the selected row is under (or is): its folder and title.
    fn selected_heading(&self) -> Option<(Option<String>, String)> {
        let at = self.cursor.selected().min(self.rows.len().checked_sub(1)?);
        self.rows[..=at].iter().rev().find_map(|row| match row {
            DocRow::Folder { folder, title, .. } => Some((folder.clone(), title.clone())),
            DocRow::Doc(..) => None,
        })
    }

    /// Whether the selected row is a folder heading.
    fn on_heading(&self) -> bool {
        matches!(
            self.rows.get(self.cursor.selected()),
            Some(DocRow::Folder { .. })
        )
    }

    /// The folder a new document goes to: the selected heading's, or the selected document's
    /// (`None`, the account's first folder, under *Shared with me* or before the folders
    /// are known).
    fn target_folder(&self) -> Option<String> {
        self.selected_heading().and_then(|(folder, _)| folder)
    }

    /// The selected document.
    pub fn selected_doc(&self) -> Option<&DocSummary> {
        match self.rows.get(self.cursor.selected()) {
            Some(DocRow::Doc(i, _)) => self.docs().get(*i),
            _ => None,
        }
    }

    /// The open document had `count` objects when last read.
    pub fn set_count(&mut self, doc: &str, count: usize) {
        self.counts.insert(doc.to_string(), count);
    }

    /// Document `doc`'s `lastChange` as its details last said, if they are the ones shown.
    pub fn last_change_of(&self, doc: &str) -> Option<String> {
        self.details
            .value()
            .filter(|details| details.id == doc)
            .map(|details| details.last_change.clone())
    }

    /// A change event said document `doc` last changed `at`: its details, if shown, say so.
    pub fn heard_change(&mut self, doc: &str, at: String) {
        if let Some(details) = self.details.value_mut().filter(|d| d.id == doc) {
            details.last_change = at;
        }
    }

    /// Asks for the selected document's details.
    pub fn request_details(&mut self, cx: &Cx) -> Vec<Action> {
        let Some(doc) = self.selected_doc().map(|d| d.id.clone()) else {
            self.details = Load::Idle;
            return Vec::new();
        };
        let embeds = self.embeds.request(&doc, cx);
        let sent = cx.send(Request::Details { doc }, Purpose::Docs(DocsWork::Details));
        self.details.start(sent.id);
        [Action::Send(sent)].into_iter().chain(embeds).collect()
    }

    /// Reads the details again if `doc` is the selected document (its objects were written).
    pub fn refresh_details_of(&mut self, doc: &str, cx: &Cx) -> Vec<Action> {
        if self.selected_doc().is_some_and(|d| d.id == doc) {
            self.request_details(cx)
        } else {
            Vec::new()
        }
    }

    fn selected_id(&self) -> Option<String> {
        self.selected_doc().map(|d| d.id.clone())
    }

    /// Rebuilds the rows from the documents, folders, folds and filter, selecting the row of
    /// `keep` (a document folded away: its heading; else the first document).
    fn rebuild(&mut self, keep: Option<RowKey>) {
        let docs = self.list.value().map_or(&[][..], Vec::as_slice);
        let titles = docs.iter().map(|d| d.title.as_str());
        let mut matched: Vec<Option<Vec<usize>>> = vec![None; docs.len()];
        for hit in fuzzy::rank(self.filter.text(), titles) {
            matched[hit.index] = Some(hit.positions);
        }
        let doc_row = |i: usize| DocRow::Doc(i, matched[i].clone().unwrap_or_default());
        let shown: Vec<usize> = (0..docs.len()).filter(|&i| matched[i].is_some()).collect();
        // A filter shows its matches in folded folders too.
        let filtering = !self.filter.text().is_empty();
        let open = |folder: &Option<String>| filtering || !self.folded.contains(folder);
        let mut rows = Vec::new();
        match &self.folders {
            None => rows.extend(shown.iter().map(|&i| doc_row(i))),
            Some(folders) => {
                let mut folders: Vec<_> = folders.iter().collect();
                folders.sort_by(|a, b| (&a.1.title, a.0).cmp(&(&b.1.title, b.0)));
                let mut placed = vec![false; docs.len()];
                for (id, folder) in folders {
                    let inside: Vec<usize> = shown
                        .iter()
                        .copied()
                        .filter(|&i| folder.docs.contains_key(&docs[i].id))
                        .collect();
                    if inside.is_empty() && filtering {
                        continue;
                    }
                    let key = Some(id.clone());
                    rows.push(DocRow::Folder {
                        title: folder.title.clone(),
                        count: inside.len(),
                        folder: key.clone(),
                    });
                    for &i in &inside {
                        placed[i] = true;
                    }
                    if open(&key) {
                        rows.extend(inside.into_iter().map(doc_row));
                    }
                }
                let rest: Vec<usize> = shown.iter().copied().filter(|&i| !placed[i]).collect();
                if !rest.is_empty() {
                    rows.push(DocRow::Folder {
                        folder: None,
                        title: SHARED.into(),
                        count: rest.len(),
                    });
                    if open(&None) {
                        rows.extend(rest.into_iter().map(doc_row));
                    }
                }
            }
        }
        let position = |key: &RowKey| {
            rows.iter().position(|row| match (row, key) {
                (DocRow::Doc(i, _), RowKey::Doc(id)) => docs[*i].id == *id,
                (DocRow::Folder { folder, .. }, RowKey::Folder(key)) => folder == key,
                _ => false,
            })
        };
        // A document folded away (shown by the filter, not by its folder): its heading.
        let heading_of = |id: &str| {
            shown.iter().find(|&&i| docs[i].id == id)?;
            let folder = self
                .folders
                .as_ref()?
                .iter()
                .find(|(_, f)| f.docs.contains_key(id))
                .map(|(folder, _)| folder.clone());
            position(&RowKey::Folder(folder))
        };
        let selected = keep
            .and_then(|key| {
                position(&key).or_else(|| match &key {
                    RowKey::Doc(id) => heading_of(id),
                    RowKey::Folder(_) => None,
                })
            })
            .or_else(|| rows.iter().position(|r| matches!(r, DocRow::Doc(..))))
            .unwrap_or(0);
        self.rows = rows;
        self.cursor.set_len(self.rows.len());
        self.cursor.select(selected);
    }

    /// The document listed next to the selected one (after it, else before it).
    fn neighbour(&self) -> Option<String> {
        let doc_at = |i: usize| match self.rows.get(i) {
            Some(DocRow::Doc(d, _)) => self.docs().get(*d).map(|d| d.id.clone()),
            _ => None,
        };
        let at = self.cursor.selected();
        (at + 1..self.rows.len())
            .find_map(doc_at)
            .or_else(|| (0..at).rev().find_map(doc_at))
    }

    /// Moves the selection by `step` rows (folder headings are rows too) and asks for the
    /// new document's details.
    fn step(&mut self, step: isize, cx: &Cx) -> Vec<Action> {
        let before = self.selected_key();
        self.cursor.step(step);
        if self.selected_key() == before {
            Vec::new()
        } else {
            self.request_details(cx)
        }
    }

    /// A prompt prefilled with `text`, for `purpose`.
    fn prompt(title: &str, label: &str, text: &str, purpose: PromptFor) -> Vec<Action> {
        vec![Action::Open(Overlay::new(Prompt::new(
            title, label, text, purpose,
        )))]
    }

    /// A command about the selected document.
    fn on_selected(&mut self, command: Command, doc: DocSummary, cx: &Cx) -> Vec<Action> {
        let title = doc.title.clone();
        let ask = |heading: &str, message: String, yes: &str, call: DocsCall| {
            vec![Action::Ask(
                Ask::new(
                    heading,
                    Body::Text(message),
                    vec![
                        Choice::new(Command::Yes, yes, vec![Action::Docs(call)]),
                        Choice::new(Command::No, "no", Vec::new()),
                    ],
                )
                .destructive(),
            )]
        };
        match command {
            Command::Open => vec![Action::OpenDoc(doc)],
            Command::Rename => {
                DocsPane::prompt("Rename document", "Title", &title, PromptFor::Rename(doc))
            }
            Command::Clone => DocsPane::prompt(
                "Clone document",
                "Title of the copy",
                &format!("{title} (copy)"),
                PromptFor::Clone(doc),
            ),
            Command::Share => DocsPane::prompt(
                "Share document",
                "E-mail of an existing account",
                "",
                PromptFor::Share(doc),
            ),
            Command::Export => DocsPane::prompt(
                "Export document",
                &format!("Write the content of \"{title}\" as JSON to"),
                &export_name(&title),
                PromptFor::Export(doc),
            ),
            Command::Import => DocsPane::prompt(
                "Import into document",
                &format!("JSON content file to replace the content of \"{title}\" with"),
                &export_name(&title),
                PromptFor::Import(doc),
            ),
            Command::Empty => self.read_before_replacing(doc, Next::AskEmpty, cx),
            Command::CopyEmbedUrl => self.embeds.copy_next(&doc.id, &title, cx),
            Command::Delete => ask(
                "Delete document",
                format!("Delete \"{title}\" and all its objects? This cannot be undone."),
                "delete it",
                DocsCall::Delete(doc),
            ),
            _ => Vec::new(),
        }
    }

    /// A call App forwards: a prompt's text or a confirmed action.
    pub fn call(&mut self, call: DocsCall, cx: &Cx) -> Vec<Action> {
        match call {
            DocsCall::Submit(purpose, text) => self.submit(purpose, text, cx),
            DocsCall::Empty(doc, previous) => {
                let sent = cx.send(
                    Request::EmptyDoc {
                        doc: doc.id.clone(),
                    },
                    Purpose::Docs(DocsWork::Replace(doc.clone())),
                );
                self.replacing = Some(Replacing::Writing {
                    sent: sent.id,
                    previous,
                });
                vec![Action::DocEmptied(doc.id), Action::Send(sent)]
            }
            DocsCall::Delete(doc) => {
                // The selection moves to the deleted document's neighbour, as in a file manager.
                let next = match self.selected_doc() {
                    Some(selected) if selected.id == doc.id => self.neighbour(),
                    selected => selected.map(|d| d.id.clone()),
                };
                if let Some(list) = self.list.value_mut() {
                    list.retain(|d| d.id != doc.id);
                }
                self.marked.remove(&doc.id);
                self.rebuild(next.map(RowKey::Doc));
                let mut actions = vec![
                    Action::DocDeleted(doc.id.clone()),
                    Action::Send(cx.send(
                        Request::DeleteDoc { doc: doc.id },
                        Purpose::Docs(DocsWork::Action(DocAction::Delete)),
                    )),
                ];
                actions.extend(self.request_details(cx));
                actions
            }
            DocsCall::Import(doc, content) => {
                self.read_before_replacing(doc, Next::Import(content), cx)
            }
            DocsCall::Move(docs, folder) => self.send_moves(docs, folder, cx),
            DocsCall::DeleteFolder(folder, docs) => self.delete_folder(folder, docs, cx),
            DocsCall::Refresh => self.refresh(cx),
        }
    }

    /// Reads the content of `doc` that a write will replace whole (kept to undo it), to do
    /// `next` once it is read.
    fn read_before_replacing(&mut self, doc: DocSummary, next: Next, cx: &Cx) -> Vec<Action> {
        let request = Request::Content {
            doc: doc.id.clone(),
        };
        let sent = cx.send(request, Purpose::Docs(DocsWork::Backup(doc)));
        self.replacing = Some(Replacing::Reading {
            read: sent.id,
            next,
        });
        vec![Action::Send(sent)]
    }

    /// The content a write will replace was read: the import is sent, the empty asked (with
    /// how many objects go).
    fn replaced_read(
        &mut self,
        doc: DocSummary,
        id: RequestId,
        previous: Box<ObjectModel>,
        cx: &Cx,
    ) -> Vec<Action> {
        let next = match self.replacing.take() {
            Some(Replacing::Reading { read, next }) if read == id => next,
            other => {
                self.replacing = other;
                return Vec::new();
            }
        };
        match next {
            Next::Import(content) => {
                let request = Request::SetContent {
                    doc: doc.id.clone(),
                    content,
                    if_match: None,
                };
                let sent = cx.send(request, Purpose::Docs(DocsWork::Replace(doc)));
                self.replacing = Some(Replacing::Writing {
                    sent: sent.id,
                    previous,
                });
                vec![Action::Send(sent)]
            }
            Next::AskEmpty if previous.is_empty() => vec![Action::info(format!(
                "\"{}\" has no objects: nothing to empty",
                doc.title
            ))],
            Next::AskEmpty => {
                let kinds: Vec<String> = previous
                    .groups()
                    .iter()
                    .map(|g| format!("{} {}", g.kind, g.members.len()))
                    .collect();
                let text = format!(
                    "Remove all {} from \"{}\" ({})? The document itself stays; its content is kept for {} in its objects to undo.",
                    words::objects(previous.len()),
                    doc.title,
                    kinds.join(" · "),
                    cx.key(Context::Objects, Command::History)
                );
                vec![Action::Ask(
                    Ask::new(
                        "Empty document",
                        Body::Text(text),
                        vec![
                            Choice::new(
                                Command::Yes,
                                &format!("remove the {}", words::objects(previous.len())),
                                vec![Action::Docs(DocsCall::Empty(doc, previous))],
                            ),
                            Choice::new(Command::No, "keep them", Vec::new()),
                        ],
                    )
                    .destructive(),
                )]
            }
        }
    }

    /// The import or the empty answered: kept in the write history when it went through.
    fn replaced(
        &mut self,
        doc: DocSummary,
        id: RequestId,
        request: &Request,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        let previous = match self.replacing.take() {
            Some(Replacing::Writing { sent, previous }) if sent == id => Some(previous),
            other => {
                self.replacing = other;
                None
            }
        };
        let by = match request {
            Request::SetContent { content, .. } => Replacement::Import(content.len()),
            _ => Replacement::Empty,
        };
        let (failure, made) = match outcome {
            Ok(Answer::Written(made)) => (None, made),
            Ok(_) => (None, None),
            Err(failure) => (Some(failure.message), None),
        };
        let mut actions = Vec::new();
        match (by, failure) {
            (by, None) => {
                let gone = previous.as_ref().map_or(0, |p| p.len());
                actions.extend(previous.map(|previous| Action::Record {
                    doc: doc.id.clone(),
                    kind: WriteKind::Replace {
                        by,
                        previous,
                        made,
                        undone: false,
                    },
                }));
                let undo = cx.key(Context::Objects, Command::History);
                match by {
                    Replacement::Import(n) => {
                        self.set_count(&doc.id, n);
                        actions.push(Action::info(format!(
                            "imported {} into \"{}\" ({undo} in its objects undoes)",
                            words::objects(n),
                            doc.title,
                        )));
                        actions.extend(self.request_details(cx));
                        actions.push(Action::ContentReplaced(doc.id));
                    }
                    Replacement::Empty => {
                        self.set_count(&doc.id, 0);
                        actions.push(Action::info(format!(
                            "emptied \"{}\": {} removed ({undo} in its objects undoes)",
                            doc.title,
                            words::objects(gone),
                        )));
                        actions.extend(self.refresh(cx));
                    }
                }
            }
            (Replacement::Import(_), Some(why)) => actions.push(Action::error(format!(
                "import into \"{}\" failed; its content is as it was: {why}",
                doc.title
            ))),
            (Replacement::Empty, Some(why)) => {
                actions.push(Action::error(format!(
                    "empty of \"{}\" failed: {why}",
                    doc.title
                )));
                actions.extend(self.load(cx));
                actions.push(Action::ReloadContent);
            }
        }
        actions
    }

    /// Sends what a submitted prompt asks for.
    fn submit(&mut self, purpose: PromptFor, text: String, cx: &Cx) -> Vec<Action> {
        let text = text.trim().to_string();
        if text.is_empty() {
            return vec![Action::error("nothing was typed; nothing was done")];
        }
        let action = |request, what| {
            vec![Action::Send(
                cx.send(request, Purpose::Docs(DocsWork::Action(what))),
            )]
        };
        match purpose {
            PromptFor::Export(doc) => {
                let request = Request::Content {
                    doc: doc.id.clone(),
                };
                let work = DocsWork::Export {
                    doc,
                    path: cx.places.resolve(&text),
                };
                vec![Action::Send(cx.send(request, Purpose::Docs(work)))]
            }
            PromptFor::Import(doc) => vec![Action::File(
                FileFor::Import(doc),
                FileJob::Read(cx.places.resolve(&text)),
            )],
            PromptFor::FromFile => vec![Action::File(
                FileFor::Diagram {
                    folder: self.target_folder(),
                },
                FileJob::Read(cx.places.resolve(&text)),
            )],
            PromptFor::NewDoc => {
                let folder = self.target_folder();
                action(
                    Request::CreateDoc {
                        title: text,
                        folder,
                    },
                    DocAction::Create,
                )
            }
            PromptFor::Rename(doc) => {
                if let Some(entry) = self
                    .list
                    .value_mut()
                    .and_then(|list| list.iter_mut().find(|d| d.id == doc.id))
                {
                    entry.title = text.clone();
                }
                self.rebuild(self.selected_key());
                let mut actions = vec![Action::DocRetitled {
                    doc: doc.id.clone(),
                    title: text.clone(),
                }];
                actions.extend(action(
                    Request::RenameDoc {
                        doc: doc.id,
                        title: text,
                    },
                    DocAction::Rename,
                ));
                actions
            }
            PromptFor::Clone(doc) => action(
                Request::CloneDoc {
                    doc: doc.id,
                    title: text,
                },
                DocAction::Clone,
            ),
            PromptFor::Share(doc) => action(
                Request::ShareDoc {
                    doc: doc.id,
                    email: text,
                },
                DocAction::Share,
            ),
            PromptFor::NewFolder => action(
                Request::CreateFolder { title: text },
                DocAction::CreateFolder,
            ),
            PromptFor::RenameFolder(folder) => self.rename_folder(folder, text, cx),
        }
    }

    /// The answer to one of its requests.
    pub fn on_reply(
        &mut self,
        work: DocsWork,
        id: RequestId,
        request: Request,
        outcome: Result<Answer, Failure>,
        cx: &Cx,
    ) -> Vec<Action> {
        match (work, outcome) {
            (DocsWork::List, Ok(Answer::Docs(docs))) => {
                let before = self.selected_id();
                // The first list selects the first document, not a heading shown before it.
                let keep = self.list.value().and_then(|_| self.selected_key());
                if !self.list.settle(id, docs) {
                    return Vec::new();
                }
                let listed: HashSet<&str> = (self.list.value().into_iter().flatten())
                    .map(|d| d.id.as_str())
                    .collect();
                self.marked.retain(|id| listed.contains(id.as_str()));
                self.rebuild(keep);
                let details_shown = self
                    .details
                    .value()
                    .is_some_and(|d| Some(&d.id) == before.as_ref());
                if self.selected_id() != before || !details_shown {
                    self.request_details(cx)
                } else {
                    Vec::new()
                }
            }
            (DocsWork::List, Err(failure)) => {
                let retry = cx.key(Context::Global, Command::Refresh);
                if self.list.fail(id, failure.message.clone()) {
                    self.rows.clear();
                    self.cursor.set_len(0);
                }
                vec![Action::error(format!(
                    "could not list documents: {} ({retry} retries)",
                    failure.message
                ))]
            }
            (DocsWork::Folders, Ok(Answer::Folders(folders))) => {
                self.folders = Some(folders);
                self.rebuild(self.selected_key());
                Vec::new()
            }
            (DocsWork::Folders, Err(failure)) => vec![Action::error(format!(
                "could not list folders: {}",
                failure.message
            ))],
            (DocsWork::Details, Ok(Answer::Details(details))) => {
                self.details.settle(id, details);
                Vec::new()
            }
            (DocsWork::Details, Err(failure)) => {
                self.details.fail(id, failure.message);
                Vec::new()
            }
            (DocsWork::Embeds, Ok(Answer::Embeds(list))) => {
                self.embeds.settle(id, list);
                self.fit();
                Vec::new()
            }
            (DocsWork::Embeds, Err(failure)) => {
                self.embeds.fail(id, failure.message);
                self.fit();
                Vec::new()
            }
            (DocsWork::Move { doc, folder }, outcome) => self.moved(doc, folder, outcome, cx),
            (DocsWork::RenameFolder(folder), outcome) => {
                let to = match &request {
                    Request::RenameFolder { title, .. } => title.clone(),
                    _ => String::new(),
                };
                let change = FolderChange::Renamed { folder, to };
                self.folder_written((DocAction::RenameFolder, change), &request, outcome, cx)
            }
            (DocsWork::DeleteFolder(folder, docs), outcome) => {
                let change = FolderChange::Deleted { folder, docs };
                self.folder_written((DocAction::DeleteFolder, change), &request, outcome, cx)
            }
            (DocsWork::Action(what), Ok(answer)) => self.action_done(what, &request, answer, cx),
            (DocsWork::Action(what), Err(failure)) => {
                self.action_failed(what, &request, &failure, cx)
            }
            (DocsWork::Export { doc, path }, Ok(Answer::Objects(model))) => {
                match serde_json::to_string_pretty(&model) {
                    Ok(text) => vec![Action::File(
                        FileFor::Export(doc),
                        FileJob::Write {
                            path,
                            text,
                            overwrite: false,
                        },
                    )],
                    Err(e) => vec![Action::error(format!("could not write the export: {e}"))],
                }
            }
            (DocsWork::Export { doc, .. }, Err(failure)) => vec![Action::error(format!(
                "could not read \"{}\" to export it: {}",
                doc.title, failure.message
            ))],
            (DocsWork::Backup(doc), Ok(Answer::Objects(previous))) => {
                self.replaced_read(doc, id, previous, cx)
            }
            (DocsWork::Backup(doc), Err(failure)) => {
                let what = match self.replacing.take() {
                    Some(Replacing::Reading { read, next }) if read == id => match next {
                        Next::Import(_) => "imported",
                        Next::AskEmpty => "emptied",
                    },
                    other => {
                        self.replacing = other;
                        return Vec::new();
                    }
                };
                vec![Action::error(format!(
                    "could not read the content of \"{}\" to keep it for undo, so nothing was {what}: {}",
                    doc.title, failure.message
                ))]
            }
            (DocsWork::Replace(doc), outcome) => self.replaced(doc, id, &request, outcome, cx),
            (work, Ok(answer)) => vec![Action::unexpected(&work, &answer)],
        }
    }

    /// A document action succeeded: say so and check the list against the server.
    fn action_done(
        &mut self,
        what: DocAction,
        request: &Request,
        answer: Answer,
        cx: &Cx,
    ) -> Vec<Action> {
        let note = match (request, answer) {
            (
                Request::CreateDoc { title, .. } | Request::CloneDoc { title, .. },
                Answer::Created(id),
            ) => {
                if let Some(list) = self.list.value_mut() {
                    list.push(DocSummary {
                        id: id.clone(),
                        title: title.clone(),
                    });
                }
                let folder = match request {
                    Request::CreateDoc { folder, .. } => folder.as_ref(),
                    _ => None,
                };
                if let Some(entry) = folder.and_then(|f| self.folders.as_mut()?.get_mut(f)) {
                    entry.docs.insert(id.clone(), title.clone());
                }
                self.rebuild(Some(RowKey::Doc(id)));
                format!("{}: \"{title}\" created", what.name())
            }
            (Request::CreateFolder { title }, Answer::Created(id)) => {
                let folder = FolderRef {
                    id: id.clone(),
                    title: title.clone(),
                };
                let note = self.folder_created(id, title);
                let mut actions = vec![
                    Action::Record {
                        doc: FOLDERS.to_owned(),
                        kind: WriteKind::Folder {
                            change: FolderChange::Created(folder),
                            undone: false,
                        },
                    },
                    Action::info(note),
                ];
                actions.extend(self.refresh(cx));
                return actions;
            }
            (Request::RenameFolder { title, .. }, _) => format!("folder renamed to \"{title}\""),
            (Request::DeleteFolder { .. }, _) => "folder deleted with its documents".into(),
            (Request::ShareDoc { email, .. }, _) => format!("shared with {email}"),
            (Request::RenameDoc { title, .. }, _) => format!("renamed to \"{title}\""),
            (Request::DeleteDoc { .. }, _) => "document deleted".into(),
            _ => format!("{}: done", what.name()),
        };
        let mut actions = vec![Action::info(note)];
        actions.extend(self.refresh(cx));
        actions
    }

    /// A document action failed: say why plainly and restore the list from the server.
    fn action_failed(
        &mut self,
        what: DocAction,
        request: &Request,
        failure: &Failure,
        cx: &Cx,
    ) -> Vec<Action> {
        let message = match (request, &failure.code) {
            (Request::ShareDoc { email, .. }, Some(ErrorCode::UserNotFound)) => {
                format!(
                    "no account has the e-mail {email}; the document was not shared ({})",
                    failure.code_text()
                )
            }
            _ => format!("{} failed: {}", what.name(), failure.message),
        };
        let mut actions = vec![Action::error(message)];
        actions.extend(self.load(cx));
        actions
    }

    /// A file job of an export or an import finished.
    pub fn on_file(&mut self, what: FileFor, job: FileJob, outcome: FileOutcome) -> Vec<Action> {
        let path = job.path().display().to_string();
        match (what, outcome) {
            (FileFor::Export(doc), Ok(_)) => vec![Action::info(format!(
                "exported \"{}\" to {path}",
                doc.title
            ))],
            (FileFor::Export(doc), Err(FileError::Exists)) => {
                let FileJob::Write { path, text, .. } = job else {
                    return Vec::new();
                };
                let replace = FileJob::Write {
                    path,
                    text,
                    overwrite: true,
                };
                let title = doc.title.clone();
                vec![Action::Ask(
                    Ask::new(
                        "File exists",
                        Body::Text(format!(
                            "{} already exists. Replace it with the export of \"{title}\"?",
                            replace.path().display()
                        )),
                        vec![
                            Choice::new(
                                Command::Yes,
                                "replace it",
                                vec![Action::File(FileFor::Export(doc), replace)],
                            ),
                            Choice::new(
                                Command::No,
                                "keep it",
                                vec![Action::info("export cancelled; the file is as it was")],
                            ),
                        ],
                    )
                    .destructive(),
                )]
            }
            (FileFor::Import(doc), Ok(text)) => import_report(doc, &job, &text),
            (FileFor::Export(_) | FileFor::Import(_), Err(e)) => {
                let why = match e {
                    FileError::Exists => "it exists".to_string(),
                    FileError::Failed(why) => why,
                };
                vec![Action::error(format!("{path}: {why}"))]
            }
            (FileFor::History | FileFor::Diagram { .. } | FileFor::Complete(_), _) => Vec::new(),
        }
    }
}

/// The import file was read: the report of what it holds, which is also the confirmation (and
/// an error at once when the file is refused).
fn import_report(doc: DocSummary, job: &FileJob, text: &str) -> Vec<Action> {
    let report: Result<ContentReport, String> = match serde_json::from_str(text) {
        Ok(value) => check_content(&value),
        Err(e) => Err(format!("not JSON: {e}")),
    };
    let path = job.path().to_path_buf();
    let content: Option<Content> = report.as_ref().ok().and_then(|r| r.content.clone());
    let mut actions: Vec<Action> = report
        .as_ref()
        .err()
        .map(|why| Action::error(format!("{} refused: {why}", path.display())))
        .into_iter()
        .collect();
    let cancel = vec![Action::info("import cancelled; nothing was changed")];
    let choices = match content {
        Some(content) => vec![
            Choice::new(
                Command::Yes,
                &format!(
                    "replace the content of \"{}\" with these {}",
                    doc.title,
                    words::objects(content.len())
                ),
                vec![Action::Docs(DocsCall::Import(doc.clone(), content))],
            ),
            Choice::new(Command::No, "cancel; nothing is changed", cancel),
        ],
        None => vec![Choice::new(
            Command::No,
            "close; nothing is changed",
            cancel,
        )],
    };
    let question = Ask::new("Import", Body::Import { doc, path, report }, choices).destructive();
    actions.push(Action::Ask(question));
    actions
}

impl Filtered for DocsPane {
    fn filter(&mut self) -> &mut Filter {
        &mut self.filter
    }

    /// The rows shown follow the pane's height, the filter line and the details.
    fn fit(&mut self) {
        let extra = u16::from(self.filter.shown()) + self.details_height();
        self.cursor.set_rows(layout::inner_rows(self.area, extra));
    }

    /// Regroups after the filter changed; asks for the details when the selection changed.
    fn refilter(&mut self, cx: &Cx) -> Vec<Action> {
        self.fit();
        let before = self.selected_id();
        self.rebuild(self.selected_key());
        if self.selected_id() != before {
            self.request_details(cx)
        } else {
            Vec::new()
        }
    }

    fn list_context(&self) -> Context {
        Context::Documents
    }
}

impl Component for DocsPane {
    fn context(&self) -> Context {
        if self.filter.typing() {
            Context::Filter
        } else {
            Context::Documents
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            return self.step(step, cx);
        }
        if command == Command::ClearFilter && !self.marked.is_empty() {
            self.marked.clear();
            return vec![Action::info("marks cleared")];
        }
        if let Some(actions) = self.filter_command(command, cx) {
            return actions;
        }
        if let Some(actions) = self.folder_command(command, cx) {
            return actions;
        }
        match self.selected_doc().cloned() {
            Some(doc) => self.on_selected(command, doc, cx),
            None => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, cx: &Cx) -> Vec<Action> {
        self.filter_key(key, cx)
    }

    fn paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        self.filter_paste(text, cx)
    }

    fn mouse(&mut self, mouse: MouseEvent, cx: &Cx) -> Vec<Action> {
        let header = u16::from(self.filter.shown());
        match self.cursor.pointer(&mouse, self.area, header) {
            Some(Pointer::Wheel(step)) => self.step(step, cx),
            Some(Pointer::Click(index)) if index < self.rows.len() => {
                let step = index as isize - self.cursor.selected() as isize;
                self.step(step, cx)
            }
            _ => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let title = match self.marked.len() {
            0 => format!(" 1 Documents ({}) ", self.docs().len()),
            marked => format!(" 1 Documents ({}) · {marked} marked ", self.docs().len()),
        };
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [filter_area, list_area, details_area] = Layout::vertical([
            Constraint::Length(u16::from(self.filter.shown())),
            Constraint::Min(1),
            Constraint::Length(self.details_height()),
        ])
        .areas(inner);
        if self.filter.shown() {
            frame.render_widget(
                Paragraph::new(filter_line(
                    &self.filter,
                    usize::from(filter_area.width),
                    cx.theme,
                )),
                filter_area,
            );
        }
        let width = usize::from(list_area.width);
        let dim = cx.style(Role::Dim);
        let lines: Vec<Line> = if let Some(error) = self.list.error() {
            load_error_lines("documents", error, cx)
        } else if self.list.value().is_none() {
            vec![Line::styled("loading…", dim)]
        } else if self.rows.is_empty() && self.filter.text().is_empty() {
            let new = cx.key(Context::Documents, Command::New);
            vec![Line::styled(
                format!("no documents ({new} creates one)"),
                dim,
            )]
        } else if self.rows.is_empty() {
            vec![Line::styled("nothing matches the filter", dim)]
        } else {
            let selected = if focused {
                cx.style(Role::Selected)
            } else {
                cx.style(Role::SelectedUnfocused)
            };
            self.cursor
                .visible()
                .map(|i| match &self.rows[i] {
                    DocRow::Folder {
                        folder,
                        title,
                        count,
                    } => {
                        let sign = if self.folded.contains(folder) && self.filter.text().is_empty()
                        {
                            "▸"
                        } else {
                            "▾"
                        };
                        let line = Line::styled(
                            clip(&format!("{sign} {title} ({count})"), width),
                            cx.style(Role::Heading),
                        );
                        if i == self.cursor.selected() {
                            selected_line(line, width, selected)
                        } else {
                            line
                        }
                    }
                    DocRow::Doc(d, positions) => {
                        let doc = &self.docs()[*d];
                        let open = cx.doc_id() == Some(doc.id.as_str());
                        let marked = self.marked.contains(&doc.id);
                        let mut spans = vec![match (marked, open, cx.recently_changed(&doc.id)) {
                            (true, _, _) => Span::styled("◆ ", cx.style(Role::Marked)),
                            (false, true, _) => Span::raw("● "),
                            (false, false, true) => Span::styled("↻ ", cx.style(Role::Changed)),
                            (false, false, false) => Span::raw("  "),
                        }];
                        let fitted = titles::fit(
                            &doc.title,
                            self.docs().iter().map(|d| d.title.as_str()),
                            width.saturating_sub(2),
                        );
                        spans.extend(highlighted(
                            &fitted.text,
                            &fitted.moved(positions),
                            width.saturating_sub(2),
                            cx.theme,
                        ));
                        let line = Line::from(spans);
                        if i == self.cursor.selected() {
                            selected_line(line, width, selected)
                        } else {
                            line
                        }
                    }
                })
                .collect()
        };
        // Placeholders wrap; rows are cut to the width already.
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
        frame.render_widget(Paragraph::new(self.details_lines(width, cx)), details_area);
    }
}

impl DocsPane {
    /// The details' height: the layout's, and a line per embed shown when there is room.
    fn details_height(&self) -> u16 {
        match layout::details_height(self.area) {
            0 => 0,
            height => {
                let doc = self.selected_doc().map(|d| d.id.as_str());
                height + self.embeds.rows(doc)
            }
        }
    }

    fn details_lines(&self, width: usize, cx: &Cx) -> Vec<Line<'static>> {
        let label = cx.style(Role::Dim);
        let row = |name: &str, value: String| {
            Line::from(vec![
                Span::styled(format!("{name:<8}"), label),
                Span::raw(clip(&value, width.saturating_sub(8))),
            ])
        };
        if let Some(error) = self.details.error() {
            return vec![Line::styled(
                clip(&format!("details: {error}"), width),
                cx.style(Role::Error),
            )];
        }
        if self.on_heading() {
            return self.heading_lines(width, cx);
        }
        let Some(selected) = self.selected_doc() else {
            return Vec::new();
        };
        let Some(d) = self.details.value().filter(|d| d.id == selected.id) else {
            return vec![Line::styled("details loading…", label)];
        };
        let count = self
            .counts
            .get(&d.id)
            .copied()
            .or(d.object_count)
            .map_or_else(|| "open it to count".to_string(), |n| n.to_string());
        let short = |t: &str| t.replace('T', " ").chars().take(19).collect::<String>();
        vec![
            Line::styled(clip(&"─".repeat(width), width), label),
            row("created", short(&d.created)),
            row("changed", short(&d.last_change)),
            row("owner", d.user.email.clone()),
            row("folder", d.folder.title.clone()),
            row("objects", count),
        ]
        .into_iter()
        .chain(self.embeds.lines(&d.id, width, cx))
        .collect()
    }
}
