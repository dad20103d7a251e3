//! The PostgreSQL schema and its migrations, versioned in the `diagtui_schema` table. Instances
//! that start at once on an empty database migrate once: each migration runs under a
//! transaction-scoped advisory lock, and the version is read again once the lock is held.

use deadpool_postgres::{Client, GenericClient};

use crate::error::{StoreError, StoreResult};

/// The advisory lock key migrations take (`diagtui` in ASCII).
const MIGRATION_LOCK: i64 = 0x0064_6961_6774_7569;

/// Each migration takes the schema from version `index` to `index + 1`. Text columns that hold
/// ids sort by bytes (`COLLATE "C"`), as the SQLite engine and the API's id order do.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, folders, documents, collaborators, one row per object, and the counter
    // every write transaction bumps (see `freshness`).
    r#"CREATE TABLE accounts (
         id TEXT COLLATE "C" PRIMARY KEY,
         email TEXT NOT NULL,
         key_hash TEXT COLLATE "C" NOT NULL UNIQUE,
         created TEXT NOT NULL
     );
     CREATE UNIQUE INDEX accounts_by_email ON accounts (lower(email));
     CREATE TABLE folders (
         seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         id TEXT COLLATE "C" NOT NULL UNIQUE,
         account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         title TEXT NOT NULL
     );
     CREATE INDEX folders_by_account ON folders (account_id, seq);
     CREATE TABLE documents (
         id TEXT COLLATE "C" PRIMARY KEY,
         owner_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         folder_id TEXT COLLATE "C" NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
         title TEXT NOT NULL,
         created TEXT NOT NULL,
         last_change TEXT NOT NULL
     );
     CREATE INDEX documents_by_owner ON documents (owner_id);
     CREATE INDEX documents_by_folder ON documents (folder_id);
     CREATE TABLE collaborators (
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
         PRIMARY KEY (doc_id, account_id)
     );
     CREATE INDEX collaborators_by_account ON collaborators (account_id);
     CREATE TABLE objects (
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         obj_id TEXT COLLATE "C" NOT NULL,
         type TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (doc_id, obj_id)
     );
     CREATE TABLE generation (
         id INTEGER PRIMARY KEY CHECK (id = 1),
         n BIGINT NOT NULL
     );
     INSERT INTO generation (id, n) VALUES (1, 0);"#,
    // 2: every document's history (see `history`): where it stands, its versions, each
    // version's changed objects before and after, and snapshots of whole contents.
    r#"CREATE TABLE history_heads (
         doc_id TEXT COLLATE "C" PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
         head BIGINT NOT NULL,
         pending BIGINT NOT NULL,
         snapshot_len BIGINT NOT NULL
     );
     CREATE TABLE history_versions (
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version BIGINT NOT NULL,
         at TEXT NOT NULL,
         account_id TEXT COLLATE "C",
         kind TEXT NOT NULL,
         changed BIGINT NOT NULL,
         detail TEXT,
         snapshot BOOLEAN NOT NULL,
         PRIMARY KEY (doc_id, version)
     );
     CREATE TABLE history_changes (
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version BIGINT NOT NULL,
         obj_id TEXT COLLATE "C" NOT NULL,
         before_type TEXT,
         before_data TEXT,
         after_type TEXT,
         after_data TEXT,
         PRIMARY KEY (doc_id, version, obj_id)
     );
     CREATE INDEX history_changes_by_object ON history_changes (doc_id, obj_id, version);
     CREATE TABLE history_snapshots (
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         version BIGINT NOT NULL,
         obj_id TEXT COLLATE "C" NOT NULL,
         type TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (doc_id, version, obj_id)
     );"#,
    // 3: every document's embeds (see `embeds`): static ones with the content they froze, and
    // at most one live one, with its key.
    r#"CREATE TABLE embeds (
         id TEXT COLLATE "C" PRIMARY KEY,
         doc_id TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
         kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('static', 'live')),
         title TEXT,
         key TEXT COLLATE "C",
         content TEXT,
         created TEXT NOT NULL
     );
     CREATE INDEX embeds_by_doc ON embeds (doc_id, kind, created);
     CREATE UNIQUE INDEX embeds_one_live ON embeds (doc_id) WHERE kind = 'live';"#,
    // 4: fewer bytes per version (see `history::KEY_SPAN`; the same tables as SQLite's, so
    // that both engines share the history's statements): each history has a number, and a
    // version's row is keyed by it and the version, keeping the object it changed when it
    // changed one; changes keep the state after only. A history's versions go with its head.
    r#"ALTER TABLE history_heads ADD COLUMN num BIGINT;
     UPDATE history_heads h SET num = n.num
         FROM (SELECT doc_id, row_number() OVER (ORDER BY doc_id) AS num FROM history_heads) n
         WHERE n.doc_id = h.doc_id;
     CREATE UNIQUE INDEX history_heads_by_num ON history_heads (num);
     CREATE TABLE history_keyed_versions (
         id BIGINT PRIMARY KEY,
         at TEXT NOT NULL,
         account_id TEXT COLLATE "C",
         kind TEXT NOT NULL,
         changed BIGINT NOT NULL,
         detail TEXT,
         snapshot BOOLEAN NOT NULL,
         obj_id TEXT COLLATE "C",
         type TEXT,
         data TEXT
     );
     CREATE TEMP TABLE history_alone ON COMMIT DROP AS
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
     DROP TABLE history_versions;
     ALTER TABLE history_keyed_versions RENAME TO history_versions;
     CREATE INDEX history_versions_by_object ON history_versions (obj_id, id)
         WHERE obj_id IS NOT NULL;
     ALTER TABLE history_changes DROP COLUMN before_type, DROP COLUMN before_data;
     CREATE FUNCTION history_heads_gone() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
         DELETE FROM history_versions WHERE id > OLD.num * 1099511627776
             AND id < (OLD.num + 1) * 1099511627776;
         RETURN OLD;
     END $$;
     CREATE TRIGGER history_heads_gone AFTER DELETE ON history_heads
         FOR EACH ROW EXECUTE FUNCTION history_heads_gone();"#,
    // 5: each object's version, the document version of the write that last created or
    // changed it (issue 33's conditional writes); rows written before are at 0 (a constant
    // default: no table rewrite).
    "ALTER TABLE objects ADD COLUMN version BIGINT NOT NULL DEFAULT 0;",
];

/// The schema version this build writes.
pub const VERSION: i32 = MIGRATIONS.len() as i32;

/// The migrations, in order (the first takes an empty database to version 1): for tests that
/// build a database as an older build left it.
pub fn migrations() -> &'static [&'static str] {
    MIGRATIONS
}

/// The schema version of the database; 0 when it has none.
async fn current_version(conn: &impl GenericClient) -> StoreResult<i32> {
    conn.batch_execute("CREATE TABLE IF NOT EXISTS diagtui_schema (version INTEGER NOT NULL)")
        .await?;
    let row = conn
        .query_opt("SELECT version FROM diagtui_schema", &[])
        .await?;
    Ok(row.map_or(0, |row| row.get(0)))
}

/// The schema version of a database already set up, read without writing (a readiness check).
pub async fn read_version(conn: &impl GenericClient) -> StoreResult<i32> {
    let row = conn
        .query_opt("SELECT version FROM diagtui_schema", &[])
        .await?;
    Ok(row.map_or(0, |row| row.get(0)))
}

/// Brings the database up to [`VERSION`], one transaction per migration. Refuses a database
/// written by a newer build.
pub async fn migrate(conn: &mut Client) -> StoreResult<()> {
    loop {
        let tx = conn.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        let current = current_version(&tx).await?;
        if current > VERSION {
            return Err(StoreError::Internal(format!(
                "the database has diagtui schema version {current}, newer than this build's \
                 {VERSION}: run a newer diagtui"
            )));
        }
        let Some(step) = MIGRATIONS.get(current as usize) else {
            return Ok(());
        };
        tx.batch_execute(step).await?;
        tx.execute("DELETE FROM diagtui_schema", &[]).await?;
        tx.execute(
            "INSERT INTO diagtui_schema (version) VALUES ($1)",
            &[&(current + 1)],
        )
        .await?;
        tx.commit().await?;
    }
}
