//! The documents' embeds in PostgreSQL (see [`embeds`](crate::embeds)): the statements of
//! `embeds::sql` on a [`Writing`] (in the writer's transaction, or a reader's).

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::sql::{execute, query, query_opt};
use super::statements::Writing;
use crate::embeds::sql::kind_text;
use crate::embeds::sql::{
    CONTENT, DELETE, DOC_OWNER, INSERT, LIVE, OF_DOC, ONE, OWNER_OF, SET_KEY,
};
use crate::embeds::{EmbedStatements, StoredEmbed};
use crate::error::StoreResult;

/// An embed's row: id, document, kind, title, key, created.
fn embed_row(row: &Row) -> StoredEmbed {
    StoredEmbed {
        id: row.get(0),
        doc_id: row.get(1),
        live: row.get::<_, &str>(2) == LIVE,
        title: row.get(3),
        key: row.get(4),
        created: row.get(5),
    }
}

impl<C: GenericClient + Sync> EmbedStatements for Writing<'_, C> {
    async fn doc_owner(&self, account: &str, doc: &str) -> StoreResult<Option<String>> {
        let row = query_opt(self.client, DOC_OWNER, &[&doc, &account]).await?;
        Ok(row.map(|row| row.get(0)))
    }

    async fn owner_of(&self, doc: &str) -> StoreResult<Option<String>> {
        let row = query_opt(self.client, OWNER_OF, &[&doc]).await?;
        Ok(row.map(|row| row.get(0)))
    }

    async fn insert_embed(&self, embed: &StoredEmbed, content: Option<&str>) -> StoreResult<()> {
        let kind = kind_text(embed.live);
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] = [
            &embed.id,
            &embed.doc_id,
            &kind,
            &embed.title,
            &embed.key,
            &content,
            &embed.created,
        ];
        execute(self.client, INSERT, &params).await?;
        Ok(())
    }

    async fn embed(&self, id: &str) -> StoreResult<Option<StoredEmbed>> {
        Ok(query_opt(self.client, ONE, &[&id])
            .await?
            .as_ref()
            .map(embed_row))
    }

    async fn embeds_of(&self, doc: &str) -> StoreResult<Vec<StoredEmbed>> {
        Ok(query(self.client, OF_DOC, &[&doc])
            .await?
            .iter()
            .map(embed_row)
            .collect())
    }

    async fn static_content(&self, id: &str) -> StoreResult<Option<String>> {
        let row = query_opt(self.client, CONTENT, &[&id]).await?;
        Ok(row.and_then(|row| row.get(0)))
    }

    async fn set_live_key(&self, doc: &str, key: &str, at: &str) -> StoreResult<()> {
        execute(self.client, SET_KEY, &[&key, &at, &doc]).await?;
        Ok(())
    }

    async fn delete_embed(&self, id: &str) -> StoreResult<()> {
        execute(self.client, DELETE, &[&id]).await?;
        Ok(())
    }
}
