//! What the write requests ask of an engine: the statements each runs in its write transaction
//! ([`Statements`]; the transaction itself is `transaction.rs`'s), and its place among the
//! commits applied to what the store keeps ([`Turns`]).

use std::sync::Arc;

use crate::change::DocChange;
use crate::content::ContentUpload;
use crate::embeds::EmbedStatements;
use crate::error::StoreResult;
use crate::history::HistoryWrites;
use crate::keys::Account;
use crate::object::StoredObject;
use crate::observer::CommitObserver;
use crate::plan::{Before, Planned};
use crate::write::ObjectUpdate;
use diagtui_model::FolderRef;

/// The statements of the write requests, in an engine's SQL, run inside its write transaction
/// (the history's and the embeds' too).
pub(crate) trait Statements: HistoryWrites + EmbedStatements {
    /// Whether any account exists.
    async fn any_account(&self) -> StoreResult<bool>;
    /// Adds an account with its first folder; returns it and its key.
    async fn insert_account(&self, email: &str) -> StoreResult<(Account, String)>;
    /// Gives the account with this e-mail address a new key; returns its id and the key.
    async fn rotate_key(&self, email: &str) -> StoreResult<(String, String)>;
    /// The account's first (oldest) folder.
    async fn first_folder(&self, account: &str) -> StoreResult<FolderRef>;
    /// One of the account's own folders (`FolderNotFound` otherwise).
    async fn own_folder(&self, account: &str, folder: &str) -> StoreResult<FolderRef>;
    /// Adds a folder for the account; returns its id.
    async fn insert_folder(&self, account: &str, title: &str) -> StoreResult<String>;
    /// Renames one of the account's folders.
    async fn rename_folder(&self, account: &str, folder: &str, title: &str) -> StoreResult<()>;
    /// Deletes one of the account's folders and its documents; returns their ids.
    async fn delete_folder(&self, account: &str, folder: &str) -> StoreResult<Vec<String>>;
    /// Checks that the account may see the document (`DocNotFound` otherwise).
    async fn visible_doc(&self, account: &str, doc: &str) -> StoreResult<()>;
    /// Adds an empty document to a folder; returns its id and the change.
    async fn insert_doc(&self, owner: &str, folder: &str, title: &str) -> StoreResult<Created>;
    /// Renames a document the account may see.
    async fn rename_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<DocChange>;
    /// Deletes every object of a document the account may see.
    async fn empty_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange>;
    /// Copies a document the account may see into a new one it owns.
    async fn clone_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<Created>;
    /// Shares a document with the account that has this e-mail address.
    async fn share(&self, account: &str, doc: &str, email: &str) -> StoreResult<DocChange>;
    /// Deletes a document the account owns.
    async fn delete_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange>;
    /// Moves a document the account owns into one of its folders.
    async fn move_doc(&self, account: &str, doc: &str, folder: &str) -> StoreResult<Moved>;
    /// Deletes every object of a document.
    async fn delete_objects(&self, doc: &str) -> StoreResult<()>;
    /// Stores an upload's rows in a document that has no objects, made by the write of
    /// document version `version`.
    async fn insert_content(
        &self,
        doc: &str,
        content: &ContentUpload,
        version: u64,
    ) -> StoreResult<()>;
    /// Adds one object (at its version).
    async fn insert_object(&self, doc: &str, obj: &str, object: &StoredObject) -> StoreResult<()>;
    /// One object as it is, if the document has it.
    async fn object(&self, doc: &str, obj: &str) -> StoreResult<Option<Arc<StoredObject>>>;
    /// Plans an object update from the rows it reads: the objects' new states and their
    /// states before.
    async fn plan_update(&self, doc: &str, update: &ObjectUpdate)
    -> StoreResult<(Planned, Before)>;
    /// Writes planned objects' data; `len` is how many objects the document holds, when
    /// known. May take the objects.
    async fn save(&self, doc: &str, objects: &mut Planned, len: Option<usize>) -> StoreResult<()>;
    /// Deletes one object; whether it existed.
    async fn delete_object(&self, doc: &str, obj: &str) -> StoreResult<bool>;
}

/// Where an engine's commits take their turn among the commits applied to what the store
/// keeps, and whom it tells of them.
pub(crate) trait Turns {
    /// Who learns of each commit, if anyone.
    fn observer(&self) -> Option<&dyn CommitObserver>;

    /// Called once the counter is bumped to `generation`: whether a commit before it may be
    /// missing from what is kept (another process's, or one whose report did not arrive). If
    /// so, what is kept is dropped, and plans made from it no longer hold.
    async fn missed_before(&self, generation: i64) -> bool;

    /// The transaction that bumped the counter ended, committed or not.
    fn ended(&self, committed: bool);

    /// Runs `report` (the observer learning of the batch's commits) in the turn of commit
    /// `generation`.
    fn in_turn(&self, generation: i64, report: impl FnOnce());
}

/// A document created: its id, and the change.
pub(crate) type Created = (String, DocChange);

/// A document moved: the folder it is in now, and the change; `None` when it was in that
/// folder already.
pub(crate) type Moved = Option<(FolderRef, DocChange)>;

/// The objects a batch's writes replaced, to drop once its requests are answered.
pub(crate) type Replaced = Vec<Arc<StoredObject>>;
