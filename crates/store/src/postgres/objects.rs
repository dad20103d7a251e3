//! Objects in PostgreSQL: one row each, keyed by `(doc_id, obj_id)`. Many rows travel in one
//! statement as arrays, so that a large upload or update is a few round trips, not one per
//! object; one object is read or written by its key, a statement whose prepared plan is the
//! key's index whatever the table holds (the arrays' statements are planned again on every
//! run, or kept with a scan of the document's rows).

use std::collections::BTreeMap;
use std::sync::Arc;

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::docs::visible_to;
use super::sql::{execute, head_at, query};
use crate::error::StoreResult;
use crate::history::Head;
use crate::object::{Kinds, StoredObject};

/// Rows sent per statement by the bulk writes.
const ROWS_PER_STATEMENT: usize = 5000;

/// Objects by id.
pub type Objects = BTreeMap<String, Arc<StoredObject>>;

/// A document's objects by id: all of them, or those with the given ids.
pub async fn load_objects(
    c: &impl GenericClient,
    doc_id: &str,
    only: Option<&[&str]>,
) -> StoreResult<Objects> {
    let rows = match only {
        None => {
            query(
                c,
                "SELECT obj_id, type, data, version FROM objects WHERE doc_id = $1",
                &[&doc_id],
            )
            .await?
        }
        Some([id]) => {
            query(
                c,
                "SELECT obj_id, type, data, version FROM objects \
                 WHERE doc_id = $1 AND obj_id = $2",
                &[&doc_id, id],
            )
            .await?
        }
        Some(ids) => {
            query(
                c,
                "SELECT obj_id, type, data, version FROM objects \
                 WHERE doc_id = $1 AND obj_id = ANY($2)",
                &[&doc_id, &ids],
            )
            .await?
        }
    };
    Ok(objects(&rows))
}

/// What an update of named objects reads first, in one statement: the document's objects with
/// the given ids and where its history stands (`None`: it has none), if the account may see the
/// document (`None` otherwise).
pub async fn load_visible(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    ids: &[&str],
) -> StoreResult<Option<(Objects, Option<Head>)>> {
    /// The statement, with how the objects are picked (`$3`).
    macro_rules! visible_with_head {
        ($objects:literal) => {
            concat!(
                "SELECT o.obj_id, o.type, o.data, o.version, h.head, h.pending, h.snapshot_len, h.num \
                 FROM documents d LEFT JOIN history_heads h ON h.doc_id = d.id \
                 LEFT JOIN objects o ON o.doc_id = d.id AND ",
                $objects,
                " WHERE d.id = $1 AND ",
                visible_to!()
            )
        };
    }
    let rows = match ids {
        [id] => {
            query(
                c,
                visible_with_head!("o.obj_id = $3"),
                &[&doc_id, &account_id, id],
            )
            .await?
        }
        ids => {
            let sql = visible_with_head!("o.obj_id = ANY($3)");
            query(c, sql, &[&doc_id, &account_id, &ids]).await?
        }
    };
    // No row: the document is not visible; a row of nulls: visible, none of the objects.
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let head = head_at(first, 4);
    let found = rows
        .into_iter()
        .filter(|row| row.get::<_, Option<&str>>(0).is_some())
        .collect::<Vec<_>>();
    Ok(Some((objects(&found), head)))
}

/// Objects by id from rows of id, type, data and version.
fn objects(rows: &[Row]) -> Objects {
    let mut kinds = Kinds::default();
    rows.iter()
        .map(|row| {
            let kind = kinds.get(row.get(1));
            let version = row.get::<_, i64>(3) as u64;
            let object = StoredObject::new(kind, row.get(2)).at_version(version);
            (row.get::<_, String>(0), Arc::new(object))
        })
        .collect()
}

/// Adds objects given as `(id, type, data)` rows, made by the write of document version
/// `version`.
pub async fn insert_objects<'a>(
    c: &impl GenericClient,
    doc_id: &str,
    rows: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
    version: u64,
) -> StoreResult<()> {
    let version = version as i64;
    let rows: Vec<_> = rows.collect();
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let ids: Vec<&str> = chunk.iter().map(|row| row.0).collect();
        let kinds: Vec<&str> = chunk.iter().map(|row| row.1).collect();
        let data: Vec<&str> = chunk.iter().map(|row| row.2).collect();
        execute(
            c,
            "INSERT INTO objects (doc_id, obj_id, type, data, version) \
             SELECT $1, *, $5 FROM unnest($2::text[], $3::text[], $4::text[])",
            &[&doc_id, &ids, &kinds, &data, &version],
        )
        .await?;
    }
    Ok(())
}

/// Writes objects' new data and version (one write's: the same for all).
pub async fn save_objects(
    c: &impl GenericClient,
    doc_id: &str,
    objects: &[(String, Arc<StoredObject>)],
) -> StoreResult<()> {
    let version = objects.first().map_or(0, |(_, object)| object.version()) as i64;
    if let [(id, object)] = objects {
        execute(
            c,
            "UPDATE objects SET data = $3, version = $4 WHERE doc_id = $1 AND obj_id = $2",
            &[&doc_id, id, &object.data(), &version],
        )
        .await?;
        return Ok(());
    }
    for chunk in objects.chunks(ROWS_PER_STATEMENT) {
        let ids: Vec<&str> = chunk.iter().map(|(id, _)| id.as_str()).collect();
        let data: Vec<&str> = chunk.iter().map(|(_, object)| object.data()).collect();
        execute(
            c,
            "UPDATE objects o SET data = n.data, version = $4 \
             FROM unnest($2::text[], $3::text[]) AS n(obj_id, data) \
             WHERE o.doc_id = $1 AND o.obj_id = n.obj_id",
            &[&doc_id, &ids, &data, &version],
        )
        .await?;
    }
    Ok(())
}

/// Deletes one object; whether it existed.
pub async fn delete_object(
    c: &impl GenericClient,
    doc_id: &str,
    obj_id: &str,
) -> StoreResult<bool> {
    let gone = execute(
        c,
        "DELETE FROM objects WHERE doc_id = $1 AND obj_id = $2",
        &[&doc_id, &obj_id],
    )
    .await?;
    Ok(gone > 0)
}
