//! The storage behind the local server. It knows nothing of HTTP: each operation takes the
//! acting account and returns model types, answers ready to send, or a [`StoreError`].
//!
//! Layers, top down:
//! - [`Store`]: what handlers call. It checks each request against the [`rules`] on the
//!   request's own task, answers reads from the documents and keys it keeps in memory
//!   ([`cache`], [`keys`]: no thread hop for a read served from memory), plans object updates
//!   from a cached document ahead of the writer ([`plan`]), and hands each commit's report
//!   ([`change`]) to whoever listens ([`Store::commits`]).
//! - An [`Engine`]: reads what is not in memory and commits writes, telling the store of each
//!   commit in commit order and of changes made by other processes. Two engines:
//!   [`SqliteEngine`] (one file in the data dir, the default) and `PgEngine` (a PostgreSQL
//!   database shared by several instances, see `postgres`, behind the default feature
//!   `postgres`); a server holds either as an [`AnyEngine`] and its handlers do not know which.
//! - The write path, one for both engines (`writer`): an engine's writer takes the
//!   [`write`] requests queued meanwhile and runs them in one transaction that bumps the
//!   `generation` counter, each under a savepoint of its own (a request that fails or panics
//!   fails alone), then commits and tells the store of each request's report, in commit
//!   order, before answering. The engine supplies the primitives: its transaction, the
//!   statements of each request, and where its commits take their turn. SQLite runs the path
//!   on one writer thread; PostgreSQL as a task, its statements pipelined.
//!
//! [`Store::commits`] carries this instance's commits and, on PostgreSQL, the other instances'
//! (their reports arrive through `LISTEN/NOTIFY` and are applied to the cache in commit order).

mod add;
mod any;
mod batch;
mod cache;
pub mod change;
pub mod condition;
pub mod content;
pub mod embeds;
mod engine;
mod error;
mod generation;
pub mod history;
mod keys;
pub mod metrics;
#[cfg(feature = "postgres")]
pub mod migrate;
mod object;
mod plan;
#[cfg(feature = "postgres")]
mod postgres;
mod raw;
pub mod rules;
mod sqlite;
#[cfg(feature = "postgres")]
mod tables;
mod write;
mod writer;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::broadcast;

use self::cache::{CachedDoc, DocCache, DocState, Lookup};
use self::change::Committed;
use self::content::ContentUpload;
use self::engine::CommitObserver;
use self::keys::{KeyCache, hash_key};
pub use self::object::StoredObject;
use self::object::content_json;
use self::rules::{
    check_email, check_email_length, check_object_id, check_props_by_name, check_props_for,
    check_title,
};
use self::write::{ObjectUpdate, Outcome, Plan, WriteOp};
use diagtui_model::props::new_object_data;
use diagtui_model::versions::VersionCondition;
use diagtui_model::{DocDetails, DocSummary, FolderList, ObjectType, Props, Selector};

pub use self::any::{AnyEngine, DEFAULT_POOL, Location, PoolStatus};
pub use self::engine::{Engine, NotReady, SchemaVersion};
pub use self::error::StoreError;
pub use self::keys::{Account, DEFAULT_EMAIL};
pub use self::metrics::StoreMetrics;
#[cfg(feature = "postgres")]
pub use self::postgres::{PgEngine, PgOptions, migrations as pg_migrations};
pub use self::sqlite::{DB_FILE, SqliteEngine};

/// A result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// The default memory budget of the document cache: 256 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;
/// Bulk updates of more objects than this are planned from the cached document, outside the
/// writer; smaller ones are planned by the writer from the rows it reads.
const PLAN_AHEAD_FROM: usize = 16;
/// How many times an update planned ahead is planned again after the document changed under
/// it, before the writer plans it.
const PLAN_ATTEMPTS: usize = 3;
/// Documents bigger than this are answered, planned and matched on the blocking pool, so that
/// one large request does not hold up the small ones sharing its thread.
const OFFLOAD_BYTES: usize = 1 << 20;
/// How many commit reports wait for a slow listener before it misses some.
const COMMIT_BACKLOG: usize = 1024;

/// A document to seed a new data dir with.
pub struct Sample {
    /// Its title.
    pub title: String,
    /// Its content: object id to `{type, data}`.
    pub content: Value,
}

/// The store's settings.
#[derive(Debug, Clone, Copy)]
pub struct StoreOptions {
    /// The most bytes the document cache holds.
    pub cache_bytes: usize,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            cache_bytes: DEFAULT_CACHE_BYTES,
        }
    }
}

/// The store: an engine, with documents and keys kept in memory.
pub struct Store<E: Engine = SqliteEngine> {
    engine: E,
    kept: Arc<Kept>,
}

/// What the store keeps in memory; the engine's [`CommitObserver`].
struct Kept {
    docs: DocCache,
    keys: KeyCache,
    commits: broadcast::Sender<Arc<Committed>>,
    /// How many reports were sent; held while one is sent, so that a listener can learn how
    /// many came before it subscribed.
    reported: std::sync::Mutex<u64>,
    /// What the store counts.
    metrics: StoreMetrics,
    /// Whether the last write batch found the disk full (cleared by the next one that
    /// commits without).
    disk_full: AtomicBool,
}

impl Kept {
    /// Sends a report to the listeners, counting it.
    fn report(&self, report: Arc<Committed>) {
        let mut reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        *reported += 1;
        let _ = self.commits.send(report);
    }

    /// How many reports were sent so far.
    fn reported(&self) -> std::sync::MutexGuard<'_, u64> {
        self.reported.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl CommitObserver for Kept {
    fn metrics(&self) -> &StoreMetrics {
        &self.metrics
    }

    fn wrote(&self, disk_full: bool) {
        self.disk_full.store(disk_full, Ordering::Relaxed);
    }

    fn doc_version(&self, doc_id: &str) -> Option<u64> {
        self.docs.version(doc_id)
    }

    fn committed(&self, report: Arc<Committed>) -> Vec<Arc<StoredObject>> {
        let mut replaced = Vec::new();
        for change in &report.docs {
            self.docs.apply(change, &mut replaced);
        }
        for account_id in &report.keys_changed {
            self.keys.forget_account(account_id);
        }
        self.report(report);
        replaced
    }

    fn changed_elsewhere(&self) {
        self.metrics.resyncs.inc();
        self.docs.clear();
        self.keys.clear();
        self.report(Arc::new(Committed::elsewhere()));
    }
}

impl Store<SqliteEngine> {
    /// Opens the SQLite database in `data_dir` (creating and migrating it if needed).
    pub fn open(data_dir: &Path, options: StoreOptions) -> StoreResult<Store> {
        let kept = Store::<SqliteEngine>::kept(options);
        let engine = SqliteEngine::open(data_dir, Arc::clone(&kept) as Arc<dyn CommitObserver>)?;
        Ok(Store { engine, kept })
    }
}

/// Sets up a database when it has no account yet: the default account, and the samples in
/// its first folder, in one transaction. Returns the new account's key, or `None` when the
/// database was set up already.
pub async fn initialise(location: &Location, samples: &[Sample]) -> StoreResult<Option<String>> {
    let samples = samples
        .iter()
        .map(|sample| {
            let text = serde_json::to_vec(&sample.content)?;
            Ok((
                sample.title.clone(),
                ContentUpload::parse(Bytes::from(text))?,
            ))
        })
        .collect::<StoreResult<Vec<_>>>()?;
    match any::write_once(location, WriteOp::Initialise { samples }).await? {
        Outcome::Initialised(key) => Ok(key),
        other => Err(unexpected(&other)),
    }
}

/// Adds an account (with its own first folder) to a database and returns its new API key.
/// Works beside stores running on the same database, which accept the key at once.
pub async fn create_account(location: &Location, email: &str) -> StoreResult<String> {
    check_email(email)?;
    let email = email.to_owned();
    key_of(any::write_once(location, WriteOp::CreateAccount { email }).await?)
}

/// Gives the account with this e-mail a new key (the old one stops working) and returns it.
pub async fn rotate_key(location: &Location, email: &str) -> StoreResult<String> {
    let email = email.to_owned();
    key_of(any::write_once(location, WriteOp::RotateKey { email }).await?)
}

/// The account a key belongs to, read from a database.
pub async fn account_by_key(location: &Location, key: &str) -> StoreResult<Option<Account>> {
    any::account_by_key_once(location, key).await
}

/// The key an account-making write answered.
fn key_of(outcome: Outcome) -> StoreResult<String> {
    match outcome {
        Outcome::Key(key) => Ok(key),
        other => Err(unexpected(&other)),
    }
}

/// The error for an engine answering a write with the wrong kind of outcome.
fn unexpected(outcome: &Outcome) -> StoreError {
    StoreError::Internal(format!("unexpected outcome of a write: {outcome:?}"))
}

/// Runs `f` on a cached document's state: on this task when it is small, on the blocking pool
/// when it is big.
async fn with_state<T, F>(doc: Arc<CachedDoc>, f: F) -> StoreResult<T>
where
    T: Send + 'static,
    F: FnOnce(&DocState) -> StoreResult<T> + Send + 'static,
{
    if doc.read().bytes() <= OFFLOAD_BYTES {
        return f(&doc.read());
    }
    tokio::task::spawn_blocking(move || f(&doc.read()))
        .await
        .map_err(|e| StoreError::Internal(format!("a task failed: {e}")))?
}

/// A cached document's whole content as a JSON map, objects in id order.
async fn state_json(doc: Arc<CachedDoc>) -> StoreResult<Bytes> {
    match read_state(doc, ContentRead::default()).await? {
        Read::Body { json, .. } => Ok(json),
        Read::NotModified { .. } => unreachable!("a read with no condition has a body"),
    }
}

/// A cached document's whole content read as `how` asks, with its version, in one look at
/// its state (the body and the version always agree).
async fn read_state(doc: Arc<CachedDoc>, how: ContentRead) -> StoreResult<Read> {
    if let Some(unless) = &how.unless {
        let version = doc.read().doc_version;
        if unless.matches(Some(version)) {
            return Ok(Read::NotModified { version });
        }
    }
    with_state(doc, move |state| {
        let json = content_json(
            state
                .objects
                .iter()
                .filter(|(_, o)| how.only.as_ref().is_none_or(|s| s.matches(o.meta())))
                .map(|(id, o)| (id.as_str(), &**o)),
            how.versions,
        );
        Ok(Read::Body {
            json,
            version: state.doc_version,
        })
    })
    .await
}

/// How a content read answers.
#[derive(Debug, Default)]
pub struct ContentRead {
    /// Each object with its version (`?versions=true`).
    pub versions: bool,
    /// No body when the document is at one of these versions (`If-None-Match`).
    pub unless: Option<VersionCondition>,
    /// Only the objects whose `meta` matches (a selector read).
    pub only: Option<Selector>,
}

/// A content read's answer.
#[derive(Debug)]
pub enum Read {
    /// The document is at a version the reader has (`If-None-Match` matched).
    NotModified {
        /// The document's version.
        version: u64,
    },
    /// The content as a JSON map in id order, and the document's version it was read at.
    Body {
        /// The map.
        json: Bytes,
        /// The document's version.
        version: u64,
    },
}

impl<E: Engine> Store<E> {
    /// What a new store keeps in memory, empty.
    fn kept(options: StoreOptions) -> Arc<Kept> {
        let metrics = StoreMetrics::default();
        Arc::new(Kept {
            docs: DocCache::new(options.cache_bytes, metrics.cache.clone()),
            keys: KeyCache::default(),
            commits: broadcast::channel(COMMIT_BACKLOG).0,
            reported: std::sync::Mutex::new(0),
            metrics,
            disk_full: AtomicBool::new(false),
        })
    }

    /// The reports of commits from now on, in commit order, and of changes made elsewhere
    /// ([`Committed::elsewhere`]); a listener that falls more than a backlog behind misses
    /// reports. On PostgreSQL it carries the other instances' commits too, in commit order
    /// (their changed objects read from the database as they arrive); when reports were missed
    /// (this instance's listening connection was down), a [`Committed::elsewhere`] says so.
    pub fn commits(&self) -> broadcast::Receiver<Arc<Committed>> {
        self.kept.commits.subscribe()
    }

    /// Like [`Store::commits`], with how many reports were sent before it.
    pub fn commits_counted(&self) -> (u64, broadcast::Receiver<Arc<Committed>>) {
        let reported = self.kept.reported();
        (*reported, self.kept.commits.subscribe())
    }

    /// How many commit reports were sent so far (a listener of [`Store::commits_counted`] has
    /// seen every commit before now once it has handled this many).
    pub fn reported(&self) -> u64 {
        *self.kept.reported()
    }

    /// Notices commits by other processes or instances since the last check (reported to
    /// [`Store::commits`] as [`Committed::elsewhere`]). Every request checks; a listener with
    /// no requests coming calls this now and then. Cheap when nothing changed.
    pub async fn check_fresh(&self) -> StoreResult<()> {
        self.engine.check_fresh().await
    }

    /// The account a key belongs to, if any. Every request starts here, so this is also where
    /// other processes' commits are noticed. A key not known in memory is looked up in the
    /// database, so keys added by another process are accepted at once.
    pub async fn authenticate(&self, key: &str) -> StoreResult<Option<Account>> {
        self.check_fresh().await?;
        let hash = hash_key(key);
        if let Some(account) = self.kept.keys.get(&hash) {
            return Ok(Some(account));
        }
        let epoch = self.kept.keys.epoch();
        let found = self.engine.account_by_key(hash).await?;
        if let Some(account) = &found {
            self.kept.keys.remember(hash, account.clone(), epoch);
        }
        Ok(found)
    }

    /// A document the account may see, from memory or loaded into it: by this request, or
    /// by the one already loading it (one load per document at a time, see [`cache`]).
    async fn doc(&self, account: &Account, doc_id: &str) -> StoreResult<Arc<CachedDoc>> {
        match self.loaded(doc_id).await? {
            Some(doc) if doc.read().visible_to(&account.id) => Ok(doc),
            _ => Err(StoreError::DocNotFound(doc_id.to_owned())),
        }
    }

    /// A document from memory or loaded into it, whoever may see it; `None` when there is no
    /// such document.
    async fn loaded(&self, doc_id: &str) -> StoreResult<Option<Arc<CachedDoc>>> {
        Ok(loop {
            match self.kept.docs.lookup(doc_id) {
                Lookup::Ready(doc) => break Some(doc),
                Lookup::Load(load) => {
                    break load.finish(self.engine.load_doc(doc_id.to_owned()).await)?;
                }
                Lookup::Wait(wait) => {
                    // The loading request went away unfinished: look again.
                    if let Some(answer) = wait.answer().await {
                        break answer?;
                    }
                }
            }
        })
    }

    /// The documents the account owns or has been shared, ordered by title (case-insensitive),
    /// then id.
    pub async fn list_docs(&self, account: &Account) -> StoreResult<Vec<DocSummary>> {
        self.engine.list_docs(account.id.clone()).await
    }

    /// A document's details.
    pub async fn doc_details(&self, account: &Account, doc_id: &str) -> StoreResult<DocDetails> {
        self.engine
            .doc_details(account.id.clone(), doc_id.to_owned())
            .await
    }

    /// One object.
    pub async fn object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
    ) -> StoreResult<Arc<StoredObject>> {
        let doc = self.doc(account, doc_id).await?;
        let object = doc.read().objects.get(obj_id).cloned();
        object.ok_or_else(|| StoreError::ObjNotFound(obj_id.to_owned()))
    }

    /// The whole content as a JSON map, objects in id order.
    pub async fn content_json(&self, account: &Account, doc_id: &str) -> StoreResult<Bytes> {
        state_json(self.doc(account, doc_id).await?).await
    }

    /// The whole content as [`Store::content_json`] answers it, for no account: only for what
    /// has checked its own right to it (a live embed's key).
    async fn public_content_json(&self, doc_id: &str) -> StoreResult<Bytes> {
        let doc = self.loaded(doc_id).await?;
        state_json(doc.ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))?).await
    }

    /// The content (or the objects a selector matches) as `how` asks, with the document's
    /// version.
    pub async fn read_content(
        &self,
        account: &Account,
        doc_id: &str,
        how: ContentRead,
    ) -> StoreResult<Read> {
        read_state(self.doc(account, doc_id).await?, how).await
    }

    /// Creates an object of a type (wire name) from properties over the type's defaults;
    /// returns its new id and the document version the write made (the object's).
    pub async fn create_object(
        &self,
        account: &Account,
        doc_id: &str,
        kind: &str,
        props: &Props,
    ) -> StoreResult<(String, u64)> {
        let kind: ObjectType = kind
            .parse()
            .map_err(|e: diagtui_model::PropertyProblem| StoreError::Invalid(e.to_string()))?;
        check_props_for(kind.as_str(), props, true).map_err(StoreError::Invalid)?;
        let data = serde_json::to_string(&new_object_data(kind, props))?;
        let object = Arc::new(StoredObject::created(kind, &data));
        let (outcome, version) = self
            .engine
            .write(WriteOp::CreateObject {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                object,
            })
            .await?
            .versioned();
        Ok((created(outcome)?, version.unwrap_or(0)))
    }

    /// Merges properties into one object, when it is at a version `if_match` names (if
    /// given); returns the document version the write made (the object's).
    pub async fn update_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        props: Props,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        check_object_id("objId", obj_id)?;
        check_props_by_name(&props)?;
        let if_versions = if_match
            .map(|condition| BTreeMap::from([(obj_id.to_owned(), condition)]))
            .unwrap_or_default();
        let objects = BTreeMap::from([(obj_id.to_owned(), props)]);
        let update = ObjectUpdate::Each {
            objects,
            labelled: false,
            if_versions,
        };
        let (_, version) = self.update(account, doc_id, update, false).await?;
        Ok(version)
    }

    /// Merges each object's own properties into it: all objects or none. An object id that
    /// does not exist fails the whole request, and so does one not at the version
    /// `if_versions` gives it (each key must be one of `objects`). Returns the document
    /// version the write made.
    pub async fn bulk_update(
        &self,
        account: &Account,
        doc_id: &str,
        objects: BTreeMap<String, Props>,
        if_versions: BTreeMap<String, u64>,
    ) -> StoreResult<u64> {
        for (obj_id, props) in &objects {
            let label = format!("objects.{obj_id}");
            check_object_id(&label, obj_id)?;
            check_props_by_name(props).map_err(|e| StoreError::Invalid(format!("{label}: {e}")))?;
        }
        if let Some(stray) = if_versions.keys().find(|id| !objects.contains_key(*id)) {
            return Err(StoreError::Invalid(format!(
                "ifVersions.{stray}: not among objects"
            )));
        }
        let ahead = objects.len() > PLAN_AHEAD_FROM;
        let update = ObjectUpdate::Each {
            objects,
            labelled: true,
            if_versions: if_versions
                .into_iter()
                .map(|(id, version)| (id, VersionCondition::OneOf(vec![version])))
                .collect(),
        };
        let (_, version) = self.update(account, doc_id, update, ahead).await?;
        Ok(version)
    }

    /// Merges properties into every object whose `meta` matches: all or none; with
    /// `if_versions`, only if the selector matches exactly those objects, each at its version.
    /// Returns the ids of the updated objects, in id order, and the document version the write
    /// made. The matching and the merging happen on a cached copy of the document, outside the
    /// writer.
    pub async fn selector_update(
        &self,
        account: &Account,
        doc_id: &str,
        selector: Selector,
        props: Props,
        if_versions: Option<BTreeMap<String, u64>>,
    ) -> StoreResult<(Vec<String>, u64)> {
        // Props are checked by name up front, so that a selector matching nothing still
        // refuses bad props; the per-object check adds only the per-type rules.
        check_props_by_name(&props)?;
        let update = ObjectUpdate::Matching {
            selector,
            props,
            if_versions,
        };
        self.update(account, doc_id, update, true).await
    }

    /// Runs an object update: planned from the cached document first when `ahead`, planned
    /// again when the document changed before the plan could commit, and left to the writer
    /// to plan after [`PLAN_ATTEMPTS`], or at once when a condition failed on the cached
    /// document (the writer decides on the document as it is, never on a stale copy).
    async fn update(
        &self,
        account: &Account,
        doc_id: &str,
        update: ObjectUpdate,
        ahead: bool,
    ) -> StoreResult<(Vec<String>, u64)> {
        let update = Arc::new(update);
        let attempts = if ahead { PLAN_ATTEMPTS } else { 0 };
        for _ in 0..attempts {
            let doc = self.doc(account, doc_id).await?;
            let planning = Arc::clone(&update);
            let plan = with_state(doc, move |state| {
                let (objects, before) = plan::plan_cached(&planning, &state.objects)?;
                Ok(Plan {
                    version: state.version,
                    objects,
                    before,
                    doc_len: state.objects.len(),
                })
            })
            .await;
            let plan = match plan {
                Ok(plan) => plan,
                Err(StoreError::PreconditionFailed(_)) => break,
                Err(e) => return Err(e),
            };
            match self
                .write_update(account, doc_id, &update, Some(plan))
                .await
            {
                Err(StoreError::Conflict) => continue,
                answer => return answer,
            }
        }
        self.write_update(account, doc_id, &update, None).await
    }

    /// Sends an object update to the writer.
    async fn write_update(
        &self,
        account: &Account,
        doc_id: &str,
        update: &Arc<ObjectUpdate>,
        plan: Option<Plan>,
    ) -> StoreResult<(Vec<String>, u64)> {
        let op = WriteOp::UpdateObjects {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            update: Arc::clone(update),
            plan,
        };
        match self.engine.write(op).await?.versioned() {
            (Outcome::Updated(ids), version) => Ok((ids, version.unwrap_or(0))),
            (other, _) => Err(unexpected(&other)),
        }
    }

    /// Deletes one object, when it is at a version `if_match` names (if given); returns the
    /// document version the write made.
    pub async fn delete_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        check_object_id("objId", obj_id)?;
        self.doc_write(
            account,
            doc_id,
            WriteOp::DeleteObject {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                obj_id: obj_id.to_owned(),
                if_match,
            },
        )
        .await
    }

    /// Replaces the whole content with an upload (stored as given: not validated or
    /// completed, see [`ContentUpload::parse`]), when the document is at a version `if_match`
    /// names (if given); returns the document version the write made.
    pub async fn set_content(
        &self,
        account: &Account,
        doc_id: &str,
        content: ContentUpload,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        self.doc_write(
            account,
            doc_id,
            WriteOp::SetContent {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                content,
                restore: None,
                if_match,
            },
        )
        .await
    }

    /// Runs a write to a document that answers nothing but success; returns the document
    /// version it made, or the current one when it made none (a share, a move into the folder
    /// the document is in).
    pub(crate) async fn doc_write(
        &self,
        account: &Account,
        doc_id: &str,
        op: WriteOp,
    ) -> StoreResult<u64> {
        match self.engine.write(op).await?.versioned() {
            (Outcome::Done, Some(version)) => Ok(version),
            (Outcome::Done, None) => self.doc_version(account, doc_id).await,
            (other, _) => Err(unexpected(&other)),
        }
    }

    /// A document's current version, as kept in memory (loaded if need be).
    pub async fn doc_version(&self, account: &Account, doc_id: &str) -> StoreResult<u64> {
        Ok(self.doc(account, doc_id).await?.read().doc_version)
    }

    /// Creates an empty document in the given folder of the account, or its first folder.
    pub async fn create_doc(
        &self,
        account: &Account,
        title: &str,
        folder_id: Option<&str>,
    ) -> StoreResult<String> {
        check_title(title)?;
        created(
            self.engine
                .write(WriteOp::CreateDoc {
                    account_id: account.id.clone(),
                    title: title.to_owned(),
                    folder_id: folder_id.map(str::to_owned),
                })
                .await?,
        )
    }

    /// Renames a document; returns the version it made.
    pub async fn change_doc_title(
        &self,
        account: &Account,
        doc_id: &str,
        title: &str,
    ) -> StoreResult<u64> {
        check_title(title)?;
        self.doc_write(
            account,
            doc_id,
            WriteOp::RenameDoc {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                title: title.to_owned(),
            },
        )
        .await
    }

    /// Removes every object of a document, keeping the document; returns the version it made.
    pub async fn empty_doc(&self, account: &Account, doc_id: &str) -> StoreResult<u64> {
        self.doc_write(
            account,
            doc_id,
            WriteOp::EmptyDoc {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
            },
        )
        .await
    }

    /// Copies a document and its content under a new title. The copy belongs to the caller: in
    /// the original's folder when the caller owns it, else in the caller's first folder.
    pub async fn clone_doc(
        &self,
        account: &Account,
        doc_id: &str,
        title: &str,
    ) -> StoreResult<String> {
        check_title(title)?;
        created(
            self.engine
                .write(WriteOp::CloneDoc {
                    account_id: account.id.clone(),
                    doc_id: doc_id.to_owned(),
                    title: title.to_owned(),
                })
                .await?,
        )
    }

    /// Shares a document with the account that has this e-mail address (no version: returns
    /// the current one). Sharing with the owner or with an account that already has it
    /// changes nothing.
    pub async fn add_collaborator(
        &self,
        account: &Account,
        doc_id: &str,
        email: &str,
    ) -> StoreResult<u64> {
        check_email_length(email)?;
        self.doc_write(
            account,
            doc_id,
            WriteOp::Share {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                email: email.to_owned(),
            },
        )
        .await
    }

    /// Deletes a document and all its content. Only its owner may.
    pub async fn delete_doc(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.done(WriteOp::DeleteDoc {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
        })
        .await
    }

    /// Moves a document into another of the account's folders; returns the version it made.
    /// Only its owner may; moving it into the folder it is in changes nothing (and returns the
    /// current version).
    pub async fn move_doc(
        &self,
        account: &Account,
        doc_id: &str,
        folder_id: &str,
    ) -> StoreResult<u64> {
        self.doc_write(
            account,
            doc_id,
            WriteOp::MoveDoc {
                account_id: account.id.clone(),
                doc_id: doc_id.to_owned(),
                folder_id: folder_id.to_owned(),
            },
        )
        .await
    }

    /// The account's folders with the documents it owns in each.
    pub async fn list_folders(&self, account: &Account) -> StoreResult<FolderList> {
        self.engine.list_folders(account.id.clone()).await
    }

    /// Adds a folder to the account; returns its id.
    pub async fn create_folder(&self, account: &Account, title: &str) -> StoreResult<String> {
        check_title(title)?;
        created(
            self.engine
                .write(WriteOp::CreateFolder {
                    account_id: account.id.clone(),
                    title: title.to_owned(),
                })
                .await?,
        )
    }

    /// Renames one of the account's folders.
    pub async fn change_folder_title(
        &self,
        account: &Account,
        folder_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        check_title(title)?;
        self.done(WriteOp::RenameFolder {
            account_id: account.id.clone(),
            folder_id: folder_id.to_owned(),
            title: title.to_owned(),
        })
        .await
    }

    /// Deletes one of the account's folders and every document in it. The last folder stays:
    /// an account always has one to create documents in.
    pub async fn delete_folder(&self, account: &Account, folder_id: &str) -> StoreResult<()> {
        self.done(WriteOp::DeleteFolder {
            account_id: account.id.clone(),
            folder_id: folder_id.to_owned(),
        })
        .await
    }

    /// Runs a write that answers nothing but success.
    async fn done(&self, op: WriteOp) -> StoreResult<()> {
        match self.engine.write(op).await?.versioned() {
            (Outcome::Done, _) => Ok(()),
            (other, _) => Err(unexpected(&other)),
        }
    }

    /// About how many bytes the document cache holds.
    pub fn cached_bytes(&self) -> usize {
        self.kept.docs.used()
    }

    /// What the store counts (shared: register it once, it counts on).
    pub fn metrics(&self) -> &StoreMetrics {
        &self.kept.metrics
    }

    /// Whether the store can serve: the database answers a read, its schema is this build's,
    /// and the last write did not find the disk full.
    pub async fn ready(&self) -> Result<(), NotReady> {
        if self.kept.disk_full.load(Ordering::Relaxed) {
            return Err(NotReady::DiskFull);
        }
        match self.engine.schema_version().await {
            Ok(version) if version.found == version.known => Ok(()),
            Ok(version) => Err(NotReady::Schema(version)),
            Err(e) => Err(NotReady::Database(e)),
        }
    }
}

/// The id a creating write answered.
fn created(outcome: Outcome) -> StoreResult<String> {
    match outcome.versioned().0 {
        Outcome::Created(id) => Ok(id),
        other => Err(unexpected(&other)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::change::DocEvent;
    use super::*;

    /// A store on a new data dir, with the default account.
    async fn store() -> (tempfile::TempDir, Store, Account) {
        let dir = tempfile::tempdir().unwrap();
        let at = Location::DataDir(dir.path().to_owned());
        let key = initialise(&at, &[]).await.unwrap().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let me = store.authenticate(&key).await.unwrap().unwrap();
        (dir, store, me)
    }

    fn props(value: serde_json::Value) -> Props {
        value.as_object().unwrap().clone()
    }

    #[tokio::test]
    async fn each_commit_reports_what_it_changed_in_commit_order() {
        let (_dir, store, me) = store().await;
        let doc = store.create_doc(&me, "Watched", None).await.unwrap();
        let mut commits = store.commits();
        let obj = store
            .create_object(&me, &doc, "label", &props(json!({"text": "a"})))
            .await
            .unwrap()
            .0;
        store
            .update_object(&me, &doc, &obj, props(json!({"text": "b"})), None)
            .await
            .unwrap();
        store.change_doc_title(&me, &doc, "Renamed").await.unwrap();
        store.delete_object(&me, &doc, &obj, None).await.unwrap();

        let created = commits.recv().await.unwrap();
        assert_eq!(created.docs[0].doc_id, doc);
        assert_eq!(created.docs[0].changed[0].0, obj);
        let updated = commits.recv().await.unwrap();
        let (id, object) = &updated.docs[0].changed[0];
        assert_eq!(id, &obj);
        assert!(object.data().contains(r#""text":"b""#), "{}", object.data());
        let retitled = commits.recv().await.unwrap();
        assert_eq!(retitled.docs[0].event, Some(DocEvent::Retitled));
        let deleted = commits.recv().await.unwrap();
        assert_eq!(deleted.docs[0].deleted, [obj]);
        assert!(deleted.docs[0].last_change.is_some());
    }

    #[tokio::test]
    async fn a_plan_made_before_another_write_does_not_commit() {
        let (_dir, store, me) = store().await;
        let doc = store.create_doc(&me, "Raced", None).await.unwrap();
        let a = store
            .create_object(&me, &doc, "label", &props(json!({"meta": {"k": 1}})))
            .await
            .unwrap()
            .0;
        let update = Arc::new(ObjectUpdate::Matching {
            selector: rules::parse_selector(r#"["k","eq",1]"#).unwrap(),
            props: props(json!({"text": "matched"})),
            if_versions: None,
        });
        let cached = store.doc(&me, &doc).await.unwrap();
        let stale = plan_now(&cached, &update);
        // Another write makes `b` match too, after the plan was made.
        let b = store
            .create_object(&me, &doc, "label", &props(json!({"meta": {"k": 1}})))
            .await
            .unwrap()
            .0;
        let answer = store.write_update(&me, &doc, &update, Some(stale)).await;
        assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
        let updated = store
            .selector_update(
                &me,
                &doc,
                rules::parse_selector(r#"["k","eq",1]"#).unwrap(),
                props(json!({"text": "matched"})),
                None,
            )
            .await
            .unwrap()
            .0;
        assert_eq!(updated, [a, b], "planned again on the document as it is");
    }

    /// A plan of `update` made now from the cached document, as a request's own task makes it.
    fn plan_now(cached: &Arc<CachedDoc>, update: &ObjectUpdate) -> Plan {
        let state = cached.read();
        let (objects, before) = plan::plan_cached(update, &state.objects).unwrap();
        Plan {
            version: state.version,
            objects,
            before,
            doc_len: state.objects.len(),
        }
    }

    #[tokio::test]
    async fn a_conditional_plan_made_from_memory_before_another_write_is_decided_by_the_writer() {
        let (_dir, store, me) = store().await;
        let doc = store.create_doc(&me, "Raced", None).await.unwrap();
        let mut ids = Vec::new();
        for n in 0..20 {
            let text = props(json!({ "text": n.to_string() }));
            ids.push(
                store
                    .create_object(&me, &doc, "label", &text)
                    .await
                    .unwrap(),
            );
        }
        let objects: BTreeMap<String, Props> = ids
            .iter()
            .map(|(id, _)| (id.clone(), props(json!({"text": "bulk"}))))
            .collect();
        let read: BTreeMap<String, u64> = ids.iter().cloned().collect();
        let update = Arc::new(ObjectUpdate::Each {
            objects: objects.clone(),
            labelled: true,
            if_versions: read
                .iter()
                .map(|(id, v)| (id.clone(), VersionCondition::OneOf(vec![*v])))
                .collect(),
        });
        // The plan is made while the versions hold in memory ...
        let cached = store.doc(&me, &doc).await.unwrap();
        let stale = plan_now(&cached, &update);
        // ... then another write changes one of the objects.
        let (changed, _) = &ids[7];
        let theirs = store
            .update_object(&me, &doc, changed, props(json!({"text": "theirs"})), None)
            .await
            .unwrap();
        let answer = store.write_update(&me, &doc, &update, Some(stale)).await;
        assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
        let refused = store.bulk_update(&me, &doc, objects, read).await;
        let Err(StoreError::PreconditionFailed(failed)) = refused else {
            panic!("refused: {refused:?}");
        };
        assert_eq!(failed.document_version, theirs);
        let listed = failed.objects.as_ref().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(&listed[0].0, changed);
        let kept = store.object(&me, &doc, changed).await.unwrap();
        assert!(kept.data().contains("theirs"), "nothing written");
        assert_eq!(kept.version(), theirs);
    }

    #[tokio::test]
    async fn another_processs_commits_are_seen_at_once() {
        let (dir, store, me) = store().await;
        let doc = store.create_doc(&me, "Shared dir", None).await.unwrap();
        let obj = store
            .create_object(&me, &doc, "label", &props(json!({"text": "mine"})))
            .await
            .unwrap()
            .0;
        assert!(store.object(&me, &doc, &obj).await.is_ok(), "now cached");

        // Another store on the same database stands for another process.
        let at = Location::DataDir(dir.path().to_owned());
        let key = rotate_key(&at, DEFAULT_EMAIL).await.unwrap();
        let other = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let them = other.authenticate(&key).await.unwrap().unwrap();
        other
            .update_object(&them, &doc, &obj, props(json!({"text": "theirs"})), None)
            .await
            .unwrap();

        assert!(
            store.authenticate("an old key").await.unwrap().is_none(),
            "nothing known"
        );
        assert_eq!(
            store.authenticate(&key).await.unwrap(),
            Some(me.clone()),
            "the key made elsewhere works"
        );
        let object = store.object(&me, &doc, &obj).await.unwrap();
        assert!(object.data().contains("theirs"), "{}", object.data());
    }
}
