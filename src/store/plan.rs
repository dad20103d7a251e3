//! Planning an object update: finding the objects it changes, checking the properties against
//! each object's type and merging them in. The same code plans from a cached document, on the
//! request's own task before the writer is involved, and inside the writer from the rows it
//! reads, when no cached plan could be made.

use std::sync::Arc;

use super::object::{Defaults, PropsText, StoredObject, merged};
use super::rules::check_props_for;
use super::write::ObjectUpdate;
use super::{StoreError, StoreResult};

/// The objects an update changes, each with its new state, in id order.
pub type Planned = Vec<(String, Arc<StoredObject>)>;

/// Where a plan reads a document's objects from: a cached document, or the database.
pub trait ObjectSource {
    /// The object with this id, if any.
    fn get(&mut self, obj_id: &str) -> StoreResult<Option<Arc<StoredObject>>>;
    /// Calls `f` with each object, in id order, until it fails.
    fn each(
        &mut self,
        f: &mut dyn FnMut(&str, &Arc<StoredObject>) -> StoreResult<()>,
    ) -> StoreResult<()>;
}

/// Plans `update` over the objects of `source`.
pub fn plan(update: &ObjectUpdate, source: &mut dyn ObjectSource) -> StoreResult<Planned> {
    let mut defaults = Defaults::default();
    let mut planned = Vec::new();
    match update {
        ObjectUpdate::Each { objects, labelled } => {
            for (obj_id, props) in objects {
                let current = source
                    .get(obj_id)?
                    .ok_or_else(|| StoreError::ObjNotFound(obj_id.clone()))?;
                let label = labelled.then(|| format!("objects.{obj_id}"));
                check(current.kind(), props, label.as_deref())?;
                let text = PropsText::new(props);
                let object = merged(&current, &text, &mut defaults)?;
                planned.push((obj_id.clone(), Arc::new(object)));
            }
        }
        ObjectUpdate::Matching { selector, props } => {
            let text = PropsText::new(props);
            let mut checked: Vec<String> = Vec::new();
            source.each(&mut |obj_id, current| {
                if !selector.matches(current.meta()) {
                    return Ok(());
                }
                if !checked.iter().any(|kind| kind == current.kind()) {
                    check(current.kind(), props, Some(&format!("object {obj_id}")))?;
                    checked.push(current.kind().to_owned());
                }
                let object = merged(current, &text, &mut defaults)?;
                planned.push((obj_id.to_owned(), Arc::new(object)));
                Ok(())
            })?;
        }
    }
    Ok(planned)
}

/// Checks properties against an object's type; `label` prefixes the message.
fn check(kind: &str, props: &crate::model::Props, label: Option<&str>) -> StoreResult<()> {
    check_props_for(kind, props, false).map_err(|msg| {
        StoreError::Invalid(match label {
            Some(label) => format!("{label}: {msg}"),
            None => msg,
        })
    })
}
