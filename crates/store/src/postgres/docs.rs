//! Documents in PostgreSQL, with the same rules as the SQLite engine's: an account sees the
//! documents it owns and those shared with it; only the owner may delete one or move it.

use deadpool_postgres::GenericClient;

use super::accounts::account_by_email;
use super::folders::{first_folder, own_folder};
use super::sql::{execute, query, query_opt};
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

/// The condition that document `d` is visible to account `$2`: it owns it, or it is shared
/// with it.
macro_rules! visible_to {
    () => {
        "(d.owner_id = $2 OR EXISTS \
         (SELECT 1 FROM collaborators c WHERE c.doc_id = d.id AND c.account_id = $2))"
    };
}
pub(super) use visible_to;

/// The document if the account may see it; `DocNotFound` otherwise, as if it did not exist.
pub async fn visible_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<DocRow> {
    query_opt(
        c,
        concat!(
            "SELECT owner_id, folder_id FROM documents d WHERE d.id = $1 AND ",
            visible_to!()
        ),
        &[&doc_id, &account_id],
    )
    .await?
    .map(|row| DocRow {
        owner_id: row.get(0),
        folder_id: row.get(1),
    })
    .ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))
}

/// Adds an empty document made at `now`; returns its id and the change.
pub async fn insert_doc(
    c: &impl GenericClient,
    owner_id: &str,
    folder_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<(String, DocChange)> {
    let id = new_uuid();
    execute(
        c,
        "INSERT INTO documents (id, owner_id, folder_id, title, created, last_change) \
         VALUES ($1, $2, $3, $4, $5, $5)",
        &[&id, &owner_id, &folder_id, &title, &now],
    )
    .await?;
    let event = DocEvent::Created {
        owner_id: owner_id.to_owned(),
        folder_id: folder_id.to_owned(),
    };
    let change = DocChange::event(&id, Some(now.to_owned()), event);
    Ok((id, change))
}

/// The account's owned and shared documents, by title (case-insensitive), then id.
pub async fn list_docs(c: &impl GenericClient, account_id: &str) -> StoreResult<Vec<DocSummary>> {
    let rows = query(
        c,
        r#"SELECT id, title FROM documents WHERE owner_id = $1
           OR id IN (SELECT doc_id FROM collaborators WHERE account_id = $1)
           ORDER BY lower(title) COLLATE "C", title COLLATE "C", id"#,
        &[&account_id],
    )
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| DocSummary {
            id: row.get(0),
            title: row.get(1),
        })
        .collect())
}

/// A document's details, if the account may see it.
pub async fn doc_details(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<DocDetails> {
    let row = query_opt(
        c,
        "SELECT d.id, d.title, d.created, d.last_change, a.id, a.email, f.id, f.title, \
         (SELECT COUNT(*) FROM objects o WHERE o.doc_id = d.id) \
         FROM documents d JOIN accounts a ON a.id = d.owner_id \
         JOIN folders f ON f.id = d.folder_id WHERE d.id = $1 AND (d.owner_id = $2 \
         OR EXISTS (SELECT 1 FROM collaborators c WHERE c.doc_id = d.id AND c.account_id = $2))",
        &[&doc_id, &account_id],
    )
    .await?
    .ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))?;
    Ok(DocDetails {
        id: row.get(0),
        title: row.get(1),
        created: row.get(2),
        last_change: row.get(3),
        user: UserRef {
            id: row.get(4),
            email: row.get(5),
        },
        folder: FolderRef {
            id: row.get(6),
            title: row.get(7),
        },
        object_count: Some(row.get::<_, i64>(8) as usize),
    })
}

/// Who may see a document: its owner and the accounts it is shared with; `None` when there
/// is no such document.
pub async fn access(
    c: &impl GenericClient,
    doc_id: &str,
) -> StoreResult<Option<(String, Vec<String>)>> {
    let row = query_opt(
        c,
        "SELECT owner_id, ARRAY(SELECT account_id FROM collaborators WHERE doc_id = $1) \
         FROM documents WHERE id = $1",
        &[&doc_id],
    )
    .await?;
    Ok(row.map(|row| (row.get(0), row.get(1))))
}

/// Renames a document (its `lastChange` is set with the batch's).
pub async fn rename_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<DocChange> {
    visible_doc(c, account_id, doc_id).await?;
    execute(
        c,
        "UPDATE documents SET title = $1 WHERE id = $2",
        &[&title, &doc_id],
    )
    .await?;
    Ok(DocChange::event(
        doc_id,
        Some(now.to_owned()),
        DocEvent::Retitled,
    ))
}

/// Removes every object of a document, keeping the document.
pub async fn empty_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    now: &str,
) -> StoreResult<DocChange> {
    visible_doc(c, account_id, doc_id).await?;
    execute(c, "DELETE FROM objects WHERE doc_id = $1", &[&doc_id]).await?;
    Ok(DocChange::event(
        doc_id,
        Some(now.to_owned()),
        DocEvent::Emptied,
    ))
}

/// Copies a document and its content under a new title. The copy belongs to the caller: in
/// the original's folder when the caller owns it, else in the caller's first folder.
pub async fn clone_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    title: &str,
    now: &str,
) -> StoreResult<(String, DocChange)> {
    let source = visible_doc(c, account_id, doc_id).await?;
    let folder_id = if source.owner_id == account_id {
        source.folder_id
    } else {
        first_folder(c, account_id).await?.id
    };
    let (id, change) = insert_doc(c, account_id, &folder_id, title, now).await?;
    execute(
        c,
        "INSERT INTO objects (doc_id, obj_id, type, data, version) \
         SELECT $1, obj_id, type, data, 1 FROM objects WHERE doc_id = $2",
        &[&id, &doc_id],
    )
    .await?;
    Ok((id, change))
}

/// A document's version: its history's head, 0 before its history began.
pub async fn doc_version(c: &impl GenericClient, doc_id: &str) -> StoreResult<u64> {
    let row = query_opt(
        c,
        "SELECT head FROM history_heads WHERE doc_id = $1",
        &[&doc_id],
    )
    .await?;
    Ok(row.map_or(0, |row| row.get::<_, i64>(0)) as u64)
}

/// Shares a document with the account that has this e-mail address. Sharing with the owner
/// or with an account that has it already changes only `lastChange`.
pub async fn share(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    email: &str,
    now: &str,
) -> StoreResult<DocChange> {
    let doc = visible_doc(c, account_id, doc_id).await?;
    let other = account_by_email(c, email)
        .await?
        .ok_or_else(|| StoreError::UserNotFound(email.to_owned()))?;
    if other.id != doc.owner_id {
        execute(
            c,
            "INSERT INTO collaborators (doc_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&doc_id, &other.id],
        )
        .await?;
    }
    let event = DocEvent::Shared {
        account_id: other.id,
    };
    Ok(DocChange::event(doc_id, Some(now.to_owned()), event))
}

/// Moves a document into another of the account's folders. Only its owner may. `None` when it
/// is in that folder already (nothing changes).
pub async fn move_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
    folder_id: &str,
    now: &str,
) -> StoreResult<Option<(FolderRef, DocChange)>> {
    let doc = visible_doc(c, account_id, doc_id).await?;
    if doc.owner_id != account_id {
        return Err(StoreError::Forbidden(
            "only the owner can move a document".into(),
        ));
    }
    let folder = own_folder(c, account_id, folder_id).await?;
    if doc.folder_id == folder.id {
        return Ok(None);
    }
    execute(
        c,
        "UPDATE documents SET folder_id = $1 WHERE id = $2",
        &[&folder.id, &doc_id],
    )
    .await?;
    let event = DocEvent::Moved {
        folder_id: folder.id.clone(),
    };
    Ok(Some((
        folder,
        DocChange::event(doc_id, Some(now.to_owned()), event),
    )))
}

/// Deletes a document and all its content. Only its owner may.
pub async fn delete_doc(
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<DocChange> {
    let doc = visible_doc(c, account_id, doc_id).await?;
    if doc.owner_id != account_id {
        return Err(StoreError::Forbidden(
            "only the owner can delete a document".into(),
        ));
    }
    execute(c, "DELETE FROM documents WHERE id = $1", &[&doc_id]).await?;
    Ok(DocChange::event(doc_id, None, DocEvent::Deleted))
}
