//! The embeds' statements, the same text for both engines: parameters are `$1`, `$2`, … in the
//! order they first appear (SQLite numbers such named parameters in that order).

/// The owner of a document the account may see: document, account.
pub const DOC_OWNER: &str = "SELECT d.owner_id FROM documents d WHERE d.id = $1 \
     AND (d.owner_id = $2 OR EXISTS (SELECT 1 FROM collaborators c \
     WHERE c.doc_id = d.id AND c.account_id = $2))";

/// The owner of a document.
pub const OWNER_OF: &str = "SELECT owner_id FROM documents WHERE id = $1";

/// Adds an embed.
pub const INSERT: &str = "INSERT INTO embeds (id, doc_id, kind, title, key, content, created) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// One embed.
pub const ONE: &str = "SELECT id, doc_id, kind, title, key, created FROM embeds WHERE id = $1";

/// A document's embeds: `live` sorts before `static`, then the oldest first.
pub const OF_DOC: &str = "SELECT id, doc_id, kind, title, key, created FROM embeds \
     WHERE doc_id = $1 ORDER BY kind, created, id";

/// A static embed's content.
pub const CONTENT: &str = "SELECT content FROM embeds WHERE id = $1 AND kind = 'static'";

/// Gives a document's live embed a new key: key, time, document.
pub const SET_KEY: &str =
    "UPDATE embeds SET key = $1, created = $2 WHERE doc_id = $3 AND kind = 'live'";

/// Deletes an embed.
pub const DELETE: &str = "DELETE FROM embeds WHERE id = $1";

/// The kind column's value for a live embed.
pub const LIVE: &str = "live";

/// The kind column's value for a static embed.
pub const STATIC: &str = "static";

/// The kind column's value for an embed.
pub(crate) fn kind_text(live: bool) -> &'static str {
    if live { LIVE } else { STATIC }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::sql::assert_parameters_in_order;

    #[test]
    fn parameters_first_appear_in_their_order() {
        assert_parameters_in_order(&[
            DOC_OWNER, OWNER_OF, INSERT, ONE, OF_DOC, CONTENT, SET_KEY, DELETE,
        ]);
    }
}
