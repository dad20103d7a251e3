//! The client's versions against the real local server (issue 33): versioned reads, writes that
//! name versions, and a 412 read as `ApiError::PreconditionFailed` with the state now.

use std::collections::BTreeMap;

use crate::Local;
use diagtui_client::{ApiError, conflicting_ids};
use diagtui_model::{ErrorCode, Props, Selector};
use serde_json::{Value, json};

fn props(value: Value) -> Props {
    value.as_object().unwrap().clone()
}

fn conflict(err: &ApiError) -> &diagtui_model::versions::PreconditionFailedBody {
    assert_eq!(err.status(), Some(412), "{err}");
    assert_eq!(err.code(), Some(&ErrorCode::PreconditionFailed), "{err}");
    err.conflict()
        .unwrap_or_else(|| panic!("no 412 body: {err}"))
}

#[tokio::test]
async fn an_update_naming_a_stale_version_writes_nothing_and_answers_the_object_now() {
    let f = Local::start().await;
    let c = &f.client;
    let doc = c.create_doc("Versions", None).await.unwrap();
    let obj = c
        .create_object(&doc, "label", &props(json!({"text": "a"})))
        .await
        .unwrap();
    let read = c.get_object_versioned(&doc, &obj).await.unwrap();
    let v1 = read.version.expect("our server gives versions");

    // Another client writes first.
    let written = c
        .update_object_if(&doc, &obj, &props(json!({"text": "b"})), Some(v1))
        .await
        .unwrap();
    let v2 = written
        .etag
        .expect("the update answers the object's new version");
    assert!(v2 > v1);
    assert_eq!(written.document, Some(v2));

    // A write from the first read is refused, and says what is there now.
    let err = c
        .update_object_if(&doc, &obj, &props(json!({"text": "c"})), Some(v1))
        .await
        .unwrap_err();
    let body = conflict(&err);
    let now = body.objects.as_ref().unwrap()[&obj].as_ref().unwrap();
    assert_eq!(now.data["text"], "b");
    assert_eq!(now.version, v2);
    assert!(
        err.to_string()
            .starts_with("HTTP 412 PRECONDITION_FAILED: "),
        "{err}"
    );
    assert_eq!(
        c.get_object(&doc, &obj).await.unwrap().data["text"],
        "b",
        "nothing written"
    );

    // A delete from the stale version is refused too; from the current one it goes.
    let err = c.delete_object_if(&doc, &obj, Some(v1)).await.unwrap_err();
    conflict(&err);
    c.delete_object_if(&doc, &obj, Some(v2)).await.unwrap();
    f.server.shutdown().await;
}

#[tokio::test]
async fn listings_carry_versions_and_bulk_and_selector_writes_are_all_or_nothing() {
    let f = Local::start().await;
    let c = &f.client;
    let doc = c.create_doc("Versions", None).await.unwrap();
    let down = |name: &str| {
        props(json!({"componentId": "generic.server", "name": name, "meta": {"status": "down"}}))
    };
    let a = c
        .create_object(&doc, "component", &down("a"))
        .await
        .unwrap();
    let b = c
        .create_object(&doc, "component", &down("b"))
        .await
        .unwrap();
    let all = c.content_versioned(&doc).await.unwrap();
    assert!(all.has_versions());
    let versions = all.versions();
    assert_eq!(versions.len(), 2);
    assert_eq!(all.document, Some(*versions.values().max().unwrap()));

    let selector = Selector::parse(r#"["status","eq","down"]"#).unwrap();
    let preview = c.objects_where_versioned(&doc, &selector).await.unwrap();
    assert_eq!(preview.versions(), versions);

    // b changes after the preview: the selector update and a bulk update naming the preview's
    // versions write nothing.
    c.update_object(&doc, &b, &props(json!({"meta": {"status": "up"}})))
        .await
        .unwrap();
    let red = props(json!({"primaryColor": "#FF0000"}));
    let err = c
        .update_where_if(&doc, &selector, &red, Some(&preview.versions()))
        .await
        .unwrap_err();
    let body = conflict(&err);
    assert_eq!(body.no_longer_match.as_deref(), Some(&[b.clone()][..]));
    assert_eq!(conflicting_ids(body), std::slice::from_ref(&b));
    let objects = BTreeMap::from([(a.clone(), red.clone()), (b.clone(), red.clone())]);
    let err = c
        .bulk_update_if(&doc, &objects, Some(&preview.versions()))
        .await
        .unwrap_err();
    conflict(&err);
    let now = c.content(&doc).await.unwrap();
    assert!(
        now.values().all(|o| o.data["primaryColor"] != "#FF0000"),
        "nothing written: {now:?}"
    );

    // Previewed again, it goes through.
    let again = c.objects_where_versioned(&doc, &selector).await.unwrap();
    let (updated, _) = c
        .update_where_if(&doc, &selector, &red, Some(&again.versions()))
        .await
        .unwrap();
    assert_eq!(updated.updated_object_ids, std::slice::from_ref(&a));
    f.server.shutdown().await;
}

#[tokio::test]
async fn a_restore_and_a_set_content_naming_a_stale_document_version_change_nothing() {
    let f = Local::start().await;
    let c = &f.client;
    let doc = c.create_doc("Versions", None).await.unwrap();
    let obj = c
        .create_object(&doc, "label", &props(json!({"text": "a"})))
        .await
        .unwrap();
    let seen = c.content_versioned(&doc).await.unwrap().document.unwrap();
    c.update_object(&doc, &obj, &props(json!({"text": "b"})))
        .await
        .unwrap();
    let err = c.restore_if(&doc, seen, Some(seen)).await.unwrap_err();
    let body = conflict(&err);
    assert!(
        body.objects.is_none(),
        "a document-level condition names no objects"
    );
    assert!(body.document_version > seen);
    let content = c.content(&doc).await.unwrap();
    let err = c
        .set_content_if(&doc, &content, Some(seen))
        .await
        .unwrap_err();
    conflict(&err);
    assert_eq!(c.get_object(&doc, &obj).await.unwrap().data["text"], "b");
    f.server.shutdown().await;
}
