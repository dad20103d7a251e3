//! The schema and its migrations, versioned by `PRAGMA user_version`.

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{StoreError, StoreResult};

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
    // 5: fewer bytes per version (see `history::KEY_SPAN`): each history has a number, and a
    // version's row is keyed by it and the version, in a rowid table, keeping the object it
    // changed when it changed one; changes keep the state after only (the state before is the
    // content one version back). A history's versions go with its head.
    "ALTER TABLE history_heads ADD COLUMN num INTEGER;
     UPDATE history_heads SET num =
         (SELECT count(*) FROM history_heads AS h WHERE h.doc_id <= history_heads.doc_id);
     CREATE UNIQUE INDEX history_heads_by_num ON history_heads (num);
     CREATE TABLE history_keyed_versions (
         id INTEGER PRIMARY KEY,
         at TEXT NOT NULL,
         account_id TEXT,
         kind TEXT NOT NULL,
         changed INTEGER NOT NULL,
         detail TEXT,
         snapshot INTEGER NOT NULL,
         obj_id TEXT,
         type TEXT,
         data TEXT
     );
     CREATE TEMP TABLE history_alone AS
         SELECT doc_id, version FROM history_changes GROUP BY doc_id, version
         HAVING count(*) = 1;
     INSERT INTO history_keyed_versions
         SELECT h.num * 1099511627776 + v.version, v.at, v.account_id, v.kind, v.changed,
                v.detail, v.snapshot, c.obj_id, c.after_type, c.after_data
         FROM history_versions v JOIN history_heads h ON h.doc_id = v.doc_id
         LEFT JOIN history_changes c ON c.doc_id = v.doc_id AND c.version = v.version
             AND (v.doc_id, v.version) IN (SELECT doc_id, version FROM history_alone);
     DELETE FROM history_changes
         WHERE (doc_id, version) IN (SELECT doc_id, version FROM history_alone);
     DROP TABLE history_alone;
     DROP TABLE history_versions;
     ALTER TABLE history_keyed_versions RENAME TO history_versions;
     CREATE INDEX history_versions_by_object ON history_versions (obj_id, id)
         WHERE obj_id IS NOT NULL;
     ALTER TABLE history_changes DROP COLUMN before_type;
     ALTER TABLE history_changes DROP COLUMN before_data;
     CREATE TRIGGER history_heads_gone AFTER DELETE ON history_heads BEGIN
         DELETE FROM history_versions WHERE id > old.num * 1099511627776
             AND id < (old.num + 1) * 1099511627776;
     END;",
    // 6: each object's version, the document version of the write that last created or
    // changed it (issue 33's conditional writes); rows written before are at 0.
    "ALTER TABLE objects ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
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

    /// The rows a query answers, each as text.
    fn rows(conn: &Connection, sql: &str) -> Vec<String> {
        let mut statement = conn.prepare(sql).unwrap();
        let columns = statement.column_count();
        statement
            .query_map([], |row| {
                let cells: Vec<String> = (0..columns)
                    .map(|at| match row.get_ref(at).unwrap() {
                        rusqlite::types::ValueRef::Null => "-".to_owned(),
                        rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                        value => value.as_str().unwrap().to_owned(),
                    })
                    .collect();
                Ok(cells.join(" "))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn histories_written_before_keyed_versions_are_carried_over() {
        let mut conn = Connection::open_in_memory().unwrap();
        for step in &MIGRATIONS[..4] {
            conn.execute_batch(step).unwrap();
        }
        conn.pragma_update(None, "user_version", 4).unwrap();
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             INSERT INTO history_heads VALUES ('d2', 3, 3, 0), ('d1', 2, 1, 1);
             INSERT INTO history_versions VALUES
                 ('d1', 1, 't1', NULL, 'started', 1, NULL, 1),
                 ('d1', 2, 't2', 'a', 'object-updated', 1, NULL, 0),
                 ('d2', 1, 't1', 'a', 'created', 0, NULL, 1),
                 ('d2', 2, 't2', 'a', 'object-created', 1, NULL, 0),
                 ('d2', 3, 't3', 'a', 'bulk-update', 2, NULL, 0);
             INSERT INTO history_changes VALUES
                 ('d1', 2, 'x', 'label', '{\"text\":\"a\"}', 'label', '{\"text\":\"b\"}'),
                 ('d2', 2, 'y', NULL, NULL, 'label', '{}'),
                 ('d2', 3, 'y', 'label', '{}', NULL, NULL),
                 ('d2', 3, 'z', NULL, NULL, 'area', '{}');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();

        // Numbered in id order; a version that changed one object keeps it in its row.
        assert_eq!(
            rows(&conn, "SELECT doc_id, num FROM history_heads ORDER BY num"),
            ["d1 1", "d2 2"]
        );
        let k = crate::history::KEY_SPAN as i64;
        assert_eq!(
            rows(&conn, "SELECT * FROM history_versions ORDER BY id"),
            [
                format!("{} t1 - started 1 - 1 - - -", k + 1),
                format!(
                    "{} t2 a object-updated 1 - 0 x label {{\"text\":\"b\"}}",
                    k + 2
                ),
                format!("{} t1 a created 0 - 1 - - -", 2 * k + 1),
                format!("{} t2 a object-created 1 - 0 y label {{}}", 2 * k + 2),
                format!("{} t3 a bulk-update 2 - 0 - - -", 2 * k + 3),
            ]
        );
        assert_eq!(
            rows(
                &conn,
                "SELECT * FROM history_changes ORDER BY doc_id, version, obj_id"
            ),
            ["d2 3 y - -", "d2 3 z area {}"],
            "the changes of versions that changed several, after only"
        );

        // A history's versions go with its head.
        conn.execute("DELETE FROM history_heads WHERE doc_id = 'd2'", [])
            .unwrap();
        assert_eq!(
            rows(&conn, "SELECT id FROM history_versions ORDER BY id"),
            [(k + 1).to_string(), (k + 2).to_string()]
        );
    }

    #[test]
    fn a_new_history_takes_the_lowest_free_number_once_the_highest_is_taken() {
        use crate::history::sql::LOWEST_FREE_NUM;
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
        let lowest_free = |nums: &[i64]| -> Vec<String> {
            conn.execute("DELETE FROM history_heads", []).unwrap();
            for num in nums {
                conn.execute(
                    "INSERT INTO history_heads VALUES (?1, 1, 0, 0, ?2)",
                    rusqlite::params![num.to_string(), num],
                )
                .unwrap();
            }
            rows(&conn, LOWEST_FREE_NUM)
        };
        assert_eq!(lowest_free(&[]), ["1"]);
        assert_eq!(lowest_free(&[2, 3]), ["1"]);
        assert_eq!(lowest_free(&[1, 2, 4]), ["3"]);
        assert_eq!(lowest_free(&[1, 2, 3]), ["4"]);
    }
}
