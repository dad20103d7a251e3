//! Undo end to end: `App::update` plus the real worker (`tui::worker::settle`) against the local
//! server on a temp data dir, through the API's routes only. The delete of a connected
//! component and its undo (created again, then its line groups pointed at the new id), and `E`
//! and its undo.

use diagtui_model::{Content, DiagramObject};
use serde_json::{Value, json};

use crate::harness::overlay_text;
use crate::live::Live;

fn object(kind: &str, data: Value) -> DiagramObject {
    DiagramObject {
        kind: kind.into(),
        data: data.as_object().unwrap().clone(),
    }
}

/// Two components joined by a line group, a second line group hanging from the first, a label.
pub fn connected() -> Content {
    let attached = |id: &str, index: u64| json!({"type": 1, "id": id, "index": index});
    [
        (
            "c-api",
            object(
                "component",
                json!({"componentId": "generic.server", "name": "api", "position": {"x": 0, "y": 0}}),
            ),
        ),
        (
            "c-db",
            object(
                "component",
                json!({"componentId": "generic.database", "name": "db", "position": {"x": 9, "y": 0}}),
            ),
        ),
        (
            "l-wire",
            object(
                "line-group",
                json!({"anchors": [attached("c-api", 1), attached("c-db", 3)], "lines": [[0, 1]]}),
            ),
        ),
        (
            "l-tail",
            object(
                "line-group",
                json!({"anchors": [attached("c-api", 2), {"type": 0, "x": 4, "y": 4}], "lines": [[0, 1]]}),
            ),
        ),
        (
            "t-note",
            object("label", json!({"text": "note", "position": {"x": 0, "y": 5}})),
        ),
    ]
    .into_iter()
    .map(|(id, object)| (id.to_string(), object))
    .collect()
}

/// The row of the tree that ends with `id`, without it.
fn row(screen: &str, id: &str) -> String {
    let end = format!(" {id}");
    screen
        .lines()
        .flat_map(|line| line.split(['│', '┃']))
        .map(str::trim_end)
        .find_map(|cell| cell.strip_suffix(&end))
        .unwrap_or_else(|| panic!("no row of {id}:\n{screen}"))
        .trim()
        .to_string()
}

#[tokio::test]
async fn deleting_a_connected_component_and_undoing_it_restores_its_lines() {
    let mut live = Live::start("Undo e2e", &connected()).await;
    let before = live.content().await;
    let screen = live.screen();
    let (wire, tail, api) = (
        row(&screen, "l-wire"),
        row(&screen, "l-tail"),
        row(&screen, "c-api"),
    );
    assert_eq!(wire, "api — db", "{screen}");
    // The first object is selected: the api component.
    live.keys("d").await;
    let asked = overlay_text(&live.screen(), "Delete object");
    assert!(
        asked.contains(
            "2 line groups are attached to it: api — (4, 4) (l-tail), api — db (l-wire)."
        ),
        "{asked}"
    );
    live.keys("y").await;
    let deleted = live.content().await;
    assert!(!deleted.contains_key("c-api"));
    assert_eq!(
        deleted["l-wire"], before["l-wire"],
        "the line stays, broken"
    );
    assert_eq!(
        row(&live.screen(), "l-wire"),
        "(deleted) api — db",
        "named by the deleted end's last name"
    );

    live.keys("U Enter y").await;
    let after = live.content().await;
    assert_eq!(after.len(), before.len());
    let new: Vec<&String> = after
        .keys()
        .filter(|id| !before.contains_key(*id))
        .collect();
    let [new] = new.as_slice() else {
        panic!("one new id: {new:?}")
    };
    let again = &after[*new];
    for (key, value) in &before["c-api"].data {
        assert_eq!(again.data.get(key), Some(value), "{key} as before");
    }
    let attached = |id: &str, index: u64| json!({"type": 1, "id": id, "index": index});
    assert_eq!(
        after["l-wire"].data["anchors"],
        json!([attached(new, 1), attached("c-db", 3)])
    );
    assert_eq!(
        after["l-tail"].data["anchors"],
        json!([attached(new, 2), {"type": 0, "x": 4, "y": 4}])
    );
    for id in ["c-db", "t-note"] {
        assert_eq!(after[id], before[id], "{id} untouched");
    }
    // The update fills in the defaults a set-content left out; what was there stays.
    for lg in ["l-wire", "l-tail"] {
        for (key, value) in before[lg].data.iter().filter(|(k, _)| *k != "anchors") {
            assert_eq!(after[lg].data.get(key), Some(value), "{lg}.{key} as before");
        }
    }
    // The rows read as before the delete.
    let screen = live.screen();
    assert_eq!(row(&screen, "l-wire"), wire, "{screen}");
    assert_eq!(row(&screen, "l-tail"), tail, "{screen}");
    assert_eq!(row(&screen, new), api, "{screen}");
    assert!(
        screen.contains(
            "undid the delete (write 1): 1 object created again, 2 line groups pointed at the new ids"
        ),
        "{screen}"
    );
    live.server.shutdown().await;
}

#[tokio::test]
async fn emptying_a_document_and_undoing_it_sets_the_same_content_back() {
    let mut live = Live::start("Undo e2e", &connected()).await;
    let before = live.content().await;
    live.keys("1 E").await;
    let asked = overlay_text(&live.screen(), "Empty document");
    assert!(
        asked.contains(
            "Remove all 5 objects from \"Undo e2e\" (component 2 · line-group 2 · label 1)?"
        ),
        "{asked}"
    );
    // Enter keeps them: the safe answer is highlighted.
    live.keys("Enter").await;
    assert_eq!(live.content().await, before);
    live.keys("E y").await;
    assert!(live.content().await.is_empty());
    live.keys("2 U Enter y").await;
    assert_eq!(live.content().await, before, "ids and data as they were");
    let screen = live.screen();
    assert!(screen.contains("Undo e2e (5)"), "{screen}");
    assert_eq!(row(&screen, "l-wire"), "api — db", "{screen}");
    live.server.shutdown().await;
}
