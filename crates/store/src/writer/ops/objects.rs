//! The objects' write requests: creating, updating (one, in bulk, by selector) and deleting
//! objects, each recorded as a version that keeps the objects it changed.

use std::sync::Arc;

use super::{Made, check_visible, document_version, record_version};
use crate::batch::{Batch, report};
use crate::condition;
use crate::error::StoreError;
use crate::history::Change;
use crate::history::record;
use crate::object::StoredObject;
use crate::write::{ObjectUpdate, Plan};
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;
use diagtui_model::history::VersionKind;
use diagtui_model::ids::new_object_id;
use diagtui_model::versions::VersionCondition;

area_ops! {
    CreateObject,
    UpdateObjects,
    DeleteObject,
}

/// Add an object under a new id; answers the id and the version it made.
pub struct CreateObject {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The object.
    pub object: Arc<StoredObject>,
}

impl Write for CreateObject {
    type Answer = (String, u64);
    type Area = Op;

    async fn apply(
        &mut self,
        s: &impl Statements,
        batch: &mut Batch<'_>,
    ) -> Applied<(String, u64)> {
        let (account_id, doc_id, object) = (&self.account_id, &self.doc_id, &mut self.object);
        check_visible(batch, s, account_id, doc_id).await?;
        let id = new_object_id();
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, 1).await?;
        StoredObject::set_version(object, head.head);
        let changes = vec![Change {
            obj_id: id.clone(),
            after: Some(object.clone()),
        }];
        s.insert_object(doc_id, &id, object).await?;
        let made = Made::plain(account_id, VersionKind::ObjectCreated);
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        let mut change = batch.objects_changed(doc_id).at(version);
        change.changed.push((id.clone(), object.clone()));
        Ok(((id, version), report(change)))
    }
}

/// Merge properties into objects; answers the ids of the objects it updated, in id order, and
/// the version it made.
pub struct UpdateObjects {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// Which objects and what to merge (shared with the request, which may plan it again).
    pub update: Arc<ObjectUpdate>,
    /// The objects' new states, computed from a cached snapshot of the document; the
    /// writer plans the update itself when there is none.
    pub plan: Option<Plan>,
}

impl Write for UpdateObjects {
    type Answer = (Vec<String>, u64);
    type Area = Op;

    async fn apply(
        &mut self,
        s: &impl Statements,
        batch: &mut Batch<'_>,
    ) -> Applied<(Vec<String>, u64)> {
        let (account_id, doc_id, update) = (&self.account_id, &self.doc_id, &self.update);
        check_visible(batch, s, account_id, doc_id).await?;
        let (mut objects, before, doc_len) = match self.plan.take() {
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
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, changed).await?;
        for (_, object) in objects.iter_mut() {
            StoredObject::set_version(object, head.head);
        }
        let changes = record::updated(&before, &objects);
        s.save(doc_id, &mut objects, doc_len).await?;
        let made = Made::plain(account_id, update_kind(update));
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        let ids = objects.iter().map(|(id, _)| id.clone()).collect();
        let mut change = batch.objects_changed(doc_id).at(version);
        change.changed = objects;
        Ok(((ids, version), report(change)))
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

/// Delete an object; answers the version it made.
pub struct DeleteObject {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The object.
    pub obj_id: String,
    /// The version the object must be at (`If-Match`), else nothing is written.
    pub if_match: Option<VersionCondition>,
}

impl Write for DeleteObject {
    type Answer = u64;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<u64> {
        let (account_id, doc_id, obj_id) = (&self.account_id, &self.doc_id, &self.obj_id);
        check_visible(batch, s, account_id, doc_id).await?;
        if self.if_match.is_some() {
            let current = s.object(doc_id, obj_id).await?;
            if let Err(e) = condition::check_object(self.if_match.as_ref(), obj_id, current) {
                let now = document_version(s, batch, doc_id).await?;
                return Err(condition::at_document_version(e, now));
            }
        }
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, 1).await?;
        if !s.delete_object(doc_id, obj_id).await? {
            return Err(StoreError::ObjNotFound(obj_id.clone()));
        }
        let changes = vec![Change {
            obj_id: obj_id.clone(),
            after: None,
        }];
        let made = Made::plain(account_id, VersionKind::ObjectDeleted);
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        let mut change = batch.objects_changed(doc_id).at(version);
        change.deleted.push(obj_id.clone());
        Ok((version, report(change)))
    }
}
