//! Accounts and their API keys. Keys are random (256 bits) and stored only as SHA-256 hashes:
//! a key that high in entropy needs no salt or slow hash.

use rusqlite::{OptionalExtension, Transaction, params};
use sha2::{Digest, Sha256};

use super::{Store, StoreError, StoreResult, folders};
use crate::model::ids::{new_uuid, now_timestamp};

/// The e-mail address of the account a new data dir starts with.
pub const DEFAULT_EMAIL: &str = "local@diagtui.localhost";
/// The title of an account's first folder.
const FIRST_FOLDER_TITLE: &str = "My Documents";

/// An account as requests act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The account id (a UUID).
    pub id: String,
    /// The e-mail address.
    pub email: String,
}

/// A fresh API key: 32 random bytes as lowercase hex.
fn new_key() -> String {
    let bytes: [u8; 32] = crate::model::ids::random_bytes();
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a key.
fn hash_key(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}

/// Checks that an e-mail address looks like one: `local@domain`, no white space.
fn check_email(email: &str) -> StoreResult<()> {
    let plausible = email
        .split_once('@')
        .is_some_and(|(local, domain)| !local.is_empty() && !domain.is_empty())
        && !email.chars().any(char::is_whitespace);
    if plausible {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "email: \"{email}\" is not an e-mail address"
        )))
    }
}

/// Adds an account with its first folder inside `tx`; returns it and its new key.
pub(super) fn insert_account(tx: &Transaction<'_>, email: &str) -> StoreResult<(Account, String)> {
    check_email(email)?;
    let taken: bool = tx.query_row(
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
    tx.execute(
        "INSERT INTO accounts (id, email, key_hash, created) VALUES (?1, ?2, ?3, ?4)",
        params![account.id, account.email, hash_key(&key), now_timestamp()],
    )?;
    folders::insert_folder(tx, &account.id, FIRST_FOLDER_TITLE)?;
    Ok((account, key))
}

/// The account with this e-mail address (any case), if any.
pub(super) fn account_by_email(tx: &Transaction<'_>, email: &str) -> StoreResult<Option<Account>> {
    Ok(tx
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

impl Store {
    /// Adds an account (with its first folder) and returns its new API key.
    pub fn create_account(&self, email: &str) -> StoreResult<String> {
        self.write(|tx| insert_account(tx, email).map(|(_, key)| key))
    }

    /// The account a key belongs to, if any. Read per request, so keys added by another
    /// process are accepted at once.
    pub fn account_by_key(&self, key: &str) -> StoreResult<Option<Account>> {
        self.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT id, email FROM accounts WHERE key_hash = ?1",
                    [hash_key(key)],
                    |row| {
                        Ok(Account {
                            id: row.get(0)?,
                            email: row.get(1)?,
                        })
                    },
                )
                .optional()?)
        })
    }

    /// Gives the account with this e-mail a new key (the old one stops working) and returns it.
    pub fn rotate_key(&self, email: &str) -> StoreResult<String> {
        self.write(|tx| {
            let key = new_key();
            let changed = tx.execute(
                "UPDATE accounts SET key_hash = ?1 WHERE email = ?2",
                params![hash_key(&key), email],
            )?;
            if changed == 0 {
                return Err(StoreError::UserNotFound(email.to_owned()));
            }
            Ok(key)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_hex_and_hash_to_hex() {
        let (a, b) = (new_key(), new_key());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(hash_key(&a).len(), 64);
        assert_ne!(hash_key(&a), a);
    }

    #[test]
    fn emails_need_an_at_sign_between_two_parts() {
        for ok in ["a@b", "local@diagtui.localhost"] {
            assert!(check_email(ok).is_ok(), "{ok}");
        }
        for bad in ["", "ab", "@b", "a@", "a b@c"] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }
}
