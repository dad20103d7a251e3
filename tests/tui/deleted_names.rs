//! Names survive a delete: a line group whose end was deleted keeps its name from the ends that
//! remain and the name the deleted end last had (`web-01, web-02, web-03 → (deleted)
//! orders-db`), in the tree's row and in the undo question, whether the delete was this app's
//! or another client's. `App::update` driven by keys, canned answers and change events on the
//! Web platform sample.

use diagtui::client::{DocStreamEvent, Watched};
use diagtui::model::Content;
use diagtui::model::events::DocChangeEvent;
use diagtui::tui::runtime::liveness::Live;
use diagtui::tui::{Answer, Msg, Request};

use crate::harness::*;

/// orders-db in the sample.
const ORDERS_DB: &str = "0lqu5m2oa-ynk8w3tzp";
/// The line group from web-01, web-02 and web-03 to orders-db.
const TO_DB: &str = "0lqu5m2oh-5gxnameyy";
/// The line group from orders-db to its replica.
const TO_REPLICA: &str = "0lqu5m2oi-wlecfpecx";

/// The Web platform sample's content, as a fresh local server creates it.
pub fn web_platform() -> Content {
    let sample: serde_json::Value =
        serde_json::from_str(include_str!("../../assets/samples/web-platform.json")).unwrap();
    serde_json::from_value(sample["content"].clone()).unwrap()
}

/// The Web platform sample open, orders-db selected.
pub fn on_orders_db() -> Harness {
    let mut h = Harness::opened_on(web_platform());
    h.expect("web-01, web-02, web-03 → orders-db");
    for _ in 0..40 {
        if h.selected().contains("orders-db") && !h.selected().contains("replica") {
            return h;
        }
        h.press("j");
    }
    panic!("orders-db never selected:\n{}", h.screen());
}

#[test]
fn a_deleted_end_is_named_by_its_last_name_in_the_row_and_the_undo_question() {
    let mut h = on_orders_db();
    h.press("d");
    h.press("y");
    h.answer(
        |r| matches!(r, Request::DeleteObject { obj, .. } if obj == ORDERS_DB),
        Ok(Answer::Done),
    );
    let row = h.line_with(TO_DB);
    assert!(
        row.contains("web-01, web-02, web-03 → (deleted) orders-db"),
        "{row}"
    );
    assert!(!row.contains("anchors"), "{row}");
    h.expect("(deleted) orders-db → orders-db replica");
    // The document read again as the server has it: the names stay.
    let mut gone = web_platform();
    gone.remove(ORDERS_DB);
    h.press("R");
    h.answer_all_with(gone);
    h.expect("web-01, web-02, web-03 → (deleted) orders-db");

    h.press("U Enter");
    let asked = h.overlay_text("Undo");
    assert!(
        asked.contains(&format!(
            "web-01, web-02, web-03 → (deleted) orders-db ({TO_DB}), (deleted) orders-db → orders-db replica ({TO_REPLICA})"
        )),
        "{asked}"
    );
    assert!(!asked.contains("anchors,"), "{asked}");
}

#[test]
fn an_end_deleted_by_another_client_keeps_the_name_last_seen() {
    let mut h = Harness::opened_on(web_platform());
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Connected,
    }));
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
            last_change: Some("t1".into()),
            changed: Vec::new(),
            deleted: vec![ORDERS_DB.into()],
            document: None,
            version: None,
            objects: None,
        })),
    }));
    h.answer(
        |r| matches!(r, Request::GetObjects { .. }),
        Ok(Answer::Fresh(vec![(ORDERS_DB.into(), None)])),
    );
    assert!(!h.shows("✗ orders-db "), "orders-db is gone");
    h.expect("web-01, web-02, web-03 → (deleted) orders-db");
    h.expect("(deleted) orders-db → orders-db replica");
}

#[test]
fn an_end_the_app_never_saw_is_named_missing_by_its_id() {
    let mut gone = web_platform();
    gone.remove(ORDERS_DB);
    let mut h = Harness::opened_on(gone);
    h.expect(&format!("web-01, web-02, web-03 → (missing) {ORDERS_DB}"));
}
