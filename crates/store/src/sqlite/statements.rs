//! The write requests' statements in SQLite, for the shared write path (see
//! [`writer`](crate::writer)).

use rusqlite::Connection;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, create_doc, delete_doc, empty_doc, insert_doc, rename_doc, share, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, rename_folder};
use super::objects::{DbObjects, delete_object, insert_object, save_objects};
use crate::StoreResult;
use crate::change::DocChange;
use crate::content::ContentUpload;
use crate::keys::Account;
use crate::plan::{Planned, plan};
use crate::write::ObjectUpdate;
use crate::writer::Statements;
use diagtui_model::FolderRef;

/// The writer's connection, inside its transaction.
pub struct Writing<'c>(pub &'c Connection);

impl Statements for Writing<'_> {
    async fn any_account(&self) -> StoreResult<bool> {
        any_account(self.0)
    }

    async fn insert_account(&self, email: &str) -> StoreResult<(Account, String)> {
        insert_account(self.0, email)
    }

    async fn rotate_key(&self, email: &str) -> StoreResult<(String, String)> {
        rotate_key(self.0, email)
    }

    async fn first_folder(&self, account_id: &str) -> StoreResult<FolderRef> {
        first_folder(self.0, account_id)
    }

    async fn insert_folder(&self, account_id: &str, title: &str) -> StoreResult<String> {
        insert_folder(self.0, account_id, title)
    }

    async fn rename_folder(
        &self,
        account_id: &str,
        folder_id: &str,
        title: &str,
    ) -> StoreResult<()> {
        rename_folder(self.0, account_id, folder_id, title)
    }

    async fn delete_folder(&self, account_id: &str, folder_id: &str) -> StoreResult<Vec<String>> {
        delete_folder(self.0, account_id, folder_id)
    }

    async fn visible_doc(&self, account_id: &str, doc_id: &str) -> StoreResult<()> {
        visible_doc(self.0, account_id, doc_id).map(drop)
    }

    async fn insert_doc(
        &self,
        owner_id: &str,
        folder_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        insert_doc(self.0, owner_id, folder_id, title, now)
    }

    async fn create_doc(
        &self,
        account_id: &str,
        title: &str,
        folder_id: Option<&str>,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        create_doc(self.0, account_id, title, folder_id, now)
    }

    async fn rename_doc(
        &self,
        account_id: &str,
        doc_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<DocChange> {
        rename_doc(self.0, account_id, doc_id, title, now)
    }

    async fn empty_doc(&self, account_id: &str, doc_id: &str, now: &str) -> StoreResult<DocChange> {
        empty_doc(self.0, account_id, doc_id, now)
    }

    async fn clone_doc(
        &self,
        account_id: &str,
        doc_id: &str,
        title: &str,
        now: &str,
    ) -> StoreResult<(String, DocChange)> {
        clone_doc(self.0, account_id, doc_id, title, now)
    }

    async fn share(
        &self,
        account_id: &str,
        doc_id: &str,
        email: &str,
        now: &str,
    ) -> StoreResult<DocChange> {
        share(self.0, account_id, doc_id, email, now)
    }

    async fn delete_doc(&self, account_id: &str, doc_id: &str) -> StoreResult<DocChange> {
        delete_doc(self.0, account_id, doc_id)
    }

    async fn delete_objects(&self, doc_id: &str) -> StoreResult<()> {
        self.0
            .execute("DELETE FROM objects WHERE doc_id = ?1", [doc_id])?;
        Ok(())
    }

    async fn insert_content(&self, doc_id: &str, content: &ContentUpload) -> StoreResult<()> {
        for (obj_id, kind, data) in content.rows() {
            insert_object(self.0, doc_id, obj_id, kind, data)?;
        }
        Ok(())
    }

    async fn insert_object(
        &self,
        doc_id: &str,
        obj_id: &str,
        kind: &str,
        data: &str,
    ) -> StoreResult<()> {
        insert_object(self.0, doc_id, obj_id, kind, data)
    }

    async fn plan_update(&self, doc_id: &str, update: &ObjectUpdate) -> StoreResult<Planned> {
        plan(
            update,
            &mut DbObjects {
                conn: self.0,
                doc_id,
            },
        )
    }

    async fn save_objects(
        &self,
        doc_id: &str,
        objects: &mut Planned,
        doc_len: Option<usize>,
    ) -> StoreResult<()> {
        save_objects(self.0, doc_id, objects, doc_len)
    }

    async fn delete_object(&self, doc_id: &str, obj_id: &str) -> StoreResult<bool> {
        delete_object(self.0, doc_id, obj_id)
    }
}
