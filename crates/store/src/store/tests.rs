//! The store's own rules, on a data dir of its own.

use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::any::Location;
use crate::change::DocEvent;
use crate::keys::DEFAULT_EMAIL;
use crate::plan;
use crate::rules;
use crate::write::{ObjectUpdate, Plan};
use diagtui_model::Props;
use diagtui_model::versions::VersionCondition;

/// A store on a new data dir, with the default account.
async fn store() -> (tempfile::TempDir, Store, Account) {
    let dir = tempfile::tempdir().unwrap();
    let at = Location::DataDir(dir.path().to_owned());
    let key = initialise(&at, &[]).await.unwrap().unwrap();
    let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
    let me = store.authenticate(&key).await.unwrap().unwrap();
    (dir, store, me)
}

fn props(value: serde_json::Value) -> Props {
    value.as_object().unwrap().clone()
}

#[tokio::test]
async fn each_commit_reports_what_it_changed_in_commit_order() {
    let (_dir, store, me) = store().await;
    let doc = store.create_doc(&me, "Watched", None).await.unwrap();
    let mut commits = store.commits();
    let obj = store
        .create_object(&me, &doc, "label", &props(json!({"text": "a"})))
        .await
        .unwrap()
        .0;
    store
        .update_object(&me, &doc, &obj, props(json!({"text": "b"})), None)
        .await
        .unwrap();
    store.change_doc_title(&me, &doc, "Renamed").await.unwrap();
    store.delete_object(&me, &doc, &obj, None).await.unwrap();

    let created = commits.recv().await.unwrap();
    assert_eq!(created.docs[0].doc_id, doc);
    assert_eq!(created.docs[0].changed[0].0, obj);
    let updated = commits.recv().await.unwrap();
    let (id, object) = &updated.docs[0].changed[0];
    assert_eq!(id, &obj);
    assert!(object.data().contains(r#""text":"b""#), "{}", object.data());
    let retitled = commits.recv().await.unwrap();
    assert_eq!(retitled.docs[0].event, Some(DocEvent::Retitled));
    let deleted = commits.recv().await.unwrap();
    assert_eq!(deleted.docs[0].deleted, [obj]);
    assert!(deleted.docs[0].last_change.is_some());
}

#[tokio::test]
async fn a_plan_made_before_another_write_does_not_commit() {
    let (_dir, store, me) = store().await;
    let doc = store.create_doc(&me, "Raced", None).await.unwrap();
    let a = store
        .create_object(&me, &doc, "label", &props(json!({"meta": {"k": 1}})))
        .await
        .unwrap()
        .0;
    let update = Arc::new(ObjectUpdate::Matching {
        selector: rules::parse_selector(r#"["k","eq",1]"#).unwrap(),
        props: props(json!({"text": "matched"})),
        if_versions: None,
    });
    let cached = store.doc(&me, &doc).await.unwrap();
    let stale = plan_now(&cached, &update);
    // Another write makes `b` match too, after the plan was made.
    let b = store
        .create_object(&me, &doc, "label", &props(json!({"meta": {"k": 1}})))
        .await
        .unwrap()
        .0;
    let answer = store.write_update(&me, &doc, &update, Some(stale)).await;
    assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
    let updated = store
        .selector_update(
            &me,
            &doc,
            rules::parse_selector(r#"["k","eq",1]"#).unwrap(),
            props(json!({"text": "matched"})),
            None,
        )
        .await
        .unwrap()
        .0;
    assert_eq!(updated, [a, b], "planned again on the document as it is");
}

/// A plan of `update` made now from the cached document, as a request's own task makes it.
fn plan_now(cached: &Arc<CachedDoc>, update: &ObjectUpdate) -> Plan {
    let state = cached.read();
    let (objects, before) = plan::plan_cached(update, &state.objects).unwrap();
    Plan {
        version: state.version,
        objects,
        before,
        doc_len: state.objects.len(),
    }
}

#[tokio::test]
async fn a_conditional_plan_made_from_memory_before_another_write_is_decided_by_the_writer() {
    let (_dir, store, me) = store().await;
    let doc = store.create_doc(&me, "Raced", None).await.unwrap();
    let mut ids = Vec::new();
    for n in 0..20 {
        let text = props(json!({ "text": n.to_string() }));
        ids.push(
            store
                .create_object(&me, &doc, "label", &text)
                .await
                .unwrap(),
        );
    }
    let objects: BTreeMap<String, Props> = ids
        .iter()
        .map(|(id, _)| (id.clone(), props(json!({"text": "bulk"}))))
        .collect();
    let read: BTreeMap<String, u64> = ids.iter().cloned().collect();
    let update = Arc::new(ObjectUpdate::Each {
        objects: objects.clone(),
        labelled: true,
        if_versions: read
            .iter()
            .map(|(id, v)| (id.clone(), VersionCondition::OneOf(vec![*v])))
            .collect(),
    });
    // The plan is made while the versions hold in memory ...
    let cached = store.doc(&me, &doc).await.unwrap();
    let stale = plan_now(&cached, &update);
    // ... then another write changes one of the objects.
    let (changed, _) = &ids[7];
    let theirs = store
        .update_object(&me, &doc, changed, props(json!({"text": "theirs"})), None)
        .await
        .unwrap();
    let answer = store.write_update(&me, &doc, &update, Some(stale)).await;
    assert!(matches!(answer, Err(StoreError::Conflict)), "{answer:?}");
    let refused = store.bulk_update(&me, &doc, objects, read).await;
    let Err(StoreError::PreconditionFailed(failed)) = refused else {
        panic!("refused: {refused:?}");
    };
    assert_eq!(failed.document_version, theirs);
    let listed = failed.objects.as_ref().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(&listed[0].0, changed);
    let kept = store.object(&me, &doc, changed).await.unwrap();
    assert!(kept.data().contains("theirs"), "nothing written");
    assert_eq!(kept.version(), theirs);
}

#[tokio::test]
async fn another_processs_commits_are_seen_at_once() {
    let (dir, store, me) = store().await;
    let doc = store.create_doc(&me, "Shared dir", None).await.unwrap();
    let obj = store
        .create_object(&me, &doc, "label", &props(json!({"text": "mine"})))
        .await
        .unwrap()
        .0;
    assert!(store.object(&me, &doc, &obj).await.is_ok(), "now cached");

    // Another store on the same database stands for another process.
    let at = Location::DataDir(dir.path().to_owned());
    let key = rotate_key(&at, DEFAULT_EMAIL).await.unwrap();
    let other = Store::open(dir.path(), StoreOptions::default()).unwrap();
    let them = other.authenticate(&key).await.unwrap().unwrap();
    other
        .update_object(&them, &doc, &obj, props(json!({"text": "theirs"})), None)
        .await
        .unwrap();

    assert!(
        store.authenticate("an old key").await.unwrap().is_none(),
        "nothing known"
    );
    assert_eq!(
        store.authenticate(&key).await.unwrap(),
        Some(me.clone()),
        "the key made elsewhere works"
    );
    let object = store.object(&me, &doc, &obj).await.unwrap();
    assert!(object.data().contains("theirs"), "{}", object.data());
}
