//! Accounts and keys in PostgreSQL.

use deadpool_postgres::GenericClient;

use super::folders::insert_folder;
use super::sql::{execute, query_one, query_opt};
use crate::error::{StoreError, StoreResult};
use crate::keys::{Account, FIRST_FOLDER_TITLE, KeyHash, hash_key, hex, new_key};
use diagtui_model::ids::{new_uuid, now_timestamp};

/// Adds an account with its first folder; returns it and its new key.
pub async fn insert_account(c: &impl GenericClient, email: &str) -> StoreResult<(Account, String)> {
    if account_by_email(c, email).await?.is_some() {
        return Err(StoreError::EmailTaken(email.to_owned()));
    }
    let account = Account {
        id: new_uuid(),
        email: email.to_owned(),
    };
    let key = new_key();
    execute(
        c,
        "INSERT INTO accounts (id, email, key_hash, created) VALUES ($1, $2, $3, $4)",
        &[
            &account.id,
            &account.email,
            &hex(&hash_key(&key)),
            &now_timestamp(),
        ],
    )
    .await?;
    insert_folder(c, &account.id, FIRST_FOLDER_TITLE).await?;
    Ok((account, key))
}

/// The account with this e-mail address (any case), if any.
pub async fn account_by_email(c: &impl GenericClient, email: &str) -> StoreResult<Option<Account>> {
    let row = query_opt(
        c,
        "SELECT id, email FROM accounts WHERE lower(email) = lower($1)",
        &[&email],
    )
    .await?;
    Ok(row.map(|row| Account {
        id: row.get(0),
        email: row.get(1),
    }))
}

/// The account a key hash belongs to, if any.
pub async fn account_by_key_hash(
    c: &impl GenericClient,
    hash: &KeyHash,
) -> StoreResult<Option<Account>> {
    let row = query_opt(
        c,
        "SELECT id, email FROM accounts WHERE key_hash = $1",
        &[&hex(hash)],
    )
    .await?;
    Ok(row.map(|row| Account {
        id: row.get(0),
        email: row.get(1),
    }))
}

/// Gives the account with this e-mail a new key; returns the account id and the key.
pub async fn rotate_key(c: &impl GenericClient, email: &str) -> StoreResult<(String, String)> {
    let account = account_by_email(c, email)
        .await?
        .ok_or_else(|| StoreError::UserNotFound(email.to_owned()))?;
    let key = new_key();
    execute(
        c,
        "UPDATE accounts SET key_hash = $1 WHERE id = $2",
        &[&hex(&hash_key(&key)), &account.id],
    )
    .await?;
    Ok((account.id, key))
}

/// Whether the database holds any account yet.
pub async fn any_account(c: &impl GenericClient) -> StoreResult<bool> {
    let row = query_one(c, "SELECT EXISTS (SELECT 1 FROM accounts)", &[]).await?;
    Ok(row.get(0))
}
