//! The history's statements, the same text for both engines: parameters are `$1`, `$2`, … in
//! the order they first appear (SQLite numbers such named parameters in that order), and
//! `snapshot` is a boolean (an integer in SQLite).

/// Where a history stands.
pub const HEAD: &str =
    "SELECT head, pending, snapshot_len, num FROM history_heads WHERE doc_id = $1";

/// The number after the highest any history has.
pub const NEXT_NUM: &str = "SELECT coalesce(max(num), 0) + 1 FROM history_heads";

/// The lowest number no history has, when the highest is taken.
pub const LOWEST_FREE_NUM: &str = "SELECT CASE WHEN NOT EXISTS \
     (SELECT 1 FROM history_heads WHERE num = 1) THEN 1 ELSE \
     (SELECT min(num) + 1 FROM history_heads h WHERE NOT EXISTS \
     (SELECT 1 FROM history_heads g WHERE g.num = h.num + 1)) END";

/// The oldest version kept (a subquery, so that the minimum is one seek, not a scan).
pub const OLDEST: &str = "SELECT max((SELECT min(v.id) FROM history_versions v \
     WHERE v.id > h.num * 1099511627776 AND v.id < (h.num + 1) * 1099511627776) \
     - h.num * 1099511627776) FROM history_heads h WHERE h.doc_id = $1";

/// A page of versions: document, before, limit.
pub const VERSIONS: &str = "SELECT v.id - h.num * 1099511627776, v.at, a.email, v.kind, \
     v.changed, v.detail FROM history_heads h JOIN history_versions v ON h.doc_id = $1 \
     AND v.id < h.num * 1099511627776 + $2 AND v.id > h.num * 1099511627776 \
     LEFT JOIN accounts a ON a.id = v.account_id ORDER BY v.id DESC LIMIT $3";

/// A page of the versions that changed one object: document, before, object, limit. Those
/// that changed it alone keep it in their row, the others in their changes: the newest of
/// each, merged.
pub const OBJECT_VERSIONS: &str = "SELECT v.id - h.num * 1099511627776, v.at, a.email, \
     v.kind, v.changed, v.detail FROM (\
     SELECT id FROM (SELECT v.id FROM history_heads h JOIN history_versions v \
     ON h.doc_id = $1 AND v.id < h.num * 1099511627776 + $2 AND v.obj_id = $3 \
     AND v.id > h.num * 1099511627776 ORDER BY v.id DESC LIMIT $4) alone \
     UNION ALL SELECT id FROM (SELECT h.num * 1099511627776 + c.version AS id \
     FROM history_heads h JOIN history_changes c ON h.doc_id = $1 AND c.doc_id = $1 \
     AND c.version < $2 AND c.obj_id = $3 ORDER BY c.version DESC LIMIT $4) among) ids \
     JOIN history_versions v ON v.id = ids.id JOIN history_heads h ON h.doc_id = $1 \
     LEFT JOIN accounts a ON a.id = v.account_id ORDER BY v.id DESC LIMIT $4";

/// A version's changes, in id order: the one its row keeps, or its changes.
pub const CHANGES: &str = "SELECT v.obj_id, v.type, v.data FROM history_heads h \
     JOIN history_versions v ON h.doc_id = $1 AND v.id = h.num * 1099511627776 + $2 \
     WHERE v.obj_id IS NOT NULL \
     UNION ALL SELECT obj_id, after_type, after_data FROM history_changes \
     WHERE doc_id = $1 AND version = $2 ORDER BY 1";

/// The state one object was left in by the newest version before a version that changed it:
/// document, before, object; version, type, data (null when deleted). (The changes' newest is
/// found by its maximum, which the by-object index answers in one seek.)
pub const LAST_CHANGE: &str = "SELECT version, type, data FROM (\
     SELECT v.id - h.num * 1099511627776 AS version, v.type, v.data \
     FROM history_heads h JOIN history_versions v ON h.doc_id = $1 \
     AND v.id < h.num * 1099511627776 + $2 AND v.obj_id = $3 \
     AND v.id > h.num * 1099511627776 ORDER BY v.id DESC LIMIT 1) alone \
     UNION ALL SELECT c.version, c.after_type, c.after_data FROM history_changes c \
     WHERE c.doc_id = $1 AND c.version = (SELECT max(version) FROM history_changes \
     WHERE doc_id = $1 AND version < $2 AND obj_id = $3) AND c.obj_id = $3 \
     ORDER BY 1 DESC LIMIT 1";

/// One object of a snapshot: document, version, object.
pub const SNAPSHOT_OBJECT: &str = "SELECT type, data FROM history_snapshots \
     WHERE doc_id = $1 AND version = $2 AND obj_id = $3";

/// The newest snapshot at or before a version.
pub const LAST_SNAPSHOT: &str = "SELECT v.id - h.num * 1099511627776 \
     FROM history_heads h JOIN history_versions v ON h.doc_id = $1 \
     AND v.id <= h.num * 1099511627776 + $2 AND v.id > h.num * 1099511627776 \
     WHERE v.snapshot ORDER BY v.id DESC LIMIT 1";

/// A snapshot's objects.
pub const SNAPSHOT: &str =
    "SELECT obj_id, type, data FROM history_snapshots WHERE doc_id = $1 AND version = $2";

/// The states after each version in a range, oldest first: version, object, type, data.
pub const CHANGES_BETWEEN: &str = "SELECT v.id - h.num * 1099511627776, v.obj_id, v.type, \
     v.data FROM history_heads h JOIN history_versions v ON h.doc_id = $1 \
     AND v.id > h.num * 1099511627776 + $2 AND v.id <= h.num * 1099511627776 + $3 \
     WHERE v.obj_id IS NOT NULL \
     UNION ALL SELECT version, obj_id, after_type, after_data FROM history_changes \
     WHERE doc_id = $1 AND version > $2 AND version <= $3 ORDER BY 1";

/// Sets where a history stands (its number once, when it begins).
pub const PUT_HEAD: &str = "INSERT INTO history_heads (doc_id, head, pending, snapshot_len, num) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (doc_id) DO UPDATE SET head = excluded.head, \
     pending = excluded.pending, snapshot_len = excluded.snapshot_len";

/// Adds a version by its key, with the one object it changed when it changed one.
pub const INSERT_VERSION: &str = "INSERT INTO history_versions \
     (id, at, account_id, kind, changed, detail, snapshot, obj_id, type, data) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// Copies a document's objects as a snapshot.
pub const TAKE_SNAPSHOT: &str = "INSERT INTO history_snapshots (doc_id, version, obj_id, type, data) \
     SELECT CAST($1 AS TEXT), CAST($2 AS BIGINT), obj_id, type, data FROM objects \
     WHERE doc_id = $1";

/// Adds one change of a version that changed several objects (PostgreSQL adds many at once,
/// see its engine).
pub const INSERT_CHANGE: &str = "INSERT INTO history_changes \
     (doc_id, version, obj_id, after_type, after_data) VALUES ($1, $2, $3, $4, $5)";

/// The documents that have a history.
pub const HISTORIES: &str = "SELECT doc_id FROM history_heads ORDER BY doc_id";

/// Where a document's compaction keeps its history from: the oldest version written at or
/// after a time, else the newest stored (the newest a batch wrote before this one; its own
/// are not stored yet): time, document.
pub const KEEP_FROM: &str = "SELECT coalesce(min(CASE WHEN v.at >= $1 THEN v.id END), \
     max(v.id)) - max(h.num) * 1099511627776 FROM history_heads h \
     JOIN history_versions v ON h.doc_id = $2 AND v.id > h.num * 1099511627776 \
     AND v.id < (h.num + 1) * 1099511627776";

/// Marks a version as holding a snapshot.
pub const MARK_SNAPSHOT: &str = "UPDATE history_versions SET snapshot = TRUE WHERE id = \
     (SELECT num FROM history_heads WHERE doc_id = $1) * 1099511627776 + $2";

/// Drops a document's snapshots before a version.
pub const DROP_SNAPSHOTS: &str = "DELETE FROM history_snapshots WHERE doc_id = $1 AND version < $2";

/// Drops a document's changes before a version.
pub const DROP_CHANGES: &str = "DELETE FROM history_changes WHERE doc_id = $1 AND version < $2";

/// Drops a document's versions before a version.
pub const DROP_VERSIONS: &str = "DELETE FROM history_versions WHERE id > \
     (SELECT num FROM history_heads WHERE doc_id = $1) * 1099511627776 AND id < \
     (SELECT num FROM history_heads WHERE doc_id = $1) * 1099511627776 + $2";

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
    fn the_key_literal_is_the_key_span() {
        assert_eq!(crate::history::KEY_SPAN, 1_099_511_627_776);
    }

    #[test]
    fn parameters_first_appear_in_their_order() {
        assert_parameters_in_order(&[
            HEAD,
            NEXT_NUM,
            LOWEST_FREE_NUM,
            OLDEST,
            VERSIONS,
            OBJECT_VERSIONS,
            CHANGES,
            LAST_CHANGE,
            SNAPSHOT_OBJECT,
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
