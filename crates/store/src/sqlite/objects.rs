//! Objects in SQLite: one row each, keyed by `(doc_id, obj_id)`, so reading or changing one
//! object costs the same whatever the size of its document.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::functions::FunctionFlags;
use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OptionalExtension, params};

use crate::condition::ObjectSource;
use crate::error::{StoreError, StoreResult};
use crate::object::{Kinds, StoredObject};
use crate::plan::Planned;

/// One object, if the document has it.
pub fn load_object(
    conn: &Connection,
    doc_id: &str,
    obj_id: &str,
) -> StoreResult<Option<Arc<StoredObject>>> {
    Ok(conn
        .prepare_cached(
            "SELECT type, data, version FROM objects WHERE doc_id = ?1 AND obj_id = ?2",
        )?
        .query_row([doc_id, obj_id], |row| {
            let kind = row.get_ref(0)?.as_str()?;
            let data = row.get_ref(1)?.as_str()?;
            let version = row.get::<_, i64>(2)? as u64;
            Ok(Arc::new(
                StoredObject::new(Arc::from(kind), data).at_version(version),
            ))
        })
        .optional()?)
}

/// Calls `f` with each object of a document, in id order, until it fails.
pub fn each_object(
    conn: &Connection,
    doc_id: &str,
    f: &mut dyn FnMut(&str, &Arc<StoredObject>) -> StoreResult<()>,
) -> StoreResult<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT obj_id, type, data, version FROM objects WHERE doc_id = ?1 ORDER BY obj_id",
    )?;
    let mut rows = stmt.query([doc_id])?;
    let mut kinds = Kinds::default();
    while let Some(row) = rows.next()? {
        let kind = kinds.get(row.get_ref(1)?.as_str()?);
        let version = row.get::<_, i64>(3)? as u64;
        let object = StoredObject::new(kind, row.get_ref(2)?.as_str()?).at_version(version);
        f(row.get_ref(0)?.as_str()?, &Arc::new(object))?;
    }
    Ok(())
}

/// Every object of a document.
pub fn load_objects(
    conn: &Connection,
    doc_id: &str,
) -> StoreResult<BTreeMap<String, Arc<StoredObject>>> {
    let mut objects = BTreeMap::new();
    each_object(conn, doc_id, &mut |id, object| {
        objects.insert(id.to_owned(), Arc::clone(object));
        Ok(())
    })?;
    Ok(objects)
}

/// Adds one object, made by the write of document version `version`.
pub fn insert_object(
    conn: &Connection,
    doc_id: &str,
    obj_id: &str,
    kind: &str,
    data: &str,
    version: u64,
) -> StoreResult<()> {
    conn.prepare_cached(
        "INSERT INTO objects (doc_id, obj_id, type, data, version) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![doc_id, obj_id, kind, data, version as i64])?;
    Ok(())
}

/// Updates of at least this many objects, and of at least one in [`SCAN_SHARE`] of their
/// document's, are written in one pass over the document's rows rather than row by row.
const SCAN_FROM: usize = 64;
/// See [`SCAN_FROM`].
const SCAN_SHARE: usize = 4;

/// Writes planned objects' data and versions (in id order, as plans are). `doc_len` is how many
/// objects their document holds, when known: a large share of a document is written in one
/// pass over its rows, fewer objects row by row.
pub fn save_objects(
    conn: &Connection,
    doc_id: &str,
    objects: &mut Planned,
    doc_len: Option<usize>,
) -> StoreResult<()> {
    let dense = doc_len.is_some_and(|len| objects.len() * SCAN_SHARE >= len);
    if objects.len() >= SCAN_FROM && dense && objects.is_sorted_by(|a, b| a.0 < b.0) {
        return save_in_one_pass(conn, doc_id, objects);
    }
    let mut update = conn.prepare_cached(
        "UPDATE objects SET data = ?1, version = ?4 WHERE doc_id = ?2 AND obj_id = ?3",
    )?;
    for (obj_id, object) in objects.iter() {
        update.execute(params![
            object.data(),
            doc_id,
            obj_id,
            object.version() as i64
        ])?;
    }
    Ok(())
}

/// Writes planned objects (sorted by id, each id once, all of one write's version) in one
/// statement that passes over the document's rows, asking two SQL functions of this connection,
/// made for the statement, whether each row is planned and its new data.
fn save_in_one_pass(conn: &Connection, doc_id: &str, objects: &mut Planned) -> StoreResult<()> {
    let version = objects.first().map_or(0, |(_, object)| object.version()) as i64;
    const PLANNED: &str = "diagtui_planned";
    const PLANNED_DATA: &str = "diagtui_planned_data";
    let lookup = Arc::new(PlannedLookup {
        planned: std::mem::take(objects),
        next: AtomicUsize::new(0),
    });
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DIRECTONLY;
    let planned = Arc::clone(&lookup);
    conn.create_scalar_function(PLANNED, 1, flags, move |ctx| {
        Ok(planned.find(ctx.get_raw(0).as_str()?).is_some())
    })?;
    let data = Arc::clone(&lookup);
    conn.create_scalar_function(PLANNED_DATA, 1, flags, move |ctx| {
        let at = data.find(ctx.get_raw(0).as_str()?);
        Ok(at.map(|at| DataText(Arc::clone(&data.planned[at].1))))
    })?;
    let written = conn
        .prepare(
            "UPDATE objects SET data = diagtui_planned_data(obj_id), version = ?2 \
             WHERE doc_id = ?1 AND diagtui_planned(obj_id)",
        )
        .and_then(|mut update| update.execute(params![doc_id, version]));
    // Removing the functions drops their share of the plan, which goes back to the caller.
    conn.remove_function(PLANNED, 1)?;
    conn.remove_function(PLANNED_DATA, 1)?;
    *objects = Arc::try_unwrap(lookup)
        .map_err(|_| StoreError::Internal("a plan is still shared after its write".into()))?
        .planned;
    let written = written?;
    if written != objects.len() {
        return Err(StoreError::Internal(format!(
            "a write of {} objects changed {written} rows",
            objects.len()
        )));
    }
    Ok(())
}

/// Finds planned objects by id for a statement that visits a document's rows: each lookup
/// starts where the last one ended, so a pass in id order (asking for each planned row twice)
/// costs a comparison or two per row; rows in any other order are found by a binary search.
struct PlannedLookup {
    planned: Planned,
    /// Just past the object found last.
    next: AtomicUsize,
}

impl PlannedLookup {
    /// Where the planned object with this id is, if it is planned.
    fn find(&self, id: &str) -> Option<usize> {
        let next = self.next.load(Ordering::Relaxed);
        let last = next
            .checked_sub(1)
            .map(|last| self.planned[last].0.as_str());
        let at = match (last, self.planned.get(next)) {
            (Some(last), _) if last == id => return Some(next - 1),
            (_, Some((planned, _))) if planned == id => Some(next),
            (last, planned)
                if last.is_none_or(|last| last < id)
                    && planned.is_none_or(|(planned, _)| id < planned.as_str()) =>
            {
                None
            }
            _ => self
                .planned
                .binary_search_by(|(planned, _)| planned.as_str().cmp(id))
                .ok(),
        };
        if let Some(at) = at {
            self.next.store(at + 1, Ordering::Relaxed);
        }
        at
    }
}

/// An object's data as an SQL value, shared rather than copied until SQLite copies it.
struct DataText(Arc<StoredObject>);

impl ToSql for DataText {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(
            self.0.data().as_bytes(),
        )))
    }
}

/// Deletes one object; whether it existed.
pub fn delete_object(conn: &Connection, doc_id: &str, obj_id: &str) -> StoreResult<bool> {
    let gone = conn
        .prepare_cached("DELETE FROM objects WHERE doc_id = ?1 AND obj_id = ?2")?
        .execute([doc_id, obj_id])?;
    Ok(gone > 0)
}

/// A document's objects as the writer reads them, to plan an update inside its transaction.
pub struct DbObjects<'a> {
    /// The connection.
    pub conn: &'a Connection,
    /// The document.
    pub doc_id: &'a str,
}

impl ObjectSource for DbObjects<'_> {
    fn get(&mut self, obj_id: &str) -> StoreResult<Option<Arc<StoredObject>>> {
        load_object(self.conn, self.doc_id, obj_id)
    }

    fn each(
        &mut self,
        f: &mut dyn FnMut(&str, &Arc<StoredObject>) -> StoreResult<()>,
    ) -> StoreResult<()> {
        each_object(self.conn, self.doc_id, f)
    }
}

#[cfg(test)]
mod tests {
    use super::super::schema::migrate;
    use super::*;

    /// A database whose document `doc` holds `n` empty labels, `0000` on (the document's own
    /// row, its owner and folder left out).
    fn db(n: usize) -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
        for i in 0..n {
            insert_object(&conn, "doc", &format!("{i:04}"), "label", "{}", 0).unwrap();
        }
        conn
    }

    fn object(text: &str) -> Arc<StoredObject> {
        Arc::new(StoredObject::new(Arc::from("label"), text))
    }

    fn rows(conn: &Connection) -> Vec<(String, String)> {
        conn.prepare("SELECT obj_id, data FROM objects ORDER BY obj_id")
            .unwrap()
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn one_pass_and_a_row_at_a_time_write_the_same() {
        // Every other object of 200: one pass when the document's size is known, else by rows.
        for doc_len in [Some(200), None] {
            let conn = db(200);
            let mut objects: Planned = (0..200)
                .step_by(2)
                .map(|i| (format!("{i:04}"), object(&format!(r#"{{"n":{i}}}"#))))
                .collect();
            save_objects(&conn, "doc", &mut objects, doc_len).unwrap();
            assert_eq!(objects.len(), 100, "the plan comes back");
            for (i, (id, data)) in rows(&conn).into_iter().enumerate() {
                assert_eq!(id, format!("{i:04}"));
                let wanted = if i % 2 == 0 {
                    format!(r#"{{"n":{i}}}"#)
                } else {
                    "{}".to_owned()
                };
                assert_eq!(data, wanted, "{doc_len:?}");
            }
        }
    }

    #[test]
    fn a_pass_that_misses_a_planned_object_fails() {
        let conn = db(100);
        let mut objects: Planned = (0..100)
            .map(|i| (format!("{i:04}"), object("{}")))
            .chain([("9999".to_owned(), object("{}"))])
            .collect();
        let failed = save_objects(&conn, "doc", &mut objects, Some(100));
        assert!(matches!(failed, Err(StoreError::Internal(_))), "{failed:?}");
    }

    #[test]
    fn lookups_in_any_order_find_what_is_planned() {
        let lookup = PlannedLookup {
            planned: ["b", "d", "f"]
                .iter()
                .map(|id| (id.to_string(), object("{}")))
                .collect(),
            next: AtomicUsize::new(0),
        };
        for (id, wanted) in [
            ("a", None),
            ("b", Some(0)),
            ("b", Some(0)),
            ("c", None),
            ("f", Some(2)),
            ("d", Some(1)),
            ("e", None),
            ("g", None),
            ("a", None),
            ("b", Some(0)),
        ] {
            assert_eq!(lookup.find(id), wanted, "{id}");
        }
    }
}
