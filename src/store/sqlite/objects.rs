//! Objects in SQLite: one row each, keyed by `(doc_id, obj_id)`, so reading or changing one
//! object costs the same whatever the size of its document.

use std::collections::BTreeMap;
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::StoreResult;
use crate::store::object::{Kinds, StoredObject};
use crate::store::plan::ObjectSource;

/// One object, if the document has it.
pub fn load_object(
    conn: &Connection,
    doc_id: &str,
    obj_id: &str,
) -> StoreResult<Option<Arc<StoredObject>>> {
    Ok(conn
        .prepare_cached("SELECT type, data FROM objects WHERE doc_id = ?1 AND obj_id = ?2")?
        .query_row([doc_id, obj_id], |row| {
            let kind = row.get_ref(0)?.as_str()?;
            let data = row.get_ref(1)?.as_str()?;
            Ok(Arc::new(StoredObject::new(Arc::from(kind), data)))
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
        "SELECT obj_id, type, data FROM objects WHERE doc_id = ?1 ORDER BY obj_id",
    )?;
    let mut rows = stmt.query([doc_id])?;
    let mut kinds = Kinds::default();
    while let Some(row) = rows.next()? {
        let kind = kinds.get(row.get_ref(1)?.as_str()?);
        let object = StoredObject::new(kind, row.get_ref(2)?.as_str()?);
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

/// Adds one object.
pub fn insert_object(
    conn: &Connection,
    doc_id: &str,
    obj_id: &str,
    kind: &str,
    data: &str,
) -> StoreResult<()> {
    conn.prepare_cached(
        "INSERT INTO objects (doc_id, obj_id, type, data) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![doc_id, obj_id, kind, data])?;
    Ok(())
}

/// Writes one object's data.
pub fn save_object(conn: &Connection, doc_id: &str, obj_id: &str, data: &str) -> StoreResult<()> {
    conn.prepare_cached("UPDATE objects SET data = ?1 WHERE doc_id = ?2 AND obj_id = ?3")?
        .execute(params![data, doc_id, obj_id])?;
    Ok(())
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
