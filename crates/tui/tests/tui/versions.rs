//! Writes that name versions (issue 33), through `App::update` with canned answers: against a
//! server that gives versions a save is one update with `If-Match`, its 412 feeds the conflict
//! question without a read, the selector apply and the bulk edit name the versions they
//! previewed, an undo the versions its re-read found; against a server without them, today's
//! check, said once.

use std::collections::BTreeMap;

use diagtui_client::{DocStreamEvent, Watched};
use diagtui_model::events::DocChangeEvent;
use diagtui_model::versions::VersionedObject;
use diagtui_model::{Content, Selector};
use diagtui_tui::document::ObjectModel;
use diagtui_tui::requests::liveness::Live;
use diagtui_tui::{Answer, Failure, Msg, Request};
use diagtui_tui::{Stale, Versioned};
use serde_json::json;

use crate::harness::*;

/// The version every object of the fixture is at on the server.
const AT: u64 = 7;

/// The fixture's content as a server with versions answers it: each object at [`AT`].
fn versioned(content: &Content) -> Answer {
    let entries: serde_json::Map<String, serde_json::Value> = content
        .iter()
        .map(|(id, o)| {
            let entry = json!({"type": o.kind, "data": o.data, "version": AT});
            (id.clone(), entry)
        })
        .collect();
    let text = serde_json::to_vec(&entries).unwrap();
    Answer::Objects(Box::new(ObjectModel::from_json(&text).unwrap()))
}

/// Document A open, read from a server with versions.
fn opened_with_versions() -> Harness {
    let mut h = Harness::loaded();
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(versioned(&content())),
    );
    h.answer_all();
    h
}

fn is_update(r: &Request) -> bool {
    matches!(r, Request::UpdateObject { .. })
}

fn is_get(r: &Request) -> bool {
    matches!(r, Request::GetObject { .. } | Request::GetObjects { .. })
}

fn label(text: &str) -> serde_json::Value {
    json!({"color": "#333333", "fontSize": 0.5, "text": text})
}

/// The label selected and its text edited to `text`, unsaved.
fn edit_label(h: &mut Harness, text: &str) {
    h.press("2 G");
    assert!(h.selected().contains("1c-title"), "{}", h.selected());
    h.edit_json(&serde_json::to_string_pretty(&label(text)).unwrap());
}

/// Whether any object was read (one, or a few again).
fn read_any(h: &Harness) -> bool {
    h.sent.iter().any(is_get)
}

/// A refused conditional write: these objects are now so (`None`: gone).
fn refused(objects: Vec<(&str, Option<(serde_json::Value, u64)>)>) -> Failure {
    let mut failure = failure(
        Some(412),
        Some("PRECONDITION_FAILED"),
        "1 object changed since the versions given",
    );
    failure.stale = Some(Box::new(Stale {
        objects: objects
            .into_iter()
            .map(|(id, now)| {
                let now = now.map(|(data, version)| Versioned {
                    object: object("label", data),
                    version: Some(version),
                });
                (id.to_string(), now)
            })
            .collect(),
        now_match: Vec::new(),
        no_longer_match: Vec::new(),
    }));
    failure
}

#[test]
fn a_save_is_one_update_naming_the_version_and_reads_nothing_after() {
    let mut h = opened_with_versions();
    edit_label(&mut h, "Back end");
    h.press("C-s");
    assert!(
        h.shows("y: save"),
        "no re-read is announced: {}",
        h.screen()
    );
    h.press("y");
    let (id, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Back end"})).unwrap(),
            if_match: Some(AT),
        }
    );
    assert!(!read_any(&h), "the update is the only request of the save");
    h.reply(id, Ok(Answer::Written(Some(AT + 2))));
    assert!(h.status().contains("saved 1 property"), "{}", h.status());
    assert!(!read_any(&h), "the object is not read again");
    assert!(h.shows("\"Back end\""), "the tree shows the saved text");
    // The next save names the version the first one made.
    edit_label(&mut h, "Middle");
    h.press("C-s y");
    let (_, request) = h.take_request(is_update);
    assert!(
        matches!(request, Request::UpdateObject { if_match: Some(v), .. } if v == AT + 2),
        "{request:?}"
    );
}

/// A save of "Mine" refused (412) because another client wrote "Theirs" at `AT + 1`.
fn refused_by_theirs() -> Harness {
    let mut h = opened_with_versions();
    edit_label(&mut h, "Mine");
    h.press("C-s y");
    let (id, _) = h.take_request(is_update);
    h.reply(
        id,
        Err(refused(vec![("1c-title", Some((label("Theirs"), AT + 1)))])),
    );
    h
}

#[test]
fn a_refused_save_asks_with_the_object_now_and_no_read() {
    let mut h = refused_by_theirs();
    assert!(h.shows("This object changed on the server since you opened it."));
    assert!(!read_any(&h), "the 412's object is used, not read");
    // Overwrite names the version the server answered with.
    h.press("o");
    let (_, request) = h.take_request(is_update);
    assert!(
        matches!(request, Request::UpdateObject { if_match: Some(v), .. } if v == AT + 1),
        "{request:?}"
    );

    // Reload takes the 412's object: the edit goes, nothing is read.
    let mut h = refused_by_theirs();
    h.press("r");
    assert!(h.shows("[VIEW] label 1c-title"), "not unsaved any more");
    assert!(h.shows("\"Theirs\""), "{}", h.screen());
    assert!(!read_any(&h));
    // And the next save names the version it reloaded.
    edit_label(&mut h, "Again");
    h.press("C-s y");
    let (_, request) = h.take_request(is_update);
    assert!(
        matches!(request, Request::UpdateObject { if_match: Some(v), .. } if v == AT + 1),
        "{request:?}"
    );
}

#[test]
fn an_overwrite_shows_the_object_read_again_with_the_other_clients_change() {
    // Another client changed the colour (`AT + 1`) while this edit changed the text.
    let mut h = opened_with_versions();
    edit_label(&mut h, "Mine");
    h.press("C-s y");
    let (id, _) = h.take_request(is_update);
    let mut theirs = content()["1c-title"].data.clone();
    theirs["color"] = json!("#FF0000");
    h.reply(
        id,
        Err(refused(vec![("1c-title", Some((json!(theirs), AT + 1)))])),
    );
    h.press("o");
    let (id, _) = h.take_request(is_update);
    h.reply(id, Ok(Answer::Written(Some(AT + 2))));
    assert!(h.status().contains("saved 1 property"), "{}", h.status());
    // Only the text was sent: the object also holds their colour, which the pane never
    // showed, so it is read again instead of taken as the edit merged.
    let (id, request) = h.take_request(is_get);
    assert_eq!(
        request,
        Request::GetObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
        }
    );
    let mut now = label("Mine");
    now["color"] = json!("#FF0000");
    h.reply(
        id,
        Ok(Answer::Object(Versioned {
            object: object("label", now),
            version: Some(AT + 2),
        })),
    );
    assert!(h.shows("\"#FF0000\""), "{}", h.screen());
    assert!(h.shows("\"Mine\""), "{}", h.screen());
    assert!(
        !h.shows("● label 1c-title"),
        "nothing unsaved: {}",
        h.screen()
    );
}

#[test]
fn a_save_refused_because_the_object_was_deleted_keeps_the_edit() {
    let mut h = opened_with_versions();
    edit_label(&mut h, "Mine");
    h.press("C-s y");
    let (id, _) = h.take_request(is_update);
    h.reply(id, Err(refused(vec![("1c-title", None)])));
    let status = h.status();
    assert!(
        status.contains("not saved: the object was deleted on the server; your edit is kept"),
        "{status}"
    );
    assert!(h.shows("[VIEW] ● label 1c-title"), "still unsaved");
}

#[test]
fn without_versions_a_save_checks_first_and_says_once_it_is_not_atomic() {
    let mut h = Harness::opened();
    edit_label(&mut h, "Back end");
    h.press("C-s");
    assert!(h.shows("save (re-reads the object first)"));
    h.press("y");
    assert!(
        h.status().contains("this server gives no versions"),
        "{}",
        h.status()
    );
    h.answer(
        is_get,
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    let (id, request) = h.take_request(is_update);
    assert!(matches!(
        request,
        Request::UpdateObject { if_match: None, .. }
    ));
    h.reply(id, Ok(Answer::Done));
    assert!(h.asked(is_get), "read again after the save, as before");
    h.answer_all();
    edit_label(&mut h, "Middle");
    h.press("C-s y");
    assert!(
        !h.status().contains("gives no versions"),
        "said once: {}",
        h.status()
    );
}

fn fill_status_down(h: &mut Harness, props: &str) {
    fill_form(h, "status", "down", props);
}

#[test]
fn a_selector_apply_names_the_previewed_versions_and_a_412_offers_to_preview_again() {
    let mut h = opened_with_versions();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-s");
    let versions = BTreeMap::from([("1b-db".to_string(), AT)]);
    h.answer(is_where, Ok(Answer::Content(down_only(), versions.clone())));
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::UpdateWhere { .. }));
    let Request::UpdateWhere {
        selector,
        if_versions,
        ..
    } = request
    else {
        unreachable!()
    };
    assert_eq!(
        selector,
        Selector::parse(r#"["status","eq","down"]"#).unwrap()
    );
    assert_eq!(if_versions, Some(versions));
    let mut failure = refused(Vec::new());
    failure.stale.as_mut().unwrap().now_match = vec!["1a-web".into()];
    h.reply(id, Err(failure));
    let screen = h.screen();
    assert!(screen.contains("Changed since the preview"), "{screen}");
    assert!(
        screen.contains("Nothing was written: 1 object changed on the server since the preview."),
        "{screen}"
    );
    assert!(screen.contains("web-1"), "named: {screen}");
    assert!(screen.contains("matches now"), "{screen}");
    h.press("r");
    assert!(h.asked(is_where), "previewed again");
}

#[test]
fn a_preview_from_a_server_without_versions_applies_unconditionally() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    h.press("y");
    let (_, request) = h.take_request(|r| matches!(r, Request::UpdateWhere { .. }));
    assert!(matches!(
        request,
        Request::UpdateWhere {
            if_versions: None,
            ..
        }
    ));
}

fn is_bulk(r: &Request) -> bool {
    matches!(r, Request::BulkUpdate { .. })
}

#[test]
fn a_bulk_merge_names_the_versions_it_was_worked_out_from_without_a_re_read() {
    let mut h = opened_with_versions();
    h.press("Space Space b C-u");
    h.paste(r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-s y");
    assert!(!read_any(&h), "no re-read: the server checks the versions");
    let (id, request) = h.take_request(is_bulk);
    let Request::BulkUpdate { if_versions, .. } = &request else {
        unreachable!()
    };
    assert_eq!(
        if_versions,
        &Some(BTreeMap::from([
            ("1a-web".to_string(), AT),
            ("1b-db".to_string(), AT)
        ]))
    );
    // The db changed meanwhile: the question names it, from the 412 alone.
    let mut failure = refused(Vec::new());
    failure.stale.as_mut().unwrap().objects = vec![(
        "1b-db".into(),
        Some(Versioned {
            object: object(
                "component",
                json!({"componentId": "generic.database", "meta": {"env": "dev", "status": "down", "zone": "z9"}}),
            ),
            version: Some(AT + 3),
        }),
    )];
    h.reply(id, Err(failure));
    let screen = h.screen();
    assert!(screen.contains("Changed on the server"), "{screen}");
    assert!(screen.contains("Nothing was written"), "{screen}");
    // Preview again: the change against the db's values now, at its version now.
    h.press("r");
    let screen = h.screen();
    assert!(
        screen.contains("Against the values on the server now"),
        "{screen}"
    );
    h.press("y");
    let (_, request) = h.take_request(is_bulk);
    let Request::BulkUpdate {
        objects,
        if_versions,
        ..
    } = &request
    else {
        unreachable!()
    };
    assert_eq!(
        objects["1b-db"]["meta"],
        json!({"env": "dev", "status": "down", "zone": "z9", "owner": "ops"}),
        "merged into what the 412 said"
    );
    assert_eq!(
        if_versions,
        &Some(BTreeMap::from([
            ("1a-web".to_string(), AT),
            ("1b-db".to_string(), AT + 3)
        ]))
    );
}

#[test]
fn an_undo_names_the_version_its_re_read_found() {
    let mut h = opened_with_versions();
    edit_label(&mut h, "Back end");
    h.press("C-s y");
    let (id, _) = h.take_request(is_update);
    h.reply(id, Ok(Answer::Written(Some(AT + 1))));
    h.press("u");
    h.no_history();
    h.press("y");
    let (id, _) = h.take_request(|r| matches!(r, Request::GetObject { .. }));
    h.reply(
        id,
        Ok(Answer::Object(Versioned {
            object: object("label", label("Back end")),
            version: Some(AT + 1),
        })),
    );
    let (_, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Front end"})).unwrap(),
            if_match: Some(AT + 1),
        }
    );
}

/// A change event of document A that gives its objects (our server's, up to 64 KiB).
fn change_giving(h: &mut Harness, changed: &[(&str, serde_json::Value, u64)], deleted: &[&str]) {
    let objects = changed
        .iter()
        .map(|(id, data, version)| {
            let state = VersionedObject {
                kind: "label".into(),
                data: data.as_object().unwrap().clone(),
                version: *version,
            };
            (id.to_string(), state)
        })
        .collect();
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
            last_change: Some("t9".into()),
            changed: changed.iter().map(|(id, ..)| id.to_string()).collect(),
            deleted: deleted.iter().map(|s| s.to_string()).collect(),
            document: None,
            version: changed.iter().map(|(.., v)| *v).max(),
            objects: Some(objects),
        })),
    }));
}

#[test]
fn a_change_event_that_gives_its_objects_is_applied_without_a_read() {
    let mut h = opened_with_versions();
    h.press("2 G");
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Connected,
    }));
    change_giving(
        &mut h,
        &[("1c-title", label("Changed elsewhere"), AT + 1)],
        &["1b-db"],
    );
    assert!(!read_any(&h), "nothing is read");
    assert!(
        !h.asked(|r| matches!(r, Request::Content { .. })),
        "nor the content"
    );
    let screen = h.screen();
    assert!(screen.contains("\"Changed elsewhere\""), "{screen}");
    assert!(!screen.contains("1b-db"), "the deleted one goes: {screen}");
    // The version came with it: a save names it.
    edit_label(&mut h, "Mine");
    let sent = h.sent.len();
    h.press("C-s y");
    let (id, request) = h.take_request(is_update);
    assert!(
        matches!(request, Request::UpdateObject { if_match: Some(v), .. } if v == AT + 1),
        "{request:?}"
    );
    // Its own write's event, coming after the save's answer, changes nothing and reads nothing:
    // the save was one request (the details' `lastChange` comes with the event too).
    h.reply(id, Ok(Answer::Written(Some(AT + 2))));
    assert_eq!(h.sent[sent..], [request], "one request a save");
    change_giving(&mut h, &[("1c-title", label("Mine"), AT + 2)], &[]);
    assert!(!read_any(&h));
    assert!(h.shows("[VIEW] label 1c-title"), "saved, not unsaved");
    // An older state arriving late is left out.
    change_giving(&mut h, &[("1c-title", label("Stale"), AT + 1)], &[]);
    assert!(!h.shows("\"Stale\""), "{}", h.screen());
}

#[test]
fn a_saves_own_change_event_coming_before_its_answer_raises_no_banner() {
    let mut h = opened_with_versions();
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Connected,
    }));
    edit_label(&mut h, "Back end");
    h.press("C-s y");
    let (id, _) = h.take_request(is_update);
    // The change event of this very write can come before its answer (it does in local mode):
    // the edit is unsaved then, and the server's object differs from the one it started from.
    change_giving(&mut h, &[("1c-title", label("Back end"), AT + 1)], &[]);
    h.reply(id, Ok(Answer::Written(Some(AT + 1))));
    assert!(h.status().contains("saved 1 property"), "{}", h.status());
    let screen = h.screen();
    assert!(!screen.contains("changed on the server"), "{screen}");
    assert!(!read_any(&h), "nothing is read");
}

#[test]
fn a_delete_names_the_version_read_and_its_412_deletes_nothing_and_reads_again() {
    let mut h = opened_with_versions();
    h.press("d");
    assert!(h.shows("Delete component web-1 (1a-web)"), "{}", h.screen());
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::DeleteObject { .. }));
    assert_eq!(
        request,
        Request::DeleteObject {
            doc: DOC_A.into(),
            obj: "1a-web".into(),
            if_match: Some(AT),
        }
    );
    h.reply(id, Err(refused(vec![("1a-web", None)])));
    assert!(
        h.status()
            .contains("deleted nothing: the object changed since it was read"),
        "{}",
        h.status()
    );
    assert!(
        h.sent.iter().any(|r| matches!(r, Request::Content { .. })),
        "the document is read again"
    );
}

#[test]
fn a_delete_against_a_server_without_versions_is_unconditional() {
    let mut h = Harness::opened();
    h.press("d y");
    let (_, request) = h.take_request(|r| matches!(r, Request::DeleteObject { .. }));
    assert!(
        matches!(request, Request::DeleteObject { if_match: None, .. }),
        "{request:?}"
    );
}
