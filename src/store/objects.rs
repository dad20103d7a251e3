//! Objects: one row each, keyed by `(doc_id, obj_id)`, so reading or changing one object costs
//! the same whatever the size of its document. Whole-content reads are streamed into JSON text
//! straight from the stored rows, without parsing each object's data.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rusqlite::{OptionalExtension, Transaction, params};
use serde_json::Value;

use super::docs::{touch, visible_doc};
use super::{Account, Store, StoreError, StoreResult};
use crate::model::ids::new_object_id;
use crate::model::props::{complete, merge, new_object_data, validate_for};
use crate::model::{DiagramObject, ObjectType, Props, Selector};

/// Checks properties given for an object whose type is `kind` (a wire name), as one message.
fn check_props(kind: &str, props: &Props, creating: bool) -> Result<(), String> {
    let problems = validate_for(kind, props, creating);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "))
    }
}

/// An object's data read for its `meta` alone: the other properties are skipped, not built.
#[derive(serde::Deserialize)]
struct MetaOnly {
    #[serde(default)]
    meta: Option<Value>,
}

/// Whether the object whose data text is `data` matches the selector.
fn matches(selector: &Selector, data: &str) -> StoreResult<bool> {
    let MetaOnly { meta } = serde_json::from_str(data)?;
    Ok(selector.matches(meta.as_ref().and_then(Value::as_object)))
}

/// Checks properties by their names alone (the rules that hold whatever the type).
fn check_each_named(props: &Props) -> StoreResult<()> {
    check_props("", props, false).map_err(StoreError::Invalid)
}

/// Reads one object's stored type and data.
fn load(tx: &Transaction<'_>, doc_id: &str, obj_id: &str) -> StoreResult<(String, Props)> {
    let row: Option<(String, String)> = tx
        .prepare_cached("SELECT type, data FROM objects WHERE doc_id = ?1 AND obj_id = ?2")?
        .query_row([doc_id, obj_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let (kind, data) = row.ok_or_else(|| StoreError::ObjNotFound(obj_id.to_owned()))?;
    Ok((kind, serde_json::from_str(&data)?))
}

/// Writes one object's data.
fn save(tx: &Transaction<'_>, doc_id: &str, obj_id: &str, data: &Props) -> StoreResult<()> {
    tx.prepare_cached("UPDATE objects SET data = ?1 WHERE doc_id = ?2 AND obj_id = ?3")?
        .execute(params![serde_json::to_string(data)?, doc_id, obj_id])?;
    Ok(())
}

/// Adds one object.
fn insert(
    tx: &Transaction<'_>,
    doc_id: &str,
    obj_id: &str,
    kind: &str,
    data: &str,
) -> StoreResult<()> {
    tx.prepare_cached("INSERT INTO objects (doc_id, obj_id, type, data) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![doc_id, obj_id, kind, data])?;
    Ok(())
}

/// Validates `props` against an object, merges them in (non-recursively), completes missing
/// defaults and saves it. `label` prefixes any validation message.
fn apply(
    tx: &Transaction<'_>,
    doc_id: &str,
    obj_id: &str,
    props: &Props,
    label: Option<&str>,
) -> StoreResult<()> {
    let (kind, data) = load(tx, doc_id, obj_id)?;
    apply_to(tx, doc_id, obj_id, &kind, data, props, label)
}

/// [`apply`] on an object already loaded as `kind` and `data`.
fn apply_to(
    tx: &Transaction<'_>,
    doc_id: &str,
    obj_id: &str,
    kind: &str,
    mut data: Props,
    props: &Props,
    label: Option<&str>,
) -> StoreResult<()> {
    check_props(kind, props, false).map_err(|msg| {
        StoreError::Invalid(match label {
            Some(label) => format!("{label}: {msg}"),
            None => msg,
        })
    })?;
    merge(&mut data, props);
    if let Ok(kind) = kind.parse::<ObjectType>() {
        complete(kind, &mut data);
    }
    save(tx, doc_id, obj_id, &data)
}

/// The objects of a document whose data text `keep` accepts, as a JSON map text in id order,
/// written straight from the stored rows.
fn objects_json(
    tx: &Transaction<'_>,
    doc_id: &str,
    mut keep: impl FnMut(&str) -> StoreResult<bool>,
) -> StoreResult<String> {
    let mut stmt = tx.prepare_cached(
        "SELECT obj_id, type, data FROM objects WHERE doc_id = ?1 ORDER BY obj_id",
    )?;
    let mut rows = stmt.query([doc_id])?;
    let mut out = String::from("{");
    while let Some(row) = rows.next()? {
        let data = row.get_ref(2)?.as_str()?;
        if keep(data)? {
            push_entry(
                &mut out,
                row.get_ref(0)?.as_str()?,
                row.get_ref(1)?.as_str()?,
                data,
            )?;
        }
    }
    out.push('}');
    Ok(out)
}

/// Appends `"id":{"type":...,"data":...}` to a JSON map being written.
fn push_entry(out: &mut String, obj_id: &str, kind: &str, data: &str) -> StoreResult<()> {
    if out.len() > 1 {
        out.push(',');
    }
    write!(
        out,
        "{}:{{\"type\":{},\"data\":{data}}}",
        serde_json::to_string(obj_id)?,
        serde_json::to_string(kind)?
    )
    .expect("writing to a String cannot fail");
    Ok(())
}

impl Store {
    /// One object.
    pub fn get_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
    ) -> StoreResult<DiagramObject> {
        self.read(|tx| {
            visible_doc(tx, account, doc_id)?;
            let (kind, data) = load(tx, doc_id, obj_id)?;
            Ok(DiagramObject { kind, data })
        })
    }

    /// The whole content as a JSON map text, objects in id order.
    pub fn content_json(&self, account: &Account, doc_id: &str) -> StoreResult<String> {
        self.read(|tx| {
            visible_doc(tx, account, doc_id)?;
            objects_json(tx, doc_id, |_| Ok(true))
        })
    }

    /// The objects whose `meta` matches the selector, as a JSON map text in id order.
    pub fn select_json(
        &self,
        account: &Account,
        doc_id: &str,
        selector: &Selector,
    ) -> StoreResult<String> {
        self.read(|tx| {
            visible_doc(tx, account, doc_id)?;
            objects_json(tx, doc_id, |data| matches(selector, data))
        })
    }

    /// Creates an object of a type (wire name) from properties over the type's defaults;
    /// returns its new id.
    pub fn create_object(
        &self,
        account: &Account,
        doc_id: &str,
        kind: &str,
        props: &Props,
    ) -> StoreResult<String> {
        let kind: ObjectType = kind
            .parse()
            .map_err(|e: crate::model::PropertyProblem| StoreError::Invalid(e.to_string()))?;
        check_props(kind.as_str(), props, true).map_err(StoreError::Invalid)?;
        let data = serde_json::to_string(&new_object_data(kind, props))?;
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            let id = new_object_id();
            insert(tx, doc_id, &id, kind.as_str(), &data)?;
            touch(tx, doc_id)?;
            Ok(id)
        })
    }

    /// Merges properties into one object.
    pub fn update_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        props: &Props,
    ) -> StoreResult<()> {
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            apply(tx, doc_id, obj_id, props, None)?;
            touch(tx, doc_id)
        })
    }

    /// Merges each object's own properties into it: all objects or none. An object id that
    /// does not exist fails the whole request.
    pub fn bulk_update(
        &self,
        account: &Account,
        doc_id: &str,
        objects: &BTreeMap<String, Props>,
    ) -> StoreResult<()> {
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            for (obj_id, props) in objects {
                apply(
                    tx,
                    doc_id,
                    obj_id,
                    props,
                    Some(&format!("objects.{obj_id}")),
                )?;
            }
            touch(tx, doc_id)
        })
    }

    /// Merges properties into every object whose `meta` matches: all or none. Returns the
    /// ids of the updated objects, in id order.
    pub fn selector_update(
        &self,
        account: &Account,
        doc_id: &str,
        selector: &Selector,
        props: &Props,
    ) -> StoreResult<Vec<String>> {
        // Props are checked by name up front, so that a selector matching nothing still
        // refuses bad props; the per-object check adds only the per-type rules.
        check_each_named(props)?;
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            let mut matched = Vec::new();
            {
                let mut stmt = tx.prepare_cached(
                    "SELECT obj_id, type, data FROM objects WHERE doc_id = ?1 ORDER BY obj_id",
                )?;
                let mut rows = stmt.query([doc_id])?;
                while let Some(row) = rows.next()? {
                    let text = row.get_ref(2)?.as_str()?;
                    if matches(selector, text)? {
                        let data: Props = serde_json::from_str(text)?;
                        matched.push((row.get::<_, String>(0)?, row.get::<_, String>(1)?, data));
                    }
                }
            }
            let mut ids = Vec::with_capacity(matched.len());
            for (obj_id, kind, data) in matched {
                let label = format!("object {obj_id}");
                apply_to(tx, doc_id, &obj_id, &kind, data, props, Some(&label))?;
                ids.push(obj_id);
            }
            touch(tx, doc_id)?;
            Ok(ids)
        })
    }

    /// Deletes one object.
    pub fn delete_object(&self, account: &Account, doc_id: &str, obj_id: &str) -> StoreResult<()> {
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            let gone = tx.execute(
                "DELETE FROM objects WHERE doc_id = ?1 AND obj_id = ?2",
                [doc_id, obj_id],
            )?;
            if gone == 0 {
                return Err(StoreError::ObjNotFound(obj_id.to_owned()));
            }
            touch(tx, doc_id)
        })
    }

    /// Replaces the whole content. The data is stored as given (not validated or completed),
    /// but the content must be a map of object id to `{type: string, data: object}`.
    pub fn set_content(&self, account: &Account, doc_id: &str, content: &Value) -> StoreResult<()> {
        let rows = content_rows(content)?;
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            tx.execute("DELETE FROM objects WHERE doc_id = ?1", [doc_id])?;
            for (obj_id, kind, data) in &rows {
                insert(tx, doc_id, obj_id, kind, data)?;
            }
            touch(tx, doc_id)
        })
    }
}

/// Checks a set-content body and turns it into rows `(obj_id, type, data text)`.
fn content_rows(content: &Value) -> StoreResult<Vec<(String, String, String)>> {
    let Value::Object(map) = content else {
        return Err(StoreError::Invalid(format!(
            "content: must be a map of object id to {{type, data}}, got {}",
            crate::model::selector::json_kind(content)
        )));
    };
    map.iter()
        .map(|(obj_id, entry)| {
            let invalid = |what: &str| StoreError::Invalid(format!("content.{obj_id}: {what}"));
            if obj_id.is_empty() {
                return Err(invalid("an object id must not be empty"));
            }
            let Some(entry) = entry.as_object() else {
                return Err(invalid("must be an object {type, data}"));
            };
            let Some(Value::String(kind)) = entry.get("type") else {
                return Err(invalid("type must be a string"));
            };
            let Some(data @ Value::Object(_)) = entry.get("data") else {
                return Err(invalid("data must be an object"));
            };
            Ok((obj_id.clone(), kind.clone(), serde_json::to_string(data)?))
        })
        .collect()
}

/// Imports content into a new document inside a transaction (used to seed sample documents).
pub(super) fn import(tx: &Transaction<'_>, doc_id: &str, content: &Value) -> StoreResult<()> {
    for (obj_id, kind, data) in content_rows(content)? {
        insert(tx, doc_id, &obj_id, &kind, &data)?;
    }
    Ok(())
}
