//! First-run set-up of a data dir: the default account and its sample documents.

use serde_json::Value;

use super::folders::first_folder;
use super::{DEFAULT_EMAIL, Store, StoreResult, accounts, docs, objects};

/// A document to seed a new data dir with.
pub struct Sample {
    /// Its title.
    pub title: String,
    /// Its content: object id to `{type, data}`.
    pub content: Value,
}

impl Store {
    /// When the store has no account yet, creates the default account and puts the samples in
    /// its first folder, all in one transaction; returns the new account's key. Returns `None`
    /// when the store was already set up.
    pub fn initialise(&self, samples: &[Sample]) -> StoreResult<Option<String>> {
        self.write(|tx| {
            let any: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM accounts)", [], |row| {
                row.get(0)
            })?;
            if any {
                return Ok(None);
            }
            let (account, key) = accounts::insert_account(tx, DEFAULT_EMAIL)?;
            let folder = first_folder(tx, &account.id)?;
            for sample in samples {
                let doc_id = docs::insert_doc(tx, &account.id, &folder.id, &sample.title)?;
                objects::import(tx, &doc_id, &sample.content)?;
            }
            Ok(Some(key))
        })
    }
}
