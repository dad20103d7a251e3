//! Documents: listing, details, create, retitle, empty, clone, share, delete.
//!
//! An account sees the documents it owns and those shared with it (add-collaborator); both
//! may read, write, retitle, empty, clone and share them. Only the owner may delete one.

use rusqlite::{OptionalExtension, Transaction, params};

use super::folders::{check_title, first_folder, own_folder};
use super::{Account, Store, StoreError, StoreResult, accounts};
use crate::model::ids::{new_uuid, now_timestamp};
use crate::model::{DocDetails, DocSummary, FolderRef, UserRef};

/// The parts of a document row that access checks need.
pub(super) struct DocRow {
    /// The document id.
    pub id: String,
    /// The owning account's id.
    pub owner_id: String,
    /// The folder it sits in.
    pub folder_id: String,
}

/// The document if the account may see it; `DocNotFound` otherwise, as if it did not exist.
pub(super) fn visible_doc(
    tx: &Transaction<'_>,
    account: &Account,
    doc_id: &str,
) -> StoreResult<DocRow> {
    tx.query_row(
        "SELECT id, owner_id, folder_id FROM documents d WHERE d.id = ?1 AND (d.owner_id = ?2 \
         OR EXISTS (SELECT 1 FROM collaborators c WHERE c.doc_id = d.id AND c.account_id = ?2))",
        [doc_id, &account.id],
        |row| {
            Ok(DocRow {
                id: row.get(0)?,
                owner_id: row.get(1)?,
                folder_id: row.get(2)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| StoreError::DocNotFound(doc_id.to_owned()))
}

/// Records that the document changed now.
pub(super) fn touch(tx: &Transaction<'_>, doc_id: &str) -> StoreResult<()> {
    tx.execute(
        "UPDATE documents SET last_change = ?1 WHERE id = ?2",
        params![now_timestamp(), doc_id],
    )?;
    Ok(())
}

/// Adds an empty document; returns its id.
pub(super) fn insert_doc(
    tx: &Transaction<'_>,
    owner_id: &str,
    folder_id: &str,
    title: &str,
) -> StoreResult<String> {
    check_title(title)?;
    let id = new_uuid();
    let now = now_timestamp();
    tx.execute(
        "INSERT INTO documents (id, owner_id, folder_id, title, created, last_change) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
        params![id, owner_id, folder_id, title, now],
    )?;
    Ok(id)
}

impl Store {
    /// The documents the account owns or has been shared, ordered by title (case-insensitive),
    /// then id.
    pub fn list_docs(&self, account: &Account) -> StoreResult<Vec<DocSummary>> {
        self.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, title FROM documents WHERE owner_id = ?1 \
                 OR id IN (SELECT doc_id FROM collaborators WHERE account_id = ?1) \
                 ORDER BY title COLLATE NOCASE, title, id",
            )?;
            let rows = stmt.query_map([&account.id], |row| {
                Ok(DocSummary {
                    id: row.get(0)?,
                    title: row.get(1)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// A document's details.
    pub fn doc_details(&self, account: &Account, doc_id: &str) -> StoreResult<DocDetails> {
        self.read(|tx| {
            visible_doc(tx, account, doc_id)?;
            Ok(tx.query_row(
                "SELECT d.id, d.title, d.created, d.last_change, a.id, a.email, f.id, f.title, \
                 (SELECT COUNT(*) FROM objects o WHERE o.doc_id = d.id) \
                 FROM documents d JOIN accounts a ON a.id = d.owner_id \
                 JOIN folders f ON f.id = d.folder_id WHERE d.id = ?1",
                [doc_id],
                |row| {
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
                },
            )?)
        })
    }

    /// Creates an empty document in the given folder of the account, or its first folder.
    pub fn create_doc(
        &self,
        account: &Account,
        title: &str,
        folder_id: Option<&str>,
    ) -> StoreResult<String> {
        self.write(|tx| {
            let folder = match folder_id {
                Some(id) => own_folder(tx, &account.id, id)?,
                None => first_folder(tx, &account.id)?,
            };
            insert_doc(tx, &account.id, &folder.id, title)
        })
    }

    /// Renames a document.
    pub fn change_doc_title(
        &self,
        account: &Account,
        doc_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        check_title(title)?;
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            tx.execute(
                "UPDATE documents SET title = ?1, last_change = ?2 WHERE id = ?3",
                params![title, now_timestamp(), doc_id],
            )?;
            Ok(())
        })
    }

    /// Removes every object of a document, keeping the document.
    pub fn empty_doc(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.write(|tx| {
            visible_doc(tx, account, doc_id)?;
            tx.execute("DELETE FROM objects WHERE doc_id = ?1", [doc_id])?;
            touch(tx, doc_id)
        })
    }

    /// Copies a document and its content under a new title. The copy belongs to the caller: in
    /// the original's folder when the caller owns it, else in the caller's first folder.
    pub fn clone_doc(&self, account: &Account, doc_id: &str, title: &str) -> StoreResult<String> {
        self.write(|tx| {
            let source = visible_doc(tx, account, doc_id)?;
            let folder_id = if source.owner_id == account.id {
                source.folder_id
            } else {
                first_folder(tx, &account.id)?.id
            };
            let id = insert_doc(tx, &account.id, &folder_id, title)?;
            tx.execute(
                "INSERT INTO objects (doc_id, obj_id, type, data) \
                 SELECT ?1, obj_id, type, data FROM objects WHERE doc_id = ?2",
                [&id, &source.id],
            )?;
            Ok(id)
        })
    }

    /// Shares a document with the account that has this e-mail address. Sharing with the
    /// owner or with an account that already has it changes nothing.
    pub fn add_collaborator(
        &self,
        account: &Account,
        doc_id: &str,
        email: &str,
    ) -> StoreResult<()> {
        self.write(|tx| {
            let doc = visible_doc(tx, account, doc_id)?;
            let other = accounts::account_by_email(tx, email)?
                .ok_or_else(|| StoreError::UserNotFound(email.to_owned()))?;
            if other.id != doc.owner_id {
                tx.execute(
                    "INSERT OR IGNORE INTO collaborators (doc_id, account_id) VALUES (?1, ?2)",
                    [&doc.id, &other.id],
                )?;
            }
            touch(tx, &doc.id)
        })
    }

    /// Deletes a document and all its content. Only its owner may.
    pub fn delete_doc(&self, account: &Account, doc_id: &str) -> StoreResult<()> {
        self.write(|tx| {
            let doc = visible_doc(tx, account, doc_id)?;
            if doc.owner_id != account.id {
                return Err(StoreError::Forbidden(
                    "only the owner can delete a document".into(),
                ));
            }
            tx.execute("DELETE FROM documents WHERE id = ?1", [doc_id])?;
            Ok(())
        })
    }
}
