//! The accounts' write requests: setting a database up, adding an account, a new key.

use crate::batch::Batch;
use crate::change::Committed;
use crate::content::ContentUpload;
use crate::keys::DEFAULT_EMAIL;
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;

area_ops! {
    Initialise,
    CreateAccount,
    RotateKey,
}

/// Set up an empty database: the default account and the sample documents. Answers the
/// default account's key, or `None` when the database was set up already.
pub struct Initialise {
    /// The sample documents: title and content.
    pub samples: Vec<(String, ContentUpload)>,
}

impl Write for Initialise {
    type Answer = Option<String>;
    type Area = Op;

    async fn apply(
        &mut self,
        s: &impl Statements,
        _batch: &mut Batch<'_>,
    ) -> Applied<Option<String>> {
        if s.any_account().await? {
            return Ok((None, Committed::default()));
        }
        let (account, key) = s.insert_account(DEFAULT_EMAIL).await?;
        let folder = s.first_folder(&account.id).await?;
        for (title, content) in &self.samples {
            let (doc_id, _) = s.insert_doc(&account.id, &folder.id, title).await?;
            s.insert_content(&doc_id, content, 0).await?;
        }
        Ok((Some(key), Committed::default()))
    }

    fn is_bulky(&self) -> bool {
        true
    }
}

/// Add an account with its first folder; answers its API key.
pub struct CreateAccount {
    /// Its e-mail address.
    pub email: String,
}

impl Write for CreateAccount {
    type Answer = String;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<String> {
        let (_, key) = s.insert_account(&self.email).await?;
        Ok((key, Committed::default()))
    }
}

/// Give the account with this e-mail address a new key; answers the key.
pub struct RotateKey {
    /// Its e-mail address.
    pub email: String,
}

impl Write for RotateKey {
    type Answer = String;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<String> {
        let (account_id, key) = s.rotate_key(&self.email).await?;
        Ok((key, Committed::of_keys(vec![account_id])))
    }
}
