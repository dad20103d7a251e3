//! Folders in PostgreSQL: flat, owned by one account, the first one (oldest) being the default.

use deadpool_postgres::GenericClient;

use super::sql::{execute, query, query_one, query_opt};
use crate::error::{StoreError, StoreResult};
use diagtui_model::ids::new_uuid;
use diagtui_model::{FolderEntry, FolderList, FolderRef};

/// Adds a folder for an account; returns its id.
pub async fn insert_folder(
    c: &impl GenericClient,
    account_id: &str,
    title: &str,
) -> StoreResult<String> {
    let id = new_uuid();
    execute(
        c,
        "INSERT INTO folders (id, account_id, title) VALUES ($1, $2, $3)",
        &[&id, &account_id, &title],
    )
    .await?;
    Ok(id)
}

/// The account's first (oldest) folder.
pub async fn first_folder(c: &impl GenericClient, account_id: &str) -> StoreResult<FolderRef> {
    query_opt(
        c,
        "SELECT id, title FROM folders WHERE account_id = $1 ORDER BY seq LIMIT 1",
        &[&account_id],
    )
    .await?
    .map(|row| FolderRef {
        id: row.get(0),
        title: row.get(1),
    })
    .ok_or_else(|| StoreError::Internal(format!("account {account_id} has no folder")))
}

/// One of the account's own folders, or `FolderNotFound`.
pub async fn own_folder(
    c: &impl GenericClient,
    account_id: &str,
    folder_id: &str,
) -> StoreResult<FolderRef> {
    query_opt(
        c,
        "SELECT id, title FROM folders WHERE account_id = $1 AND id = $2",
        &[&account_id, &folder_id],
    )
    .await?
    .map(|row| FolderRef {
        id: row.get(0),
        title: row.get(1),
    })
    .ok_or_else(|| StoreError::FolderNotFound(folder_id.to_owned()))
}

/// The account's folders with the documents it owns in each.
pub async fn list_folders(c: &impl GenericClient, account_id: &str) -> StoreResult<FolderList> {
    let mut list = FolderList::new();
    let folders = query(
        c,
        "SELECT id, title FROM folders WHERE account_id = $1 ORDER BY seq",
        &[&account_id],
    )
    .await?;
    for row in folders {
        list.insert(
            row.get(0),
            FolderEntry {
                title: row.get(1),
                docs: Default::default(),
            },
        );
    }
    let docs = query(
        c,
        "SELECT folder_id, id, title FROM documents WHERE owner_id = $1",
        &[&account_id],
    )
    .await?;
    for row in docs {
        if let Some(entry) = list.get_mut(row.get::<_, &str>(0)) {
            entry.docs.insert(row.get(1), row.get(2));
        }
    }
    Ok(list)
}

/// Renames one of the account's folders.
pub async fn rename_folder(
    c: &impl GenericClient,
    account_id: &str,
    folder_id: &str,
    title: &str,
) -> StoreResult<()> {
    own_folder(c, account_id, folder_id).await?;
    execute(
        c,
        "UPDATE folders SET title = $1 WHERE id = $2",
        &[&title, &folder_id],
    )
    .await?;
    Ok(())
}

/// Deletes one of the account's folders and every document in it; returns the documents'
/// ids. The last folder stays: an account always has one to create documents in.
pub async fn delete_folder(
    c: &impl GenericClient,
    account_id: &str,
    folder_id: &str,
) -> StoreResult<Vec<String>> {
    own_folder(c, account_id, folder_id).await?;
    let count: i64 = query_one(
        c,
        "SELECT COUNT(*) FROM folders WHERE account_id = $1",
        &[&account_id],
    )
    .await?
    .get(0);
    if count <= 1 {
        return Err(StoreError::Invalid(
            "folderId: the account's last folder cannot be deleted".into(),
        ));
    }
    let docs = query(
        c,
        "DELETE FROM documents WHERE folder_id = $1 RETURNING id",
        &[&folder_id],
    )
    .await?;
    let mut docs: Vec<String> = docs.into_iter().map(|row| row.get(0)).collect();
    docs.sort();
    execute(c, "DELETE FROM folders WHERE id = $1", &[&folder_id]).await?;
    Ok(docs)
}
