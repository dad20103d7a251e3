//! Bulk work end to end: `App::update` plus the real worker (`tui::worker::settle`) and the
//! real file jobs, against the local server on a temp data dir. No mock anywhere.

use diagtui_model::{Content, DiagramObject};
use serde_json::{Value, json};

use crate::live::Live;

fn component(status: &str, env: &str) -> DiagramObject {
    DiagramObject {
        kind: "component".into(),
        data: json!({"componentId": "generic.server", "meta": {"status": status, "env": env}})
            .as_object()
            .unwrap()
            .clone(),
    }
}

/// Ten components (every third one down), one label without meta.
fn fixture() -> Content {
    let mut content: Content = (0..10)
        .map(|i| {
            let status = if i % 3 == 0 { "down" } else { "up" };
            (format!("obj-{i:02}"), component(status, "prod"))
        })
        .collect();
    content.insert(
        "obj-label".into(),
        DiagramObject {
            kind: "label".into(),
            data: json!({"text": "status down"}).as_object().unwrap().clone(),
        },
    );
    content
}

#[tokio::test]
async fn a_selector_update_from_the_form_changes_exactly_the_matches() {
    let mut live = Live::start("Bulk e2e", &fixture()).await;
    let before = live.content().await;
    live.keys("w").await;
    live.text("status").await;
    live.keys("Tab Tab").await;
    live.text("down").await;
    live.keys("Tab").await;
    live.text(r##""primaryColor": "#FF0000""##).await;
    live.ctrl('p').await;
    let screen = live.screen();
    assert!(screen.contains("Preview: 4 objects match"), "{screen}");
    assert!(
        !screen.contains("marked"),
        "a preview marks nothing: {screen}"
    );
    assert_eq!(
        screen.matches("││◇ ").count(),
        4,
        "the matches in the tree: {screen}"
    );
    live.ctrl('s').await;
    assert!(live.screen().contains("Apply the selector"));
    live.keys("y").await;
    let screen = live.screen();
    assert!(screen.contains("updatedObjectCount: 4"), "{screen}");
    assert!(!screen.contains("the preview found"), "{screen}");

    let after = live.content().await;
    assert_eq!(after.len(), before.len());
    for (id, object) in &after {
        let was = &before[id];
        let down = was.data.get("meta").and_then(|m| m.get("status")) == Some(&json!("down"));
        if down {
            assert_eq!(object.data["primaryColor"], json!("#FF0000"), "{id}");
            for (k, v) in &was.data {
                assert_eq!(object.data.get(k), Some(v), "{id}.{k} kept");
            }
        } else {
            assert_eq!(object, was, "{id} untouched");
        }
    }
    // The tree was reloaded with the new values: the jump shows one in the properties.
    live.keys("Enter").await;
    assert!(live.screen().contains("\"primaryColor\": \"#FF0000\""));
    live.server.shutdown().await;
}

#[tokio::test]
async fn a_bulk_edit_of_marked_objects() {
    let mut live = Live::start("Bulk e2e", &fixture()).await;
    let before = live.content().await;
    // The first two component rows.
    live.keys("Space Space").await;
    let screen = live.screen();
    assert!(screen.contains("2 marked"), "{screen}");
    live.keys("b").await;
    live.text(r#""name": "edge""#).await;
    live.ctrl('s').await;
    assert!(live.screen().contains("Bulk update"));
    live.keys("y").await;

    let after = live.content().await;
    for (id, object) in &after {
        if ["obj-00", "obj-01"].contains(&id.as_str()) {
            assert_eq!(object.data["name"], Value::from("edge"), "{id}");
        } else {
            assert_eq!(object, &before[id], "{id} untouched");
        }
    }
    live.server.shutdown().await;
}

#[tokio::test]
async fn export_then_import_leaves_the_content_identical() {
    let mut live = Live::start("Bulk e2e", &fixture()).await;
    let original = live.content().await;
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("bulk.json");
    live.keys("1 x").await;
    live.ctrl('u').await;
    live.paste(&path.display().to_string()).await;
    live.keys("Enter").await;
    assert!(path.exists(), "{}", live.screen());
    // A second export to the same file asks first.
    live.keys("x").await;
    live.ctrl('u').await;
    live.paste(&path.display().to_string()).await;
    live.keys("Enter").await;
    assert!(live.screen().contains("already exists"));
    live.keys("n").await;

    live.client.empty_doc(&live.doc).await.unwrap();
    assert!(live.content().await.is_empty());
    live.keys("i").await;
    live.ctrl('u').await;
    live.paste(&path.display().to_string()).await;
    live.keys("Enter").await;
    let screen = live.screen();
    assert!(
        screen.contains(&format!("{} objects: ", original.len())),
        "{screen}"
    );
    live.keys("y").await;
    assert_eq!(live.content().await, original);
    assert!(
        live.screen()
            .contains(&format!("Bulk e2e ({})", original.len()))
    );
    live.server.shutdown().await;
}
