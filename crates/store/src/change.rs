//! What a committed write request changed. The engine reports it after each commit, in commit
//! order, before the request is answered: the cache writes it through, and
//! [`Store::commits`](super::Store::commits) hands it to whoever listens (live change events).

use std::sync::Arc;

use super::object::StoredObject;

/// What one committed write request changed.
#[derive(Debug, Clone, Default)]
pub struct Committed {
    /// Each document it changed, with what changed.
    pub docs: Vec<DocChange>,
    /// Accounts whose API key changed (a key rotated): keys known for them are forgotten.
    pub keys_changed: Vec<String>,
    /// Another process or instance changed the database in ways not reported here: a
    /// listener must assume that any document may have changed.
    pub elsewhere: bool,
}

impl Committed {
    /// A report of changes to these documents.
    pub fn of_docs(docs: Vec<DocChange>) -> Committed {
        Committed {
            docs,
            ..Committed::default()
        }
    }

    /// A report that these accounts' API keys changed.
    pub fn of_keys(keys_changed: Vec<String>) -> Committed {
        Committed {
            keys_changed,
            ..Committed::default()
        }
    }

    /// The report that the database changed in ways not reported.
    pub fn elsewhere() -> Committed {
        Committed {
            elsewhere: true,
            ..Committed::default()
        }
    }
}

/// What one committed write request did to one document.
#[derive(Debug, Clone)]
pub struct DocChange {
    /// The document.
    pub doc_id: String,
    /// Its `lastChange` after the write; `None` when it was deleted.
    pub last_change: Option<String>,
    /// The objects created or updated, with their new state, in id order.
    pub changed: Vec<(String, Arc<StoredObject>)>,
    /// The objects deleted, in id order.
    pub deleted: Vec<String>,
    /// What happened to the document as a whole, if anything.
    pub event: Option<DocEvent>,
    /// The document's version after the write (its history's head), when the write recorded
    /// one; the version of every object in `changed`.
    pub version: Option<u64>,
}

impl Committed {
    /// The document version the write recorded, if it recorded one.
    pub fn version(&self) -> Option<u64> {
        self.docs.iter().find_map(|change| change.version)
    }
}

impl DocChange {
    /// A change to a document's objects, with its new `lastChange`.
    pub fn objects(doc_id: &str, last_change: String) -> DocChange {
        DocChange {
            doc_id: doc_id.to_owned(),
            last_change: Some(last_change),
            changed: Vec::new(),
            deleted: Vec::new(),
            event: None,
            version: None,
        }
    }

    /// The same change, made by the write of document version `version`.
    pub fn at(self, version: u64) -> DocChange {
        DocChange {
            version: Some(version),
            ..self
        }
    }

    /// A change to the document as a whole.
    pub fn event(doc_id: &str, last_change: Option<String>, event: DocEvent) -> DocChange {
        DocChange {
            event: Some(event),
            last_change,
            ..DocChange::objects(doc_id, String::new())
        }
    }
}

/// A change to a document as a whole (serialised to tell other instances, see
/// `store::postgres::notify`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DocEvent {
    /// It was created (also by a clone), in this folder, owned by this account.
    Created {
        /// The owner's account id.
        owner_id: String,
        /// The folder it sits in.
        folder_id: String,
    },
    /// Its title changed.
    Retitled,
    /// All its objects were removed.
    Emptied,
    /// Its whole content was replaced (set-content); the objects are not listed.
    ContentReplaced,
    /// It was shared with an account.
    Shared {
        /// The account it was shared with.
        account_id: String,
    },
    /// It was moved into another of its owner's folders.
    Moved {
        /// The folder it sits in now.
        folder_id: String,
    },
    /// It was deleted (also with its folder).
    Deleted,
}
