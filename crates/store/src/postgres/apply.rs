//! Running one write request inside the writer's transaction, as the SQLite engine's `apply`
//! does: the same requests, rules and reports, in PostgreSQL's SQL.

use deadpool_postgres::GenericClient;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, create_doc, delete_doc, empty_doc, insert_doc, rename_doc, share, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, rename_folder};
use super::objects::{delete_object, insert_objects, load_objects, save_objects};
use super::sql::execute;
use crate::batch::{Batch, report};
use crate::change::{Committed, DocChange, DocEvent};
use crate::keys::DEFAULT_EMAIL;
use crate::plan::plan_cached;
use crate::write::{ObjectUpdate, Outcome, WriteOp};
use crate::{StoreError, StoreResult};
use diagtui_model::ids::new_object_id;

/// Checks that the account may see the document, once per batch.
async fn check_visible(
    batch: &mut Batch<'_>,
    c: &impl GenericClient,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<()> {
    if !batch.known_visible(account_id, doc_id) {
        visible_doc(c, account_id, doc_id).await?;
        batch.found_visible(account_id, doc_id);
    }
    Ok(())
}

/// Plans an object update from the rows it reads: the named objects, or all of them for a
/// selector.
async fn plan_from_rows(
    c: &impl GenericClient,
    doc_id: &str,
    update: &ObjectUpdate,
) -> StoreResult<Vec<(String, std::sync::Arc<crate::object::StoredObject>)>> {
    let objects = match update {
        ObjectUpdate::Each { objects, .. } => {
            let ids: Vec<&str> = objects.keys().map(String::as_str).collect();
            load_objects(c, doc_id, Some(&ids)).await?
        }
        ObjectUpdate::Matching { .. } => load_objects(c, doc_id, None).await?,
    };
    plan_cached(update, &objects)
}

/// Runs one write request; returns its answer and what it changed. A plan's objects are taken
/// from the request rather than copied.
pub async fn apply(
    c: &impl GenericClient,
    op: &mut WriteOp,
    batch: &mut Batch<'_>,
) -> StoreResult<(Outcome, Committed)> {
    let now = batch.now.clone();
    Ok(match op {
        WriteOp::Initialise { samples } => {
            if any_account(c).await? {
                return Ok((Outcome::Initialised(None), Committed::default()));
            }
            let (account, key) = insert_account(c, DEFAULT_EMAIL).await?;
            let folder = first_folder(c, &account.id).await?;
            for (title, content) in samples.iter() {
                let (doc_id, _) = insert_doc(c, &account.id, &folder.id, title, &now).await?;
                insert_objects(c, &doc_id, content.rows()).await?;
            }
            (Outcome::Initialised(Some(key)), Committed::default())
        }
        WriteOp::CreateAccount { email } => {
            let (_, key) = insert_account(c, email).await?;
            (Outcome::Key(key), Committed::default())
        }
        WriteOp::RotateKey { email } => {
            let (account_id, key) = rotate_key(c, email).await?;
            (Outcome::Key(key), Committed::of_keys(vec![account_id]))
        }
        WriteOp::CreateFolder { account_id, title } => {
            let id = insert_folder(c, account_id, title).await?;
            (Outcome::Created(id), Committed::default())
        }
        WriteOp::RenameFolder {
            account_id,
            folder_id,
            title,
        } => {
            rename_folder(c, account_id, folder_id, title).await?;
            (Outcome::Done, Committed::default())
        }
        WriteOp::DeleteFolder {
            account_id,
            folder_id,
        } => {
            let docs = delete_folder(c, account_id, folder_id)
                .await?
                .iter()
                .map(|doc_id| DocChange::event(doc_id, None, DocEvent::Deleted))
                .collect();
            (Outcome::Done, Committed::of_docs(docs))
        }
        WriteOp::CreateDoc {
            account_id,
            title,
            folder_id,
        } => {
            let (id, change) = create_doc(c, account_id, title, folder_id.as_deref(), &now).await?;
            (Outcome::Created(id), report(change))
        }
        WriteOp::RenameDoc {
            account_id,
            doc_id,
            title,
        } => (
            Outcome::Done,
            report(rename_doc(c, account_id, doc_id, title, &now).await?),
        ),
        WriteOp::EmptyDoc { account_id, doc_id } => (
            Outcome::Done,
            report(empty_doc(c, account_id, doc_id, &now).await?),
        ),
        WriteOp::CloneDoc {
            account_id,
            doc_id,
            title,
        } => {
            let (id, change) = clone_doc(c, account_id, doc_id, title, &now).await?;
            (Outcome::Created(id), report(change))
        }
        WriteOp::Share {
            account_id,
            doc_id,
            email,
        } => (
            Outcome::Done,
            report(share(c, account_id, doc_id, email, &now).await?),
        ),
        WriteOp::DeleteDoc { account_id, doc_id } => (
            Outcome::Done,
            report(delete_doc(c, account_id, doc_id).await?),
        ),
        WriteOp::SetContent {
            account_id,
            doc_id,
            content,
        } => {
            check_visible(batch, c, account_id, doc_id).await?;
            execute(c, "DELETE FROM objects WHERE doc_id = $1", &[&*doc_id]).await?;
            insert_objects(c, doc_id, content.rows()).await?;
            let change = DocChange::event(doc_id, Some(now), DocEvent::ContentReplaced);
            (Outcome::Done, report(change))
        }
        WriteOp::CreateObject {
            account_id,
            doc_id,
            object,
        } => {
            check_visible(batch, c, account_id, doc_id).await?;
            let id = new_object_id();
            let row = (id.as_str(), object.kind(), object.data());
            insert_objects(c, doc_id, std::iter::once(row)).await?;
            let mut change = batch.objects_changed(doc_id);
            change.changed.push((id.clone(), object.clone()));
            (Outcome::Created(id), report(change))
        }
        WriteOp::UpdateObjects {
            account_id,
            doc_id,
            update,
            plan: planned,
        } => {
            check_visible(batch, c, account_id, doc_id).await?;
            let objects = match planned.take() {
                Some(planned) if batch.plan_holds(doc_id, planned.version) => planned.objects,
                Some(_) => return Err(StoreError::Conflict),
                None => plan_from_rows(c, doc_id, update).await?,
            };
            save_objects(c, doc_id, &objects).await?;
            let ids = objects.iter().map(|(id, _)| id.clone()).collect();
            let mut change = batch.objects_changed(doc_id);
            change.changed = objects;
            (Outcome::Updated(ids), report(change))
        }
        WriteOp::DeleteObject {
            account_id,
            doc_id,
            obj_id,
        } => {
            check_visible(batch, c, account_id, doc_id).await?;
            if !delete_object(c, doc_id, obj_id).await? {
                return Err(StoreError::ObjNotFound(obj_id.clone()));
            }
            let mut change = batch.objects_changed(doc_id);
            change.deleted.push(obj_id.clone());
            (Outcome::Done, report(change))
        }
    })
}
