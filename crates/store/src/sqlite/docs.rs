//! Documents in SQLite. An account sees the documents it owns and those shared with it
//! (add-collaborator); both may read, write, retitle, empty, clone and share them. Only the
//! owner may delete one or move it to another folder.

use rusqlite::{Connection, OptionalExtension, params};

use super::accounts::account_by_email;
use super::folders::{first_folder, own_folder};
use crate::change::{DocChange, DocEvent};
use crate::error::{StoreError, StoreResult};
use diagtui_model::ids::new_uuid;
use diagtui_model::{DocDetails, DocSummary, FolderRef, UserRef};

/// The parts of a document row that access checks need.
pub struct DocRow {
    /// The owning account's id.
    pub owner_id: String,
    /// The folder it sits in.
    pub folder_id: String,
}

/// The document if the account may see it; `DocNotFound` otherwise, as if it did not exist.
pub fn visible_doc(conn: &Connection, account_id: &str, doc_id: &str) -> StoreResult<DocRow> {
    conn.prepare_cached(
        "SELECT owner_id, folder_id FROM documents d WHERE d.id = ?1 AND (d.owner_id = ?2 \
         OR EXISTS (SELECT 1 FROM collaborators c WHERE c.doc_id = d.id AND c.account_id = ?2))",
    )?
    .query_row([doc_id, account_id], |row| {
        Ok(DocRow {
            owner_id: row.get(0)?,
            folder_id: row.get(1)?,
        })
    })
    .optional()?
    .ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))
}

/// Records that the document changed at `now` (its new `lastChange`).
pub fn touch(conn: &Connection, doc_id: &str, now: &str) -> StoreResult<()> {
    conn.prepare_cached("UPDATE documents SET last_change = ?1 WHERE id = ?2")?
        .execute(params![now, doc_id])?;
    Ok(())
}

/// Adds an empty document made at `now`; returns its id and the change.
pub fn insert_doc(
    conn: &Connection,
    owner_id: &str,
    folder_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<(String, DocChange)> {
    let id = new_uuid();
    conn.execute(
        "INSERT INTO documents (id, owner_id, folder_id, title, created, last_change) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
        params![id, owner_id, folder_id, title, now],
    )?;
    let event = DocEvent::Created {
        owner_id: owner_id.to_owned(),
        folder_id: folder_id.to_owned(),
    };
    let change = DocChange::event(&id, Some(now.to_owned()), event);
    Ok((id, change))
}

/// The account's owned and shared documents, by title (case-insensitive), then id.
pub fn list_docs(conn: &Connection, account_id: &str) -> StoreResult<Vec<DocSummary>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, title FROM documents WHERE owner_id = ?1 \
         OR id IN (SELECT doc_id FROM collaborators WHERE account_id = ?1) \
         ORDER BY title COLLATE NOCASE, title, id",
    )?;
    let rows = stmt.query_map([account_id], |row| {
        Ok(DocSummary {
            id: row.get(0)?,
            title: row.get(1)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A document's details, if the account may see it.
pub fn doc_details(conn: &Connection, account_id: &str, doc_id: &str) -> StoreResult<DocDetails> {
    visible_doc(conn, account_id, doc_id)?;
    Ok(conn
        .prepare_cached(
            "SELECT d.id, d.title, d.created, d.last_change, a.id, a.email, f.id, f.title, \
         (SELECT COUNT(*) FROM objects o WHERE o.doc_id = d.id) \
         FROM documents d JOIN accounts a ON a.id = d.owner_id \
         JOIN folders f ON f.id = d.folder_id WHERE d.id = ?1",
        )?
        .query_row([doc_id], |row| {
            Ok(DocDetails {
                id: row.get(0)?,
                title: row.get(1)?,
                created: row.get(2)?,
                last_change: row.get(3)?,
                user: UserRef {
                    id: row.get(4)?,
                    email: row.get(5)?,
                },
                folder: FolderRef {
                    id: row.get(6)?,
                    title: row.get(7)?,
                },
                object_count: Some(row.get::<_, i64>(8)? as usize),
            })
        })?)
}

/// Who may see a document: its owner and the accounts it is shared with; `None` when there
/// is no such document.
pub fn access(conn: &Connection, doc_id: &str) -> StoreResult<Option<(String, Vec<String>)>> {
    let Some(owner) = conn
        .prepare_cached("SELECT owner_id FROM documents WHERE id = ?1")?
        .query_row([doc_id], |row| row.get::<_, String>(0))
        .optional()?
    else {
        return Ok(None);
    };
    let collaborators = conn
        .prepare_cached("SELECT account_id FROM collaborators WHERE doc_id = ?1")?
        .query_map([doc_id], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(Some((owner, collaborators)))
}

/// Renames a document (its `lastChange` is set with the batch's).
pub fn rename_doc(
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<DocChange> {
    visible_doc(conn, account_id, doc_id)?;
    conn.execute(
        "UPDATE documents SET title = ?1 WHERE id = ?2",
        params![title, doc_id],
    )?;
    Ok(DocChange::event(
        doc_id,
        Some(now.to_owned()),
        DocEvent::Retitled,
    ))
}

/// Removes every object of a document, keeping the document.
pub fn empty_doc(
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
    now: &str,
) -> StoreResult<DocChange> {
    visible_doc(conn, account_id, doc_id)?;
    conn.execute("DELETE FROM objects WHERE doc_id = ?1", [doc_id])?;
    Ok(DocChange::event(
        doc_id,
        Some(now.to_owned()),
        DocEvent::Emptied,
    ))
}

/// Copies a document and its content under a new title. The copy belongs to the caller: in
/// the original's folder when the caller owns it, else in the caller's first folder.
pub fn clone_doc(
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<(String, DocChange)> {
    let source = visible_doc(conn, account_id, doc_id)?;
    let folder_id = if source.owner_id == account_id {
        source.folder_id
    } else {
        first_folder(conn, account_id)?.id
    };
    let (id, change) = insert_doc(conn, account_id, &folder_id, title, now)?;
    conn.execute(
        "INSERT INTO objects (doc_id, obj_id, type, data, version) \
         SELECT ?1, obj_id, type, data, 1 FROM objects WHERE doc_id = ?2",
        [&id, doc_id],
    )?;
    Ok((id, change))
}

/// A document's version: its history's head, 0 before its history began.
pub fn doc_version(conn: &Connection, doc_id: &str) -> StoreResult<u64> {
    let head: Option<i64> = conn
        .prepare_cached("SELECT head FROM history_heads WHERE doc_id = ?1")?
        .query_row([doc_id], |row| row.get(0))
        .optional()?;
    Ok(head.unwrap_or(0) as u64)
}

/// Shares a document with the account that has this e-mail address. Sharing with the owner
/// or with an account that has it already changes only `lastChange`.
pub fn share(
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
    email: &str,
    now: &str,
) -> StoreResult<DocChange> {
    let doc = visible_doc(conn, account_id, doc_id)?;
    let other =
        account_by_email(conn, email)?.ok_or_else(|| StoreError::UserNotFound(email.to_owned()))?;
    if other.id != doc.owner_id {
        conn.execute(
            "INSERT OR IGNORE INTO collaborators (doc_id, account_id) VALUES (?1, ?2)",
            [doc_id, &other.id],
        )?;
    }
    let event = DocEvent::Shared {
        account_id: other.id,
    };
    Ok(DocChange::event(doc_id, Some(now.to_owned()), event))
}

/// Moves a document into another of the account's folders. Only its owner may. `None` when it
/// is in that folder already (nothing changes).
pub fn move_doc(
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
    folder_id: &str,
    now: &str,
) -> StoreResult<Option<(FolderRef, DocChange)>> {
    let doc = visible_doc(conn, account_id, doc_id)?;
    if doc.owner_id != account_id {
        return Err(StoreError::Forbidden(
            "only the owner can move a document".into(),
        ));
    }
    let folder = own_folder(conn, account_id, folder_id)?;
    if doc.folder_id == folder.id {
        return Ok(None);
    }
    conn.execute(
        "UPDATE documents SET folder_id = ?1 WHERE id = ?2",
        params![folder.id, doc_id],
    )?;
    let event = DocEvent::Moved {
        folder_id: folder.id.clone(),
    };
    Ok(Some((
        folder,
        DocChange::event(doc_id, Some(now.to_owned()), event),
    )))
}

/// Deletes a document and all its content. Only its owner may.
pub fn delete_doc(conn: &Connection, account_id: &str, doc_id: &str) -> StoreResult<DocChange> {
    let doc = visible_doc(conn, account_id, doc_id)?;
    if doc.owner_id != account_id {
        return Err(StoreError::Forbidden(
            "only the owner can delete a document".into(),
        ));
    }
    conn.execute("DELETE FROM documents WHERE id = ?1", [doc_id])?;
    Ok(DocChange::event(doc_id, None, DocEvent::Deleted))
}
