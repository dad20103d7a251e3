//! The PostgreSQL engine: the store on a database server, for a team, with several instances
//! serving one database as one server.
//!
//! - **Connections**: a pool (`--db-pool`, deadpool-postgres) for reads, the writer and the
//!   freshness checks, each with a cache of prepared statements, plus one connection that
//!   listens for the other instances' commit reports. A database that cannot be reached
//!   answers [`StoreError::Unavailable`] within the connect timeout; connections are made again
//!   as soon as it is back.
//! - **Writes**: one writer task per instance commits queued requests together (see
//!   [`writer`]); every write transaction bumps the `generation` row first, whose lock orders
//!   the write transactions of all instances.
//! - **Several instances**: commit reports travel between instances through `LISTEN/NOTIFY`
//!   (see [`notify`]); each instance applies every instance's commits to its cache in commit
//!   order (see [`sequence`]), reading only the changed objects, and a request answered from
//!   memory first checks the counter and waits until the commits up to it are applied (see
//!   [`freshness`]), so a commit by another instance is seen at once.
//! - **Schema**: versioned migrations under an advisory lock (see [`schema`]).
//!
//! Durability is PostgreSQL's: a request is answered after its transaction committed.

mod accounts;
mod docs;
mod embeds;
mod folders;
mod freshness;
mod history;
pub(crate) mod import;
mod notify;
mod objects;
mod schema;
mod sequence;
mod sql;
mod statements;
mod tls;
mod writer;

pub use self::schema::migrations;

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use deadpool_postgres::{
    Manager, ManagerConfig, Pool, RecyclingMethod, Runtime, Timeouts, Transaction,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use self::freshness::{Freshness, read_generation};
use self::sequence::Sequence;
use self::writer::Around;
use super::cache::LoadedDoc;
use super::embeds::StoredEmbed;
use super::embeds::read as embed_reads;
use super::engine::PoolStatus;
use super::engine::{Engine, SchemaVersion};
use super::error::{StoreError, StoreResult};
use super::history::read as history_reads;
use super::history::{Objects, PageQuery};
use super::keys::{Account, KeyHash};
use super::observer::CommitObserver;
use super::writer::{self as write_path, Job};
use super::writer::{Queue, queue, request};
use diagtui_model::history::{HistoryPage, VersionDetails};
use diagtui_model::{DocDetails, DocSummary, FolderList};

/// How long connecting to the database may take before the request answers 503.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a request waits for a pooled connection before it answers 503.
const WAIT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the database is and how to use it.
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`, with `sslmode` and other settings as
    /// query parameters.
    pub url: String,
    /// The most pooled connections.
    pub pool_size: usize,
}

/// The PostgreSQL engine.
pub struct PgEngine {
    pool: Pool,
    writer: mpsc::Sender<Job>,
    freshness: Arc<Freshness>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for PgEngine {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// A pool of connections to the database, which is brought up to this build's schema.
pub async fn connect(options: &PgOptions) -> StoreResult<(Pool, tokio_postgres::Config)> {
    let target = tls::parse(&options.url)?;
    let mut config = target.config;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.application_name("diagtui");
    let tls = tls::connector(&target.tls)?;
    let manager = Manager::from_config(
        config.clone(),
        tls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let pool = Pool::builder(manager)
        .max_size(options.pool_size.max(2))
        .runtime(Runtime::Tokio1)
        .timeouts(Timeouts {
            wait: Some(WAIT_TIMEOUT),
            create: Some(CONNECT_TIMEOUT),
            recycle: Some(CONNECT_TIMEOUT),
        })
        .build()
        .map_err(|e| StoreError::Internal(format!("the connection pool: {e}")))?;
    let mut client = pool.get().await?;
    schema::migrate(&mut client).await?;
    Ok((pool, config))
}

impl PgEngine {
    /// Connects to the database (migrating it if needed), starts the writer, the freshness
    /// checker and the listener for other instances' reports, which tell `observer`.
    pub async fn open(
        options: &PgOptions,
        observer: Arc<dyn CommitObserver>,
    ) -> StoreResult<PgEngine> {
        let (pool, config) = connect(options).await?;
        let instance = diagtui_model::ids::new_uuid();
        let tls = tls::connector(&tls::parse(&options.url)?.tls)?;
        // Listening first: every commit after the counter read is then reported.
        let subscription = notify::subscribe(&config, &tls).await?;
        let generation = read_generation(&pool.get().await?).await?;
        let sequence = Arc::new(Sequence::new(generation));
        let freshness = Arc::new(Freshness::new(Arc::clone(&sequence)));
        let listening = notify::Listening {
            config,
            tls,
            pool: pool.clone(),
            instance: instance.clone(),
            sequence: Arc::clone(&sequence),
            observer: Arc::clone(&observer),
        };
        let tasks = vec![
            tokio::spawn(Arc::clone(&freshness).run(pool.clone(), Arc::clone(&observer))),
            tokio::spawn(notify::listen(subscription, listening)),
        ];
        let around = Around {
            sequence: Some(sequence),
            observer: Some(observer),
            instance,
            serial: AtomicU64::new(0),
        };
        let writer = writer::spawn(pool.clone(), around);
        Ok(PgEngine {
            pool,
            writer,
            freshness,
            tasks,
        })
    }
}

impl PgEngine {
    /// The pool's connections in use and requests waiting for one.
    pub fn pool_status(&self) -> PoolStatus {
        let status = self.pool.status();
        PoolStatus {
            in_use: status.size.saturating_sub(status.available),
            waiting: status.waiting,
        }
    }
}

/// Runs a read (`$read`, an expression awaiting on the statements `$r`) in one read-only
/// transaction that sees one snapshot of the database throughout.
macro_rules! in_snapshot {
    ($self:ident, $r:ident => $read:expr) => {{
        let mut client = $self.pool.get().await?;
        let tx = snapshot(&mut client).await?;
        let $r = statements::Writing::new(&tx, "");
        let answer = $read.await?;
        tx.commit().await?;
        Ok(answer)
    }};
}

impl Engine for PgEngine {
    async fn check_fresh(&self) -> StoreResult<()> {
        self.freshness.check().await
    }

    async fn account_by_key(&self, hash: KeyHash) -> StoreResult<Option<Account>> {
        accounts::account_by_key_hash(&self.pool.get().await?, &hash).await
    }

    async fn load_doc(&self, doc_id: String) -> StoreResult<Option<LoadedDoc>> {
        let mut client = self.pool.get().await?;
        let tx = snapshot(&mut client).await?;
        let Some((owner_id, collaborators)) = docs::access(&tx, &doc_id).await? else {
            return Ok(None);
        };
        let objects = objects::load_objects(&tx, &doc_id, None).await?;
        let doc_version = docs::doc_version(&tx, &doc_id).await?;
        tx.commit().await?;
        Ok(Some(LoadedDoc {
            owner_id,
            collaborators,
            objects,
            doc_version,
        }))
    }

    async fn doc_details(&self, account_id: String, doc_id: String) -> StoreResult<DocDetails> {
        docs::doc_details(&self.pool.get().await?, &account_id, &doc_id).await
    }

    async fn list_docs(&self, account_id: String) -> StoreResult<Vec<DocSummary>> {
        docs::list_docs(&self.pool.get().await?, &account_id).await
    }

    async fn list_folders(&self, account_id: String) -> StoreResult<FolderList> {
        let mut client = self.pool.get().await?;
        let tx = snapshot(&mut client).await?;
        let list = folders::list_folders(&tx, &account_id).await?;
        tx.commit().await?;
        Ok(list)
    }

    async fn history_page(&self, doc_id: String, query: PageQuery) -> StoreResult<HistoryPage> {
        in_snapshot!(self, r => history_reads::page(&r, &doc_id, query))
    }

    async fn history_version(&self, doc_id: String, version: u64) -> StoreResult<VersionDetails> {
        in_snapshot!(self, r => history_reads::details(&r, &doc_id, version))
    }

    async fn history_content(&self, doc_id: String, version: u64) -> StoreResult<(Objects, u64)> {
        in_snapshot!(self, r => history_reads::content_at(&r, &doc_id, version))
    }

    async fn embeds(&self, account_id: String, doc_id: String) -> StoreResult<Vec<StoredEmbed>> {
        in_snapshot!(self, r => embed_reads::list(&r, &account_id, &doc_id))
    }

    async fn static_embed(&self, id: String) -> StoreResult<Option<(StoredEmbed, String)>> {
        in_snapshot!(self, r => embed_reads::static_embed(&r, &id))
    }

    async fn live_owner(&self, doc_id: String, key: String) -> StoreResult<Option<String>> {
        in_snapshot!(self, r => embed_reads::live_owner(&r, &doc_id, &key))
    }

    async fn write(&self, job: Job) -> StoreResult<()> {
        queue(&self.writer, job).await
    }

    async fn schema_version(&self) -> StoreResult<SchemaVersion> {
        let client = self.pool.get().await?;
        Ok(SchemaVersion {
            found: schema::read_version(&client).await?.into(),
            known: schema::VERSION.into(),
        })
    }
}

/// A read-only transaction that sees one snapshot of the database throughout.
async fn snapshot(client: &mut deadpool_postgres::Client) -> StoreResult<Transaction<'_>> {
    Ok(client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?)
}

/// Runs one write request on a connection of its own, outside a running store (`account
/// create`, setting up a database). Running stores notice it as another instance's commit.
pub async fn write_once<W: Queue>(options: &PgOptions, op: W) -> StoreResult<W::Answer> {
    let (pool, _) = connect(options).await?;
    let around = Around {
        sequence: None,
        observer: None,
        instance: diagtui_model::ids::new_uuid(),
        serial: AtomicU64::new(0),
    };
    let (job, answer) = request(op);
    let mut jobs = [job];
    let done = writer::run(&pool, &mut jobs, &around).await;
    write_path::answer(&mut jobs, done.results);
    answer.wait().await
}

/// The account a key belongs to, read on a connection of its own, outside a running store.
pub async fn account_by_key_once(options: &PgOptions, key: &str) -> StoreResult<Option<Account>> {
    let (pool, _) = connect(options).await?;
    accounts::account_by_key_hash(&pool.get().await?, &super::keys::hash_key(key)).await
}
