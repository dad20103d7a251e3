//! The write requests' statements in SQLite, for the shared write path (see
//! [`writer`](crate::writer)).

use std::sync::Arc;

use rusqlite::Connection;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, delete_doc, empty_doc, insert_doc, move_doc, rename_doc, share, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, own_folder, rename_folder};
use super::objects::{DbObjects, delete_object, insert_object, load_object, save_objects};
use crate::change::DocChange;
use crate::content::ContentUpload;
use crate::error::StoreResult;
use crate::keys::Account;
use crate::object::StoredObject;
use crate::plan::{Before, Planned, plan};
use crate::write::ObjectUpdate;
use crate::writer::{Created, Moved, Statements};
use diagtui_model::FolderRef;

/// The writer's connection, inside its transaction, at the batch's time.
pub struct Writing<'c> {
    /// The connection.
    pub conn: &'c Connection,
    /// The batch's time: the `lastChange` of the documents it changes.
    pub now: &'c str,
}

impl Statements for Writing<'_> {
    async fn any_account(&self) -> StoreResult<bool> {
        any_account(self.conn)
    }

    async fn insert_account(&self, email: &str) -> StoreResult<(Account, String)> {
        insert_account(self.conn, email)
    }

    async fn rotate_key(&self, email: &str) -> StoreResult<(String, String)> {
        rotate_key(self.conn, email)
    }

    async fn first_folder(&self, account: &str) -> StoreResult<FolderRef> {
        first_folder(self.conn, account)
    }

    async fn own_folder(&self, account: &str, folder: &str) -> StoreResult<FolderRef> {
        own_folder(self.conn, account, folder)
    }

    async fn insert_folder(&self, account: &str, title: &str) -> StoreResult<String> {
        insert_folder(self.conn, account, title)
    }

    async fn rename_folder(&self, account: &str, folder: &str, title: &str) -> StoreResult<()> {
        rename_folder(self.conn, account, folder, title)
    }

    async fn delete_folder(&self, account: &str, folder: &str) -> StoreResult<Vec<String>> {
        delete_folder(self.conn, account, folder)
    }

    async fn visible_doc(&self, account: &str, doc: &str) -> StoreResult<()> {
        visible_doc(self.conn, account, doc).map(drop)
    }

    async fn insert_doc(&self, owner: &str, folder: &str, title: &str) -> StoreResult<Created> {
        insert_doc(self.conn, owner, folder, title, self.now)
    }

    async fn rename_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<DocChange> {
        rename_doc(self.conn, account, doc, title, self.now)
    }

    async fn empty_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange> {
        empty_doc(self.conn, account, doc, self.now)
    }

    async fn clone_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<Created> {
        clone_doc(self.conn, account, doc, title, self.now)
    }

    async fn share(&self, account: &str, doc: &str, email: &str) -> StoreResult<DocChange> {
        share(self.conn, account, doc, email, self.now)
    }

    async fn delete_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange> {
        delete_doc(self.conn, account, doc)
    }

    async fn move_doc(&self, account: &str, doc: &str, folder: &str) -> StoreResult<Moved> {
        move_doc(self.conn, account, doc, folder, self.now)
    }

    async fn delete_objects(&self, doc: &str) -> StoreResult<()> {
        self.conn
            .execute("DELETE FROM objects WHERE doc_id = ?1", [doc])?;
        Ok(())
    }

    async fn insert_content(
        &self,
        doc: &str,
        content: &ContentUpload,
        version: u64,
    ) -> StoreResult<()> {
        for (obj, kind, data) in content.rows() {
            insert_object(self.conn, doc, obj, kind, data, version)?;
        }
        Ok(())
    }

    async fn insert_object(&self, doc: &str, obj: &str, object: &StoredObject) -> StoreResult<()> {
        insert_object(
            self.conn,
            doc,
            obj,
            object.kind(),
            object.data(),
            object.version(),
        )
    }

    async fn object(&self, doc: &str, obj: &str) -> StoreResult<Option<Arc<StoredObject>>> {
        load_object(self.conn, doc, obj)
    }

    async fn plan_update(
        &self,
        doc: &str,
        update: &ObjectUpdate,
    ) -> StoreResult<(Planned, Before)> {
        plan(
            update,
            &mut DbObjects {
                conn: self.conn,
                doc_id: doc,
            },
        )
    }

    async fn save(&self, doc: &str, objects: &mut Planned, len: Option<usize>) -> StoreResult<()> {
        save_objects(self.conn, doc, objects, len)
    }

    async fn delete_object(&self, doc: &str, obj: &str) -> StoreResult<bool> {
        delete_object(self.conn, doc, obj)
    }
}
