//! `obj set-where … --merge` and `obj bulk … --merge`: nested values merged into each object's
//! (`{"meta":{"owner":"ops"}}` keeps the other meta keys). The API's updates are
//! non-recursive, so the objects are read first (with their versions), each one's merged
//! values worked out and checked (`model::merge`), and one bulk update sends each object its
//! own changed properties with the versions read (`ifVersions`): when another client changed
//! one of them in between, the server writes nothing (412) and the merge is worked out again
//! from what is there now, so that change is kept. Against a server without versions the write
//! cannot be conditional, and a change made in between is overwritten (said on stderr).

use std::collections::BTreeMap;

use futures_util::future::try_join_all;

use super::Failure;
use diagtui_client::{ApiError, Client, VersionedContent, conflicting_ids};
use diagtui_model::merge::{Nested, refusal, update_for};
use diagtui_model::{Props, Selector, SelectorUpdated};

/// How many times a merge is read, worked out and sent while other clients keep changing its
/// objects in between; the last refusal is the command's error.
const TRIES: usize = 3;

/// Merges `props` into every object `selector` matches; answers like the selector update, with
/// the objects whose values changed (the others already had them).
pub(super) async fn merge_where(
    client: &Client,
    doc: &str,
    selector: &Selector,
    props: &Props,
) -> Result<SelectorUpdated, Failure> {
    let mut tries = 1;
    loop {
        let read = client.objects_where_versioned(doc, selector).await?;
        let given = read.objects.keys().map(|obj| (obj.clone(), props.clone()));
        match send(client, doc, &read, given.collect(), tries == TRIES).await? {
            Some(updates) => {
                return Ok(SelectorUpdated {
                    success: true,
                    updated_object_count: updates.len(),
                    updated_object_ids: updates.into_keys().collect(),
                });
            }
            None => tries += 1,
        }
    }
}

/// Merges each object's own properties of `objects` into it.
pub(super) async fn merge_bulk(
    client: &Client,
    doc: &str,
    objects: BTreeMap<String, Props>,
) -> Result<(), Failure> {
    let mut tries = 1;
    loop {
        let reads = objects.keys().map(|obj| async move {
            client
                .get_object_versioned(doc, obj)
                .await
                .map(|object| (obj.clone(), object))
        });
        let read = VersionedContent {
            objects: try_join_all(reads).await?.into_iter().collect(),
            document: None,
        };
        match send(client, doc, &read, objects.clone(), tries == TRIES).await? {
            Some(_) => return Ok(()),
            None => tries += 1,
        }
    }
}

/// Works out each object's changed properties once its `given` ones are merged into what was
/// `read`, and sends them in one bulk update (unless nothing changes) naming the versions
/// read. The updates sent; `None` when another client changed one of the objects since the
/// read (nothing was written: read again), unless this is the `last` try (then that refusal is
/// the error).
async fn send(
    client: &Client,
    doc: &str,
    read: &VersionedContent,
    given: BTreeMap<String, Props>,
    last: bool,
) -> Result<Option<BTreeMap<String, Props>>, Failure> {
    let updates = merged(read, given)?;
    if updates.is_empty() {
        return Ok(Some(updates));
    }
    let versions: BTreeMap<String, u64> = updates
        .keys()
        .filter_map(|obj| Some((obj.clone(), read.objects.get(obj)?.version?)))
        .collect();
    let conditional = read.has_versions();
    if !conditional {
        eprintln!(
            "diagtui: the server gives no versions: a change another client makes to these \
             objects between the read and the write is overwritten"
        );
    }
    match client
        .bulk_update_if(doc, &updates, conditional.then_some(&versions))
        .await
    {
        Ok(_) => Ok(Some(updates)),
        Err(ApiError::PreconditionFailed(conflict)) if !last => {
            eprintln!(
                "diagtui: {} changed since they were read; merging again into what is there now",
                conflicting_ids(&conflict).join(", ")
            );
            Ok(None)
        }
        Err(error) => Err(error.into()),
    }
}

/// Each object's changed properties once its `given` ones are merged in, or the refusal
/// naming the objects whose merged values break a property rule.
fn merged(
    read: &VersionedContent,
    given: BTreeMap<String, Props>,
) -> Result<BTreeMap<String, Props>, Failure> {
    let mut updates = BTreeMap::new();
    let mut refused = Vec::new();
    for (obj, props) in given {
        let Some(read) = read.objects.get(&obj) else {
            continue;
        };
        let object = &read.object;
        match update_for(&object.kind, &object.data, &props, Nested::Merge) {
            Ok(sent) if sent.is_empty() => {}
            Ok(sent) => {
                updates.insert(obj, sent);
            }
            Err(problem) => refused.push(format!("{obj}: {problem}")),
        }
    }
    if refused.is_empty() {
        Ok(updates)
    } else {
        Err(Failure::Other(anyhow::anyhow!(refusal(
            Nested::Merge,
            &refused
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_testkit_server::Local;
    use serde_json::json;

    fn props(value: serde_json::Value) -> Props {
        value.as_object().unwrap().clone()
    }

    /// A merge worked out from a read that another client's write made stale writes nothing
    /// (the server checks the versions read) and asks to read again; the last try's refusal is
    /// the error; worked out again, it keeps the other client's change.
    #[tokio::test]
    async fn a_merge_from_a_stale_read_writes_nothing_and_is_merged_again() {
        let f = Local::start().await;
        let c = &f.client;
        let doc = c.create_doc("Merge", None).await.unwrap();
        let obj = c
            .create_object(
                &doc,
                "component",
                &props(json!({"componentId": "generic.server", "meta": {"a": 1}})),
            )
            .await
            .unwrap();
        let selector = Selector::parse(r#"["a","eq",1]"#).unwrap();
        let stale = c.objects_where_versioned(&doc, &selector).await.unwrap();
        // Another client adds b meanwhile.
        c.update_object(&doc, &obj, &props(json!({"meta": {"a": 1, "b": 2}})))
            .await
            .unwrap();
        let given = props(json!({"meta": {"owner": "ops"}}));
        let mine = || BTreeMap::from([(obj.clone(), given.clone())]);
        assert_eq!(
            send(c, &doc, &stale, mine(), false).await.unwrap(),
            None,
            "refused: read again"
        );
        let last = send(c, &doc, &stale, mine(), true).await.unwrap_err();
        assert!(
            last.to_string().starts_with("HTTP 412 PRECONDITION_FAILED"),
            "{last}"
        );
        assert_eq!(
            c.get_object(&doc, &obj).await.unwrap().data["meta"],
            json!({"a": 1, "b": 2}),
            "nothing written"
        );
        let updated = merge_where(c, &doc, &selector, &given).await.unwrap();
        assert_eq!(updated.updated_object_ids, std::slice::from_ref(&obj));
        assert_eq!(
            c.get_object(&doc, &obj).await.unwrap().data["meta"],
            json!({"a": 1, "b": 2, "owner": "ops"}),
            "the other client's b is kept"
        );
        f.server.shutdown().await;
    }
}
