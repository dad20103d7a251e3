//! The small vocabulary actions speak: panes, marks, prompts, the calls App forwards to one
//! component, and what a question shows above its answers ([`Body`]).

use std::path::PathBuf;
use std::sync::Arc;

use crate::document::{ObjectModel, Versioned};
use crate::text::json::{BulkChange, Diff};
use diagtui_model::{
    Content, ContentReport, DocSummary, FolderRef, ObjectType, Props, SelectorUpdated,
};

/// One of the panes, by its name (`Docs`, as the log shows it). Each pane's file gives its
/// name (`TypedPane::NAME`) and the registry (`panes/mod.rs`) makes its constant
/// (`panes::DOCS`); where it sits, its keys and the pane `Tab` moves to are the registry's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pane(&'static str);

impl Pane {
    /// The pane named `name` (the registry's constants are made with this).
    pub const fn named(name: &'static str) -> Pane {
        Pane(name)
    }

    /// Its name in the log (`Docs`).
    pub fn name(self) -> &'static str {
        self.0
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

/// What the question shows above its answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A sentence naming what it acts on.
    Text(String),
    /// A sentence, then the readable rows of what it acts on.
    Listed {
        /// What it asks.
        text: String,
        /// The rows, one per object.
        rows: Vec<String>,
        /// How many there are besides the rows listed.
        more: usize,
        /// A last word under the rows, if any.
        after: Option<String>,
    },
    /// What a write will send to one object: a heading, then the diff by path.
    Diff {
        /// What the diff is (`What the save changes …:`).
        heading: String,
        /// The diff.
        diff: Diff,
        /// What to know besides (what it cannot do), said under the diff.
        notes: Vec<String>,
    },
    /// What a write changes, object by object.
    BulkDiff {
        /// What the diff is.
        heading: String,
        /// Each object's part (shared with the write it asks about: 20,000 are not copied).
        changes: Arc<[BulkChange]>,
        /// What to know besides, said under the diff.
        notes: Vec<String>,
    },
    /// What an import file holds, every problem in it, and whether it can be imported.
    Import {
        /// The document whose content it would replace.
        doc: DocSummary,
        /// The file.
        path: PathBuf,
        /// The check, or why the file is refused.
        report: Result<ContentReport, String>,
    },
}
