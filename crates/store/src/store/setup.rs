//! What runs on a database outside a running store: setting it up with its default account
//! and samples, adding an account, a new key, the account a key belongs to. Stores running on
//! the same database notice each write as another process's commit.

use bytes::Bytes;
use serde_json::Value;

use crate::any::{self, Location};
use crate::content::ContentUpload;
use crate::error::StoreResult;
use crate::keys::Account;
use crate::rules::check_email;
use crate::writer::ops::accounts::{CreateAccount, Initialise, RotateKey};

/// A document to seed a new data dir with.
pub struct Sample {
    /// Its title.
    pub title: String,
    /// Its content: object id to `{type, data}`.
    pub content: Value,
}

/// Sets up a database when it has no account yet: the default account, and the samples in
/// its first folder, in one transaction. Returns the new account's key, or `None` when the
/// database was set up already.
pub async fn initialise(location: &Location, samples: &[Sample]) -> StoreResult<Option<String>> {
    let samples = samples
        .iter()
        .map(|sample| {
            let text = serde_json::to_vec(&sample.content)?;
            Ok((
                sample.title.clone(),
                ContentUpload::parse(Bytes::from(text))?,
            ))
        })
        .collect::<StoreResult<Vec<_>>>()?;
    any::write_once(location, Initialise { samples }).await
}

/// Adds an account (with its own first folder) to a database and returns its new API key.
/// Works beside stores running on the same database, which accept the key at once.
pub async fn create_account(location: &Location, email: &str) -> StoreResult<String> {
    check_email(email)?;
    let email = email.to_owned();
    any::write_once(location, CreateAccount { email }).await
}

/// Gives the account with this e-mail a new key (the old one stops working) and returns it.
pub async fn rotate_key(location: &Location, email: &str) -> StoreResult<String> {
    let email = email.to_owned();
    any::write_once(location, RotateKey { email }).await
}

/// The account a key belongs to, read from a database.
pub async fn account_by_key(location: &Location, key: &str) -> StoreResult<Option<Account>> {
    any::account_by_key_once(location, key).await
}
