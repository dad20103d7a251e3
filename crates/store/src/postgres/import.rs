//! Writing a data dir's tables into PostgreSQL for `diagtui migrate` (see
//! [`migrate`](crate::migrate)).

use super::freshness::bump_generation;
use super::notify::send_unreported;
use super::sql::{execute, query_one};
use super::{PgOptions, connect};
use crate::error::{StoreError, StoreResult};
use crate::tables::{Columns, Counts, TABLES};

/// Rows sent per statement.
const ROWS_PER_STATEMENT: usize = 5000;

/// Writes every table's rows in one transaction, checks the counts and commits. Refuses a
/// database that holds documents unless `force`, which empties it first.
pub async fn write_all(target: &PgOptions, tables: &[Columns], force: bool) -> StoreResult<Counts> {
    let (pool, _) = connect(target).await?;
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let generation = bump_generation(&tx).await?;
    // Running instances drop what they keep once this commits.
    send_unreported(&tx, generation).await?;
    let held: i64 = query_one(&tx, "SELECT COUNT(*) FROM documents", &[])
        .await?
        .get(0);
    let accounts: i64 = query_one(&tx, "SELECT COUNT(*) FROM accounts", &[])
        .await?
        .get(0);
    if (held > 0 || accounts > 0) && !force {
        return Err(StoreError::Internal(format!(
            "the database holds {accounts} accounts and {held} documents already; \
             --force replaces them with the data dir's"
        )));
    }
    for table in TABLES.iter().rev() {
        execute(&tx, &format!("DELETE FROM {}", table.name), &[]).await?;
    }
    let mut counts = Vec::with_capacity(TABLES.len());
    for (table, columns) in TABLES.iter().zip(tables) {
        let rows = columns.first().map_or(0, Vec::len);
        let arrays: Vec<String> = (1..=table.columns.len())
            .map(|at| format!("${at}::text[]"))
            .collect();
        let typed: Vec<String> = table
            .columns
            .iter()
            .zip(table.types)
            .map(|(column, kind)| format!("{column}::{kind}"))
            .collect();
        let sql = format!(
            "INSERT INTO {name} ({columns}) SELECT {typed} FROM unnest({arrays}) AS t({columns})",
            name = table.name,
            columns = table.columns.join(", "),
            typed = typed.join(", "),
            arrays = arrays.join(", ")
        );
        let mut start = 0;
        while start < rows {
            let end = (start + ROWS_PER_STATEMENT).min(rows);
            let chunks: Vec<&[Option<String>]> = columns.iter().map(|c| &c[start..end]).collect();
            let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = chunks
                .iter()
                .map(|c| c as &(dyn tokio_postgres::types::ToSql + Sync))
                .collect();
            execute(&tx, &sql, &params).await?;
            start = end;
        }
        let stored: i64 = query_one(&tx, &format!("SELECT COUNT(*) FROM {}", table.name), &[])
            .await?
            .get(0);
        if stored != rows as i64 {
            return Err(StoreError::Internal(format!(
                "{}: {rows} rows read but {stored} stored; nothing was copied",
                table.name
            )));
        }
        counts.push((table.name, rows));
    }
    tx.commit().await?;
    Ok(Counts(counts))
}
