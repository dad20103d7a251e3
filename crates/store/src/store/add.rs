//! Adding many laid-out objects under ids the caller chose, in one transaction: what
//! create-diagram stores.

use std::sync::Arc;

use super::Store;
use crate::engine::Engine;
use crate::error::{StoreError, StoreResult};
use crate::keys::Account;
use crate::object::StoredObject;
use crate::rules::check_object_id;
use crate::writer::ops::content::AddObjects;
use diagtui_model::props::new_object_data;
use diagtui_model::{DiagramObject, ObjectType};

impl<E: Engine> Store<E> {
    /// Adds laid-out objects under their given ids, each completed with its type's defaults:
    /// all or none. An object whose id is already in the document takes its place; with
    /// `replace`, every object there is removed first. Returns the document version the write
    /// made.
    ///
    /// The objects' properties are not checked again: create-diagram's layout checked each
    /// entry's (naming the entry and the field) and made the rest. Ids and types are checked
    /// here, a problem naming the id (`objects.<id>: …`); whether the account may see the
    /// document, by the writer.
    pub async fn add_objects(
        &self,
        account: &Account,
        doc_id: &str,
        objects: Vec<(String, DiagramObject)>,
        replace: bool,
    ) -> StoreResult<u64> {
        let mut stored = Vec::with_capacity(objects.len());
        for (id, object) in objects {
            let label = format!("objects.{id}");
            check_object_id(&label, &id)?;
            let kind: ObjectType = object
                .kind
                .parse()
                .map_err(|e| StoreError::Invalid(format!("{label}: {e}")))?;
            let data = serde_json::to_string(&new_object_data(kind, &object.data))?;
            stored.push((id, Arc::new(StoredObject::created(kind, &data))));
        }
        self.write(AddObjects {
            account_id: account.id.clone(),
            doc_id: doc_id.to_owned(),
            objects: stored,
            replace,
        })
        .await
    }
}
