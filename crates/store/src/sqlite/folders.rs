//! Folders in SQLite: flat, owned by one account, the first one (oldest) being the default.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{StoreError, StoreResult};
use diagtui_model::ids::new_uuid;
use diagtui_model::{FolderEntry, FolderList, FolderRef};

/// Adds a folder for an account; returns its id.
pub fn insert_folder(conn: &Connection, account_id: &str, title: &str) -> StoreResult<String> {
    let id = new_uuid();
    conn.execute(
        "INSERT INTO folders (id, account_id, title) VALUES (?1, ?2, ?3)",
        params![id, account_id, title],
    )?;
    Ok(id)
}

/// A folder row read by `sql`, whose parameters are `params`.
fn folder_ref(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> StoreResult<Option<FolderRef>> {
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params, |row| {
            Ok(FolderRef {
                id: row.get(0)?,
                title: row.get(1)?,
            })
        })
        .optional()?)
}

/// The account's first (oldest) folder.
pub fn first_folder(conn: &Connection, account_id: &str) -> StoreResult<FolderRef> {
    folder_ref(
        conn,
        "SELECT id, title FROM folders WHERE account_id = ?1 ORDER BY seq LIMIT 1",
        [account_id],
    )?
    .ok_or_else(|| StoreError::Internal(format!("account {account_id} has no folder")))
}

/// One of the account's own folders, or `FolderNotFound`.
pub fn own_folder(conn: &Connection, account_id: &str, folder_id: &str) -> StoreResult<FolderRef> {
    folder_ref(
        conn,
        "SELECT id, title FROM folders WHERE account_id = ?1 AND id = ?2",
        [account_id, folder_id],
    )?
    .ok_or_else(|| StoreError::FolderNotFound(folder_id.to_owned()))
}

/// The account's folders with the documents it owns in each.
pub fn list_folders(conn: &Connection, account_id: &str) -> StoreResult<FolderList> {
    let mut list = FolderList::new();
    let mut stmt =
        conn.prepare_cached("SELECT id, title FROM folders WHERE account_id = ?1 ORDER BY seq")?;
    let rows = stmt.query_map([account_id], |row| {
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
        conn.prepare_cached("SELECT folder_id, id, title FROM documents WHERE owner_id = ?1")?;
    let rows = stmt.query_map([account_id], |row| {
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
}

/// Renames one of the account's folders.
pub fn rename_folder(
    conn: &Connection,
    account_id: &str,
    folder_id: &str,
    title: &str,
) -> StoreResult<()> {
    own_folder(conn, account_id, folder_id)?;
    conn.execute(
        "UPDATE folders SET title = ?1 WHERE id = ?2",
        params![title, folder_id],
    )?;
    Ok(())
}

/// Deletes one of the account's folders and every document in it; returns the documents'
/// ids. The last folder stays: an account always has one to create documents in.
pub fn delete_folder(
    conn: &Connection,
    account_id: &str,
    folder_id: &str,
) -> StoreResult<Vec<String>> {
    own_folder(conn, account_id, folder_id)?;
    let count: i64 = conn.query_row(
        "SELECT COUNT(*) FROM folders WHERE account_id = ?1",
        [account_id],
        |row| row.get(0),
    )?;
    if count <= 1 {
        return Err(StoreError::Invalid(
            "folderId: the account's last folder cannot be deleted".into(),
        ));
    }
    let docs = conn
        .prepare("SELECT id FROM documents WHERE folder_id = ?1 ORDER BY id")?
        .query_map([folder_id], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    conn.execute("DELETE FROM documents WHERE folder_id = ?1", [folder_id])?;
    conn.execute("DELETE FROM folders WHERE id = ?1", [folder_id])?;
    Ok(docs)
}
