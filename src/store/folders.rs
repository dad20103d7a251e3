//! Folders: flat, owned by one account, the first one (oldest) being the default.

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Account, Store, StoreError, StoreResult};
use crate::model::ids::new_uuid;
use crate::model::{FolderEntry, FolderList, FolderRef};

/// Checks a document or folder title: any text but empty or all white space.
pub(super) fn check_title(title: &str) -> StoreResult<()> {
    if title.trim().is_empty() {
        Err(StoreError::Invalid("title: must not be empty".into()))
    } else {
        Ok(())
    }
}

/// Adds a folder for an account; returns its id.
pub(super) fn insert_folder(
    tx: &Transaction<'_>,
    account_id: &str,
    title: &str,
) -> StoreResult<String> {
    check_title(title)?;
    let id = new_uuid();
    tx.execute(
        "INSERT INTO folders (id, account_id, title) VALUES (?1, ?2, ?3)",
        params![id, account_id, title],
    )?;
    Ok(id)
}

/// The account's first (oldest) folder.
pub(super) fn first_folder(tx: &Transaction<'_>, account_id: &str) -> StoreResult<FolderRef> {
    tx.query_row(
        "SELECT id, title FROM folders WHERE account_id = ?1 ORDER BY seq LIMIT 1",
        [account_id],
        |row| {
            Ok(FolderRef {
                id: row.get(0)?,
                title: row.get(1)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| StoreError::Internal(format!("account {account_id} has no folder")))
}

/// One of the account's own folders, or `FolderNotFound`.
pub(super) fn own_folder(
    tx: &Transaction<'_>,
    account_id: &str,
    folder_id: &str,
) -> StoreResult<FolderRef> {
    tx.query_row(
        "SELECT id, title FROM folders WHERE account_id = ?1 AND id = ?2",
        [account_id, folder_id],
        |row| {
            Ok(FolderRef {
                id: row.get(0)?,
                title: row.get(1)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| StoreError::FolderNotFound(folder_id.to_owned()))
}

impl Store {
    /// The account's folders with the documents it owns in each.
    pub fn list_folders(&self, account: &Account) -> StoreResult<FolderList> {
        self.read(|tx| {
            let mut list = FolderList::new();
            let mut stmt =
                tx.prepare("SELECT id, title FROM folders WHERE account_id = ?1 ORDER BY seq")?;
            let rows = stmt.query_map([&account.id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?;
            for row in rows {
                let (id, title) = row?;
                list.insert(
                    id,
                    FolderEntry {
                        title,
                        docs: Default::default(),
                    },
                );
            }
            let mut stmt =
                tx.prepare("SELECT folder_id, id, title FROM documents WHERE owner_id = ?1")?;
            let rows = stmt.query_map([&account.id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })?;
            for row in rows {
                let (folder, id, title) = row?;
                if let Some(entry) = list.get_mut(&folder) {
                    entry.docs.insert(id, title);
                }
            }
            Ok(list)
        })
    }

    /// Adds a folder to the account; returns its id.
    pub fn create_folder(&self, account: &Account, title: &str) -> StoreResult<String> {
        self.write(|tx| insert_folder(tx, &account.id, title))
    }

    /// Renames one of the account's folders.
    pub fn change_folder_title(
        &self,
        account: &Account,
        folder_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        check_title(title)?;
        self.write(|tx| {
            own_folder(tx, &account.id, folder_id)?;
            tx.execute(
                "UPDATE folders SET title = ?1 WHERE id = ?2",
                params![title, folder_id],
            )?;
            Ok(())
        })
    }

    /// Deletes one of the account's folders and every document in it. The last folder stays:
    /// an account always has one to create documents in.
    pub fn delete_folder(&self, account: &Account, folder_id: &str) -> StoreResult<()> {
        self.write(|tx| {
            own_folder(tx, &account.id, folder_id)?;
            let count: i64 = tx.query_row(
                "SELECT COUNT(*) FROM folders WHERE account_id = ?1",
                [&account.id],
                |row| row.get(0),
            )?;
            if count <= 1 {
                return Err(StoreError::Invalid(
                    "folderId: the account's last folder cannot be deleted".into(),
                ));
            }
            tx.execute("DELETE FROM documents WHERE folder_id = ?1", [folder_id])?;
            tx.execute("DELETE FROM folders WHERE id = ?1", [folder_id])?;
            Ok(())
        })
    }
}
