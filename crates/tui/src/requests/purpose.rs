//! What each request is for: its reply goes back to the work that sent it, under its id.

use std::path::PathBuf;

use crate::document::RequestId;
use crate::requests::call::Request;
use diagtui_model::{DocSummary, FolderRef};

/// What a request is for, naming the component its answer goes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// The account for the status bar (App).
    Account,
    /// The open document's content (App, which owns the open document).
    Content,
    /// A poll of the open document's details, against a server without change events (App).
    Poll,
    /// The open document's objects changed elsewhere, read again (App).
    Fresh,
    /// The documents pane's.
    Docs(DocsWork),
    /// The objects pane's.
    Objects(ObjectsWork),
    /// The properties pane's.
    Props(PropsWork),
    /// The selector form's.
    Form(FormWork),
    /// A bulk change's re-read or bulk update (`writes/bulk.rs`), of the selector form's nested
    /// merge or of the bulk edit.
    Bulk(BulkOwner, BulkWork),
    /// An undo's (`writes/undo.rs`).
    Undo(UndoWork),
    /// The document history's (the `H` overlay, the past view, a restore: `app/past.rs`).
    Versions(VersionsWork),
    /// An undo read from the server's history (`writes/server_undo.rs`).
    ServerUndo(ServerUndoWork),
    /// A new document made from a file of entries (`app/from_file.rs`).
    FromFile(FromFileWork),
    /// The last name of this deleted line end, from the server's history (`app/departed.rs`).
    Departed(String),
}

/// The steps of a new document made from a file of entries.
#[derive(Debug, Clone, PartialEq)]
pub enum FromFileWork {
    /// The document is created; then the file goes to create-diagram.
    Create {
        /// The file, as typed.
        path: String,
        /// The entries' media type.
        content_type: String,
        /// The file's text.
        body: String,
    },
    /// The file is laid out into the new document titled `title`.
    Diagram {
        /// The file, as typed.
        path: String,
        /// The new document's title.
        title: String,
    },
    /// The new document is deleted again: its file was refused.
    Cleanup,
}

/// What a request of an undo through the server's history is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerUndoWork {
    /// The newest version that changed this object (`u`).
    Newest(String),
    /// What that version changed; only this object's part is undone.
    Details(String),
}

/// The documents pane's requests.
#[derive(Debug, Clone, PartialEq)]
pub enum DocsWork {
    /// The document list.
    List,
    /// The folder list.
    Folders,
    /// The selected document's details.
    Details,
    /// The selected document's embeds.
    Embeds,
    /// A document action.
    Action(DocAction),
    /// Reading the content to export it.
    Export {
        /// The document.
        doc: DocSummary,
        /// The file to write.
        path: PathBuf,
    },
    /// Reading the content an import or an empty will replace (kept to undo it).
    Backup(DocSummary),
    /// Moving a document into a folder.
    Move {
        /// The document.
        doc: DocSummary,
        /// The folder.
        folder: FolderRef,
    },
    /// The write that replaces the content whole: set-content from an imported file, or
    /// emptying the document.
    Replace(DocSummary),
    /// Renaming a folder (its title before, for the write history).
    RenameFolder(FolderRef),
    /// Deleting a folder, with the titles of the documents that go with it (for the write
    /// history).
    DeleteFolder(FolderRef, Vec<String>),
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

/// The objects pane's requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectsWork {
    /// Create an object.
    Create,
    /// Delete the selected object.
    Delete,
    /// One delete of the marked objects.
    DeleteMarked,
}

/// The properties pane's requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropsWork {
    /// The re-read before a save, to find a change made meanwhile.
    Check,
    /// The update that saves.
    Save,
    /// The re-read after a write.
    Reread,
    /// Creating the edited object again after it was deleted on the server.
    Recreate,
}

/// The selector form's requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormWork {
    /// The selector read; `then_apply` when an apply waits on it.
    Preview {
        /// Whether to ask to apply once it arrives.
        then_apply: bool,
    },
    /// The selector update; `expected` is what the preview of this selector found.
    Apply {
        /// The preview's count, if there was a preview of this selector.
        expected: Option<usize>,
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

/// A bulk change's requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkWork {
    /// Reading the objects again before sending (the conflict check).
    Check,
    /// The bulk update.
    Send,
}

/// A request with the id it is sent under and what it is for.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    /// Its id; the reply carries it back.
    pub id: RequestId,
    /// The API call.
    pub request: Request,
    /// Where the answer goes.
    pub purpose: Purpose,
}

/// What an undo's request is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoWork {
    /// The re-read before undoing these objects' parts of update `write`.
    Check {
        /// The write.
        write: u64,
        /// The objects.
        objs: Vec<String>,
    },
    /// The update putting the values back.
    Update {
        /// The write.
        write: u64,
        /// The objects.
        objs: Vec<String>,
    },
    /// The creation again of object `old`, deleted by `write`.
    Recreate {
        /// The write.
        write: u64,
        /// The deleted object's id.
        old: String,
    },
    /// Once the objects `write` deleted are created again: the re-read of the line groups
    /// that were attached to them.
    Anchors(u64),
    /// The bulk update pointing those line groups' anchors at the new ids.
    Repoint(u64),
    /// Setting back the content an import or an empty replaced.
    Replaced(u64),
    /// Before undoing the folder `write` made: the folders read, to delete it only if empty.
    FolderCheck(u64),
    /// A request undoing folder write `write`.
    Folder(u64),
}

impl UndoWork {
    /// The write it undoes.
    pub fn write(&self) -> u64 {
        match self {
            UndoWork::Check { write, .. }
            | UndoWork::Update { write, .. }
            | UndoWork::Recreate { write, .. }
            | UndoWork::Anchors(write)
            | UndoWork::Repoint(write)
            | UndoWork::Replaced(write)
            | UndoWork::FolderCheck(write)
            | UndoWork::Folder(write) => *write,
        }
    }
}

/// What a request about the open document's history is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionsWork {
    /// A page of versions for the history overlay.
    Page,
    /// A version's changed objects, for the history overlay's rows and diff.
    Details,
    /// The objects changed since the version the past view shows (they are marked).
    Since(u64),
    /// How many objects a restore of this version changes, for its question.
    Count(u64),
    /// The restore of this version.
    Restore(u64),
}
