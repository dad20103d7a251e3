//! The schema and its migrations, versioned by `PRAGMA user_version`.

use rusqlite::{Connection, TransactionBehavior};

use crate::{StoreError, StoreResult};

/// Each migration takes the schema from version `index` to `index + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, folders, documents, collaborators, one row per object.
    "CREATE TABLE accounts (
         id TEXT PRIMARY KEY,
         email TEXT NOT NULL UNIQUE COLLATE NOCASE,
         key_hash TEXT NOT NULL UNIQUE,
         created TEXT NOT NULL
     );
     CREATE TABLE folders (
         seq INTEGER PRIMARY KEY AUTOINCREMENT,
         id TEXT NOT NULL UNIQUE,
         account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         title TEXT NOT NULL
     );
     CREATE INDEX folders_by_account ON folders(account_id, seq);
     CREATE TABLE documents (
         id TEXT PRIMARY KEY,
         owner_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
         title TEXT NOT NULL,
         created TEXT NOT NULL,
         last_change TEXT NOT NULL
     );
     CREATE INDEX documents_by_owner ON documents(owner_id);
     CREATE INDEX documents_by_folder ON documents(folder_id);
     CREATE TABLE collaborators (
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         PRIMARY KEY (doc_id, account_id)
     ) WITHOUT ROWID;
     CREATE INDEX collaborators_by_account ON collaborators(account_id);
     CREATE TABLE objects (
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         obj_id TEXT NOT NULL,
         type TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (doc_id, obj_id)
     ) WITHOUT ROWID;",
    // 2: a counter every write transaction of diagtui bumps, so that a process that keeps
    // data in memory notices another process's commits (see `freshness`).
    "CREATE TABLE generation (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         n INTEGER NOT NULL
     );
     INSERT INTO generation (id, n) VALUES (1, 0);",
    // 3: every document's history (see `history`): where it stands, its versions, each
    // version's changed objects before and after, and snapshots of whole contents.
    "CREATE TABLE history_heads (
         doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
         head INTEGER NOT NULL,
         pending INTEGER NOT NULL,
         snapshot_len INTEGER NOT NULL
     ) WITHOUT ROWID;
     CREATE TABLE history_versions (
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version INTEGER NOT NULL,
         at TEXT NOT NULL,
         account_id TEXT,
         kind TEXT NOT NULL,
         changed INTEGER NOT NULL,
         detail TEXT,
         snapshot INTEGER NOT NULL,
         PRIMARY KEY (doc_id, version)
     ) WITHOUT ROWID;
     CREATE TABLE history_changes (
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version INTEGER NOT NULL,
         obj_id TEXT NOT NULL,
         before_type TEXT,
         before_data TEXT,
         after_type TEXT,
         after_data TEXT,
         PRIMARY KEY (doc_id, version, obj_id)
     ) WITHOUT ROWID;
     CREATE INDEX history_changes_by_object ON history_changes (doc_id, obj_id, version);
     CREATE TABLE history_snapshots (
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version INTEGER NOT NULL,
         obj_id TEXT NOT NULL,
         type TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (doc_id, version, obj_id)
     ) WITHOUT ROWID;",
    // 4: every document's embeds (see `embeds`): static ones with the content they froze, and
    // at most one live one, with its key.
    "CREATE TABLE embeds (
         id TEXT PRIMARY KEY,
         doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         kind TEXT NOT NULL CHECK (kind IN ('static', 'live')),
         title TEXT,
         key TEXT,
         content TEXT,
         created TEXT NOT NULL
     );
     CREATE INDEX embeds_by_doc ON embeds (doc_id, kind, created);
     CREATE UNIQUE INDEX embeds_one_live ON embeds (doc_id) WHERE kind = 'live';",
];

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// Brings the database up to [`VERSION`], one transaction per migration. Refuses a database
/// written by a newer build.
pub fn migrate(conn: &mut Connection) -> StoreResult<()> {
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if current > VERSION as i64 {
            return Err(StoreError::Internal(format!(
                "the database has schema version {current}, newer than this build's {VERSION}"
            )));
        }
        let Some(step) = MIGRATIONS.get(current as usize) else {
            return Ok(());
        };
        tx.execute_batch(step)?;
        tx.pragma_update(None, "user_version", current + 1)?;
        tx.commit()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrating_twice_leaves_the_current_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        migrate(&mut conn).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap();
        assert_eq!(version, VERSION as i64);
        conn.pragma_update(None, "user_version", VERSION as i64 + 1)
            .unwrap();
        assert!(migrate(&mut conn).is_err(), "a newer schema is refused");
    }
}
