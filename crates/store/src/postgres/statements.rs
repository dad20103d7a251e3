//! The write requests' statements in PostgreSQL's SQL, for the shared write path (see
//! [`writer`](crate::writer)).

use deadpool_postgres::GenericClient;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, create_doc, delete_doc, empty_doc, insert_doc, rename_doc, share, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, rename_folder};
use super::objects::{delete_object, insert_objects, load_objects, save_objects};
use super::sql::execute;
use crate::StoreResult;
use crate::change::DocChange;
use crate::content::ContentUpload;
use crate::keys::Account;
use crate::plan::{Planned, plan_cached};
use crate::write::ObjectUpdate;
use crate::writer::Statements;
use diagtui_model::FolderRef;

/// A connection inside the writer's transaction.
pub struct Writing<'c, C>(pub &'c C);

impl<C: GenericClient + Sync> Statements for Writing<'_, C> {
    async fn any_account(&self) -> StoreResult<bool> {
        any_account(self.0).await
    }

    async fn insert_account(&self, email: &str) -> StoreResult<(Account, String)> {
        insert_account(self.0, email).await
    }

    async fn rotate_key(&self, email: &str) -> StoreResult<(String, String)> {
        rotate_key(self.0, email).await
    }

    async fn first_folder(&self, account_id: &str) -> StoreResult<FolderRef> {
        first_folder(self.0, account_id).await
    }

    async fn insert_folder(&self, account_id: &str, title: &str) -> StoreResult<String> {
        insert_folder(self.0, account_id, title).await
    }

    async fn rename_folder(
        &self,
        account_id: &str,
        folder_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        rename_folder(self.0, account_id, folder_id, title).await
    }

    async fn delete_folder(&self, account_id: &str, folder_id: &str) -> StoreResult<Vec<String>> {
        delete_folder(self.0, account_id, folder_id).await
    }

    async fn visible_doc(&self, account_id: &str, doc_id: &str) -> StoreResult<()> {
        visible_doc(self.0, account_id, doc_id).await.map(drop)
    }

    async fn insert_doc(
        &self,
        owner_id: &str,
        folder_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        insert_doc(self.0, owner_id, folder_id, title, now).await
    }

    async fn create_doc(
        &self,
        account_id: &str,
        title: &str,
        folder_id: Option<&str>,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        create_doc(self.0, account_id, title, folder_id, now).await
    }

    async fn rename_doc(
        &self,
        account_id: &str,
        doc_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<DocChange> {
        rename_doc(self.0, account_id, doc_id, title, now).await
    }

    async fn empty_doc(&self, account_id: &str, doc_id: &str, now: &str) -> StoreResult<DocChange> {
        empty_doc(self.0, account_id, doc_id, now).await
    }

    async fn clone_doc(
        &self,
        account_id: &str,
        doc_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        clone_doc(self.0, account_id, doc_id, title, now).await
    }

    async fn share(
        &self,
        account_id: &str,
        doc_id: &str,
        email: &str,
        now: &str,
    ) -> StoreResult<DocChange> {
        share(self.0, account_id, doc_id, email, now).await
    }

    async fn delete_doc(&self, account_id: &str, doc_id: &str) -> StoreResult<DocChange> {
        delete_doc(self.0, account_id, doc_id).await
    }

    async fn delete_objects(&self, doc_id: &str) -> StoreResult<()> {
        execute(self.0, "DELETE FROM objects WHERE doc_id = $1", &[&doc_id]).await?;
        Ok(())
    }

    async fn insert_content(&self, doc_id: &str, content: &ContentUpload) -> StoreResult<()> {
        insert_objects(self.0, doc_id, content.rows()).await
    }

    async fn insert_object(
        &self,
        doc_id: &str,
        obj_id: &str,
        kind: &str,
        data: &str,
    ) -> StoreResult<()> {
        insert_objects(self.0, doc_id, std::iter::once((obj_id, kind, data))).await
    }

    /// Reads the named objects, or all of them for a selector, and plans from them.
    async fn plan_update(&self, doc_id: &str, update: &ObjectUpdate) -> StoreResult<Planned> {
        let objects = match update {
            ObjectUpdate::Each { objects, .. } => {
                let ids: Vec<&str> = objects.keys().map(String::as_str).collect();
                load_objects(self.0, doc_id, Some(&ids)).await?
            }
            ObjectUpdate::Matching { .. } => load_objects(self.0, doc_id, None).await?,
        };
        plan_cached(update, &objects)
    }

    /// Writes every planned object in one statement per chunk, whatever the document's size.
    async fn save_objects(
        &self,
        doc_id: &str,
        objects: &mut Planned,
        _doc_len: Option<usize>,
    ) -> StoreResult<()> {
        save_objects(self.0, doc_id, objects).await
    }

    async fn delete_object(&self, doc_id: &str, obj_id: &str) -> StoreResult<bool> {
        delete_object(self.0, doc_id, obj_id).await
    }
}
