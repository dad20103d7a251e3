//! The write requests' statements in PostgreSQL's SQL, for the shared write path (see
//! [`writer`](crate::writer)).

use std::sync::{Arc, Mutex};

use deadpool_postgres::GenericClient;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, delete_doc, empty_doc, insert_doc, move_doc, rename_doc, share, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, own_folder, rename_folder};
use super::objects::{
    Objects, delete_object, insert_objects, load_objects, load_visible, save_objects,
};
use super::sql::execute;
use crate::batch::Batch;
use crate::change::DocChange;
use crate::content::ContentUpload;
use crate::error::StoreResult;
use crate::history::Head;
use crate::keys::Account;
use crate::object::StoredObject;
use crate::plan::{Before, Planned, plan_cached};
use crate::write::ObjectUpdate;
use crate::writer::jobs::Area;
use crate::writer::ops::objects::{self, UpdateObjects};
use crate::writer::{Created, Job, Moved, Statements};
use diagtui_model::FolderRef;

/// A connection inside the writer's transaction, at the batch's time, for one request.
pub struct Writing<'c, C> {
    /// The connection.
    pub client: &'c C,
    /// The batch's time: the `lastChange` of the documents it changes.
    pub now: &'c str,
    /// The objects of a document read ahead for the request (see [`read_ahead`]), until its
    /// plan takes them.
    ahead: Mutex<Option<(String, Objects)>>,
    /// Where the document's history stood when read ahead, until the history's opening takes
    /// it.
    head_ahead: Mutex<Option<(String, Option<Head>)>>,
}

impl<'c, C: GenericClient + Sync> Writing<'c, C> {
    /// Statements on `client` at time `now`.
    pub fn new(client: &'c C, now: &'c str) -> Self {
        Writing {
            client,
            now,
            ahead: Mutex::new(None),
            head_ahead: Mutex::new(None),
        }
    }

    /// Takes in what was read ahead for the request: its check, plan and history then take
    /// it from here.
    pub fn take_ahead(&self, ahead: Option<ReadAhead>, batch: &mut Batch<'_>) {
        let Some(ReadAhead {
            account_id,
            doc_id,
            objects,
            head,
        }) = ahead
        else {
            return;
        };
        batch.found_visible(&account_id, &doc_id);
        *self.ahead.lock().expect("not poisoned") = Some((doc_id.clone(), objects));
        *self.head_ahead.lock().expect("not poisoned") = Some((doc_id, head));
    }

    /// Where the document's history stood when read ahead (`Some(None)`: it had none), once.
    pub fn head_read_ahead(&self, doc: &str) -> Option<Option<Head>> {
        let mut ahead = self.head_ahead.lock().expect("not poisoned");
        match &*ahead {
            Some((read_for, _)) if read_for == doc => ahead.take().map(|(_, head)| head),
            _ => None,
        }
    }
}

/// What an update of named objects read ahead (see [`read_ahead`]).
pub struct ReadAhead {
    /// The account writing, who may see the document.
    account_id: String,
    /// The document.
    doc_id: String,
    /// The named objects as they are.
    objects: Objects,
    /// Where the document's history stands (`None`: it has none).
    head: Option<Head>,
}

/// Reads first, in one statement, what an update of named objects reads in three round trips:
/// whether the account may see the document, the objects as they are, and where its history
/// stands. `None` for another request, or a document the account may not see (left to the
/// request's own check to answer).
pub async fn read_ahead(client: &impl GenericClient, job: &Job) -> StoreResult<Option<ReadAhead>> {
    let Job(Area::Objects(objects::Op::UpdateObjects(request))) = job else {
        return Ok(None);
    };
    let UpdateObjects {
        account_id,
        doc_id,
        update,
        plan: None,
    } = &request.op
    else {
        return Ok(None);
    };
    let ObjectUpdate::Each { objects, .. } = &**update else {
        return Ok(None);
    };
    let ids: Vec<&str> = objects.keys().map(String::as_str).collect();
    let visible = load_visible(client, account_id, doc_id, &ids).await?;
    Ok(visible.map(|(objects, head)| ReadAhead {
        account_id: account_id.clone(),
        doc_id: doc_id.clone(),
        objects,
        head,
    }))
}

impl<C: GenericClient + Sync> Statements for Writing<'_, C> {
    async fn any_account(&self) -> StoreResult<bool> {
        any_account(self.client).await
    }

    async fn insert_account(&self, email: &str) -> StoreResult<(Account, String)> {
        insert_account(self.client, email).await
    }

    async fn rotate_key(&self, email: &str) -> StoreResult<(String, String)> {
        rotate_key(self.client, email).await
    }

    async fn first_folder(&self, account: &str) -> StoreResult<FolderRef> {
        first_folder(self.client, account).await
    }

    async fn own_folder(&self, account: &str, folder: &str) -> StoreResult<FolderRef> {
        own_folder(self.client, account, folder).await
    }

    async fn insert_folder(&self, account: &str, title: &str) -> StoreResult<String> {
        insert_folder(self.client, account, title).await
    }

    async fn rename_folder(&self, account: &str, folder: &str, title: &str) -> StoreResult<()> {
        rename_folder(self.client, account, folder, title).await
    }

    async fn delete_folder(&self, account: &str, folder: &str) -> StoreResult<Vec<String>> {
        delete_folder(self.client, account, folder).await
    }

    async fn visible_doc(&self, account: &str, doc: &str) -> StoreResult<()> {
        visible_doc(self.client, account, doc).await.map(drop)
    }

    async fn insert_doc(&self, owner: &str, folder: &str, title: &str) -> StoreResult<Created> {
        insert_doc(self.client, owner, folder, title, self.now).await
    }

    async fn rename_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<DocChange> {
        rename_doc(self.client, account, doc, title, self.now).await
    }

    async fn empty_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange> {
        empty_doc(self.client, account, doc, self.now).await
    }

    async fn clone_doc(&self, account: &str, doc: &str, title: &str) -> StoreResult<Created> {
        clone_doc(self.client, account, doc, title, self.now).await
    }

    async fn share(&self, account: &str, doc: &str, email: &str) -> StoreResult<DocChange> {
        share(self.client, account, doc, email, self.now).await
    }

    async fn delete_doc(&self, account: &str, doc: &str) -> StoreResult<DocChange> {
        delete_doc(self.client, account, doc).await
    }

    async fn move_doc(&self, account: &str, doc: &str, folder: &str) -> StoreResult<Moved> {
        move_doc(self.client, account, doc, folder, self.now).await
    }

    async fn delete_objects(&self, doc: &str) -> StoreResult<()> {
        execute(
            self.client,
            "DELETE FROM objects WHERE doc_id = $1",
            &[&doc],
        )
        .await?;
        Ok(())
    }

    async fn insert_content(
        &self,
        doc: &str,
        content: &ContentUpload,
        version: u64,
    ) -> StoreResult<()> {
        insert_objects(self.client, doc, content.rows(), version).await
    }

    async fn insert_object(&self, doc: &str, obj: &str, object: &StoredObject) -> StoreResult<()> {
        let row = (obj, object.kind(), object.data());
        insert_objects(self.client, doc, std::iter::once(row), object.version()).await
    }

    async fn object(&self, doc: &str, obj: &str) -> StoreResult<Option<Arc<StoredObject>>> {
        Ok(load_objects(self.client, doc, Some(&[obj]))
            .await?
            .remove(obj))
    }

    /// Reads the named objects (unless read ahead), or all of them for a selector, and plans
    /// from them.
    async fn plan_update(
        &self,
        doc: &str,
        update: &ObjectUpdate,
    ) -> StoreResult<(Planned, Before)> {
        let objects = match update {
            ObjectUpdate::Each { objects, .. } => {
                let ahead = self.ahead.lock().expect("not poisoned").take();
                match ahead {
                    Some((read_for, objects)) if read_for == doc => objects,
                    _ => {
                        let ids: Vec<&str> = objects.keys().map(String::as_str).collect();
                        load_objects(self.client, doc, Some(&ids)).await?
                    }
                }
            }
            ObjectUpdate::Matching { .. } => load_objects(self.client, doc, None).await?,
        };
        plan_cached(update, &objects)
    }

    /// Writes every planned object in one statement per chunk, whatever the document's size.
    async fn save(&self, doc: &str, objects: &mut Planned, _len: Option<usize>) -> StoreResult<()> {
        save_objects(self.client, doc, objects).await
    }

    async fn delete_object(&self, doc: &str, obj: &str) -> StoreResult<bool> {
        delete_object(self.client, doc, obj).await
    }
}
