//! The history's statements, the same text for both engines: parameters are `$1`, `$2`, … in
//! the order they first appear (SQLite numbers such named parameters in that order), and
//! `snapshot` is a boolean (an integer in SQLite).

/// Where a history stands.
pub const HEAD: &str = "SELECT head, pending, snapshot_len FROM history_heads WHERE doc_id = $1";

/// The oldest version kept.
pub const OLDEST: &str = "SELECT min(version) FROM history_versions WHERE doc_id = $1";

/// A page of versions: document, before, limit.
pub const VERSIONS: &str = "SELECT v.version, v.at, a.email, v.kind, v.changed, v.detail \
     FROM history_versions v LEFT JOIN accounts a ON a.id = v.account_id \
     WHERE v.doc_id = $1 AND v.version < $2 ORDER BY v.version DESC LIMIT $3";

/// A page of the versions that changed one object: document, before, object, limit.
pub const OBJECT_VERSIONS: &str = "SELECT v.version, v.at, a.email, v.kind, v.changed, v.detail \
     FROM history_changes c \
     JOIN history_versions v ON v.doc_id = c.doc_id AND v.version = c.version \
     LEFT JOIN accounts a ON a.id = v.account_id \
     WHERE c.doc_id = $1 AND c.version < $2 AND c.obj_id = $3 \
     ORDER BY c.version DESC LIMIT $4";

/// A version's changes, in id order.
pub const CHANGES: &str = "SELECT obj_id, before_type, before_data, after_type, after_data \
     FROM history_changes WHERE doc_id = $1 AND version = $2 ORDER BY obj_id";

/// The newest snapshot at or before a version.
pub const LAST_SNAPSHOT: &str = "SELECT version FROM history_versions \
     WHERE doc_id = $1 AND version <= $2 AND snapshot ORDER BY version DESC LIMIT 1";

/// A snapshot's objects.
pub const SNAPSHOT: &str =
    "SELECT obj_id, type, data FROM history_snapshots WHERE doc_id = $1 AND version = $2";

/// The states after each version in a range, oldest first.
pub const CHANGES_BETWEEN: &str = "SELECT obj_id, after_type, after_data FROM history_changes \
     WHERE doc_id = $1 AND version > $2 AND version <= $3 ORDER BY version";

/// Sets where a history stands.
pub const PUT_HEAD: &str = "INSERT INTO history_heads (doc_id, head, pending, snapshot_len) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (doc_id) DO UPDATE SET head = excluded.head, \
     pending = excluded.pending, snapshot_len = excluded.snapshot_len";

/// Adds a version.
pub const INSERT_VERSION: &str = "INSERT INTO history_versions \
     (doc_id, version, at, account_id, kind, changed, detail, snapshot) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// Copies a document's objects as a snapshot.
pub const TAKE_SNAPSHOT: &str = "INSERT INTO history_snapshots (doc_id, version, obj_id, type, data) \
     SELECT CAST($1 AS TEXT), CAST($2 AS BIGINT), obj_id, type, data FROM objects \
     WHERE doc_id = $1";

/// Adds one change (PostgreSQL adds many at once, see its engine).
pub const INSERT_CHANGE: &str = "INSERT INTO history_changes \
     (doc_id, version, obj_id, before_type, before_data, after_type, after_data) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// The documents that have a history.
pub const HISTORIES: &str = "SELECT doc_id FROM history_heads ORDER BY doc_id";

/// Where a document's compaction keeps its history from: the oldest version written at or
/// after a time, else the newest stored (the newest a batch wrote before this one; its own
/// are not stored yet): time, document.
pub const KEEP_FROM: &str = "SELECT coalesce(min(CASE WHEN at >= $1 THEN version END), \
     max(version)) FROM history_versions WHERE doc_id = $2";

/// Marks a version as holding a snapshot.
pub const MARK_SNAPSHOT: &str =
    "UPDATE history_versions SET snapshot = TRUE WHERE doc_id = $1 AND version = $2";

/// Drops a document's snapshots before a version.
pub const DROP_SNAPSHOTS: &str = "DELETE FROM history_snapshots WHERE doc_id = $1 AND version < $2";

/// Drops a document's changes before a version.
pub const DROP_CHANGES: &str = "DELETE FROM history_changes WHERE doc_id = $1 AND version < $2";

/// Drops a document's versions before a version.
pub const DROP_VERSIONS: &str = "DELETE FROM history_versions WHERE doc_id = $1 AND version < $2";

/// Adds one object of a snapshot (PostgreSQL adds many at once, see its engine).
pub const INSERT_SNAPSHOT_ROW: &str = "INSERT INTO history_snapshots \
     (doc_id, version, obj_id, type, data) VALUES ($1, $2, $3, $4, $5)";

/// Asserts that each statement's `$N` parameters first appear in their order: SQLite numbers
/// such parameters in the order they first appear.
#[cfg(test)]
pub(crate) fn assert_parameters_in_order(statements: &[&str]) {
    for sql in statements {
        let mut seen = 0;
        for part in sql.split('$').skip(1) {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            let n: usize = digits.parse().unwrap();
            assert!(n <= seen + 1, "${n} before ${} in {sql}", seen + 1);
            seen = seen.max(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_first_appear_in_their_order() {
        assert_parameters_in_order(&[
            HEAD,
            OLDEST,
            VERSIONS,
            OBJECT_VERSIONS,
            CHANGES,
            LAST_SNAPSHOT,
            SNAPSHOT,
            CHANGES_BETWEEN,
            PUT_HEAD,
            INSERT_VERSION,
            TAKE_SNAPSHOT,
            INSERT_CHANGE,
            HISTORIES,
            KEEP_FROM,
            MARK_SNAPSHOT,
            DROP_SNAPSHOTS,
            DROP_CHANGES,
            DROP_VERSIONS,
            INSERT_SNAPSHOT_ROW,
        ]);
    }
}
