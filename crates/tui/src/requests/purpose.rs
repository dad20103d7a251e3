//! What each request is for, with its answer: a reply goes back to the work that sent it, under
//! its id, as that work's own reply. Each reply below holds the answer of the call its work
//! makes (`Outcome<A>`, the `A` of `api::Call<A>`); `Requests::prepare` pairs a call with the
//! reply that takes its answer, so a work that expects another call's answer does not compile.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

use crate::document::{ObjectModel, ObjectVersions, RequestId, Versioned};
use crate::requests::call::{Answer, Failure, Request};
use diagtui_model::history::{Diff, HistoryPage, Restored, VersionDetails};
use diagtui_model::{Content, DocDetails, FolderList, Props, SelectorUpdated, UserRef};

/// A call's answer, or why there is none.
pub type Outcome<A> = Result<A, Failure>;

/// An answer with what it is for, naming the component it goes to.
#[derive(Debug)]
pub enum Answered {
    /// The account for the status bar (App).
    Account(Outcome<UserRef>),
    /// The open document's content (App, which owns the open document).
    Content(Outcome<Box<ObjectModel>>),
    /// A poll of the open document's details, against a server without change events (App).
    Poll(Outcome<DocDetails>),
    /// The open document's objects changed elsewhere, read again (App).
    Fresh(Outcome<Vec<(String, Option<Versioned>)>>),
    /// A pane's, of the type of its replies (`TypedPane::Reply`): the pane registry routes it
    /// to the pane that takes that type.
    Pane(PaneReply),
    /// The selector form's.
    Form(FormReply),
    /// A bulk change's re-read or bulk update (`writes/bulk.rs`), of the selector form's nested
    /// merge or of the bulk edit.
    Bulk(BulkOwner, BulkReply),
    /// An undo's (`writes/undo.rs`, `writes/folder_undo.rs`).
    Undo(UndoReply),
    /// The document history's (the `H` overlay, the past view, a restore: `app/past.rs`).
    Versions(VersionsReply),
    /// An undo read from the server's history (`writes/server_undo.rs`).
    ServerUndo(ServerUndoReply),
    /// A new document made from a file of entries (`app/from_file.rs`).
    FromFile(FromFileReply),
    /// The last name of this deleted line end, from the server's history (`app/departed.rs`).
    Departed(String, DepartedReply),
}

impl Answered {
    /// A pane's reply, `reply` being of the type of that pane's replies.
    pub fn pane(reply: impl Any + Send) -> Answered {
        Answered::Pane(PaneReply(Box::new(reply)))
    }

    /// What it is for, in a word (the log's `purpose=Content`; `Pane` for a pane's, which the
    /// registry names).
    pub fn purpose(&self) -> &'static str {
        match self {
            Answered::Account(_) => "Account",
            Answered::Content(_) => "Content",
            Answered::Poll(_) => "Poll",
            Answered::Fresh(_) => "Fresh",
            Answered::Pane(_) => "Pane",
            Answered::Form(_) => "Form",
            Answered::Bulk(..) => "Bulk",
            Answered::Undo(_) => "Undo",
            Answered::Versions(_) => "Versions",
            Answered::ServerUndo(_) => "ServerUndo",
            Answered::FromFile(_) => "FromFile",
            Answered::Departed(..) => "Departed",
        }
    }
}

/// A pane's reply, of the type its pane's replies have.
pub struct PaneReply(pub Box<dyn Any + Send>);

impl fmt::Debug for PaneReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PaneReply")
    }
}

/// The steps of a new document made from a file of entries.
#[derive(Debug)]
pub enum FromFileReply {
    /// The document is created (its id); then the file goes to create-diagram.
    Created {
        /// The file, as typed.
        path: String,
        /// The entries' media type.
        content_type: String,
        /// The file's text.
        body: String,
        /// The new document's id.
        doc: Outcome<String>,
    },
    /// The file is laid out into the new document titled `title`: how many objects, and the
    /// notes on its lines.
    Diagram {
        /// The file, as typed.
        path: String,
        /// The new document's title.
        title: String,
        /// The objects stored and the notes.
        laid_out: Outcome<(usize, Vec<String>)>,
    },
    /// The new document is deleted again: its file was refused.
    Cleanup(Outcome<()>),
}

/// An undo through the server's history, for object `obj`.
#[derive(Debug)]
pub enum ServerUndoReply {
    /// The newest version that changed the object (`u`).
    Newest(String, Outcome<HistoryPage>),
    /// What that version changed; only the object's part is undone.
    Details(String, Outcome<Box<VersionDetails>>),
}

impl ServerUndoReply {
    /// Whether the server answered (so it keeps a history).
    pub fn is_ok(&self) -> bool {
        match self {
            ServerUndoReply::Newest(_, outcome) => outcome.is_ok(),
            ServerUndoReply::Details(_, outcome) => outcome.is_ok(),
        }
    }
}

/// The last name of a deleted line end: its newest version, then what that version deleted.
#[derive(Debug)]
pub enum DepartedReply {
    /// The newest version that changed the end.
    Newest(Outcome<HistoryPage>),
    /// That version with its changed objects.
    Version(Outcome<Box<VersionDetails>>),
}

/// The selector form's answers.
#[derive(Debug)]
pub enum FormReply {
    /// The selector read; `then_apply` when an apply waits on it.
    Preview {
        /// Whether to ask to apply once it arrives.
        then_apply: bool,
        /// The matches, with the versions of those the server gave one.
        read: Outcome<(Content, ObjectVersions)>,
    },
    /// The selector update; `expected` is what the preview of this selector found.
    Apply {
        /// The preview's count, if there was a preview of this selector.
        expected: Option<usize>,
        /// What was updated.
        updated: Outcome<SelectorUpdated>,
    },
}

/// Whose bulk change (`writes/bulk.rs`) a request or a question's answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkOwner {
    /// The selector form's nested merge.
    Form,
    /// The bulk edit of the marked objects.
    BulkEdit,
}

/// A bulk change's answers.
#[derive(Debug)]
pub enum BulkReply {
    /// The objects read again before sending (the conflict check), as values by id.
    Check(Outcome<Content>),
    /// The bulk update.
    Send(Outcome<()>),
}

/// An undo's answers, each naming the write `write` it undoes.
#[derive(Debug)]
pub enum UndoReply {
    /// The re-read before undoing these objects' parts of the write: each one's properties
    /// now, and the versions of those the server gave one.
    Check {
        /// The write.
        write: u64,
        /// The objects.
        objs: Vec<String>,
        /// What they hold now.
        read: Outcome<(BTreeMap<String, Props>, ObjectVersions)>,
    },
    /// The update putting the values back.
    Update {
        /// The write.
        write: u64,
        /// The objects.
        objs: Vec<String>,
        /// Done or not.
        done: Outcome<()>,
    },
    /// The creation again of object `old`, deleted by the write: its new id.
    Recreate {
        /// The write.
        write: u64,
        /// The deleted object's id.
        old: String,
        /// The new id.
        created: Outcome<String>,
    },
    /// Once the objects the write deleted are created again: the line groups that were
    /// attached to them, read again.
    Anchors(u64, Outcome<Vec<(String, Option<Versioned>)>>),
    /// The bulk update pointing those line groups' anchors at the new ids.
    Repoint(u64, Outcome<()>),
    /// The content an import or an empty replaced, set back.
    Replaced(u64, Outcome<Option<u64>>),
    /// The undo of a folder write (`writes/folder_undo.rs`).
    Folder(u64, FolderUndoReply),
}

/// The answers of a folder write's undo.
#[derive(Debug)]
pub enum FolderUndoReply {
    /// Before undoing the folder the write made: the folders read, to delete it only if empty.
    Check(Outcome<FolderList>),
    /// A request undoing the folder write.
    Done(Outcome<()>),
}

impl UndoReply {
    /// The write it undoes.
    pub fn write(&self) -> u64 {
        match self {
            UndoReply::Check { write, .. }
            | UndoReply::Update { write, .. }
            | UndoReply::Recreate { write, .. }
            | UndoReply::Anchors(write, _)
            | UndoReply::Repoint(write, _)
            | UndoReply::Replaced(write, _)
            | UndoReply::Folder(write, _) => *write,
        }
    }
}

/// The answers about the open document's history.
#[derive(Debug)]
pub enum VersionsReply {
    /// A page of versions for the history overlay.
    Page(Outcome<HistoryPage>),
    /// A version's changed objects, for the history overlay's rows and diff.
    Details(Outcome<Box<VersionDetails>>),
    /// What changed since the version the past view shows (they are marked).
    Since(u64, Outcome<Box<Diff>>),
    /// What a restore of this version changes, for its question.
    Count(u64, Outcome<Box<Diff>>),
    /// The restore of this version.
    Restore(u64, Outcome<Restored>),
}

/// Requests sent together whose last answer does what follows them: the ledger says whether
/// any of them is still in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Batch {
    /// The objects write `.0` deleted, created again by its undo.
    Recreating(u64),
}

/// What becomes of a request's answer: its call's answer taken out of the worker's reply and
/// made into the reply of the work that asked (`Requests::prepare` makes it).
pub struct Then(pub(crate) Box<dyn FnOnce(Outcome<Answer>) -> Answered + Send>);

impl Then {
    /// The reply `outcome` makes.
    pub fn answer(self, outcome: Outcome<Answer>) -> Answered {
        (self.0)(outcome)
    }
}

impl fmt::Debug for Then {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Then")
    }
}

/// A request with the id it is sent under and what becomes of its answer.
#[derive(Debug)]
pub struct Sent {
    /// Its id; the reply carries it back.
    pub id: RequestId,
    /// The API call.
    pub request: Request,
    /// Where the answer goes.
    pub then: Then,
    /// The requests it is sent together with, if any.
    pub batch: Option<Batch>,
}

impl Sent {
    /// The same request, one of `batch`.
    pub fn in_batch(self, batch: Batch) -> Sent {
        Sent {
            batch: Some(batch),
            ..self
        }
    }
}
