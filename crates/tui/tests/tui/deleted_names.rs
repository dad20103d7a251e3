//! Names survive a delete: a line group whose end was deleted keeps its name from the ends that
//! remain and the name the deleted end last had (`web-01, web-02, web-03 → (deleted)
//! orders-db`), in the tree's row and in the undo question, whether the delete was this app's
//! or another client's. `App::update` driven by keys, canned answers and change events on the
//! Web platform sample.

use diagtui_client::{DocStreamEvent, Watched};
use diagtui_model::Content;
use diagtui_model::events::DocChangeEvent;
use diagtui_model::history::{HistoryPage, ObjectChange, VersionDetails, VersionKind};
use diagtui_tui::requests::liveness::Live;
use diagtui_tui::{Answer, Msg, Request};

use crate::harness::*;
use crate::history::version;

/// orders-db in the sample.
const ORDERS_DB: &str = "0lqu5m2oa-ynk8w3tzp";
/// The line group from web-01, web-02 and web-03 to orders-db.
const TO_DB: &str = "0lqu5m2oh-5gxnameyy";
/// The line group from orders-db to its replica.
const TO_REPLICA: &str = "0lqu5m2oi-wlecfpecx";

/// The Web platform sample's content, as a fresh local server creates it.
pub fn web_platform() -> Content {
    let sample: serde_json::Value =
        serde_json::from_str(include_str!("../../../../assets/samples/web-platform.json")).unwrap();
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

/// The newest version that changed orders-db: its delete, version 7.
fn orders_db_deleted() -> HistoryPage {
    HistoryPage {
        versions: vec![version(7, VersionKind::ObjectDeleted, 1)],
        head: 7,
        oldest: 1,
        next_before: None,
    }
}

/// Version 7: orders-db deleted, as it was before.
fn deleting_orders_db() -> VersionDetails {
    VersionDetails {
        version: version(7, VersionKind::ObjectDeleted, 1),
        objects: vec![ObjectChange {
            obj_id: ORDERS_DB.into(),
            before: Some(web_platform()[ORDERS_DB].clone()),
            after: None,
        }],
    }
}

#[test]
fn an_end_deleted_before_the_session_is_named_from_the_servers_history_and_asked_once() {
    let mut gone = web_platform();
    gone.remove(ORDERS_DB);
    let mut h = Harness::opened_on(gone.clone());
    // Until the server's history answers, the end is named by its id.
    h.expect(&format!("web-01, web-02, web-03 → (missing) {ORDERS_DB}"));
    h.answer(
        |r| matches!(r, Request::ObjectHistory { obj, .. } if obj == ORDERS_DB),
        Ok(Answer::History(orders_db_deleted())),
    );
    h.answer(
        |r| matches!(r, Request::Version { version: 7, .. }),
        Ok(Answer::Version(Box::new(deleting_orders_db()))),
    );
    h.expect("web-01, web-02, web-03 → (deleted) orders-db");
    h.expect("(deleted) orders-db → orders-db replica");
    assert!(!h.shows("(missing)"), "{}", h.screen());
    // Read again: the name stays, and nothing is asked again.
    h.press("R");
    h.answer_all_with(gone);
    h.expect("web-01, web-02, web-03 → (deleted) orders-db");
    assert!(
        !h.asked(|r| matches!(r, Request::ObjectHistory { .. } | Request::Version { .. })),
        "asked again"
    );
}

#[test]
fn an_end_deleted_before_the_session_stays_missing_against_a_server_without_history() {
    let mut gone = web_platform();
    gone.remove(ORDERS_DB);
    let mut h = Harness::opened_on(gone.clone());
    h.no_history();
    h.expect(&format!("web-01, web-02, web-03 → (missing) {ORDERS_DB}"));
    assert!(!h.status().contains("error"), "{}", h.status());
    // A server without history is not asked again.
    h.press("R");
    h.answer_all_with(gone);
    assert!(!h.asked(|r| matches!(r, Request::ObjectHistory { .. })));
}
