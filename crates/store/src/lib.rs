//! The storage behind the local server. It knows nothing of HTTP: each operation takes the
//! acting account and returns model types, answers ready to send, or a [`StoreError`].
//!
//! Layers, top down:
//! - [`Store`] (`store/`): what handlers call. It checks each request against the [`rules`] on the
//!   request's own task, answers reads from the documents and keys it keeps in memory
//!   ([`cache`], [`keys`]: no thread hop for a read served from memory), plans object updates
//!   from a cached document ahead of the writer ([`plan`]), and hands each commit's report
//!   ([`change`]) to whoever listens ([`Store::commits`]).
//! - An [`Engine`]: reads what is not in memory and commits writes, telling the store of each
//!   commit in commit order and of changes made by other processes. Two engines:
//!   [`SqliteEngine`] (one file in the data dir, the default) and `PgEngine` (a PostgreSQL
//!   database shared by several instances, see `postgres`, behind the default feature
//!   `postgres`); a server holds either as an [`AnyEngine`] and its handlers do not know which.
//! - The write path, one for both engines (`writer`): each write request is a type of its own
//!   with its answer's type and its handler (`writer/ops/`, a file per area); an engine's
//!   writer takes the requests queued meanwhile and runs them in one transaction that bumps the
//!   `generation` counter, each under a savepoint of its own (a request that fails or panics
//!   fails alone), then commits and tells the store of each request's report, in commit
//!   order, before answering. The engine supplies the primitives: its transaction, the
//!   statements of each request, and where its commits take their turn. SQLite runs the path
//!   on one writer thread; PostgreSQL as a task, its statements pipelined.
//!
//! [`Store::commits`] carries this instance's commits and, on PostgreSQL, the other instances'
//! (their reports arrive through `LISTEN/NOTIFY` and are applied to the cache in commit order).

mod any;
mod batch;
mod cache;
pub mod change;
pub mod condition;
pub mod content;
pub mod embeds;
mod engine;
mod error;
mod failed;
mod generation;
pub mod history;
mod keys;
pub mod metrics;
#[cfg(feature = "postgres")]
pub mod migrate;
mod object;
mod observer;
mod plan;
#[cfg(feature = "postgres")]
mod postgres;
mod raw;
pub mod rules;
mod sqlite;
mod store;
#[cfg(feature = "postgres")]
mod tables;
mod write;
mod writer;

pub use self::any::{AnyEngine, DEFAULT_POOL, Location};
pub use self::engine::{Engine, NotReady, PoolStatus, SchemaVersion};
pub use self::error::{StoreError, StoreResult};
pub use self::keys::{Account, DEFAULT_EMAIL};
pub use self::metrics::StoreMetrics;
pub use self::object::StoredObject;
#[cfg(feature = "postgres")]
pub use self::postgres::{PgEngine, PgOptions, migrations as pg_migrations};
pub use self::sqlite::{DB_FILE, SqliteEngine};
pub use self::store::{
    ContentRead, DEFAULT_CACHE_BYTES, Read, Sample, Store, StoreOptions, account_by_key,
    create_account, initialise, rotate_key,
};
