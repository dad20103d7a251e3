//! Every table of a diagtui database, as `diagtui migrate` copies them from a data dir
//! (see [`migrate`](crate::migrate)) into PostgreSQL (see
//! [`import`](crate::postgres::import)): what both sides of the copy share.

use std::fmt;

/// A table copied: its name, its columns, and the order rows are read in. Values travel as
/// text (null where the column is), read as text from SQLite and cast to each column's
/// PostgreSQL type.
pub struct Table {
    /// The table's name, the same in both engines.
    pub name: &'static str,
    /// The columns copied.
    pub columns: &'static [&'static str],
    /// Each column's PostgreSQL type, in the same order.
    pub types: &'static [&'static str],
    /// The order rows are read and written in (folders keep their order of creation).
    pub order: &'static str,
}

/// Every table, parents before children.
pub const TABLES: [Table; 10] = [
    Table {
        name: "accounts",
        columns: &["id", "email", "key_hash", "created"],
        types: &[TEXT; 4],
        order: "id",
    },
    Table {
        name: "folders",
        columns: &["id", "account_id", "title"],
        types: &[TEXT; 3],
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
        types: &[TEXT; 6],
        order: "id",
    },
    Table {
        name: "collaborators",
        columns: &["doc_id", "account_id"],
        types: &[TEXT; 2],
        order: "doc_id, account_id",
    },
    Table {
        name: "objects",
        columns: &["doc_id", "obj_id", "type", "data", "version"],
        types: &[TEXT, TEXT, TEXT, TEXT, BIGINT],
        order: "doc_id, obj_id",
    },
    Table {
        name: "history_heads",
        columns: &["doc_id", "head", "pending", "snapshot_len", "num"],
        types: &[TEXT, BIGINT, BIGINT, BIGINT, BIGINT],
        order: "doc_id",
    },
    Table {
        name: "history_versions",
        columns: &[
            "id",
            "at",
            "account_id",
            "kind",
            "changed",
            "detail",
            "snapshot",
            "obj_id",
            "type",
            "data",
        ],
        types: &[
            BIGINT, TEXT, TEXT, TEXT, BIGINT, TEXT, "boolean", TEXT, TEXT, TEXT,
        ],
        order: "id",
    },
    Table {
        name: "history_changes",
        columns: &["doc_id", "version", "obj_id", "after_type", "after_data"],
        types: &[TEXT, BIGINT, TEXT, TEXT, TEXT],
        order: "doc_id, version, obj_id",
    },
    Table {
        name: "history_snapshots",
        columns: &["doc_id", "version", "obj_id", "type", "data"],
        types: &[TEXT, BIGINT, TEXT, TEXT, TEXT],
        order: "doc_id, version, obj_id",
    },
    Table {
        name: "embeds",
        columns: &["id", "doc_id", "kind", "title", "key", "content", "created"],
        types: &[TEXT; 7],
        order: "doc_id, id",
    },
];

/// The type of the text columns.
const TEXT: &str = "text";
/// The type of the whole-number columns.
const BIGINT: &str = "bigint";

/// A table's rows, column by column, as text (`None` for null).
pub type Columns = Vec<Vec<Option<String>>>;

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
