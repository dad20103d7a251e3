//! Accounts and keys in SQLite.

use rusqlite::{Connection, OptionalExtension, params};

use super::folders::insert_folder;
use crate::error::{StoreError, StoreResult};
use crate::keys::{Account, FIRST_FOLDER_TITLE, KeyHash, hash_key, hex, new_key};
use diagtui_model::ids::{new_uuid, now_timestamp};

/// Adds an account with its first folder; returns it and its new key.
pub fn insert_account(conn: &Connection, email: &str) -> StoreResult<(Account, String)> {
    let taken: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM accounts WHERE email = ?1)",
        [email],
        |row| row.get(0),
    )?;
    if taken {
        return Err(StoreError::EmailTaken(email.to_owned()));
    }
    let account = Account {
        id: new_uuid(),
        email: email.to_owned(),
    };
    let key = new_key();
    conn.execute(
        "INSERT INTO accounts (id, email, key_hash, created) VALUES (?1, ?2, ?3, ?4)",
        params![
            account.id,
            account.email,
            hex(&hash_key(&key)),
            now_timestamp()
        ],
    )?;
    insert_folder(conn, &account.id, FIRST_FOLDER_TITLE)?;
    Ok((account, key))
}

/// The account with this e-mail address (any case), if any.
pub fn account_by_email(conn: &Connection, email: &str) -> StoreResult<Option<Account>> {
    Ok(conn
        .query_row(
            "SELECT id, email FROM accounts WHERE email = ?1",
            [email],
            |row| {
                Ok(Account {
                    id: row.get(0)?,
                    email: row.get(1)?,
                })
            },
        )
        .optional()?)
}

/// The account a key hash belongs to, if any.
pub fn account_by_key_hash(conn: &Connection, hash: &KeyHash) -> StoreResult<Option<Account>> {
    Ok(conn
        .prepare_cached("SELECT id, email FROM accounts WHERE key_hash = ?1")?
        .query_row([hex(hash)], |row| {
            Ok(Account {
                id: row.get(0)?,
                email: row.get(1)?,
            })
        })
        .optional()?)
}

/// Gives the account with this e-mail a new key; returns the account id and the key.
pub fn rotate_key(conn: &Connection, email: &str) -> StoreResult<(String, String)> {
    let account =
        account_by_email(conn, email)?.ok_or_else(|| StoreError::UserNotFound(email.to_owned()))?;
    let key = new_key();
    conn.execute(
        "UPDATE accounts SET key_hash = ?1 WHERE id = ?2",
        params![hex(&hash_key(&key)), account.id],
    )?;
    Ok((account.id, key))
}

/// Whether the database holds any account yet.
pub fn any_account(conn: &Connection) -> StoreResult<bool> {
    Ok(
        conn.query_row("SELECT EXISTS (SELECT 1 FROM accounts)", [], |row| {
            row.get(0)
        })?,
    )
}
