//! Moving a data dir into PostgreSQL (`diagtui migrate`): every table of the SQLite database
//! (accounts with their key hashes, folders in their order, documents, sharing, objects) is
//! read whole, then written in one PostgreSQL transaction, whose counts are checked against
//! the copied rows before it commits. A database that holds documents is refused unless told
//! to replace what it holds.

use std::fmt;
use std::path::Path;

use super::postgres::{PgOptions, import};
use super::sqlite::open_migrated;
use super::{StoreError, StoreResult};

/// A table copied: its name, its columns (all text), and the order rows are read in.
pub struct Table {
    /// The table's name, the same in both engines.
    pub name: &'static str,
    /// The columns copied.
    pub columns: &'static [&'static str],
    /// The order rows are read and written in (folders keep their order of creation).
    pub order: &'static str,
}

/// Every table, parents before children.
pub const TABLES: [Table; 5] = [
    Table {
        name: "accounts",
        columns: &["id", "email", "key_hash", "created"],
        order: "id",
    },
    Table {
        name: "folders",
        columns: &["id", "account_id", "title"],
        order: "seq",
    },
    Table {
        name: "documents",
        columns: &[
            "id",
            "owner_id",
            "folder_id",
            "title",
            "created",
            "last_change",
        ],
        order: "id",
    },
    Table {
        name: "collaborators",
        columns: &["doc_id", "account_id"],
        order: "doc_id, account_id",
    },
    Table {
        name: "objects",
        columns: &["doc_id", "obj_id", "type", "data"],
        order: "doc_id, obj_id",
    },
];

/// A table's rows, column by column.
pub type Columns = Vec<Vec<String>>;

/// How many rows of each table were copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts(pub Vec<(&'static str, usize)>);

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(table, count)| format!("{count} {table}"))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

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
        let sql = format!(
            "SELECT {} FROM {} ORDER BY {}",
            table.columns.join(", "),
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
