//! Write requests as an engine's writer receives them: already checked against the rules, with
//! object changes planned where they could be (see [`plan`](super::plan)). An engine runs each
//! in one transaction of its own or shared with other requests, answering each only after its
//! commit, and reports what it changed.

use std::collections::BTreeMap;
use std::sync::Arc;

use tokio::sync::oneshot;

use super::StoreResult;
use super::content::ContentUpload;
use super::embeds::{EmbedWrite, StoredEmbed};
use super::object::StoredObject;
use diagtui_model::versions::VersionCondition;
use diagtui_model::{Props, Selector};

/// A write request.
#[derive(Debug)]
pub enum WriteOp {
    /// Set up an empty database: the default account and the sample documents.
    Initialise {
        /// The sample documents: title and content.
        samples: Vec<(String, ContentUpload)>,
    },
    /// Add an account with its first folder.
    CreateAccount {
        /// Its e-mail address.
        email: String,
    },
    /// Give the account with this e-mail address a new key.
    RotateKey {
        /// Its e-mail address.
        email: String,
    },
    /// Add a folder to the account.
    CreateFolder {
        /// The account.
        account_id: String,
        /// The title.
        title: String,
    },
    /// Rename one of the account's folders.
    RenameFolder {
        /// The account.
        account_id: String,
        /// The folder.
        folder_id: String,
        /// The new title.
        title: String,
    },
    /// Delete one of the account's folders and its documents.
    DeleteFolder {
        /// The account.
        account_id: String,
        /// The folder.
        folder_id: String,
    },
    /// Create an empty document.
    CreateDoc {
        /// The owner.
        account_id: String,
        /// The title.
        title: String,
        /// The folder; the account's first when `None`.
        folder_id: Option<String>,
    },
    /// Retitle a document.
    RenameDoc {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The new title.
        title: String,
    },
    /// Remove every object of a document.
    EmptyDoc {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
    },
    /// Copy a document under a new title.
    CloneDoc {
        /// The account acting, owner of the copy.
        account_id: String,
        /// The document copied.
        doc_id: String,
        /// The copy's title.
        title: String,
    },
    /// Share a document with the account that has this e-mail address.
    Share {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The other account's e-mail address.
        email: String,
    },
    /// Move a document into another of the account's folders (owner only).
    MoveDoc {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The folder.
        folder_id: String,
    },
    /// Delete a document (owner only).
    DeleteDoc {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
    },
    /// Replace a document's content.
    SetContent {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The new content.
        content: ContentUpload,
        /// The version it sets the content back to, when it is a restore.
        restore: Option<u64>,
        /// The document version the content must be at (`If-Match`), else nothing is written.
        if_match: Option<VersionCondition>,
    },
    /// Add an object under a new id.
    CreateObject {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The object.
        object: Arc<StoredObject>,
    },
    /// Add objects under given ids, replacing objects with the same ids (create-diagram).
    AddObjects {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The objects, each under its id.
        objects: Vec<(String, Arc<StoredObject>)>,
        /// Remove every object of the document first.
        replace: bool,
    },
    /// Merge properties into objects.
    UpdateObjects {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// Which objects and what to merge (shared with the request, which may plan it again).
        update: Arc<ObjectUpdate>,
        /// The objects' new states, computed from a cached snapshot of the document; the
        /// writer plans the update itself when there is none.
        plan: Option<Plan>,
    },
    /// Compact every document's history to the versions written at or after a time.
    CompactHistory {
        /// The cutoff: an ISO 8601 UTC time.
        cutoff: String,
    },
    /// Create, delete or change an embed (see [`embeds`](super::embeds)).
    Embed(EmbedWrite),
    /// Delete an object.
    DeleteObject {
        /// The account acting.
        account_id: String,
        /// The document.
        doc_id: String,
        /// The object.
        obj_id: String,
        /// The version the object must be at (`If-Match`), else nothing is written.
        if_match: Option<VersionCondition>,
    },
}

/// Uploads of more objects than this count as bulky: after them the writer gives memory back.
const BULKY_OBJECTS: usize = 1000;

impl WriteOp {
    /// Whether it stores a large upload, after which the memory the upload took is worth
    /// giving back to the operating system.
    pub fn is_bulky(&self) -> bool {
        match self {
            WriteOp::Initialise { .. } => true,
            WriteOp::SetContent { content, .. } => content.len() > BULKY_OBJECTS,
            WriteOp::AddObjects { objects, .. } => objects.len() > BULKY_OBJECTS,
            _ => false,
        }
    }
}

/// Which objects an update changes, and how.
#[derive(Debug)]
pub enum ObjectUpdate {
    /// Each named object takes its own properties (the bulk update; one object's update when
    /// not `labelled`, its messages then naming no object).
    Each {
        /// Object id to the properties to merge into it.
        objects: BTreeMap<String, Props>,
        /// Whether messages name the object (`objects.<id>: …`).
        labelled: bool,
        /// The versions some of the objects must be at (`If-Match`, `ifVersions`), else
        /// nothing is written.
        if_versions: BTreeMap<String, VersionCondition>,
    },
    /// Every object whose `meta` matches takes the properties.
    Matching {
        /// Which objects.
        selector: Selector,
        /// What to merge.
        props: Props,
        /// The objects previewed, each at its version: the update goes through only if the
        /// selector matches exactly these, at these versions (`ifVersions`).
        if_versions: Option<BTreeMap<String, u64>>,
    },
}

/// An update's outcome computed ahead of the writer from a cached document.
#[derive(Debug)]
pub struct Plan {
    /// The version of the cached document it was computed from: the writer takes it only if
    /// the document is still at that version.
    pub version: u64,
    /// Each object's new state, in id order.
    pub objects: Vec<(String, Arc<StoredObject>)>,
    /// Each object's state before, in the same order (the cached document's).
    pub before: Vec<Arc<StoredObject>>,
    /// How many objects the document held: an engine may write a large share of them
    /// differently from a few.
    pub doc_len: usize,
}

/// What a write request answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Done; nothing to report.
    Done,
    /// The id of what it created (document, folder, object).
    Created(String),
    /// A new API key.
    Key(String),
    /// The ids of the objects it updated, in id order.
    Updated(Vec<String>),
    /// The default account's key, when the database was set up now.
    Initialised(Option<String>),
    /// The version a write made and how many objects it changed (a restore's answer).
    Versioned(u64, u64),
    /// The embed a write made or changed.
    Embed(StoredEmbed),
    /// A write's answer with the document version it made (every write that recorded one).
    AtVersion(u64, Box<Outcome>),
}

impl Outcome {
    /// The answer without its version, and the version (when the write recorded one).
    pub fn versioned(self) -> (Outcome, Option<u64>) {
        match self {
            Outcome::AtVersion(version, outcome) => (*outcome, Some(version)),
            outcome => (outcome, None),
        }
    }
}

/// A write request queued for an engine's writer, and where its answer goes.
pub struct Job {
    /// The request.
    pub op: WriteOp,
    /// Its answer, sent after the commit.
    pub reply: oneshot::Sender<StoreResult<Outcome>>,
}

/// Hands a write request to a writer's queue and waits for its answer.
pub async fn send_job(
    writer: &tokio::sync::mpsc::Sender<Job>,
    op: WriteOp,
) -> StoreResult<Outcome> {
    let stopped = || super::StoreError::Internal("the writer has stopped".into());
    let (reply, answer) = oneshot::channel();
    writer
        .send(Job { op, reply })
        .await
        .map_err(|_| stopped())?;
    answer.await.map_err(|_| stopped())?
}
