//! Every table of a diagtui database, as `diagtui migrate` copies them from a data dir
//! (see [`migrate`](crate::migrate)) into PostgreSQL (see
//! [`import`](crate::postgres::import)): what both sides of the copy share.

use std::fmt;

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
