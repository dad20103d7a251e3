//! `obj set-where … --merge` and `obj bulk … --merge`: nested values merged into each object's
//! (`{"meta":{"owner":"ops"}}` keeps the other meta keys). The API's updates are
//! non-recursive, so the objects are read first, each one's merged values worked out and
//! checked (`model::merge`), and one bulk update sends each object its own changed properties.
//! Between the read and the write another client's change to the same values is overwritten.

use std::collections::BTreeMap;

use futures_util::future::try_join_all;

use super::Failure;
use diagtui_client::Client;
use diagtui_model::merge::{Nested, refusal, update_for};
use diagtui_model::{Content, Props, Selector, SelectorUpdated};

/// Merges `props` into every object `selector` matches; answers like the selector update, with
/// the objects whose values changed (the others already had them).
pub(super) async fn merge_where(
    client: &Client,
    doc: &str,
    selector: &Selector,
    props: &Props,
) -> Result<SelectorUpdated, Failure> {
    let content = client.objects_where(doc, selector).await?;
    let given = content.keys().map(|obj| (obj.clone(), props.clone()));
    let updates = merged(&content, given.collect())?;
    send(client, doc, &updates).await?;
    Ok(SelectorUpdated {
        success: true,
        updated_object_count: updates.len(),
        updated_object_ids: updates.into_keys().collect(),
    })
}

/// Merges each object's own properties of `objects` into it.
pub(super) async fn merge_bulk(
    client: &Client,
    doc: &str,
    objects: BTreeMap<String, Props>,
) -> Result<(), Failure> {
    let reads = objects.keys().map(|obj| async move {
        client
            .get_object(doc, obj)
            .await
            .map(|object| (obj.clone(), object))
    });
    let content: Content = try_join_all(reads).await?.into_iter().collect();
    let updates = merged(&content, objects)?;
    send(client, doc, &updates).await
}

/// Each object's changed properties once its `given` ones are merged in, or the refusal
/// naming the objects whose merged values break a property rule.
fn merged(
    content: &Content,
    given: BTreeMap<String, Props>,
) -> Result<BTreeMap<String, Props>, Failure> {
    let mut updates = BTreeMap::new();
    let mut refused = Vec::new();
    for (obj, props) in given {
        let Some(object) = content.get(&obj) else {
            continue;
        };
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

/// One bulk update, unless nothing changes.
async fn send(
    client: &Client,
    doc: &str,
    updates: &BTreeMap<String, Props>,
) -> Result<(), Failure> {
    if !updates.is_empty() {
        client.bulk_update(doc, updates).await?;
    }
    Ok(())
}
