//! The store's object writes: creating one, updating one, many (bulk) or those a selector
//! matches, and deleting one. Large updates are planned from the cached document, outside the
//! writer.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Store;
use super::reads::with_state;
use crate::engine::Engine;
use crate::error::{StoreError, StoreResult};
use crate::keys::Account;
use crate::object::StoredObject;
use crate::plan;
use crate::rules::{check_object_id, check_props_by_name, check_props_for};
use crate::write::{ObjectUpdate, Plan};
use crate::writer::ops::objects::{CreateObject, DeleteObject, UpdateObjects};
use diagtui_model::props::new_object_data;
use diagtui_model::versions::VersionCondition;
use diagtui_model::{ObjectType, Props, Selector};

/// Bulk updates of more objects than this are planned from the cached document, outside the
/// writer; smaller ones are planned by the writer from the rows it reads.
const PLAN_AHEAD_FROM: usize = 16;
/// How many times an update planned ahead is planned again after the document changed under
/// it, before the writer plans it.
const PLAN_ATTEMPTS: usize = 3;

impl<E: Engine> Store<E> {
    /// Creates an object of a type (wire name) from properties over the type's defaults;
    /// returns its new id and the document version the write made (the object's).
    pub async fn create_object(
        &self,
        account: &Account,
        doc_id: &str,
        kind: &str,
        props: &Props,
    ) -> StoreResult<(String, u64)> {
        let kind: ObjectType = kind
            .parse()
            .map_err(|e: diagtui_model::PropertyProblem| StoreError::Invalid(e.to_string()))?;
        check_props_for(kind.as_str(), props, true).map_err(StoreError::Invalid)?;
        let data = serde_json::to_string(&new_object_data(kind, props))?;
        let object = Arc::new(StoredObject::created(kind, &data));
        self.write(CreateObject {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            object,
        })
        .await
    }

    /// Merges properties into one object, when it is at a version `if_match` names (if
    /// given); returns the document version the write made (the object's).
    pub async fn update_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        props: Props,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        check_object_id("objId", obj_id)?;
        check_props_by_name(&props)?;
        let if_versions = if_match
            .map(|condition| BTreeMap::from([(obj_id.to_owned(), condition)]))
            .unwrap_or_default();
        let objects = BTreeMap::from([(obj_id.to_owned(), props)]);
        let update = ObjectUpdate::Each {
            objects,
            labelled: false,
            if_versions,
        };
        let (_, version) = self.update(account, doc_id, update, false).await?;
        Ok(version)
    }

    /// Merges each object's own properties into it: all objects or none. An object id that
    /// does not exist fails the whole request, and so does one not at the version
    /// `if_versions` gives it (each key must be one of `objects`). Returns the document
    /// version the write made.
    pub async fn bulk_update(
        &self,
        account: &Account,
        doc_id: &str,
        objects: BTreeMap<String, Props>,
        if_versions: BTreeMap<String, u64>,
    ) -> StoreResult<u64> {
        for (obj_id, props) in &objects {
            let label = format!("objects.{obj_id}");
            check_object_id(&label, obj_id)?;
            check_props_by_name(props).map_err(|e| StoreError::Invalid(format!("{label}: {e}")))?;
        }
        if let Some(stray) = if_versions.keys().find(|id| !objects.contains_key(*id)) {
            return Err(StoreError::Invalid(format!(
                "ifVersions.{stray}: not among objects"
            )));
        }
        let ahead = objects.len() > PLAN_AHEAD_FROM;
        let update = ObjectUpdate::Each {
            objects,
            labelled: true,
            if_versions: if_versions
                .into_iter()
                .map(|(id, version)| (id, VersionCondition::OneOf(vec![version])))
                .collect(),
        };
        let (_, version) = self.update(account, doc_id, update, ahead).await?;
        Ok(version)
    }

    /// Merges properties into every object whose `meta` matches: all or none; with
    /// `if_versions`, only if the selector matches exactly those objects, each at its version.
    /// Returns the ids of the updated objects, in id order, and the document version the write
    /// made. The matching and the merging happen on a cached copy of the document, outside the
    /// writer.
    pub async fn selector_update(
        &self,
        account: &Account,
        doc_id: &str,
        selector: Selector,
        props: Props,
        if_versions: Option<BTreeMap<String, u64>>,
    ) -> StoreResult<(Vec<String>, u64)> {
        // Props are checked by name up front, so that a selector matching nothing still
        // refuses bad props; the per-object check adds only the per-type rules.
        check_props_by_name(&props)?;
        let update = ObjectUpdate::Matching {
            selector,
            props,
            if_versions,
        };
        self.update(account, doc_id, update, true).await
    }

    /// Runs an object update: planned from the cached document first when `ahead`, planned
    /// again when the document changed before the plan could commit, and left to the writer
    /// to plan after [`PLAN_ATTEMPTS`], or at once when a condition failed on the cached
    /// document (the writer decides on the document as it is, never on a stale copy).
    async fn update(
        &self,
        account: &Account,
        doc_id: &str,
        update: ObjectUpdate,
        ahead: bool,
    ) -> StoreResult<(Vec<String>, u64)> {
        let update = Arc::new(update);
        let attempts = if ahead { PLAN_ATTEMPTS } else { 0 };
        for _ in 0..attempts {
            let doc = self.doc(account, doc_id).await?;
            let planning = Arc::clone(&update);
            let plan = with_state(doc, move |state| {
                let (objects, before) = plan::plan_cached(&planning, &state.objects)?;
                Ok(Plan {
                    version: state.version,
                    objects,
                    before,
                    doc_len: state.objects.len(),
                })
            })
            .await;
            let plan = match plan {
                Ok(plan) => plan,
                Err(StoreError::PreconditionFailed(_)) => break,
                Err(e) => return Err(e),
            };
            match self
                .write_update(account, doc_id, &update, Some(plan))
                .await
            {
                Err(StoreError::Conflict) => continue,
                answer => return answer,
            }
        }
        self.write_update(account, doc_id, &update, None).await
    }

    /// Sends an object update to the writer.
    pub(super) async fn write_update(
        &self,
        account: &Account,
        doc_id: &str,
        update: &Arc<ObjectUpdate>,
        plan: Option<Plan>,
    ) -> StoreResult<(Vec<String>, u64)> {
        self.write(UpdateObjects {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            update: Arc::clone(update),
            plan,
        })
        .await
    }

    /// Deletes one object, when it is at a version `if_match` names (if given); returns the
    /// document version the write made.
    pub async fn delete_object(
        &self,
        account: &Account,
        doc_id: &str,
        obj_id: &str,
        if_match: Option<VersionCondition>,
    ) -> StoreResult<u64> {
        check_object_id("objId", obj_id)?;
        self.write(DeleteObject {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            obj_id: obj_id.to_owned(),
            if_match,
        })
        .await
    }
}
