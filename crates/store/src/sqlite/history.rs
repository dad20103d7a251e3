//! The documents' histories in SQLite (see [`history`](crate::history)): the statements of
//! `history::sql` on one connection, in the writer's transaction or a reader's (a [`Writing`]
//! at no time).

use std::sync::Arc;

use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, Row, params};

use super::objects::{load_object, load_objects};
use super::statements::Writing;
use crate::error::StoreResult;
use crate::history::sql::{
    CHANGES, CHANGES_BETWEEN, DROP_CHANGES, DROP_SNAPSHOTS, DROP_VERSIONS, HEAD, HISTORIES,
    INSERT_CHANGE, INSERT_SNAPSHOT_ROW, INSERT_VERSION, KEEP_FROM, LAST_CHANGE, LAST_SNAPSHOT,
    LOWEST_FREE_NUM, MARK_SNAPSHOT, NEXT_NUM, OBJECT_VERSIONS, OLDEST, PUT_HEAD, SNAPSHOT,
    SNAPSHOT_OBJECT, TAKE_SNAPSHOT, VERSIONS,
};
use crate::history::{Change, Head, HistoryReads, HistoryWrites, Objects, VersionRow, key};
use crate::object::{Kinds, StoredObject};

/// An object kept as two columns, type and data, both null when there was none.
fn side(
    row: &Row<'_>,
    at: usize,
    kinds: &mut Kinds,
) -> rusqlite::Result<Option<Arc<StoredObject>>> {
    match (row.get_ref(at)?, row.get_ref(at + 1)?) {
        (ValueRef::Text(kind), ValueRef::Text(data)) => {
            let kind = kinds.get(std::str::from_utf8(kind).unwrap_or_default());
            let data = std::str::from_utf8(data).unwrap_or_default();
            Ok(Some(Arc::new(StoredObject::new(kind, data))))
        }
        _ => Ok(None),
    }
}

/// Where a history stands, from a row of head, pending, snapshot length and number.
fn head_row(row: &Row<'_>) -> rusqlite::Result<Head> {
    Ok(Head {
        head: row.get::<_, i64>(0)? as u64,
        pending: row.get::<_, i64>(1)? as u64,
        snapshot_len: row.get::<_, i64>(2)? as u64,
        num: row.get::<_, i64>(3)? as u64,
    })
}

/// A change from a row of object id, type and data from `at`.
fn change_row(row: &Row<'_>, at: usize, kinds: &mut Kinds) -> rusqlite::Result<Change> {
    Ok(Change {
        obj_id: row.get(at)?,
        after: side(row, at + 1, kinds)?,
    })
}

/// A version's row.
fn version_row(row: &Row<'_>) -> rusqlite::Result<VersionRow> {
    Ok(VersionRow {
        version: row.get::<_, i64>(0)? as u64,
        at: row.get(1)?,
        account: row.get(2)?,
        kind: row.get(3)?,
        changed: row.get::<_, i64>(4)? as u64,
        detail: row.get(5)?,
    })
}

impl HistoryReads for Writing<'_> {
    async fn head(&self, doc: &str) -> StoreResult<Option<Head>> {
        Ok(self
            .conn
            .prepare_cached(HEAD)?
            .query_row([doc], head_row)
            .optional()?)
    }

    async fn oldest(&self, doc: &str) -> StoreResult<u64> {
        let oldest: Option<i64> = self
            .conn
            .prepare_cached(OLDEST)?
            .query_row([doc], |row| row.get(0))?;
        Ok(oldest.unwrap_or(0) as u64)
    }

    async fn versions(
        &self,
        doc: &str,
        before: u64,
        limit: usize,
        object: Option<&str>,
    ) -> StoreResult<Vec<VersionRow>> {
        let (before, limit) = (before as i64, limit as i64);
        let rows = match object {
            None => self
                .conn
                .prepare_cached(VERSIONS)?
                .query_map(params![doc, before, limit], version_row)?
                .collect::<Result<_, _>>()?,
            Some(obj) => self
                .conn
                .prepare_cached(OBJECT_VERSIONS)?
                .query_map(params![doc, before, obj, limit], version_row)?
                .collect::<Result<_, _>>()?,
        };
        Ok(rows)
    }

    async fn changes(&self, doc: &str, version: u64) -> StoreResult<Vec<Change>> {
        let mut kinds = Kinds::default();
        let mut statement = self.conn.prepare_cached(CHANGES)?;
        let rows = statement.query_map(params![doc, version as i64], |row| {
            change_row(row, 0, &mut kinds)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn last_change(
        &self,
        doc: &str,
        obj: &str,
        before: u64,
    ) -> StoreResult<Option<Option<Arc<StoredObject>>>> {
        let mut kinds = Kinds::default();
        Ok(self
            .conn
            .prepare_cached(LAST_CHANGE)?
            .query_row(params![doc, before as i64, obj], |row| {
                side(row, 1, &mut kinds)
            })
            .optional()?)
    }

    async fn snapshot_object(
        &self,
        doc: &str,
        version: u64,
        obj: &str,
    ) -> StoreResult<Option<Arc<StoredObject>>> {
        let mut kinds = Kinds::default();
        Ok(self
            .conn
            .prepare_cached(SNAPSHOT_OBJECT)?
            .query_row(params![doc, version as i64, obj], |row| {
                side(row, 0, &mut kinds)
            })
            .optional()?
            .flatten())
    }

    async fn last_snapshot(&self, doc: &str, at_most: u64) -> StoreResult<Option<u64>> {
        let found: Option<i64> = self
            .conn
            .prepare_cached(LAST_SNAPSHOT)?
            .query_row(params![doc, at_most as i64], |row| row.get(0))
            .optional()?;
        Ok(found.map(|version| version as u64))
    }

    async fn snapshot(&self, doc: &str, version: u64) -> StoreResult<Objects> {
        let mut kinds = Kinds::default();
        let mut statement = self.conn.prepare_cached(SNAPSHOT)?;
        let rows = statement.query_map(params![doc, version as i64], |row| {
            let object = side(row, 1, &mut kinds)?.expect("snapshot rows are not null");
            Ok((row.get(0)?, object))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn changes_between(&self, doc: &str, after: u64, up_to: u64) -> StoreResult<Vec<Change>> {
        let mut kinds = Kinds::default();
        let mut statement = self.conn.prepare_cached(CHANGES_BETWEEN)?;
        let rows = statement.query_map(params![doc, after as i64, up_to as i64], |row| {
            change_row(row, 1, &mut kinds)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl HistoryWrites for Writing<'_> {
    async fn current(&self, doc: &str, ids: Option<&[&str]>) -> StoreResult<Objects> {
        let Some(ids) = ids else {
            return load_objects(self.conn, doc);
        };
        let mut objects = Objects::new();
        for id in ids {
            if let Some(object) = load_object(self.conn, doc, id)? {
                objects.insert((*id).to_owned(), object);
            }
        }
        Ok(objects)
    }

    async fn put_head(&self, doc: &str, head: &Head) -> StoreResult<()> {
        self.conn.prepare_cached(PUT_HEAD)?.execute(params![
            doc,
            head.head as i64,
            head.pending as i64,
            head.snapshot_len as i64,
            head.num as i64
        ])?;
        Ok(())
    }

    async fn next_num(&self) -> StoreResult<u64> {
        let next: i64 = self
            .conn
            .prepare_cached(NEXT_NUM)?
            .query_row([], |row| row.get(0))?;
        Ok(next as u64)
    }

    async fn lowest_free_num(&self) -> StoreResult<u64> {
        let free: i64 = self
            .conn
            .prepare_cached(LOWEST_FREE_NUM)?
            .query_row([], |row| row.get(0))?;
        Ok(free as u64)
    }

    async fn insert_version(
        &self,
        num: u64,
        row: &VersionRow,
        snapshot: bool,
        only: Option<&Change>,
    ) -> StoreResult<()> {
        let after = only.and_then(|change| change.after.as_deref());
        self.conn.prepare_cached(INSERT_VERSION)?.execute(params![
            key(num, row.version),
            row.at,
            row.account,
            row.kind,
            row.changed as i64,
            row.detail,
            snapshot,
            only.map(|change| &change.obj_id),
            after.map(StoredObject::kind),
            after.map(StoredObject::data)
        ])?;
        Ok(())
    }

    async fn insert_changes(&self, doc: &str, version: u64, changes: &[Change]) -> StoreResult<()> {
        let mut statement = self.conn.prepare_cached(INSERT_CHANGE)?;
        for change in changes {
            let after = change.after.as_deref();
            statement.execute(params![
                doc,
                version as i64,
                change.obj_id,
                after.map(StoredObject::kind),
                after.map(StoredObject::data)
            ])?;
        }
        Ok(())
    }

    async fn take_snapshot(&self, doc: &str, version: u64) -> StoreResult<u64> {
        let copied = self
            .conn
            .prepare_cached(TAKE_SNAPSHOT)?
            .execute(params![doc, version as i64])?;
        Ok(copied as u64)
    }

    async fn histories(&self) -> StoreResult<Vec<String>> {
        let mut statement = self.conn.prepare_cached(HISTORIES)?;
        let docs = statement.query_map([], |row| row.get(0))?;
        Ok(docs.collect::<Result<_, _>>()?)
    }

    async fn keep_from(&self, doc: &str, at: &str) -> StoreResult<Option<u64>> {
        let first: Option<i64> = self
            .conn
            .prepare_cached(KEEP_FROM)?
            .query_row([at, doc], |row| row.get(0))?;
        Ok(first.map(|version| version as u64))
    }

    async fn insert_snapshot_rows(
        &self,
        doc: &str,
        version: u64,
        objects: &Objects,
    ) -> StoreResult<()> {
        let version = version as i64;
        let mut insert = self.conn.prepare_cached(INSERT_SNAPSHOT_ROW)?;
        for (id, object) in objects {
            insert.execute(params![doc, version, id, object.kind(), object.data()])?;
        }
        Ok(())
    }

    async fn mark_snapshot(&self, doc: &str, version: u64) -> StoreResult<()> {
        self.conn
            .prepare_cached(MARK_SNAPSHOT)?
            .execute(params![doc, version as i64])?;
        Ok(())
    }

    async fn drop_before(&self, doc: &str, version: u64) -> StoreResult<()> {
        for sql in [DROP_SNAPSHOTS, DROP_CHANGES, DROP_VERSIONS] {
            self.conn
                .prepare_cached(sql)?
                .execute(params![doc, version as i64])?;
        }
        Ok(())
    }
}
