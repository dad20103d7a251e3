//! Planning an object update: finding the objects it changes, checking the properties against
//! each object's type and merging them in. The same code plans from a cached document, on the
//! request's own task before the writer is involved, and inside the writer from the rows it
//! reads, when no cached plan could be made.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::sync::Arc;

use super::condition::{self, Fetched, ObjectSource};
use super::error::{StoreError, StoreResult};
use super::object::{PropsText, StoredObject, merged};
use super::rules::check_props_for;
use super::write::ObjectUpdate;

/// The objects an update changes, each with its new state, in id order.
pub type Planned = Vec<(String, Arc<StoredObject>)>;

/// The states of a plan's objects before the update, in the plan's order: what the document's
/// history records as each object's state before.
pub type Before = Vec<Arc<StoredObject>>;

/// Plans `update` over the objects of `source`: each changed object's new state, and its state
/// before; checks its conditions first (see [`condition`]).
pub fn plan(
    update: &ObjectUpdate,
    source: &mut dyn ObjectSource,
) -> StoreResult<(Planned, Before)> {
    let fetched = condition::check(update, source)?;
    plan_checked(update, source, fetched)
}

/// Plans `update` whose conditions were checked, taking the objects the check read from
/// `fetched`.
fn plan_checked(
    update: &ObjectUpdate,
    source: &mut dyn ObjectSource,
    mut fetched: Fetched,
) -> StoreResult<(Planned, Before)> {
    let room = match update {
        ObjectUpdate::Each { objects, .. } => objects.len(),
        ObjectUpdate::Matching { .. } => source.known_len().unwrap_or(0),
    };
    let mut planned = Vec::with_capacity(room);
    let mut before = Vec::with_capacity(room);
    match update {
        ObjectUpdate::Each {
            objects, labelled, ..
        } => {
            for (obj_id, props) in objects {
                let current = match fetched.remove(obj_id) {
                    Some(current) => current,
                    None => source.get(obj_id)?,
                };
                let current = current.ok_or_else(|| StoreError::ObjNotFound(obj_id.clone()))?;
                let label = labelled.then(|| format!("objects.{obj_id}"));
                check(current.kind(), props, label.as_deref())?;
                let text = PropsText::new(props);
                let object = merged(&current, &text)?;
                planned.push((obj_id.clone(), Arc::new(object)));
                before.push(current);
            }
        }
        ObjectUpdate::Matching {
            selector, props, ..
        } => {
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
                let object = merged(current, &text)?;
                planned.push((obj_id.to_owned(), Arc::new(object)));
                before.push(Arc::clone(current));
                Ok(())
            })?;
        }
    }
    // Room was made for every object; a plan that changes few of them gives the rest back.
    if planned.len() * 2 < planned.capacity() {
        planned.shrink_to_fit();
        before.shrink_to_fit();
    }
    Ok((planned, before))
}

/// Selector updates over at least this many objects are planned on every core.
const PARALLEL_FROM: usize = 4096;

/// A cached document's objects, or a run of them, in id order.
struct Slice<'a>(&'a [(&'a String, &'a Arc<StoredObject>)]);

impl ObjectSource for Slice<'_> {
    fn get(&mut self, obj_id: &str) -> StoreResult<Option<Arc<StoredObject>>> {
        Ok(self
            .0
            .binary_search_by(|(id, _)| id.as_str().cmp(obj_id))
            .ok()
            .map(|at| Arc::clone(self.0[at].1)))
    }

    fn each(
        &mut self,
        f: &mut dyn FnMut(&str, &Arc<StoredObject>) -> StoreResult<()>,
    ) -> StoreResult<()> {
        self.0.iter().try_for_each(|(id, object)| f(id, object))
    }

    fn known_len(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// Plans `update` over a cached document's objects. A large selector update is split into
/// runs planned on every core at once; the runs' plans join in id order, and the first run's
/// error is the one answered, as if planned in one go.
pub fn plan_cached(
    update: &ObjectUpdate,
    objects: &BTreeMap<String, Arc<StoredObject>>,
) -> StoreResult<(Planned, Before)> {
    let all: Vec<(&String, &Arc<StoredObject>)> = objects.iter().collect();
    let fetched = condition::check(update, &mut Slice(&all))?;
    // The count of cores is read from the system (cgroup files) on every call: asked only
    // of a large selector update, not of every small one.
    let large = matches!(update, ObjectUpdate::Matching { .. }) && all.len() >= PARALLEL_FROM;
    let cores = match large {
        true => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        false => 1,
    };
    if cores == 1 {
        return plan_checked(update, &mut Slice(&all), fetched);
    }
    std::thread::scope(|scope| {
        let runs: Vec<_> = all
            .chunks(all.len().div_ceil(cores))
            .map(|run| scope.spawn(move || plan_checked(update, &mut Slice(run), Fetched::new())))
            .collect();
        let runs = runs
            .into_iter()
            .map(|run| {
                run.join()
                    .map_err(|_| StoreError::Internal("a plan failed".into()))?
            })
            .collect::<StoreResult<Vec<(Planned, Before)>>>()?;
        let len = runs.iter().map(|(run, _)| run.len()).sum();
        let (mut planned, mut before) = (Vec::with_capacity(len), Vec::with_capacity(len));
        for (run, run_before) in runs {
            planned.extend(run);
            before.extend(run_before);
        }
        Ok((planned, before))
    })
}

/// Checks properties against an object's type; `label` prefixes the message.
fn check(kind: &str, props: &diagtui_model::Props, label: Option<&str>) -> StoreResult<()> {
    check_props_for(kind, props, false).map_err(|msg| {
        StoreError::Invalid(match label {
            Some(label) => format!("{label}: {msg}"),
            None => msg,
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rules::parse_selector;

    /// `n` labels with `meta.k` = their number mod 3, and a component at every 1,000th.
    fn objects(n: usize) -> BTreeMap<String, Arc<StoredObject>> {
        (0..n)
            .map(|i| {
                let kind = if i % 1000 == 999 {
                    "component"
                } else {
                    "label"
                };
                let data = json!({"meta": {"k": i % 3}, "text": format!("{i}")}).to_string();
                (
                    format!("{i:06}"),
                    Arc::new(StoredObject::new(Arc::from(kind), &data)),
                )
            })
            .collect()
    }

    fn matching(props: serde_json::Value) -> ObjectUpdate {
        ObjectUpdate::Matching {
            selector: parse_selector(r#"["k","eq",1]"#).unwrap(),
            props: props.as_object().unwrap().clone(),
            if_versions: None,
        }
    }

    #[test]
    fn a_plan_spread_over_cores_is_the_plan_made_in_one_go() {
        let objects = objects(10_000);
        let all: Vec<_> = objects.iter().collect();
        let update = matching(json!({"text": "matched"}));
        let (spread, spread_before) = plan_cached(&update, &objects).unwrap();
        let (one_go, one_go_before) = plan(&update, &mut Slice(&all)).unwrap();
        assert_eq!(spread.len(), one_go.len());
        for ((a, x), (b, y)) in spread.iter().zip(&one_go) {
            assert_eq!((a, x.data()), (b, y.data()));
        }
        // Each planned object's state before is the document's, in the plan's order.
        assert_eq!(spread_before.len(), spread.len());
        for ((id, _), before) in spread.iter().zip(&spread_before) {
            assert!(Arc::ptr_eq(before, &objects[id]));
        }
        assert!(
            spread_before
                .iter()
                .zip(&one_go_before)
                .all(|(a, b)| Arc::ptr_eq(a, b))
        );
        // The first object in id order that refuses the properties is the one named.
        let refused = plan_cached(&matching(json!({"componentId": " "})), &objects).unwrap_err();
        assert!(
            refused.to_string().starts_with("object 001999:"),
            "{refused}"
        );
    }
}
