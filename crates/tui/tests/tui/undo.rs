//! Undo of the writes that replace or remove: `App::update` driven by keys and canned answers.
//! The delete of connected components and its undo (the components created again, then one bulk
//! update pointing the line groups at the new ids), and `E` and its undo (the content read
//! first, set back whole).

use diagtui_model::{Content, DiagramObject, Props};
use diagtui_tui::{Answer, Request};
use serde_json::{Value, json};

use crate::harness::*;

/// The fixture with db placed and two line groups: `1e-wire` joins web to db, `1f-tail` hangs
/// from web.
pub fn connected() -> Content {
    let mut c = content();
    let db = c.get_mut("1b-db").unwrap();
    db.data.insert("position".into(), json!({"x": 9, "y": 2}));
    c.insert(
        "1e-wire".into(),
        object(
            "line-group",
            json!({"anchors": [{"type": 1, "id": "1a-web", "index": 1}, {"type": 1, "id": "1b-db", "index": 3}], "lines": [[0, 1]]}),
        ),
    );
    c.insert(
        "1f-tail".into(),
        object(
            "line-group",
            json!({"anchors": [{"type": 1, "id": "1a-web", "index": 2}, {"type": 0, "x": 4, "y": 4}], "lines": [[0, 1]]}),
        ),
    );
    c
}

fn is_delete(r: &Request) -> bool {
    matches!(r, Request::DeleteObject { .. })
}

fn is_create(r: &Request) -> bool {
    matches!(r, Request::CreateObject { .. })
}

/// `content` with the objects `old` named by the ids `new` (their anchors left as they are).
fn renamed(mut content: Content, moves: &[(&str, &str)]) -> Content {
    for (old, new) in moves {
        let object = content.remove(*old).unwrap();
        content.insert((*new).into(), object);
    }
    content
}

/// The anchors of `object` with the ids `moves` maps pointed at their new ones.
fn anchors_moved(object: &DiagramObject, moves: &[(&str, &str)]) -> Value {
    let mut anchors = object.data["anchors"].clone();
    for anchor in anchors.as_array_mut().unwrap() {
        if let Some((_, new)) = moves.iter().find(|(old, _)| anchor["id"] == json!(old)) {
            anchor["id"] = json!(new);
        }
    }
    anchors
}

fn anchors_props(anchors: Value) -> Props {
    [("anchors".to_string(), anchors)].into_iter().collect()
}

/// Deletes web (the question names both line groups attached to it), then reloads the
/// document as the server has it after the delete.
fn delete_web_and_reload(h: &mut Harness) {
    h.expect("web-1 — database 1e-wire");
    // Delete web: the question names both line groups attached to it, by their ends.
    h.press("d");
    let asked = h.overlay_text("Delete object");
    assert!(
        asked.contains("2 line groups are attached to it: web-1 — database (1e-wire), web-1 — (4, 4) (1f-tail). They stay, naming the deleted ids; U undoes the delete and points them at the new ones."),
        "{asked}"
    );
    h.press("y");
    h.answer(is_delete, Ok(Answer::Done));
    h.pending.clear();
    // The document as the server has it now: the line groups name a missing component.
    let mut gone = connected();
    gone.remove("1a-web");
    h.press("R");
    h.answer_all_with(gone.clone());
    let broken = h.line_with("1e-wire");
    assert!(!broken.contains("web-1 →"), "{broken}");
}

#[test]
fn deleting_a_connected_component_names_its_line_groups_and_its_undo_points_them_back() {
    let mut h = Harness::opened_on(connected());
    delete_web_and_reload(&mut h);

    h.press("U Enter");
    // Each named by its ends, the deleted one by the name it last had.
    let asked = h.overlay_text("Undo");
    assert!(
        asked.contains("Line groups attached to it: (deleted) web-1 — database (1e-wire), (deleted) web-1 — (4, 4) (1f-tail)"),
        "{asked}"
    );
    assert!(asked.contains("(to web-1)."), "{asked}");
    assert!(
        asked.contains("Once it is created, one bulk update points these anchors at the new id."),
        "{asked}"
    );
    h.press("y");
    let (id, create) = h.take_request(is_create);
    assert_eq!(
        create,
        Request::CreateObject {
            doc: DOC_A.into(),
            kind: "component".into(),
            props: connected()["1a-web"].data.clone(),
        }
    );
    h.reply(id, Ok(Answer::Created("9z-web".into())));
    // Once created, the attached line groups are read afresh, by their ids.
    let (id, read) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    assert_eq!(
        read,
        Request::GetObjects {
            doc: DOC_A.into(),
            objs: vec!["1e-wire".into(), "1f-tail".into()],
        }
    );
    let now = connected();
    h.reply(
        id,
        Ok(Answer::Fresh(vec![
            ("1e-wire".into(), Some(now["1e-wire"].clone().into())),
            ("1f-tail".into(), Some(now["1f-tail"].clone().into())),
        ])),
    );
    // One bulk update points their anchors at the new id, corners kept.
    let (id, update) = h.take_request(|r| matches!(r, Request::BulkUpdate { .. }));
    let moves = [("1a-web", "9z-web")];
    assert_eq!(
        update,
        Request::BulkUpdate {
            doc: DOC_A.into(),
            objects: [
                (
                    "1e-wire".to_string(),
                    anchors_props(json!([{"type": 1, "id": "9z-web", "index": 1}, {"type": 1, "id": "1b-db", "index": 3}]))
                ),
                (
                    "1f-tail".to_string(),
                    anchors_props(anchors_moved(&now["1f-tail"], &moves))
                ),
            ]
            .into_iter()
            .collect(),
            if_versions: None,
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("undid the delete (write 1): 1 object created again, 2 line groups pointed at the new ids"),
        "{}",
        h.status()
    );
    // The reload after the write: the rows read as before the delete.
    let mut back = renamed(connected(), &moves);
    for lg in ["1e-wire", "1f-tail"] {
        let anchors = anchors_moved(&back[lg], &moves);
        back.get_mut(lg)
            .unwrap()
            .data
            .insert("anchors".into(), anchors);
    }
    h.answer_all_with(back);
    h.expect("web-1 — database 1e-wire");
    h.expect("web-1 — (4, 4) 1f-tail");
    // The history, still open under the question, marks the delete undone, and says where
    // the document is now: as before it.
    h.expect("(undone)");
    h.expect("as before these writes  ◂ now");
}

#[test]
fn deleting_several_connected_components_and_a_line_group_is_undone_in_one_bulk_update() {
    let mut h = Harness::opened_on(connected());
    // Mark web, db and the wire between them (rows: web, db, then the line groups).
    h.press("2 g j Space Space j j Space d");
    let asked = h.overlay_text("Delete marked objects");
    assert!(asked.contains("Delete the 3 marked objects"), "{asked}");
    assert!(
        asked.contains("1 line group is attached to them: web-1 — (4, 4) (1f-tail)."),
        "the wire goes with them, the tail stays: {asked}"
    );
    h.press("y");
    for _ in 0..3 {
        h.answer(is_delete, Ok(Answer::Done));
    }
    h.pending.clear();
    h.press("U Enter");
    h.expect("Create the 3 deleted objects again");
    h.press("y");
    let mut creates: Vec<_> = (0..3).map(|_| h.take_request(is_create)).collect();
    assert!(creates.iter().all(|(_, r)| is_create(r)));
    // Created in any order; the line groups are read only once the last is answered.
    let new_id = |r: &Request| match r {
        Request::CreateObject { kind, .. } if kind == "line-group" => "9c-wire",
        Request::CreateObject { props, .. } if props["componentId"] == json!("generic.server") => {
            "9a-web"
        }
        _ => "9b-db",
    };
    let (last_id, last) = creates.pop().unwrap();
    for (id, request) in creates {
        h.reply(id, Ok(Answer::Created(new_id(&request).into())));
        assert!(!h.asked(|r| matches!(r, Request::GetObjects { .. })));
    }
    h.reply(last_id, Ok(Answer::Created(new_id(&last).into())));
    let (id, read) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    assert_eq!(
        read,
        Request::GetObjects {
            doc: DOC_A.into(),
            objs: vec!["1f-tail".into(), "9c-wire".into()],
        },
        "the wire is read under its new id"
    );
    let was = connected();
    h.reply(
        id,
        Ok(Answer::Fresh(vec![
            ("1f-tail".into(), Some(was["1f-tail"].clone().into())),
            ("9c-wire".into(), Some(was["1e-wire"].clone().into())),
        ])),
    );
    let (_, update) = h.take_request(|r| matches!(r, Request::BulkUpdate { .. }));
    let moves = [("1a-web", "9a-web"), ("1b-db", "9b-db")];
    let Request::BulkUpdate { objects, .. } = update else {
        unreachable!()
    };
    assert_eq!(
        objects,
        [
            (
                "1f-tail".to_string(),
                anchors_props(anchors_moved(&was["1f-tail"], &moves))
            ),
            (
                "9c-wire".to_string(),
                anchors_props(json!([{"type": 1, "id": "9a-web", "index": 1}, {"type": 1, "id": "9b-db", "index": 3}]))
            ),
        ]
        .into_iter()
        .collect()
    );
}

#[test]
fn a_failed_recreate_still_points_the_others_line_groups_and_says_which_failed() {
    let mut h = Harness::opened_on(connected());
    h.press("2 g j Space Space d y");
    for _ in 0..2 {
        h.answer(is_delete, Ok(Answer::Done));
    }
    h.pending.clear();
    h.press("U Enter y");
    let (web, _) = h.take_request(
        |r| matches!(r, Request::CreateObject { props, .. } if props["componentId"] == json!("generic.server")),
    );
    let (db, _) = h.take_request(is_create);
    h.reply(db, Err(failure(Some(500), None, "disk full")));
    assert!(
        !h.asked(|r| matches!(r, Request::GetObjects { .. })),
        "web's create is still to come"
    );
    let status = h.status();
    assert!(
        status.contains("undo failed (1b-db was not created again): disk full"),
        "{status}"
    );
    // The last answer: the line groups of web are read and pointed at its new id.
    h.reply(web, Ok(Answer::Created("9a-web".into())));
    let (id, read) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    let Request::GetObjects { objs, .. } = read else {
        unreachable!()
    };
    assert_eq!(objs, vec!["1e-wire", "1f-tail"]);
    let was = connected();
    h.reply(
        id,
        Ok(Answer::Fresh(vec![
            ("1e-wire".into(), Some(was["1e-wire"].clone().into())),
            ("1f-tail".into(), Some(was["1f-tail"].clone().into())),
        ])),
    );
    let (id, update) = h.take_request(|r| matches!(r, Request::BulkUpdate { .. }));
    let Request::BulkUpdate { objects, .. } = update else {
        unreachable!()
    };
    assert_eq!(
        objects["1e-wire"]["anchors"],
        json!([{"type": 1, "id": "9a-web", "index": 1}, {"type": 1, "id": "1b-db", "index": 3}]),
        "db was not created again: its anchor is left as it was"
    );
    h.reply(id, Ok(Answer::Done));
    let status = h.status();
    assert!(
        status.contains("undid the delete (write 1) in part: 1 object created again, 2 line groups pointed at the new ids; 1 not (U tries again)"),
        "{status}"
    );
    // U then offers db alone.
    h.answer_all_with(connected());
    h.press("Enter");
    let asked = h.overlay_text("Undo the delete");
    assert!(
        asked.contains("Create the deleted object again with its old data? It gets a new id"),
        "{asked}"
    );
    assert!(asked.contains("1b-db"), "{asked}");
}

#[test]
fn emptying_a_document_is_undone_by_setting_its_content_back() {
    let mut h = Harness::opened();
    h.press("1 E");
    h.answer(
        |r| r == &Request::Content { doc: DOC_A.into() },
        Ok(objects(connected())),
    );
    h.expect("Remove all 6 objects from \"Network overview\"");
    h.press("y");
    h.answer(|r| matches!(r, Request::EmptyDoc { .. }), Ok(Answer::Done));
    h.answer_all_with(Content::new());
    h.press("2 U");
    h.expect("  1  empty");
    h.expect("removed all 6 objects");
    h.press("Enter");
    let asked = h.overlay_text("Undo the empty");
    assert!(
        asked.contains("Set the content of \"Network overview\" back to the 6 objects it had before the empty? This replaces ALL its content (the 0 objects now)."),
        "{asked}"
    );
    // Replacing the content whole is destructive: Enter keeps it as it is.
    h.press("Enter");
    assert!(!h.asked(|r| matches!(r, Request::SetContent { .. })));
    // Back in the history: Enter asks again, y sets the content back.
    h.press("Enter y");
    let (id, request) = h.take_request(|r| matches!(r, Request::SetContent { .. }));
    assert_eq!(
        request,
        Request::SetContent {
            doc: DOC_A.into(),
            content: connected(),
            if_match: None,
        },
        "the content read before the empty, ids and all (a server without versions: no \
         condition)"
    );
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("set the content from before the empty back (6 objects)"),
        "{}",
        h.status()
    );
    h.answer_all_with(connected());
    h.expect("Network overview (6)");
    h.expect("web-1 — database 1e-wire");
    h.expect("(undone)");
}

#[test]
fn an_empty_is_undone_only_over_the_version_it_made() {
    let mut h = Harness::opened();
    h.press("1 E");
    h.answer(
        |r| r == &Request::Content { doc: DOC_A.into() },
        Ok(objects(connected())),
    );
    h.press("y");
    // Our server answers the version the empty made.
    h.answer(
        |r| matches!(r, Request::EmptyDoc { .. }),
        Ok(Answer::Written(Some(12))),
    );
    h.answer_all_with(Content::new());
    h.press("2 U Enter y");
    let (id, request) = h.take_request(|r| matches!(r, Request::SetContent { .. }));
    assert!(
        matches!(
            request,
            Request::SetContent {
                if_match: Some(12),
                ..
            }
        ),
        "{request:?}"
    );
    // Somebody wrote after the empty: the server sets nothing back and says so.
    let mut refused = failure(
        Some(412),
        Some("PRECONDITION_FAILED"),
        "the document is at version 13, not the version given",
    );
    refused.stale = Some(Box::default());
    h.reply(id, Err(refused));
    assert!(
        h.status()
            .contains("the document was written after it, so nothing was set back"),
        "{}",
        h.status()
    );
}
