//! Conditional writes (issue 33): the versions a write names must be the objects' (or the
//! document's) versions when the writer runs it, else it fails with [`Failed`] and writes
//! nothing. The check runs where the plan is made: on the writer's own reads, or on a cached
//! document only as far as the writer takes that plan (see `Store::update`), so it is never
//! made against a stale state.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::error::{StoreError, StoreResult};
pub use super::failed::Failed;
use super::object::StoredObject;
use super::write::ObjectUpdate;
use diagtui_model::versions::VersionCondition;

/// Where a plan reads a document's objects from: a cached document, or the database.
pub trait ObjectSource {
    /// The object with this id, if any.
    fn get(&mut self, obj_id: &str) -> StoreResult<Option<Arc<StoredObject>>>;
    /// Calls `f` with each object, in id order, until it fails.
    fn each(
        &mut self,
        f: &mut dyn FnMut(&str, &Arc<StoredObject>) -> StoreResult<()>,
    ) -> StoreResult<()>;
    /// How many objects it holds, when that is known without reading them: a plan makes room
    /// for them all up front.
    fn known_len(&self) -> Option<usize> {
        None
    }
}

/// A failed condition on these objects (the document's version still to be filled in).
pub fn objects_failed(objects: Vec<(String, Option<Arc<StoredObject>>)>) -> StoreError {
    StoreError::PreconditionFailed(Arc::new(Failed {
        document_version: 0,
        objects: Some(objects),
        now_match: None,
        no_longer_match: None,
    }))
}

/// A failed condition on the document's version.
pub fn document_failed(document_version: u64) -> StoreError {
    StoreError::PreconditionFailed(Arc::new(Failed {
        document_version,
        objects: None,
        now_match: None,
        no_longer_match: None,
    }))
}

/// The same error, a failed condition saying the document's current version.
pub fn at_document_version(error: StoreError, document_version: u64) -> StoreError {
    match error {
        StoreError::PreconditionFailed(failed) => {
            let mut failed = Arc::unwrap_or_clone(failed);
            failed.document_version = document_version;
            StoreError::PreconditionFailed(Arc::new(failed))
        }
        other => other,
    }
}

/// The objects a check read, by id, for the plan to take rather than read again.
pub type Fetched = HashMap<String, Option<Arc<StoredObject>>>;

/// Checks an update's conditions against `source` (nothing to check: nothing read).
pub fn check(update: &ObjectUpdate, source: &mut dyn ObjectSource) -> StoreResult<Fetched> {
    let mut fetched = Fetched::new();
    match update {
        ObjectUpdate::Each { if_versions, .. } => {
            let mut failed = Vec::new();
            for (id, condition) in if_versions {
                let current = source.get(id)?;
                if !condition.matches(current.as_ref().map(|o| o.version())) {
                    failed.push((id.clone(), current.clone()));
                }
                fetched.insert(id.clone(), current);
            }
            if !failed.is_empty() {
                return Err(objects_failed(failed));
            }
        }
        ObjectUpdate::Matching {
            selector,
            if_versions: Some(previewed),
            ..
        } => check_matches(selector, previewed, source)?,
        ObjectUpdate::Matching { .. } => {}
    }
    Ok(fetched)
}

/// Checks that the selector matches exactly the previewed objects, each at its version.
fn check_matches(
    selector: &diagtui_model::Selector,
    previewed: &BTreeMap<String, u64>,
    source: &mut dyn ObjectSource,
) -> StoreResult<()> {
    let mut failed = Vec::new();
    let (mut now_match, mut no_longer_match) = (Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    source.each(&mut |id, current| {
        let expected = previewed.get(id);
        if expected.is_some() {
            seen.insert(id.to_owned());
        }
        match (selector.matches(current.meta()), expected) {
            (true, Some(version)) if current.version() == *version => return Ok(()),
            (true, Some(_)) => {}
            (true, None) => now_match.push(id.to_owned()),
            (false, Some(_)) => no_longer_match.push(id.to_owned()),
            (false, None) => return Ok(()),
        }
        failed.push((id.to_owned(), Some(Arc::clone(current))));
        Ok(())
    })?;
    if seen.len() < previewed.len() {
        // Previewed objects that are gone.
        for id in previewed.keys().filter(|id| !seen.contains(*id)) {
            no_longer_match.push(id.clone());
            failed.push((id.clone(), None));
        }
        failed.sort_by(|a, b| a.0.cmp(&b.0));
        no_longer_match.sort();
    }
    if failed.is_empty() {
        return Ok(());
    }
    Err(StoreError::PreconditionFailed(Arc::new(Failed {
        document_version: 0,
        objects: Some(failed),
        now_match: Some(now_match),
        no_longer_match: Some(no_longer_match),
    })))
}

/// Checks a condition on an object as it is (`None`: it does not exist).
pub fn check_object(
    condition: Option<&VersionCondition>,
    obj_id: &str,
    current: Option<Arc<StoredObject>>,
) -> StoreResult<()> {
    match condition {
        Some(condition) if !condition.matches(current.as_ref().map(|o| o.version())) => {
            Err(objects_failed(vec![(obj_id.to_owned(), current)]))
        }
        _ => Ok(()),
    }
}
