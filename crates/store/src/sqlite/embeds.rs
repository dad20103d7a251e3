//! The documents' embeds in SQLite (see [`embeds`](crate::embeds)): the statements of
//! `embeds::sql` on one connection, in the writer's transaction or a reader's.

use rusqlite::{OptionalExtension, Row, params};

use super::statements::Writing;
use crate::embeds::sql::kind_text;
use crate::embeds::sql::{
    CONTENT, DELETE, DOC_OWNER, INSERT, LIVE, OF_DOC, ONE, OWNER_OF, SET_KEY,
};
use crate::embeds::{EmbedStatements, StoredEmbed};
use crate::error::StoreResult;

/// An embed's row: id, document, kind, title, key, created.
fn embed_row(row: &Row<'_>) -> rusqlite::Result<StoredEmbed> {
    Ok(StoredEmbed {
        id: row.get(0)?,
        doc_id: row.get(1)?,
        live: row.get::<_, String>(2)? == LIVE,
        title: row.get(3)?,
        key: row.get(4)?,
        created: row.get(5)?,
    })
}

impl EmbedStatements for Writing<'_> {
    async fn doc_owner(&self, account: &str, doc: &str) -> StoreResult<Option<String>> {
        Ok(self
            .conn
            .prepare_cached(DOC_OWNER)?
            .query_row([doc, account], |row| row.get(0))
            .optional()?)
    }

    async fn owner_of(&self, doc: &str) -> StoreResult<Option<String>> {
        Ok(self
            .conn
            .prepare_cached(OWNER_OF)?
            .query_row([doc], |row| row.get(0))
            .optional()?)
    }

    async fn insert_embed(&self, embed: &StoredEmbed, content: Option<&str>) -> StoreResult<()> {
        self.conn.prepare_cached(INSERT)?.execute(params![
            embed.id,
            embed.doc_id,
            kind_text(embed.live),
            embed.title,
            embed.key,
            content,
            embed.created
        ])?;
        Ok(())
    }

    async fn embed(&self, id: &str) -> StoreResult<Option<StoredEmbed>> {
        Ok(self
            .conn
            .prepare_cached(ONE)?
            .query_row([id], embed_row)
            .optional()?)
    }

    async fn embeds_of(&self, doc: &str) -> StoreResult<Vec<StoredEmbed>> {
        let mut statement = self.conn.prepare_cached(OF_DOC)?;
        let rows = statement.query_map([doc], embed_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    async fn static_content(&self, id: &str) -> StoreResult<Option<String>> {
        Ok(self
            .conn
            .prepare_cached(CONTENT)?
            .query_row([id], |row| row.get(0))
            .optional()?)
    }

    async fn set_live_key(&self, doc: &str, key: &str, at: &str) -> StoreResult<()> {
        self.conn.prepare_cached(SET_KEY)?.execute([key, at, doc])?;
        Ok(())
    }

    async fn delete_embed(&self, id: &str) -> StoreResult<()> {
        self.conn.prepare_cached(DELETE)?.execute([id])?;
        Ok(())
    }
}
