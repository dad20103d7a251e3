//! What can go wrong in a store operation.

use thiserror::Error;

/// A result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A store failure. Every variant but `Internal`, `Unavailable`, `DiskFull` and `Conflict` is
/// the caller's doing and is safe to show.
#[derive(Debug, Clone, Error)]
pub enum StoreError {
    /// No such document, or not visible to the account.
    #[error("document {0} not found")]
    DocNotFound(String),
    /// No such object in the document.
    #[error("object {0} not found")]
    ObjNotFound(String),
    /// No account has this e-mail address.
    #[error("no account has the e-mail address {0}")]
    UserNotFound(String),
    /// No such folder among the account's folders.
    #[error("folder {0} not found")]
    FolderNotFound(String),
    /// No such version in the document's history.
    #[error("version {0} not found in the document's history")]
    VersionNotFound(u64),
    /// No such embed (the text says which), or not one of a document the account may see.
    #[error("{0} not found")]
    EmbedNotFound(String),
    /// The version is older than the oldest the history keeps (compacted away).
    #[error("version {0} was compacted away: the oldest kept is {1}")]
    VersionPruned(u64, u64),
    /// The request's data breaks a rule; the message names the property or entry.
    #[error("{0}")]
    Invalid(String),
    /// The body is not valid JSON.
    #[error("{0}")]
    InvalidJson(String),
    /// The selector is malformed or over the cap.
    #[error("{0}")]
    InvalidSelector(String),
    /// The account may see the document but not do this to it.
    #[error("{0}")]
    Forbidden(String),
    /// The e-mail address already has an account.
    #[error("an account with the e-mail address {0} already exists")]
    EmailTaken(String),
    /// A write's condition (`If-Match`, `ifVersions`) does not hold: nothing was written.
    #[error("{0}")]
    PreconditionFailed(std::sync::Arc<crate::failed::Failed>),
    /// A write prepared on a snapshot of a document that changed before it could commit; the
    /// store prepares it again. Never reaches a client.
    #[error("the document changed while the write was prepared")]
    Conflict,
    /// The database cannot be reached (down, restarting, out of connections); the request
    /// may be tried again. Its text is for logs, not for clients.
    #[error("{0}")]
    Unavailable(String),
    /// The disk (or the database's quota) is full: nothing more can be written until there is
    /// room, while reads go on. Its text is for logs, not for clients.
    #[error("{0}")]
    DiskFull(String),
    /// A database or I/O failure; its text is for logs, not for clients.
    #[error("{0}")]
    Internal(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull) {
            return StoreError::DiskFull(format!("sqlite: {e}"));
        }
        StoreError::Internal(format!("sqlite: {e}"))
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Internal(format!("stored JSON: {e}"))
    }
}

impl From<rusqlite::types::FromSqlError> for StoreError {
    fn from(e: rusqlite::types::FromSqlError) -> Self {
        StoreError::Internal(format!("stored value: {e}"))
    }
}
