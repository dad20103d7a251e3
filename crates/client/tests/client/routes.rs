//! Every route against the real local server.

use std::collections::BTreeMap;

use crate::Local;
use crate::client_with_key;
use diagtui_client::ApiError;
use diagtui_model::{Content, DiagramObject, Props, Selector};
use serde_json::{Value, json};

fn props(value: Value) -> Props {
    value.as_object().unwrap().clone()
}

fn assert_status(err: ApiError, status: u16, code: &str) {
    assert_eq!(err.status(), Some(status), "{err}");
    assert_eq!(err.code().map(|c| c.as_str()), Some(code), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("HTTP {status} {code}: ")),
        "{err}"
    );
}

#[tokio::test]
async fn documents_from_create_to_delete() {
    let f = Local::start().await;
    let c = &f.client;
    let before = c.list_docs().await.unwrap();

    let doc = c.create_doc("Web tier", None).await.unwrap();
    let docs = c.list_docs().await.unwrap();
    assert_eq!(docs.len(), before.len() + 1);
    assert!(docs.iter().any(|d| d.id == doc && d.title == "Web tier"));

    let details = c.doc_details(&doc).await.unwrap();
    assert_eq!(details.title, "Web tier");
    assert_eq!(details.user.email, f.server.email());
    assert!(c.content(&doc).await.unwrap().is_empty());

    c.rename_doc(&doc, "Web tier / prod").await.unwrap();
    assert_eq!(c.doc_details(&doc).await.unwrap().title, "Web tier / prod");

    let mut content = Content::new();
    content.insert(
        "1aaaaaaaa-aaaaaaaa".into(),
        DiagramObject {
            kind: "label".into(),
            data: props(json!({"text": "from set-content", "meta": {"k": "v"}})),
        },
    );
    c.set_content(&doc, &content).await.unwrap();
    assert_eq!(c.content(&doc).await.unwrap(), content);

    let copy = c.clone_doc(&doc, "Copy").await.unwrap();
    assert_ne!(copy, doc);
    assert_eq!(c.doc_details(&copy).await.unwrap().title, "Copy");
    assert_eq!(c.content(&copy).await.unwrap(), content);

    c.empty_doc(&doc).await.unwrap();
    assert!(c.content(&doc).await.unwrap().is_empty());
    assert_eq!(c.doc_details(&doc).await.unwrap().title, "Web tier / prod");

    c.delete_doc(&doc).await.unwrap();
    assert_status(c.doc_details(&doc).await.unwrap_err(), 404, "DOC_NOT_FOUND");
    assert_status(c.content(&doc).await.unwrap_err(), 404, "DOC_NOT_FOUND");
    assert_eq!(c.list_docs().await.unwrap().len(), before.len() + 1);
}

#[tokio::test]
async fn sharing_needs_an_existing_account() {
    let f = Local::start().await;
    let doc = f.client.create_doc("Shared", None).await.unwrap();
    let err = f
        .client
        .share_doc(&doc, "nobody@example.com")
        .await
        .unwrap_err();
    assert_status(err, 404, "USER_NOT_FOUND");

    let bob_key = diagtui_server::create_account(f.server.location(), "bob@example.com").unwrap();
    let bob = client_with_key(&f.server, &bob_key);
    assert_eq!(bob.whoami().await.unwrap().email, "bob@example.com");
    assert_status(
        bob.doc_details(&doc).await.unwrap_err(),
        404,
        "DOC_NOT_FOUND",
    );
    f.client.share_doc(&doc, "bob@example.com").await.unwrap();
    assert_eq!(bob.doc_details(&doc).await.unwrap().title, "Shared");
}

#[tokio::test]
async fn objects_by_id_and_by_selector() {
    let f = Local::start().await;
    let c = &f.client;
    let doc = c.create_doc("Objects", None).await.unwrap();

    let tricky = "a/b 50% & \"q\" é?#";
    let label = c
        .create_object(
            &doc,
            "label",
            &props(json!({"text": "hello", "meta": {"path": tricky, "port": 16}})),
        )
        .await
        .unwrap();
    let component = c
        .create_object(
            &doc,
            "component",
            &props(json!({"componentId": "generic.server", "meta": {"status": "down"}})),
        )
        .await
        .unwrap();

    let object = c.get_object(&doc, &label).await.unwrap();
    assert_eq!(object.kind, "label");
    assert_eq!(object.data["text"], "hello");
    assert!(object.data.contains_key("color"), "defaults are filled in");

    c.update_object(&doc, &label, &props(json!({"position": {"x": 2, "y": 3}})))
        .await
        .unwrap();
    let object = c.get_object(&doc, &label).await.unwrap();
    assert_eq!(object.data["position"], json!({"x": 2, "y": 3}));
    assert_eq!(object.data["text"], "hello");

    let by_path = Selector::from_json(&json!(["path", "eq", tricky])).unwrap();
    let found = c.objects_where(&doc, &by_path).await.unwrap();
    assert_eq!(found.keys().collect::<Vec<_>>(), vec![&label]);
    let by_port = Selector::parse(r#"[["port","gt","9"],["path","co","50%"]]"#).unwrap();
    assert_eq!(c.objects_where(&doc, &by_port).await.unwrap().len(), 1);

    let down = Selector::parse(r#"["status","eq","down"]"#).unwrap();
    let updated = c
        .update_where(&doc, &down, &props(json!({"primaryColor": "#FF0000"})))
        .await
        .unwrap();
    assert_eq!(updated.updated_object_count, 1);
    assert_eq!(updated.updated_object_ids, vec![component.clone()]);
    let object = c.get_object(&doc, &component).await.unwrap();
    assert_eq!(object.data["primaryColor"], "#FF0000");

    let mut bulk = BTreeMap::new();
    bulk.insert(label.clone(), props(json!({"text": "5%"})));
    bulk.insert(component.clone(), props(json!({"opacity": 0.5})));
    c.bulk_update(&doc, &bulk).await.unwrap();
    let content = c.content(&doc).await.unwrap();
    assert_eq!(content[&label].data["text"], "5%");
    assert_eq!(content[&component].data["opacity"], 0.5);

    c.delete_object(&doc, &label).await.unwrap();
    assert_status(
        c.get_object(&doc, &label).await.unwrap_err(),
        404,
        "OBJ_NOT_FOUND",
    );
    assert_eq!(c.content(&doc).await.unwrap().len(), 1);
}

#[tokio::test]
async fn folders_and_the_account() {
    let f = Local::start().await;
    let c = &f.client;
    assert_eq!(c.whoami().await.unwrap().email, f.server.email());
    let first = c.list_folders().await.unwrap();
    assert_eq!(first.len(), 1, "a new account has one folder");

    let folder = c.create_folder("Network").await.unwrap();
    let doc = c.create_doc("In network", Some(&folder)).await.unwrap();
    assert_eq!(c.doc_details(&doc).await.unwrap().folder.id, folder);
    let folders = c.list_folders().await.unwrap();
    assert_eq!(folders[&folder].title, "Network");
    assert_eq!(folders[&folder].docs[&doc], "In network");

    c.rename_folder(&folder, "Net").await.unwrap();
    assert_eq!(c.list_folders().await.unwrap()[&folder].title, "Net");

    c.delete_folder(&folder).await.unwrap();
    assert!(!c.list_folders().await.unwrap().contains_key(&folder));
    assert_status(c.doc_details(&doc).await.unwrap_err(), 404, "DOC_NOT_FOUND");
}

#[tokio::test]
async fn the_server_says_no_with_a_code() {
    let f = Local::start().await;
    let stranger = client_with_key(&f.server, "not-a-key-at-all-000000");
    assert_status(stranger.list_docs().await.unwrap_err(), 401, "UNAUTHORIZED");

    let doc = f.client.create_doc("Checks", None).await.unwrap();
    let err = f
        .client
        .create_object(&doc, "component", &Props::new())
        .await
        .unwrap_err();
    assert_status(err, 400, "VALIDATION_ERROR");
    let err = f
        .client
        .update_object(&doc, "1nope-nope", &props(json!({"text": "x"})))
        .await
        .unwrap_err();
    assert_status(err, 404, "OBJ_NOT_FOUND");
}

#[tokio::test]
async fn clones_run_requests_concurrently() {
    let f = Local::start().await;
    let doc = f.client.create_doc("Busy", None).await.unwrap();
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let client = f.client.clone();
            let doc = doc.clone();
            tokio::spawn(async move {
                client
                    .create_object(&doc, "label", &props(json!({"text": format!("n{i}")})))
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(f.client.content(&doc).await.unwrap().len(), 8);
}
