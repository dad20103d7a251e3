//! Conditional writes (issue 33): the versions a write names must be the objects' (or the
//! document's) versions when the writer runs it, else it fails with [`Failed`] and writes
//! nothing. The check runs where the plan is made: on the writer's own reads, or on a cached
//! document only as far as the writer takes that plan (see `Store::update`), so it is never
//! made against a stale state.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use super::error::{StoreError, StoreResult};
use super::object::{StoredObject, push_json_string};
use super::plan::ObjectSource;
use super::write::ObjectUpdate;
use diagtui_model::versions::VersionCondition;

/// Why a conditional write wrote nothing: what the client needs to decide again.
#[derive(Debug, Clone)]
pub struct Failed {
    /// The document's current version (filled in by the writer).
    pub document_version: u64,
    /// The current state of every object whose condition failed (`None`: it does not exist),
    /// and for a selector update of every object that now matches but was not previewed, in
    /// id order; `None` for a condition on the document's version.
    pub objects: Option<Vec<(String, Option<Arc<StoredObject>>)>>,
    /// Selector update only: ids matching now that were not previewed, in id order.
    pub now_match: Option<Vec<String>>,
    /// Selector update only: previewed ids that no longer match, in id order.
    pub no_longer_match: Option<Vec<String>>,
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(objects) = &self.objects else {
            return write!(
                f,
                "the document is at version {}, not the version given",
                self.document_version
            );
        };
        let count = |n: usize| match n {
            1 => "1 object".to_owned(),
            n => format!("{n} objects"),
        };
        if let (Some(now), Some(gone)) = (&self.now_match, &self.no_longer_match) {
            write!(
                f,
                "the selector's matches changed since the preview ({} now match{}, {} no \
                 longer match{}): ",
                now.len(),
                if now.len() == 1 { "es" } else { "" },
                gone.len(),
                if gone.len() == 1 { "es" } else { "" },
            )?;
        } else {
            write!(
                f,
                "{} changed since the versions given: ",
                count(objects.len())
            )?;
        }
        for (at, (id, object)) in objects.iter().enumerate() {
            if at == 5 {
                return write!(f, ", and {} more", objects.len() - 5);
            }
            let sep = if at == 0 { "" } else { ", " };
            match object {
                Some(object) => write!(f, "{sep}{id} (now {})", object.version())?,
                None => write!(f, "{sep}{id} (deleted)")?,
            }
        }
        Ok(())
    }
}

impl Failed {
    /// The members the 412 answer adds to the error contract, as JSON text to follow
    /// `"message":…,`: `"documentVersion":N` and, as they apply, `"objects"`, `"nowMatch"`,
    /// `"noLongerMatch"`.
    pub fn json_members(&self) -> String {
        let mut out = format!("\"documentVersion\":{}", self.document_version);
        if let Some(objects) = &self.objects {
            out.push_str(",\"objects\":{");
            for (at, (id, object)) in objects.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                push_json_string(&mut out, id);
                out.push(':');
                match object {
                    Some(object) => object.push_versioned(&mut out),
                    None => out.push_str("null"),
                }
            }
            out.push('}');
        }
        for (name, ids) in [
            ("nowMatch", &self.now_match),
            ("noLongerMatch", &self.no_longer_match),
        ] {
            if let Some(ids) = ids {
                out.push_str(&format!(",\"{name}\":"));
                out.push_str(&serde_json::to_string(ids).expect("ids always serialise"));
            }
        }
        out
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
