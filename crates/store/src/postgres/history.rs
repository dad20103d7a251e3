//! The documents' histories in PostgreSQL (see [`history`](crate::history)): the statements of
//! `history::sql` on a [`Writing`] (in the writer's transaction, or a reader's at no time), and
//! a version's changes sent as arrays, a few statements per version whatever its size.

use std::sync::Arc;

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::objects::load_objects;
use super::sql::{execute, head_at, query, query_one, query_opt};
use super::statements::Writing;
use crate::error::StoreResult;
use crate::history::sql::{
    CHANGES, CHANGES_BETWEEN, DROP_CHANGES, DROP_SNAPSHOTS, DROP_VERSIONS, HEAD, HISTORIES,
    INSERT_VERSION, KEEP_FROM, LAST_CHANGE, LAST_SNAPSHOT, LOWEST_FREE_NUM, MARK_SNAPSHOT,
    NEXT_NUM, OBJECT_VERSIONS, OLDEST, PUT_HEAD, SNAPSHOT, SNAPSHOT_OBJECT, TAKE_SNAPSHOT,
    VERSIONS,
};
use crate::history::{Change, Head, HistoryReads, HistoryWrites, Objects, VersionRow, key};
use crate::object::{Kinds, StoredObject};

/// Changes (or snapshot rows) sent per statement.
const CHANGES_PER_STATEMENT: usize = 5000;

/// An object kept as two columns, type and data, both null when there was none.
fn side(row: &Row, at: usize, kinds: &mut Kinds) -> Option<Arc<StoredObject>> {
    let kind: Option<&str> = row.get(at);
    let data: Option<&str> = row.get(at + 1);
    Some(Arc::new(StoredObject::new(kinds.get(kind?), data?)))
}

/// One column of changes: a text of the state after of each, null where it is absent.
fn column(changes: &[Change], text: fn(&StoredObject) -> &str) -> Vec<Option<&str>> {
    changes
        .iter()
        .map(|c| c.after.as_deref().map(text))
        .collect()
}

/// A change from a row of object id, type and data from `at`.
fn change_row(row: &Row, at: usize, kinds: &mut Kinds) -> Change {
    Change {
        obj_id: row.get(at),
        after: side(row, at + 1, kinds),
    }
}

/// A version's row.
fn version_row(row: &Row) -> VersionRow {
    VersionRow {
        version: row.get::<_, i64>(0) as u64,
        at: row.get(1),
        account: row.get(2),
        kind: row.get(3),
        changed: row.get::<_, i64>(4) as u64,
        detail: row.get(5),
    }
}

impl<C: GenericClient + Sync> HistoryReads for Writing<'_, C> {
    /// As read ahead with the request's objects, else read now.
    async fn head(&self, doc: &str) -> StoreResult<Option<Head>> {
        if let Some(head) = self.head_read_ahead(doc) {
            return Ok(head);
        }
        Ok(query_opt(self.client, HEAD, &[&doc])
            .await?
            .and_then(|row| head_at(&row, 0)))
    }

    async fn oldest(&self, doc: &str) -> StoreResult<u64> {
        let row = query_one(self.client, OLDEST, &[&doc]).await?;
        Ok(row.get::<_, Option<i64>>(0).unwrap_or(0) as u64)
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
            None => query(self.client, VERSIONS, &[&doc, &before, &limit]).await?,
            Some(obj) => {
                query(self.client, OBJECT_VERSIONS, &[&doc, &before, &obj, &limit]).await?
            }
        };
        Ok(rows.iter().map(version_row).collect())
    }

    async fn changes(&self, doc: &str, version: u64) -> StoreResult<Vec<Change>> {
        let mut kinds = Kinds::default();
        let rows = query(self.client, CHANGES, &[&doc, &(version as i64)]).await?;
        Ok(rows
            .iter()
            .map(|row| change_row(row, 0, &mut kinds))
            .collect())
    }

    async fn last_change(
        &self,
        doc: &str,
        obj: &str,
        before: u64,
    ) -> StoreResult<Option<Option<Arc<StoredObject>>>> {
        let mut kinds = Kinds::default();
        let row = query_opt(self.client, LAST_CHANGE, &[&doc, &(before as i64), &obj]).await?;
        Ok(row.map(|row| side(&row, 1, &mut kinds)))
    }

    async fn snapshot_object(
        &self,
        doc: &str,
        version: u64,
        obj: &str,
    ) -> StoreResult<Option<Arc<StoredObject>>> {
        let mut kinds = Kinds::default();
        let row = query_opt(
            self.client,
            SNAPSHOT_OBJECT,
            &[&doc, &(version as i64), &obj],
        )
        .await?;
        Ok(row.and_then(|row| side(&row, 0, &mut kinds)))
    }

    async fn last_snapshot(&self, doc: &str, at_most: u64) -> StoreResult<Option<u64>> {
        let row = query_opt(self.client, LAST_SNAPSHOT, &[&doc, &(at_most as i64)]).await?;
        Ok(row.map(|row| row.get::<_, i64>(0) as u64))
    }

    async fn snapshot(&self, doc: &str, version: u64) -> StoreResult<Objects> {
        let mut kinds = Kinds::default();
        let rows = query(self.client, SNAPSHOT, &[&doc, &(version as i64)]).await?;
        Ok(rows
            .iter()
            .filter_map(|row| Some((row.get(0), side(row, 1, &mut kinds)?)))
            .collect())
    }

    async fn changes_between(&self, doc: &str, after: u64, up_to: u64) -> StoreResult<Vec<Change>> {
        let mut kinds = Kinds::default();
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] =
            [&doc, &(after as i64), &(up_to as i64)];
        let rows = query(self.client, CHANGES_BETWEEN, &params).await?;
        Ok(rows
            .iter()
            .map(|row| change_row(row, 1, &mut kinds))
            .collect())
    }
}

impl<C: GenericClient + Sync> HistoryWrites for Writing<'_, C> {
    async fn current(&self, doc: &str, ids: Option<&[&str]>) -> StoreResult<Objects> {
        load_objects(self.client, doc, ids).await
    }

    async fn put_head(&self, doc: &str, head: &Head) -> StoreResult<()> {
        let (at, pending, len, num) = (
            head.head as i64,
            head.pending as i64,
            head.snapshot_len as i64,
            head.num as i64,
        );
        execute(self.client, PUT_HEAD, &[&doc, &at, &pending, &len, &num]).await?;
        Ok(())
    }

    async fn next_num(&self) -> StoreResult<u64> {
        let row = query_one(self.client, NEXT_NUM, &[]).await?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    async fn lowest_free_num(&self) -> StoreResult<u64> {
        let row = query_one(self.client, LOWEST_FREE_NUM, &[]).await?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    async fn insert_version(
        &self,
        num: u64,
        row: &VersionRow,
        snapshot: bool,
        only: Option<&Change>,
    ) -> StoreResult<()> {
        let changed = row.changed as i64;
        let after = only.and_then(|change| change.after.as_deref());
        execute(
            self.client,
            INSERT_VERSION,
            &[
                &key(num, row.version),
                &row.at,
                &row.account,
                &row.kind,
                &changed,
                &row.detail,
                &snapshot,
                &only.map(|change| change.obj_id.as_str()),
                &after.map(StoredObject::kind),
                &after.map(StoredObject::data),
            ],
        )
        .await?;
        Ok(())
    }

    async fn insert_changes(&self, doc: &str, version: u64, changes: &[Change]) -> StoreResult<()> {
        let version = version as i64;
        for chunk in changes.chunks(CHANGES_PER_STATEMENT) {
            let ids: Vec<&str> = chunk.iter().map(|c| c.obj_id.as_str()).collect();
            let after_type = column(chunk, StoredObject::kind);
            let after_data = column(chunk, StoredObject::data);
            execute(
                self.client,
                "INSERT INTO history_changes (doc_id, version, obj_id, after_type, after_data) \
                 SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[])",
                &[&doc, &version, &ids, &after_type, &after_data],
            )
            .await?;
        }
        Ok(())
    }

    async fn take_snapshot(&self, doc: &str, version: u64) -> StoreResult<u64> {
        execute(self.client, TAKE_SNAPSHOT, &[&doc, &(version as i64)]).await
    }

    async fn histories(&self) -> StoreResult<Vec<String>> {
        let rows = query(self.client, HISTORIES, &[]).await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    async fn keep_from(&self, doc: &str, at: &str) -> StoreResult<Option<u64>> {
        let row = query_one(self.client, KEEP_FROM, &[&at, &doc]).await?;
        Ok(row.get::<_, Option<i64>>(0).map(|version| version as u64))
    }

    async fn insert_snapshot_rows(
        &self,
        doc: &str,
        version: u64,
        objects: &Objects,
    ) -> StoreResult<()> {
        let version = version as i64;
        let rows: Vec<_> = objects.iter().collect();
        for chunk in rows.chunks(CHANGES_PER_STATEMENT) {
            let ids: Vec<&str> = chunk.iter().map(|(id, _)| id.as_str()).collect();
            let kinds: Vec<&str> = chunk.iter().map(|(_, o)| o.kind()).collect();
            let data: Vec<&str> = chunk.iter().map(|(_, o)| o.data()).collect();
            execute(
                self.client,
                "INSERT INTO history_snapshots (doc_id, version, obj_id, type, data) \
                 SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[])",
                &[&doc, &version, &ids, &kinds, &data],
            )
            .await?;
        }
        Ok(())
    }

    async fn mark_snapshot(&self, doc: &str, version: u64) -> StoreResult<()> {
        execute(self.client, MARK_SNAPSHOT, &[&doc, &(version as i64)]).await?;
        Ok(())
    }

    async fn drop_before(&self, doc: &str, version: u64) -> StoreResult<()> {
        for sql in [DROP_SNAPSHOTS, DROP_CHANGES, DROP_VERSIONS] {
            execute(self.client, sql, &[&doc, &(version as i64)]).await?;
        }
        Ok(())
    }
}
