//! What components ask of the app: [`Action`]s. A component never changes another component;
//! it returns actions, and `App` carries them out (sending requests, opening overlays, telling
//! the other components what changed). Also the small vocabulary actions speak: panes, marks,
//! prompts and the calls App forwards to one component.

use crate::document::ObjectModel;
use crate::document::Versioned;
use crate::keys::{Command, Context};
use crate::overlays::Overlay;
use crate::requests::call::Answer;
use crate::requests::purpose::{BulkOwner, Sent};
use crate::session::record::{UndoneMark, WriteKind};
use crate::session::selectors::SavedSelector;
use crate::text::json::Diff;
use crate::text::notification::Notification;
use crate::transfer::{FileFor, FileJob};
use diagtui_model::{Content, DocSummary, FolderRef, ObjectType, Props, SelectorUpdated};

/// One of the three panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The documents list.
    Docs,
    /// The object tree.
    Objects,
    /// The properties.
    Props,
    /// The map, shown in place of the properties.
    Map,
}

impl Pane {
    /// The pane `Tab` moves to (App puts the map in the properties' place while it is shown).
    pub fn next(self) -> Pane {
        match self {
            Pane::Docs => Pane::Objects,
            Pane::Objects => Pane::Props,
            Pane::Props | Pane::Map => Pane::Docs,
        }
    }

    /// The pane `Shift-Tab` moves to.
    pub fn prev(self) -> Pane {
        self.next().next()
    }
}

/// An answer to a bulk change's question, forwarded to its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkCall {
    /// Yes: check that the objects did not change meanwhile, then send.
    Confirm,
    /// They changed on the server: send what was shown anyway.
    Overwrite,
    /// They changed on the server: show the change against their values now.
    Rebase,
    /// No (or cancel after a conflict).
    Cancel,
}

/// What a one-line prompt's text is for (all of them belong to the documents pane).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptFor {
    /// The title of a new document.
    NewDoc,
    /// The file of create-diagram entries a new document is made from.
    FromFile,
    /// A document's new title.
    Rename(DocSummary),
    /// The title of a document's clone.
    Clone(DocSummary),
    /// The e-mail to share a document with.
    Share(DocSummary),
    /// The file to export a document to.
    Export(DocSummary),
    /// The file to import into a document.
    Import(DocSummary),
    /// The title of a new folder.
    NewFolder,
    /// A folder's new title.
    RenameFolder(FolderRef),
}

/// A change to the marked objects of the open document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarksChange {
    /// Mark or unmark one object.
    Toggle(String),
    /// Mark these too, by their index in the open document's model (what the tree shows).
    Add(Vec<usize>),
    /// Unmark these, by their index in the open document's model.
    Remove(Vec<usize>),
    /// Mark these too, by id (those the document has).
    AddIds(Vec<String>),
    /// Mark nothing.
    Clear,
    /// Show exactly these as the selector preview's matches (a style of their own; the marks
    /// stay as they are).
    Preview(Vec<String>),
}

/// A call App forwards to the documents pane (a question's answer, a prompt's text).
#[derive(Debug, Clone, PartialEq)]
pub enum DocsCall {
    /// A prompt was answered.
    Submit(PromptFor, String),
    /// Empty this document (confirmed), whose content was this (kept to undo the empty).
    Empty(DocSummary, Box<ObjectModel>),
    /// Delete this document (confirmed).
    Delete(DocSummary),
    /// Replace this document's content (confirmed after the import report).
    Import(DocSummary, Content),
    /// Move these documents into this folder (confirmed).
    Move(Vec<DocSummary>, FolderRef),
    /// Delete this folder and these documents in it (confirmed).
    DeleteFolder(FolderRef, Vec<String>),
    /// Read the documents and folders again (after a folder write's undo).
    Refresh,
}

/// A call App forwards to the objects pane.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectsCall {
    /// Select this row (confirmed, when it meant dropping edits).
    SelectRow(usize),
    /// Delete this object (confirmed).
    Delete {
        /// Its document.
        doc: String,
        /// Its id.
        obj: String,
    },
    /// Delete these marked objects (confirmed).
    DeleteMarked {
        /// Their document.
        doc: String,
        /// Their ids.
        objs: Vec<String>,
    },
    /// Create an object of this type with these properties.
    Create(ObjectType, Props),
    /// Show this object in the tree (clearing the filter or unfolding when they hide it).
    Jump(String),
}

/// A call App forwards to the properties pane.
#[derive(Debug, Clone, PartialEq)]
pub enum PropsCall {
    /// The save diff was confirmed.
    ConfirmSave(Diff),
    /// The conflict was settled by overwriting.
    Overwrite,
    /// The conflict was settled by taking the server's version.
    Reload(Versioned),
    /// The conflict question was dismissed: no save.
    CancelSave,
}

/// The answer of the selector form's apply, which the result overlay shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The server's answer.
    pub updated: SelectorUpdated,
    /// How many the preview had found, when there was one for this selector.
    pub expected: Option<usize>,
}

impl Applied {
    /// The sentence that says when the count differs from the preview's.
    pub fn mismatch(&self) -> Option<String> {
        let expected = self.expected?;
        let got = self.updated.updated_object_count;
        (expected != got).then(|| {
            format!(
                "the preview found {expected} but {got} were updated: the document changed meanwhile"
            )
        })
    }
}

/// Something a component asks App to do.
#[derive(Debug)]
pub enum Action {
    /// Send this request (App logs it and tracks it until its reply).
    Send(Sent),
    /// Say this in the status bar.
    Notify(Notification),
    /// Take an error off the status bar (a retry is under way).
    ClearError,
    /// Give this pane the focus.
    Focus(Pane),
    /// Open this overlay on top.
    Open(Overlay),
    /// Close the overlay on top (the selector form and the bulk edit keep their content).
    Close,
    /// Leave the app.
    Quit,
    /// Leave, asking first when the properties pane holds unsaved edits.
    AskQuit,
    /// Put this text on the clipboard.
    Copy(String),
    /// Hand this text to `$VISUAL`/`$EDITOR`.
    ExternalEditor(String),
    /// Carry out this file job.
    File(FileFor, FileJob),
    /// Open this document (asking first when that would drop unsaved edits).
    OpenDoc(DocSummary),
    /// Drop the properties pane's unsaved edits (the user said so).
    DropEdits,
    /// The objects pane selected an object: the properties pane shows it.
    ShowSelected,
    /// Show the map in place of the properties (with the focus), or hide it (the focus back on
    /// the objects).
    ShowMap(bool),
    /// `e`: edit the selected object in `$EDITOR`.
    ExternalEdit,
    /// Read the open document's content again.
    ReloadContent,
    /// A write of this app's to the open document succeeded: read its content again to show
    /// it, unless the document's change events are followed (the write comes back as an event
    /// and is shown from it, as anyone else's: one reload, not two).
    ReloadAfterWrite,
    /// `Esc` while the document opens: stop reading its content and close it.
    CancelOpen,
    /// A document got a new title.
    DocRetitled {
        /// The document.
        doc: String,
        /// Its title.
        title: String,
    },
    /// A document is being emptied.
    DocEmptied(String),
    /// A document is being deleted.
    DocDeleted(String),
    /// A document's content was replaced (an import).
    ContentReplaced(String),
    /// Change the open document's marks.
    Marks(MarksChange),
    /// Take these objects out of the open document at once (their delete is on its way).
    RemoveObjects {
        /// The document.
        doc: String,
        /// The objects.
        objs: Vec<String>,
    },
    /// An object's data as the server now has it.
    ObjectData {
        /// The document.
        doc: String,
        /// The object.
        obj: String,
        /// Its data.
        data: Props,
        /// Its version on the server (`None`: the server gives none).
        version: Option<u64>,
    },
    /// `w`: open the selector form on the open document.
    OpenForm,
    /// `b`: open the bulk edit of the marked objects; these marked ones the tree hides.
    OpenBulkEdit(Vec<String>),
    /// Show the selector update's answer in place of the form.
    ShowSelectorResult(Applied),
    /// Remember this selector in the history.
    Remember(SavedSelector),
    /// Run `command` of `context` as the palette picked it: where it works, its pane focused
    /// first, or a message saying where it works and what it needs.
    Run(Context, Command),
    /// For the documents pane.
    Docs(DocsCall),
    /// For the objects pane.
    Objects(ObjectsCall),
    /// For the properties pane.
    Props(PropsCall),
    /// The selector apply was confirmed.
    ApplySelector,
    /// The selector apply was refused (the matches changed since the preview): preview
    /// again, then ask to apply.
    PreviewSelectorAgain,
    /// An answer to a bulk change's question, for its owner.
    Bulk(BulkOwner, BulkCall),
    /// A write to this document's objects was answered (its details are read again once the
    /// last such write is answered).
    Written(String),
    /// A write went through: keep it in the session's write history (for undo).
    Record {
        /// The document written to.
        doc: String,
        /// What the write did.
        kind: WriteKind,
    },
    /// An undo went through: mark what it put back in the write history.
    Undone(UndoneMark),
    /// Undo a version of the server's history: keep it in the write history (as the write
    /// `kind` to `doc`), then undo it as any write (asks first).
    UndoVersion {
        /// The document.
        doc: String,
        /// The version.
        version: u64,
        /// The one object whose part is undone (`None`: all of the version).
        obj: Option<String>,
        /// What undoing it takes.
        kind: WriteKind,
    },
    /// The server keeps no history (a history route answered 404): say so once, then undo the
    /// newest write of this session to object `obj` of `doc`.
    NoServerHistory {
        /// The document.
        doc: String,
        /// The object.
        obj: String,
    },
    /// Show the open document as it was at this version, read-only (`None`: as it is now).
    ShowVersion(Option<u64>),
    /// `r` in the history: ask whether to restore the open document to this version (after
    /// reading how many objects that changes).
    AskRestore(u64),
}

impl Action {
    /// An information for the status bar.
    pub fn info(text: impl Into<String>) -> Action {
        Action::Notify(Notification::info(text))
    }

    /// An error for the status bar.
    pub fn error(text: impl Into<String>) -> Action {
        Action::Notify(Notification::error(text))
    }

    /// The error for an answer of the wrong kind to a request made for `work`.
    pub fn unexpected(work: &impl std::fmt::Debug, answer: &Answer) -> Action {
        Action::error(format!("unexpected answer {answer:?} for {work:?}"))
    }
}
