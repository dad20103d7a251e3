//! Moving a data dir into PostgreSQL (`diagtui migrate`): every table of the SQLite database
//! (accounts with their key hashes, folders in their order, documents, sharing, objects, the
//! documents' histories, their embeds) is
//! read whole, then written in one PostgreSQL transaction, whose counts are checked against
//! the copied rows before it commits. A database that holds documents is refused unless told
//! to replace what it holds.

use std::path::Path;

use super::error::{StoreError, StoreResult};
use super::postgres::{PgOptions, import};
use super::sqlite::open_migrated;
use super::tables::{Columns, TABLES};

pub use super::tables::Counts;

/// Copies the data dir's database into the PostgreSQL database; `force` replaces what the
/// database holds. Returns the counts, which match in both.
pub async fn copy(data_dir: &Path, target: &PgOptions, force: bool) -> StoreResult<Counts> {
    if !data_dir.join(super::DB_FILE).exists() {
        return Err(StoreError::Internal(format!(
            "{} holds no diagtui database",
            data_dir.display()
        )));
    }
    let dir = data_dir.to_owned();
    let tables = tokio::task::spawn_blocking(move || read_all(&dir))
        .await
        .map_err(|e| StoreError::Internal(format!("reading the data dir failed: {e}")))??;
    import::write_all(target, &tables, force).await
}

/// Every table's rows, read in one transaction.
fn read_all(data_dir: &Path) -> StoreResult<Vec<Columns>> {
    let (_, mut conn) = open_migrated(data_dir)?;
    let tx = conn.transaction()?;
    let mut all = Vec::with_capacity(TABLES.len());
    for table in &TABLES {
        let as_text: Vec<String> = table
            .columns
            .iter()
            .map(|column| format!("CAST({column} AS TEXT)"))
            .collect();
        let sql = format!(
            "SELECT {} FROM {} ORDER BY {}",
            as_text.join(", "),
            table.name,
            table.order
        );
        let mut columns: Columns = vec![Vec::new(); table.columns.len()];
        let mut statement = tx.prepare(&sql)?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            for (at, column) in columns.iter_mut().enumerate() {
                column.push(row.get(at)?);
            }
        }
        all.push(columns);
    }
    Ok(all)
}
