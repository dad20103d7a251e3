//! Undo through the server's history: `App::update` driven by keys and canned answers. `u` reads
//! the newest version that changed the selected object (whoever made it, in any session) and
//! undoes its part as a write of the write history; `u` in the history overlay undoes a whole
//! version; a version that created objects is not undone this way and says why.

use diagtui_model::history::{
    HistoryPage, ObjectChange, Version, VersionDetails, VersionKind, VersionNotes,
};
use diagtui_tui::{Answer, Request};
use serde_json::json;

use crate::harness::*;

fn version(number: u64, kind: VersionKind) -> Version {
    Version {
        version: number,
        at: "2026-11-20T09:00:00.000Z".into(),
        account: Some("bob@example.com".into()),
        kind,
        changed: 1,
        notes: VersionNotes::default(),
    }
}

fn page(number: u64, kind: VersionKind) -> Answer {
    Answer::History(HistoryPage {
        versions: vec![version(number, kind)],
        head: number,
        oldest: 1,
        next_before: None,
    })
}

/// Version 9: the label's text went from "Old title" to what the fixture has, "Front end".
fn retitled() -> VersionDetails {
    let now = content()["1c-title"].clone();
    let mut before = now.clone();
    before.data["text"] = json!("Old title");
    VersionDetails {
        version: version(9, VersionKind::ObjectUpdated),
        objects: vec![ObjectChange {
            obj_id: "1c-title".into(),
            before: Some(before),
            after: Some(now),
        }],
    }
}

fn is_object_history(r: &Request) -> bool {
    matches!(r, Request::ObjectHistory { .. })
}

/// Document A open, the label selected in the objects pane.
fn on_label() -> Harness {
    let mut h = Harness::opened();
    h.press("G");
    assert!(h.selected().contains("1c-title"), "{}", h.selected());
    h
}

#[test]
fn u_undoes_the_newest_version_of_the_object_even_one_made_elsewhere() {
    let mut h = on_label();
    h.press("u");
    let (id, request) = h.take_request(is_object_history);
    assert_eq!(
        request,
        Request::ObjectHistory {
            doc: DOC_A.into(),
            obj: "1c-title".into()
        }
    );
    h.reply(id, Ok(page(9, VersionKind::ObjectUpdated)));
    h.answer(
        |r| {
            *r == Request::Version {
                doc: DOC_A.into(),
                version: 9,
            }
        },
        Ok(Answer::Version(Box::new(retitled()))),
    );
    let screen = h.screen();
    assert!(
        screen.contains("Undo the change (write 1) of label Front end"),
        "{screen}"
    );
    assert!(
        screen.contains("~ text: \"Front end\" → \"Old title\""),
        "{screen}"
    );
    h.press("y");
    // As every undo: the object is read again first, then the value put back.
    h.answer(
        |r| matches!(r, Request::GetObject { .. }),
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    let (_, update) = h.take_request(|r| matches!(r, Request::UpdateObject { .. }));
    assert_eq!(
        update,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Old title"})).unwrap(),
            if_match: None,
        }
    );
    // It is in the write history, named by its version.
    h.press("U");
    assert!(
        h.overlay_text("Write history")
            .contains("1  change          Front end (version 9): text"),
        "{}",
        h.overlay_text("Write history")
    );
}

#[test]
fn u_on_an_object_its_newest_version_created_says_how_else() {
    let mut h = on_label();
    h.press("u");
    h.answer(is_object_history, Ok(page(4, VersionKind::ObjectCreated)));
    let created = VersionDetails {
        version: version(4, VersionKind::ObjectCreated),
        objects: vec![ObjectChange {
            obj_id: "1c-title".into(),
            before: None,
            after: Some(content()["1c-title"].clone()),
        }],
    };
    h.answer(
        |r| matches!(r, Request::Version { .. }),
        Ok(Answer::Version(Box::new(created))),
    );
    assert!(
        h.status().contains(
            "version 4 (object-created) created objects: delete them, or restore the version before it in the history (H)"
        ),
        "{}",
        h.status()
    );
}

#[test]
fn u_in_the_history_undoes_the_highlighted_version() {
    let mut h = Harness::opened();
    h.press("H");
    h.answer(
        |r| matches!(r, Request::History { .. }),
        Ok(page(9, VersionKind::ObjectUpdated)),
    );
    h.answer(
        |r| matches!(r, Request::Version { .. }),
        Ok(Answer::Version(Box::new(retitled()))),
    );
    h.press("u");
    assert!(
        h.overlay_text("Undo")
            .contains("Undo the change (write 1) of label Front end"),
        "{}",
        h.screen()
    );
    h.press("y");
    h.answer(
        |r| matches!(r, Request::GetObject { .. }),
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    h.answer(
        |r| matches!(r, Request::UpdateObject { .. }),
        Ok(Answer::Done),
    );
    // The undo is a version too: the history, still open, lists them again from the newest.
    assert!(h.asked(|r| matches!(r, Request::History { before: None, .. })));
    assert!(h.overlay_text("History").contains("reading the history…"));
}

#[test]
fn a_failed_history_read_says_status_code_and_route() {
    let mut h = on_label();
    h.press("u");
    h.answer(
        is_object_history,
        Err(failure(Some(500), Some("INTERNAL_ERROR"), "disk on fire")),
    );
    let status = h.status();
    assert!(
        status.contains(&format!(
            "could not read the history of Front end to undo: HTTP 500 INTERNAL_ERROR disk on fire (GET /api/v1/doc/{DOC_A}/obj/1c-title/history?limit=1)"
        )),
        "{status}"
    );
}

#[test]
fn a_version_asked_about_again_is_the_same_write() {
    let mut h = on_label();
    for _ in 0..2 {
        h.press("u");
        h.answer(is_object_history, Ok(page(9, VersionKind::ObjectUpdated)));
        h.answer(
            |r| matches!(r, Request::Version { .. }),
            Ok(Answer::Version(Box::new(retitled()))),
        );
        assert!(
            h.screen()
                .contains("Undo the change (write 1) of label Front end"),
            "{}",
            h.screen()
        );
        h.press("n");
    }
    // Asked about and kept, it is no write of this session: the write history leaves it out.
    h.press("U");
    let listed = h.overlay_text("Write history");
    assert_eq!(listed.matches("(version 9)").count(), 0, "{listed}");
    // Undone, it is listed, once.
    h.press("Esc u");
    h.answer(is_object_history, Ok(page(9, VersionKind::ObjectUpdated)));
    h.answer(
        |r| matches!(r, Request::Version { .. }),
        Ok(Answer::Version(Box::new(retitled()))),
    );
    h.press("y");
    h.press("U");
    let listed = h.overlay_text("Write history");
    assert_eq!(listed.matches("(version 9)").count(), 1, "{listed}");
}

#[test]
fn u_on_the_newest_version_that_replaced_the_content_restores_the_one_before() {
    let mut h = Harness::opened();
    h.press("H");
    h.answer(
        |r| matches!(r, Request::History { .. }),
        Ok(page(5, VersionKind::Empty)),
    );
    let emptied = VersionDetails {
        version: version(5, VersionKind::Empty),
        objects: vec![ObjectChange {
            obj_id: "1c-title".into(),
            before: Some(content()["1c-title"].clone()),
            after: None,
        }],
    };
    h.answer(
        |r| matches!(r, Request::Version { .. }),
        Ok(Answer::Version(Box::new(emptied))),
    );
    h.press("u");
    // As r on version 4: what a restore changes is read first, for the question.
    assert!(h.asked(|r| *r
        == Request::DiffSince {
            doc: DOC_A.into(),
            from: 4
        }));
}
