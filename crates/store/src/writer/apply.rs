//! Running one write request inside the writer's transaction, through the engine's
//! [`Statements`]: the same requests, rules and reports on every engine.

use super::Statements;
use crate::batch::{Batch, report};
use crate::change::{Committed, DocChange, DocEvent};
use crate::condition;
use crate::content::ContentUpload;
use crate::embeds;
use crate::history::compact;
use crate::history::record::{self, Entry};
use crate::history::{Change, Objects};
use crate::keys::DEFAULT_EMAIL;
use crate::object::{Kinds, StoredObject};
use crate::write::{ObjectUpdate, Outcome, WriteOp};
use crate::{StoreError, StoreResult};
use diagtui_model::history::{VersionKind, VersionNotes, VersionSource};
use diagtui_model::ids::new_object_id;

/// A version of the batch's time by the account.
fn entry<'a>(
    batch: &'a Batch<'_>,
    account: &'a str,
    kind: VersionKind,
    notes: VersionNotes,
) -> Entry<'a> {
    Entry {
        at: &batch.now,
        account,
        kind,
        notes,
    }
}

/// The kind of version an object update makes.
fn update_kind(update: &ObjectUpdate) -> VersionKind {
    match update {
        ObjectUpdate::Each {
            labelled: false, ..
        } => VersionKind::ObjectUpdated,
        ObjectUpdate::Each { .. } => VersionKind::BulkUpdate,
        ObjectUpdate::Matching { .. } => VersionKind::SelectorUpdate,
    }
}

/// An upload's objects.
fn uploaded(content: &ContentUpload) -> Objects {
    let mut kinds = Kinds::default();
    content
        .rows()
        .map(|(id, kind, data)| {
            let object = StoredObject::new(kinds.get(kind), data);
            (id.to_owned(), std::sync::Arc::new(object))
        })
        .collect()
}

/// The document's version now (its history's head, as the batch advanced it; 0 before its
/// history began).
async fn document_version(
    s: &impl Statements,
    batch: &Batch<'_>,
    doc_id: &str,
) -> StoreResult<u64> {
    Ok(record::head_now(s, batch, doc_id)
        .await?
        .map_or(0, |head| head.head))
}

/// Checks that the account may see the document, once per batch.
async fn check_visible(
    batch: &mut Batch<'_>,
    s: &impl Statements,
    account_id: &str,
    doc_id: &str,
) -> StoreResult<()> {
    if !batch.known_visible(account_id, doc_id) {
        s.visible_doc(account_id, doc_id).await?;
        batch.found_visible(account_id, doc_id);
    }
    Ok(())
}

/// Runs one write request; returns its answer and what it changed. A plan's objects are taken
/// from the request rather than copied.
pub(crate) async fn apply(
    s: &impl Statements,
    op: &mut WriteOp,
    batch: &mut Batch<'_>,
) -> StoreResult<(Outcome, Committed)> {
    Ok(match op {
        WriteOp::Initialise { samples } => {
            if s.any_account().await? {
                return Ok((Outcome::Initialised(None), Committed::default()));
            }
            let (account, key) = s.insert_account(DEFAULT_EMAIL).await?;
            let folder = s.first_folder(&account.id).await?;
            for (title, content) in samples.iter() {
                let (doc_id, _) = s.insert_doc(&account.id, &folder.id, title).await?;
                s.insert_content(&doc_id, content, 0).await?;
            }
            (Outcome::Initialised(Some(key)), Committed::default())
        }
        WriteOp::CreateAccount { email } => {
            let (_, key) = s.insert_account(email).await?;
            (Outcome::Key(key), Committed::default())
        }
        WriteOp::RotateKey { email } => {
            let (account_id, key) = s.rotate_key(email).await?;
            (Outcome::Key(key), Committed::of_keys(vec![account_id]))
        }
        WriteOp::CreateFolder { account_id, title } => {
            let id = s.insert_folder(account_id, title).await?;
            (Outcome::Created(id), Committed::default())
        }
        WriteOp::RenameFolder {
            account_id,
            folder_id,
            title,
        } => {
            s.rename_folder(account_id, folder_id, title).await?;
            (Outcome::Done, Committed::default())
        }
        WriteOp::DeleteFolder {
            account_id,
            folder_id,
        } => {
            let docs = s
                .delete_folder(account_id, folder_id)
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
            let folder = match folder_id {
                Some(id) => s.own_folder(account_id, id).await?,
                None => s.first_folder(account_id).await?,
            };
            let (id, change) = s.insert_doc(account_id, &folder.id, title).await?;
            let entry = entry(
                batch,
                account_id,
                VersionKind::Created,
                VersionNotes::default(),
            );
            record::start(s, &id, entry).await?;
            (Outcome::Created(id), report(change.at(1)))
        }
        WriteOp::RenameDoc {
            account_id,
            doc_id,
            title,
        } => {
            let change = s.rename_doc(account_id, doc_id, title).await?;
            let head = record::open(s, batch, doc_id, 0).await?;
            let notes = VersionNotes {
                title: Some(title.clone()),
                ..VersionNotes::default()
            };
            let entry = entry(batch, account_id, VersionKind::TitleChange, notes);
            let recorded = record::record(s, doc_id, head, entry, Vec::new()).await?;
            let version = batch.keep_version(recorded);
            (Outcome::Done, report(change.at(version)))
        }
        WriteOp::EmptyDoc { account_id, doc_id } => {
            check_visible(batch, s, account_id, doc_id).await?;
            let before = s.current(doc_id, None).await?;
            let changes = record::replaced(before, Objects::new());
            let head = record::open(s, batch, doc_id, changes.len()).await?;
            let change = s.empty_doc(account_id, doc_id).await?;
            let entry = entry(
                batch,
                account_id,
                VersionKind::Empty,
                VersionNotes::default(),
            );
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            (Outcome::Done, report(change.at(version)))
        }
        WriteOp::CloneDoc {
            account_id,
            doc_id,
            title,
        } => {
            let (id, change) = s.clone_doc(account_id, doc_id, title).await?;
            let source = VersionSource {
                doc_id: doc_id.clone(),
                version: record::head_now(s, batch, doc_id)
                    .await?
                    .map(|head| head.head),
            };
            let notes = VersionNotes {
                source: Some(source),
                ..VersionNotes::default()
            };
            let entry = entry(batch, account_id, VersionKind::Cloned, notes);
            record::start(s, &id, entry).await?;
            (Outcome::Created(id), report(change.at(1)))
        }
        WriteOp::Share {
            account_id,
            doc_id,
            email,
        } => (
            Outcome::Done,
            report(s.share(account_id, doc_id, email).await?),
        ),
        WriteOp::MoveDoc {
            account_id,
            doc_id,
            folder_id,
        } => match s.move_doc(account_id, doc_id, folder_id).await? {
            None => (Outcome::Done, Committed::default()),
            Some((folder, change)) => {
                let head = record::open(s, batch, doc_id, 0).await?;
                let notes = VersionNotes {
                    folder: Some(folder),
                    ..VersionNotes::default()
                };
                let entry = entry(batch, account_id, VersionKind::Moved, notes);
                let recorded = record::record(s, doc_id, head, entry, Vec::new()).await?;
                let version = batch.keep_version(recorded);
                (Outcome::Done, report(change.at(version)))
            }
        },
        WriteOp::DeleteDoc { account_id, doc_id } => (
            Outcome::Done,
            report(s.delete_doc(account_id, doc_id).await?),
        ),
        WriteOp::SetContent {
            account_id,
            doc_id,
            content,
            restore,
            if_match,
        } => {
            check_visible(batch, s, account_id, doc_id).await?;
            if let Some(condition) = if_match {
                let now = document_version(s, batch, doc_id).await?;
                if !condition.matches(Some(now)) {
                    return Err(condition::document_failed(now));
                }
            }
            let before = s.current(doc_id, None).await?;
            let changes = record::replaced(before, uploaded(content));
            let head = record::open(s, batch, doc_id, changes.len()).await?;
            s.delete_objects(doc_id).await?;
            s.insert_content(doc_id, content, head.head).await?;
            let (kind, notes) = match restore {
                Some(version) => (
                    VersionKind::Restore,
                    VersionNotes {
                        restored_from: Some(*version),
                        ..VersionNotes::default()
                    },
                ),
                None => (VersionKind::SetContent, VersionNotes::default()),
            };
            let entry = entry(batch, account_id, kind, notes);
            let changed = changes.len() as u64;
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            let change =
                DocChange::event(doc_id, Some(batch.now.clone()), DocEvent::ContentReplaced);
            let outcome = match restore {
                Some(_) => Outcome::Versioned(version, changed),
                None => Outcome::Done,
            };
            (outcome, report(change.at(version)))
        }
        WriteOp::CreateObject {
            account_id,
            doc_id,
            object,
        } => {
            check_visible(batch, s, account_id, doc_id).await?;
            let id = new_object_id();
            let head = record::open(s, batch, doc_id, 1).await?;
            StoredObject::set_version(object, head.head);
            let changes = vec![Change {
                obj_id: id.clone(),
                after: Some(object.clone()),
            }];
            s.insert_object(doc_id, &id, object).await?;
            let entry = entry(
                batch,
                account_id,
                VersionKind::ObjectCreated,
                VersionNotes::default(),
            );
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            let mut change = batch.objects_changed(doc_id).at(version);
            change.changed.push((id.clone(), object.clone()));
            (Outcome::Created(id), report(change))
        }
        WriteOp::AddObjects {
            account_id,
            doc_id,
            objects,
            replace,
        } => {
            check_visible(batch, s, account_id, doc_id).await?;
            let before = s.current(doc_id, None).await?;
            let mut after = if *replace {
                Objects::new()
            } else {
                before.clone()
            };
            after.extend(objects.iter().cloned());
            let changes = record::replaced(before, after);
            let head = record::open(s, batch, doc_id, changes.len()).await?;
            if *replace {
                s.delete_objects(doc_id).await?;
            }
            for (id, object) in objects.iter_mut() {
                if !*replace {
                    s.delete_object(doc_id, id).await?;
                }
                StoredObject::set_version(object, head.head);
                s.insert_object(doc_id, id, object).await?;
            }
            let entry = entry(
                batch,
                account_id,
                VersionKind::CreateDiagram,
                VersionNotes::default(),
            );
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            let change = if *replace {
                DocChange::event(doc_id, Some(batch.now.clone()), DocEvent::ContentReplaced)
            } else {
                let mut change = batch.objects_changed(doc_id);
                change.changed = std::mem::take(objects);
                change
            };
            (Outcome::Done, report(change.at(version)))
        }
        WriteOp::UpdateObjects {
            account_id,
            doc_id,
            update,
            plan: planned,
        } => {
            check_visible(batch, s, account_id, doc_id).await?;
            let (mut objects, before, doc_len) = match planned.take() {
                Some(planned) if batch.plan_holds(doc_id, planned.version) => {
                    (planned.objects, planned.before, Some(planned.doc_len))
                }
                Some(_) => return Err(StoreError::Conflict),
                None => match s.plan_update(doc_id, update).await {
                    Ok((objects, before)) => (objects, before, None),
                    Err(e @ StoreError::PreconditionFailed(_)) => {
                        let now = document_version(s, batch, doc_id).await?;
                        return Err(condition::at_document_version(e, now));
                    }
                    Err(e) => return Err(e),
                },
            };
            // The states before come with the plan: no read beyond the history's advance;
            // they tell which objects the update changes.
            let changed = record::updated_count(&before, &objects);
            let head = record::open(s, batch, doc_id, changed).await?;
            for (_, object) in objects.iter_mut() {
                StoredObject::set_version(object, head.head);
            }
            let changes = record::updated(&before, &objects);
            s.save(doc_id, &mut objects, doc_len).await?;
            let entry = entry(
                batch,
                account_id,
                update_kind(update),
                VersionNotes::default(),
            );
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            let ids = objects.iter().map(|(id, _)| id.clone()).collect();
            let mut change = batch.objects_changed(doc_id).at(version);
            change.changed = objects;
            (Outcome::Updated(ids), report(change))
        }
        WriteOp::CompactHistory { cutoff } => {
            compact::compact(s, cutoff).await?;
            (Outcome::Done, Committed::default())
        }
        WriteOp::Embed(write) => (
            embeds::write::apply(s, write, &batch.now).await?,
            Committed::default(),
        ),
        WriteOp::DeleteObject {
            account_id,
            doc_id,
            obj_id,
            if_match,
        } => {
            check_visible(batch, s, account_id, doc_id).await?;
            if if_match.is_some() {
                let current = s.object(doc_id, obj_id).await?;
                if let Err(e) = condition::check_object(if_match.as_ref(), obj_id, current) {
                    let now = document_version(s, batch, doc_id).await?;
                    return Err(condition::at_document_version(e, now));
                }
            }
            let head = record::open(s, batch, doc_id, 1).await?;
            if !s.delete_object(doc_id, obj_id).await? {
                return Err(StoreError::ObjNotFound(obj_id.clone()));
            }
            let changes = vec![Change {
                obj_id: obj_id.clone(),
                after: None,
            }];
            let entry = entry(
                batch,
                account_id,
                VersionKind::ObjectDeleted,
                VersionNotes::default(),
            );
            let recorded = record::record(s, doc_id, head, entry, changes).await?;
            let version = batch.keep_version(recorded);
            let mut change = batch.objects_changed(doc_id).at(version);
            change.deleted.push(obj_id.clone());
            (Outcome::Done, report(change))
        }
    })
}
