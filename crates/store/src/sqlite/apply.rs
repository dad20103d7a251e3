//! Running one write request inside the writer's transaction.

use rusqlite::Connection;

use super::accounts::{any_account, insert_account, rotate_key};
use super::docs::{
    clone_doc, create_doc, delete_doc, empty_doc, insert_doc, rename_doc, share, touch, visible_doc,
};
use super::folders::{delete_folder, first_folder, insert_folder, rename_folder};
use super::objects::{DbObjects, delete_object, insert_object, save_objects};
use crate::batch::{Batch, docs_to_touch, report};
use crate::change::{Committed, DocChange, DocEvent};
use crate::content::ContentUpload;
use crate::keys::DEFAULT_EMAIL;
use crate::plan::plan;
use crate::write::{Outcome, WriteOp};
use crate::{StoreError, StoreResult};
use diagtui_model::ids::new_object_id;

/// Checks that the account may see the document, once per batch.
fn check_visible(
    batch: &mut Batch<'_>,
    conn: &Connection,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<()> {
    if !batch.known_visible(account_id, doc_id) {
        visible_doc(conn, account_id, doc_id)?;
        batch.found_visible(account_id, doc_id);
    }
    Ok(())
}

/// Sets `lastChange` once for each document the batch's committed requests changed.
pub fn touch_changed(conn: &Connection, reports: &[&Committed], now: &str) -> StoreResult<()> {
    for doc_id in docs_to_touch(reports) {
        touch(conn, doc_id, now)?;
    }
    Ok(())
}

/// Stores the rows of an upload in a document that has no objects.
fn insert_rows(conn: &Connection, doc_id: &str, content: &ContentUpload) -> StoreResult<()> {
    for (obj_id, kind, data) in content.rows() {
        insert_object(conn, doc_id, obj_id, kind, data)?;
    }
    Ok(())
}

/// Runs one write request; returns its answer and what it changed. A plan's objects are taken
/// from the request rather than copied.
pub fn apply(
    conn: &Connection,
    op: &mut WriteOp,
    batch: &mut Batch<'_>,
) -> StoreResult<(Outcome, Committed)> {
    let now = batch.now.clone();
    Ok(match op {
        WriteOp::Initialise { samples } => {
            if any_account(conn)? {
                return Ok((Outcome::Initialised(None), Committed::default()));
            }
            let (account, key) = insert_account(conn, DEFAULT_EMAIL)?;
            let folder = first_folder(conn, &account.id)?;
            for (title, content) in samples.iter() {
                let (doc_id, _) = insert_doc(conn, &account.id, &folder.id, title, &now)?;
                insert_rows(conn, &doc_id, content)?;
            }
            (Outcome::Initialised(Some(key)), Committed::default())
        }
        WriteOp::CreateAccount { email } => {
            let (_, key) = insert_account(conn, email)?;
            (Outcome::Key(key), Committed::default())
        }
        WriteOp::RotateKey { email } => {
            let (account_id, key) = rotate_key(conn, email)?;
            (Outcome::Key(key), Committed::of_keys(vec![account_id]))
        }
        WriteOp::CreateFolder { account_id, title } => {
            let id = insert_folder(conn, account_id, title)?;
            (Outcome::Created(id), Committed::default())
        }
        WriteOp::RenameFolder {
            account_id,
            folder_id,
            title,
        } => {
            rename_folder(conn, account_id, folder_id, title)?;
            (Outcome::Done, Committed::default())
        }
        WriteOp::DeleteFolder {
            account_id,
            folder_id,
        } => {
            let docs = delete_folder(conn, account_id, folder_id)?
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
            let (id, change) = create_doc(conn, account_id, title, folder_id.as_deref(), &now)?;
            (Outcome::Created(id), report(change))
        }
        WriteOp::RenameDoc {
            account_id,
            doc_id,
            title,
        } => (
            Outcome::Done,
            report(rename_doc(conn, account_id, doc_id, title, &now)?),
        ),
        WriteOp::EmptyDoc { account_id, doc_id } => (
            Outcome::Done,
            report(empty_doc(conn, account_id, doc_id, &now)?),
        ),
        WriteOp::CloneDoc {
            account_id,
            doc_id,
            title,
        } => {
            let (id, change) = clone_doc(conn, account_id, doc_id, title, &now)?;
            (Outcome::Created(id), report(change))
        }
        WriteOp::Share {
            account_id,
            doc_id,
            email,
        } => (
            Outcome::Done,
            report(share(conn, account_id, doc_id, email, &now)?),
        ),
        WriteOp::DeleteDoc { account_id, doc_id } => {
            (Outcome::Done, report(delete_doc(conn, account_id, doc_id)?))
        }
        WriteOp::SetContent {
            account_id,
            doc_id,
            content,
        } => {
            check_visible(batch, conn, account_id, doc_id)?;
            conn.execute("DELETE FROM objects WHERE doc_id = ?1", [&*doc_id])?;
            insert_rows(conn, doc_id, content)?;
            let change = DocChange::event(doc_id, Some(now), DocEvent::ContentReplaced);
            (Outcome::Done, report(change))
        }
        WriteOp::CreateObject {
            account_id,
            doc_id,
            object,
        } => {
            check_visible(batch, conn, account_id, doc_id)?;
            let id = new_object_id();
            insert_object(conn, doc_id, &id, object.kind(), object.data())?;
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
            check_visible(batch, conn, account_id, doc_id)?;
            let (mut objects, doc_len) = match planned.take() {
                Some(planned) if batch.plan_holds(doc_id, planned.version) => {
                    (planned.objects, Some(planned.doc_len))
                }
                Some(_) => return Err(StoreError::Conflict),
                None => (plan(update, &mut DbObjects { conn, doc_id })?, None),
            };
            save_objects(conn, doc_id, &mut objects, doc_len)?;
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
            check_visible(batch, conn, account_id, doc_id)?;
            if !delete_object(conn, doc_id, obj_id)? {
                return Err(StoreError::ObjNotFound(obj_id.clone()));
            }
            let mut change = batch.objects_changed(doc_id);
            change.deleted.push(obj_id.clone());
            (Outcome::Done, report(change))
        }
    })
}
