//! The documents pane: the list grouped by folder under headings that select and fold, its
//! fuzzy filter (matched letters highlighted), the selected document's details (its embeds
//! among them, see [`doc_embeds`](super::doc_embeds)), the marks, and the document actions
//! (create, rename, clone, share, export, import, empty, delete, copy an embed's URL). The
//! folders' own actions (create, rename, delete, move documents) are in [`folders`].

mod folders;
mod replace;
mod replies;
mod view;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::document::ObjectModel;
use crate::requests::api::{self, Call};
use crate::requests::purpose::{Answered, Outcome};
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, DocsCall, PromptFor};
use crate::widgets::fuzzy;
use crate::widgets::input::Filter;
use diagtui_model::embeds::EmbedList;
use diagtui_model::{
    Content, ContentReport, DocDetails, DocSummary, ErrorCode, FolderList, FolderRef, check_content,
};

use super::doc_embeds::DocEmbeds;
use crate::document::RequestId;
use crate::document::load::Load;
use crate::keys::{Command, Context};
use crate::overlays::Prompt;
use crate::panes::{Filtered, TypedPane};
use crate::requests::call::{Failure, Request};
use crate::session::record::{FOLDERS, FolderChange, Replacement, WriteKind};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::transfer::{FileError, FileFor, FileJob, FileOutcome, export_name};
use crate::vocab::layout::{self, Column};
use crate::widgets::list::{ListCursor, Pointer};
use crate::widgets::pieces::{
    filter_line, highlighted, load_error_lines, pane_block, selected_line,
};
use crate::widgets::titles;

/// The documents pane's answers.
#[derive(Debug)]
pub enum DocsReply {
    /// The document list.
    List(Outcome<Vec<DocSummary>>),
    /// The folder list.
    Folders(Outcome<FolderList>),
    /// The selected document's details.
    Details(Outcome<DocDetails>),
    /// The selected document's embeds.
    Embeds(Outcome<EmbedList>),
    /// A document action: the id of what it created, if it creates.
    Action(DocAction, Outcome<Option<String>>),
    /// The content read to export it.
    Export {
        /// The document.
        doc: DocSummary,
        /// The file to write.
        path: PathBuf,
        /// Its content.
        content: Outcome<Box<ObjectModel>>,
    },
    /// The content an import or an empty will replace (kept to undo it).
    Backup(DocSummary, Outcome<Box<ObjectModel>>),
    /// A document moved into a folder.
    Move {
        /// The document.
        doc: DocSummary,
        /// The folder.
        folder: FolderRef,
        /// Done or not.
        moved: Outcome<()>,
    },
    /// The write that replaces the content whole (set-content from an imported file, or
    /// emptying the document): the version it left.
    Replace(DocSummary, Outcome<Option<u64>>),
    /// A folder renamed (its title before, for the write history).
    RenameFolder(FolderRef, Outcome<()>),
    /// A folder deleted, with the titles of the documents that went with it (for the write
    /// history).
    DeleteFolder(FolderRef, Vec<String>, Outcome<()>),
}

/// A document action, for the request's purpose and the messages about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocAction {
    /// A new document.
    Create,
    /// A new title.
    Rename,
    /// A copy.
    Clone,
    /// Another account may see it.
    Share,
    /// Gone.
    Delete,
    /// A new folder.
    CreateFolder,
    /// A folder's new title.
    RenameFolder,
    /// A folder gone, with its documents.
    DeleteFolder,
}

impl DocAction {
    /// Its name in messages (`rename failed: ...`).
    pub fn name(self) -> &'static str {
        match self {
            DocAction::Create => "create",
            DocAction::Rename => "rename",
            DocAction::Clone => "clone",
            DocAction::Share => "share",
            DocAction::Delete => "delete",
            DocAction::CreateFolder => "new folder",
            DocAction::RenameFolder => "folder rename",
            DocAction::DeleteFolder => "folder delete",
        }
    }
}

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
    /// The document to select once the list being read arrives (one just made elsewhere).
    select_when_listed: Option<String>,
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
    /// The requests that fill it: the documents and the folders.
    pub fn load(&mut self, cx: &Cx) -> Vec<Action> {
        let list = cx.send(api::list_docs(), |docs| {
            Answered::pane(DocsReply::List(docs))
        });
        self.list.start(list.id);
        let folders = cx.send(api::folders(), |folders| {
            Answered::pane(DocsReply::Folders(folders))
        });
        vec![Action::Send(list), Action::Send(folders)]
    }

    /// The lists again, selecting document `doc` once they arrive (a document made from a
    /// file: the cursor goes to it, as to one made with `n`).
    pub fn refresh_selecting(&mut self, doc: String, cx: &Cx) -> Vec<Action> {
        self.select_when_listed = Some(doc);
        self.refresh(cx)
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
        let embeds =
            (self.embeds).request(&doc, |list| Answered::pane(DocsReply::Embeds(list)), cx);
        let sent = cx.send(api::details(doc), |details| {
            Answered::pane(DocsReply::Details(details))
        });
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
                        Choice::new(Command::Yes, yes, vec![Action::to_pane(call)]),
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

    /// Sends what a submitted prompt asks for.
    fn submit(&mut self, purpose: PromptFor, text: String, cx: &Cx) -> Vec<Action> {
        let text = text.trim().to_string();
        if text.is_empty() {
            return vec![Action::error("nothing was typed; nothing was done")];
        }
        // A document action's call, answered with what it created, if it creates.
        let action = |call: Call<Option<String>>, what| {
            vec![Action::Send(cx.send(call, move |created| {
                Answered::pane(DocsReply::Action(what, created))
            }))]
        };
        match purpose {
            PromptFor::Export(doc) => {
                let path = cx.places.resolve(&text);
                let call = api::content(doc.id.clone());
                vec![Action::Send(cx.send(call, move |content| {
                    Answered::pane(DocsReply::Export { doc, path, content })
                }))]
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
                action(api::create_doc(text, folder).map(Some), DocAction::Create)
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
                    api::rename_doc(doc.id, text).map(|()| None),
                    DocAction::Rename,
                ));
                actions
            }
            PromptFor::Clone(doc) => {
                action(api::clone_doc(doc.id, text).map(Some), DocAction::Clone)
            }
            PromptFor::Share(doc) => action(
                api::share_doc(doc.id, text).map(|()| None),
                DocAction::Share,
            ),
            PromptFor::NewFolder => {
                action(api::create_folder(text).map(Some), DocAction::CreateFolder)
            }
            PromptFor::RenameFolder(folder) => self.rename_folder(folder, text, cx),
        }
    }
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
