//! Statements run through each connection's cache of prepared statements, and the mapping of
//! PostgreSQL's failures to the store's: a database that cannot be reached is `Unavailable`
//! (503, worth trying again), anything else `Internal`.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;

use crate::error::{StoreError, StoreResult};
use crate::history::Head;

/// Parameters of a statement.
pub type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// The rows a statement answers.
pub async fn query(c: &impl GenericClient, sql: &str, params: Params<'_>) -> StoreResult<Vec<Row>> {
    let statement = c.prepare_cached(sql).await?;
    Ok(c.query(&statement, params).await?)
}

/// The one row a statement answers, if any.
pub async fn query_opt(
    c: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
) -> StoreResult<Option<Row>> {
    let statement = c.prepare_cached(sql).await?;
    Ok(c.query_opt(&statement, params).await?)
}

/// The one row a statement must answer.
pub async fn query_one(c: &impl GenericClient, sql: &str, params: Params<'_>) -> StoreResult<Row> {
    let statement = c.prepare_cached(sql).await?;
    Ok(c.query_one(&statement, params).await?)
}

/// Runs a statement; how many rows it changed.
pub async fn execute(c: &impl GenericClient, sql: &str, params: Params<'_>) -> StoreResult<u64> {
    let statement = c.prepare_cached(sql).await?;
    Ok(c.execute(&statement, params).await?)
}

/// Whether a failure means the database cannot be reached right now: the connection broke or
/// could not be made, or the server is shutting down, starting up or out of connections.
pub fn unreachable(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            code.code().starts_with("08")
                || [
                    SqlState::ADMIN_SHUTDOWN,
                    SqlState::CRASH_SHUTDOWN,
                    SqlState::CANNOT_CONNECT_NOW,
                    SqlState::TOO_MANY_CONNECTIONS,
                ]
                .contains(code)
        }
        None => {
            let text = e.to_string();
            // tokio-postgres tells these kinds only by their text.
            [
                "error communicating with the server",
                "error connecting to server",
                "timeout waiting for server",
                "error performing TLS handshake",
            ]
            .iter()
            .any(|kind| text.starts_with(kind))
        }
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        let detail = match (e.as_db_error(), std::error::Error::source(&e)) {
            (Some(db), _) => format!("postgres: {}: {}", db.code().code(), db.message()),
            (None, Some(cause)) => format!("postgres: {e}: {cause}"),
            (None, None) => format!("postgres: {e}"),
        };
        if e.code() == Some(&tokio_postgres::error::SqlState::DISK_FULL) {
            StoreError::DiskFull(detail)
        } else if unreachable(&e) {
            StoreError::Unavailable(detail)
        } else {
            StoreError::Internal(detail)
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        match e {
            deadpool_postgres::PoolError::Backend(e) => StoreError::from(e),
            other => StoreError::Unavailable(format!("postgres pool: {other}")),
        }
    }
}

/// Where a history stands, from a row's head, pending, snapshot length and number from `at`;
/// `None` when they are null (a row joined with no head).
pub(super) fn head_at(row: &Row, at: usize) -> Option<Head> {
    let number = |n: usize| row.get::<_, Option<i64>>(at + n).map(|v| v as u64);
    Some(Head {
        head: number(0)?,
        pending: number(1)?,
        snapshot_len: number(2)?,
        num: number(3)?,
    })
}
