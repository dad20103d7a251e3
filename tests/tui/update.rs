//! `App::update`: every action and its error paths, without a terminal.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use diagtui::model::{DocSummary, ObjectType};
use diagtui::tui::editor::Mode;
use diagtui::tui::overlay::{ConfirmAction, Overlay};
use diagtui::tui::{Answer, Effect, Msg, Pane, Request};
use serde_json::json;

use crate::harness::*;

fn is_update(r: &Request) -> bool {
    matches!(r, Request::UpdateObject { .. })
}

fn is_get(r: &Request) -> bool {
    matches!(r, Request::GetObject { .. })
}

/// Puts the editor on the label and makes it say `text`.
fn edit_label_text(h: &mut Harness, text: &str) {
    h.press("j j j j j 3 i");
    assert_eq!(h.app.editor.target().unwrap().obj, "1c-title");
    let new = h.app.editor.text().replace("Front end", text);
    h.app.editor.set_text(&new);
}

#[test]
fn start_up_asks_for_documents_folders_and_account() {
    let h = Harness::new();
    let requests: Vec<_> = h.pending.iter().map(|(_, r)| r.clone()).collect();
    assert_eq!(
        requests,
        vec![Request::ListDocs, Request::Folders, Request::WhoAmI]
    );
    assert_eq!(h.app.focus, Pane::Docs);
}

#[test]
fn loading_fills_list_grouped_by_folder_account_and_details() {
    let h = Harness::loaded();
    assert_eq!(h.app.account.as_deref(), Some("me@example.com"));
    assert_eq!(h.app.docs.docs.len(), 3);
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_A);
    assert_eq!(h.app.docs.details.as_ref().unwrap().id, DOC_A);
    // My diagrams (2), then Shared with me (1)
    assert_eq!(h.app.docs.rows.len(), 5);
}

#[test]
fn focus_keys_move_between_panes() {
    let mut h = Harness::loaded();
    h.press("Tab");
    assert_eq!(h.app.focus, Pane::Objects);
    h.press("Tab");
    assert_eq!(h.app.focus, Pane::Props);
    h.press("Tab");
    assert_eq!(h.app.focus, Pane::Docs);
    h.press("BackTab");
    assert_eq!(h.app.focus, Pane::Props);
    h.press("2");
    assert_eq!(h.app.focus, Pane::Objects);
    h.press("1");
    assert_eq!(h.app.focus, Pane::Docs);
    h.press("3");
    assert_eq!(h.app.focus, Pane::Props);
}

#[test]
fn moving_skips_folder_rows_and_asks_for_details() {
    let mut h = Harness::loaded();
    h.press("j");
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_B);
    h.press("j");
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_C);
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| r == &Request::Details { doc: DOC_C.into() })
    );
    h.press("k k k");
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_A);
}

#[test]
fn a_late_details_reply_for_another_document_is_dropped() {
    let mut h = Harness::loaded();
    h.press("j");
    let (old, _) = h.take_request(|r| r == &Request::Details { doc: DOC_B.into() });
    h.press("j");
    h.answer_all();
    h.reply(old, Ok(Answer::Details(details(DOC_B))));
    assert_eq!(h.app.docs.details.as_ref().unwrap().id, DOC_C);
}

#[test]
fn enter_opens_a_document_and_focuses_its_objects() {
    let mut h = Harness::loaded();
    h.press("Enter");
    assert_eq!(h.app.focus, Pane::Objects);
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| r == &Request::Content { doc: DOC_A.into() })
    );
    h.answer_all();
    assert_eq!(h.app.objects.objects.len(), 4);
    let kinds: Vec<_> = h
        .app
        .objects
        .groups
        .iter()
        .map(|g| g.kind.as_str())
        .collect();
    assert_eq!(kinds, ["component", "line-group", "label"]);
    assert_eq!(h.app.editor.target().unwrap().obj, "1a-web");
    assert_eq!(h.app.docs.counts.get(DOC_A), Some(&4));
}

#[test]
fn content_of_a_document_left_behind_is_never_applied() {
    let mut h = Harness::loaded();
    h.press("Enter");
    let (stale, _) = h.take_request(|r| matches!(r, Request::Content { .. }));
    h.press("1 j Enter");
    h.reply(stale, Ok(Answer::Content(content())));
    assert!(h.app.objects.objects.is_empty());
    assert_eq!(h.app.objects.doc.as_ref().unwrap().id, DOC_B);
}

#[test]
fn document_filter_is_fuzzy_and_typing_never_triggers_shortcuts() {
    let mut h = Harness::loaded();
    h.press("/");
    h.type_text("prdq");
    assert!(h.app.docs.rows.is_empty());
    h.press("Backspace");
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_B);
    assert!(h.app.overlay.is_none());
    h.press("Enter");
    assert!(!h.app.docs.filter.editing());
    h.press("Esc");
    assert_eq!(h.app.docs.rows.len(), 5);
}

#[test]
fn create_document_updates_the_list_at_once_and_rechecks() {
    let mut h = Harness::loaded();
    h.press("n");
    h.type_text("New plan");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        request,
        Request::CreateDoc {
            title: "New plan".into(),
            folder: Some("f0000000-0000-4000-8000-000000000001".into())
        }
    );
    let effects = h.reply(
        id,
        Ok(Answer::Created(
            "44444444-4444-4444-8444-444444444444".into(),
        )),
    );
    assert_eq!(h.app.docs.selected_doc().unwrap().title, "New plan");
    let list = effects
        .iter()
        .find_map(|e| match e {
            Effect::Request(id, Request::ListDocs) => Some(*id),
            _ => None,
        })
        .expect("the list is checked against the server");
    // The server lists the new document first (by title); it must stay the selected one.
    let mut listed = docs();
    listed.insert(
        0,
        DocSummary {
            id: "44444444-4444-4444-8444-444444444444".into(),
            title: "New plan".into(),
        },
    );
    h.reply(list, Ok(Answer::Docs(listed)));
    assert_eq!(h.app.docs.selected_doc().unwrap().title, "New plan");
}

#[test]
fn rename_and_clone_prefill_and_send() {
    let mut h = Harness::loaded();
    h.press("r");
    match &h.app.overlay {
        Some(Overlay::Input { input, .. }) => assert_eq!(input.text(), "Network overview"),
        other => panic!("{other:?}"),
    }
    h.type_text("!");
    h.press("Enter");
    assert_eq!(h.app.docs.docs[0].title, "Network overview!");
    h.take_request(|r| {
        r == &Request::RenameDoc {
            doc: DOC_A.into(),
            title: "Network overview!".into(),
        }
    });
    h.press("c Enter");
    h.take_request(|r| {
        r == &Request::CloneDoc {
            doc: DOC_A.into(),
            title: "Network overview! (copy)".into(),
        }
    });
}

#[test]
fn sharing_with_an_unknown_email_says_so_plainly() {
    let mut h = Harness::loaded();
    h.press("s");
    h.type_text("nobody@example.com");
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::ShareDoc { .. }),
        Err(failure(
            Some(404),
            Some("USER_NOT_FOUND"),
            "no account has that e-mail",
        )),
    );
    let error = h.app.last_error.clone().unwrap();
    assert!(
        error.contains("no account has the e-mail nobody@example.com"),
        "{error}"
    );
}

#[test]
fn empty_and_delete_ask_first_naming_the_document() {
    let mut h = Harness::opened();
    h.press("1 E");
    match &h.app.overlay {
        Some(Overlay::Confirm { message, .. }) => assert!(message.contains("Network overview")),
        other => panic!("{other:?}"),
    }
    h.press("n");
    assert!(h.app.overlay.is_none());
    assert!(
        !h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::EmptyDoc { .. }))
    );
    h.press("E y");
    assert!(h.app.objects.objects.is_empty());
    h.answer(|r| matches!(r, Request::EmptyDoc { .. }), Ok(Answer::Done));
    h.press("D");
    match &h.app.overlay {
        Some(Overlay::Confirm {
            message, action, ..
        }) => {
            assert!(message.contains("Network overview"));
            assert!(
                matches!(action, ConfirmAction::DeleteDoc(DocSummary { id, .. }) if id == DOC_A)
            );
        }
        other => panic!("{other:?}"),
    }
    h.press("Enter");
    assert!(h.app.docs.docs.iter().all(|d| d.id != DOC_A));
    assert!(h.app.objects.doc.is_none());
    assert_eq!(
        h.app.docs.selected_doc().unwrap().id,
        DOC_B,
        "the selection moves to the deleted document's neighbour"
    );
    h.take_request(|r| r == &Request::DeleteDoc { doc: DOC_A.into() });
}

#[test]
fn clearing_a_kept_filter_asks_for_the_details_of_the_new_selection() {
    let mut h = Harness::loaded();
    h.press("/");
    h.type_text("zzz");
    h.press("Enter");
    assert!(h.app.docs.selected_doc().is_none());
    h.pending.clear();
    h.press("Esc");
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_A);
    h.take_request(|r| r == &Request::Details { doc: DOC_A.into() });
}

#[test]
fn a_failed_delete_says_why_and_reloads_the_list() {
    let mut h = Harness::loaded();
    h.press("D y");
    let effects = h.answer(
        |r| matches!(r, Request::DeleteDoc { .. }),
        Err(failure(
            Some(404),
            Some("DOC_NOT_FOUND"),
            "no such document",
        )),
    );
    assert!(h.app.last_error.as_ref().unwrap().contains("delete failed"));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Request(_, Request::ListDocs)))
    );
}

#[test]
fn server_down_shows_an_error_and_r_retries() {
    let mut h = Harness::new();
    h.answer(
        |r| r == &Request::ListDocs,
        Err(failure(
            None,
            None,
            "could not connect to http://127.0.0.1:1",
        )),
    );
    assert!(h.app.docs.load_error.is_some());
    assert!(h.app.last_error.as_ref().unwrap().contains("R retries"));
    h.pending.clear();
    h.press("R");
    assert!(h.pending.iter().any(|(_, r)| r == &Request::ListDocs));
    h.answer_all();
    assert!(h.app.docs.load_error.is_none());
    assert!(h.app.last_error.is_none());
}

#[test]
fn object_filter_matches_text_type_id_and_meta() {
    let mut h = Harness::opened();
    h.press("/");
    h.type_text("env=dev");
    let shown = h
        .app
        .objects
        .rows
        .iter()
        .filter(|r| matches!(r, diagtui::tui::objects::TreeRow::Object(_)))
        .count();
    assert_eq!(shown, 1);
    assert_eq!(h.app.objects.selected_object().unwrap().0, "1b-db");
    for (filter, expected) in [
        ("front", "1c-title"),
        ("line-group", "1d-line"),
        ("1a-", "1a-web"),
    ] {
        h.press("Esc /");
        h.type_text(filter);
        assert_eq!(
            h.app.objects.selected_object().unwrap().0,
            expected,
            "{filter}"
        );
    }
}

#[test]
fn groups_fold_and_unfold() {
    let mut h = Harness::opened();
    h.press("g Enter");
    assert_eq!(h.app.objects.rows.len(), 5);
    h.press("Enter");
    assert_eq!(h.app.objects.rows.len(), 7);
}

#[test]
fn create_a_component_through_the_pickers() {
    let mut h = Harness::opened();
    h.press("a");
    assert!(matches!(
        h.app.overlay,
        Some(Overlay::TypePicker { selected: 0 })
    ));
    h.press("Enter");
    h.type_text("databa");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateObject { .. }));
    match request {
        Request::CreateObject { kind, props, .. } => {
            assert_eq!(kind, "component");
            assert!(props["componentId"].as_str().unwrap().contains("database"));
        }
        _ => unreachable!(),
    }
    let effects = h.reply(id, Ok(Answer::Created("1z-new".into())));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Request(_, Request::Content { .. })))
    );
}

#[test]
fn create_a_label_needs_no_component_id() {
    let mut h = Harness::opened();
    h.press("a j j Enter");
    let position = ObjectType::ALL
        .iter()
        .position(|t| *t == ObjectType::Label)
        .unwrap();
    assert_eq!(position, 2);
    h.take_request(|r| matches!(r, Request::CreateObject { kind, props, .. } if kind == "label" && props.is_empty()));
}

#[test]
fn delete_object_is_confirmed_and_removed_at_once() {
    let mut h = Harness::opened();
    h.press("d");
    match &h.app.overlay {
        Some(Overlay::Confirm { message, .. }) => assert!(message.contains("1a-web")),
        other => panic!("{other:?}"),
    }
    h.press("y");
    assert_eq!(h.app.objects.objects.len(), 3);
    h.take_request(|r| {
        r == &Request::DeleteObject {
            doc: DOC_A.into(),
            obj: "1a-web".into(),
        }
    });
}

#[test]
fn y_copies_the_id_and_capital_y_the_json() {
    let mut h = Harness::opened();
    assert_eq!(h.press("y"), vec![Effect::Copy("1a-web".into())]);
    match h.press("Y").as_slice() {
        [Effect::Copy(json)] => assert!(json.contains("generic.server")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn edit_mode_types_and_escape_returns_to_view_mode() {
    let mut h = Harness::opened();
    h.press("3");
    assert_eq!(h.app.editor.mode, Mode::View);
    h.press("i");
    assert_eq!(h.app.editor.mode, Mode::Edit);
    h.type_text("q1?");
    assert!(h.app.editor.is_dirty());
    assert!(h.app.overlay.is_none());
    assert!(h.app.editor.check.syntax.is_some());
    h.press("Esc");
    assert_eq!(h.app.editor.mode, Mode::View);
}

#[test]
fn syntax_errors_and_warnings_are_found_on_their_lines() {
    let mut h = Harness::opened();
    h.app.editor.set_text(
        "{\n  \"color\": \"red\",\n  \"position\": {\"x\": 1},\n  \"fontSize\": \"big\"\n}",
    );
    let lines: Vec<_> = h.app.editor.check.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![2, 3, 4]);
    h.app.editor.set_text("{\n  \"a\": 1,\n  \"b\" 2\n}");
    let syntax = h.app.editor.check.syntax.clone().unwrap();
    assert_eq!((syntax.line, syntax.column), (3, 7));
    h.press("C-s");
    assert!(h.app.last_error.as_ref().unwrap().contains("line 3"));
    assert!(h.app.overlay.is_none());
}

#[test]
fn save_shows_the_diff_rereads_and_sends_only_changed_props() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Back end");
    h.press("C-s");
    let Some(Overlay::SaveDiff(diff)) = &h.app.overlay else {
        panic!("{:?}", h.app.overlay)
    };
    assert_eq!(diff.changes.len(), 1);
    assert_eq!(diff.changes[0].key, "text");
    h.press("Enter");
    assert!(h.app.editor.saving);
    let (id, _) = h.take_request(is_get);
    h.reply(id, Ok(Answer::Object(content()["1c-title"].clone())));
    let (id, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Back end"})).unwrap()
        }
    );
    h.pending
        .retain(|(_, r)| !matches!(r, Request::Details { .. }));
    h.reply(id, Ok(Answer::Done));
    assert!(!h.app.editor.is_dirty());
    assert!(h.app.note.as_ref().unwrap().contains("saved 1 property"));
    assert!(h.pending.iter().any(|(_, r)| is_get(r)));
    // The selected document's details (last change, count) are read again.
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| r == &Request::Details { doc: DOC_A.into() })
    );
    let label = &h
        .app
        .objects
        .objects
        .iter()
        .find(|(id, _)| id == "1c-title")
        .unwrap()
        .1;
    assert_eq!(label.data["text"], "Back end");
}

#[test]
fn replacing_a_nested_value_is_noted() {
    let mut h = Harness::opened();
    h.press("3 i");
    let new = h.app.editor.text().replace("\"x\": 1", "\"x\": 5");
    h.app.editor.set_text(&new);
    h.press("C-s");
    let Some(Overlay::SaveDiff(diff)) = &h.app.overlay else {
        panic!()
    };
    assert!(diff.changes[0].replaces_nested());
}

#[test]
fn a_conflict_offers_overwrite_or_reload() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Mine");
    h.press("C-s Enter");
    let theirs = object(
        "label",
        json!({"text": "Theirs", "color": "#333333", "fontSize": 0.5}),
    );
    h.answer(is_get, Ok(Answer::Object(theirs.clone())));
    assert!(matches!(h.app.overlay, Some(Overlay::Conflict(_))));
    h.press("o");
    h.take_request(is_update);

    let mut h = Harness::opened();
    edit_label_text(&mut h, "Mine");
    h.press("C-s Enter");
    h.answer(is_get, Ok(Answer::Object(theirs)));
    h.press("r");
    assert!(!h.app.editor.is_dirty());
    assert!(h.app.editor.text().contains("Theirs"));
    assert!(!h.pending.iter().any(|(_, r)| is_update(r)));
}

#[test]
fn a_failed_save_keeps_the_buffer_and_says_why() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Kept");
    h.press("C-s Enter");
    h.answer(is_get, Ok(Answer::Object(content()["1c-title"].clone())));
    h.answer(
        is_update,
        Err(failure(
            Some(400),
            Some("VALIDATION_ERROR"),
            "color: not a colour",
        )),
    );
    assert!(h.app.editor.is_dirty());
    assert!(h.app.editor.text().contains("Kept"));
    assert!(h.app.last_error.as_ref().unwrap().contains("not a colour"));
    assert!(!h.app.editor.saving);
}

#[test]
fn u_undoes_the_last_save_through_the_update_route() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Back end");
    h.press("C-s Enter");
    h.answer(is_get, Ok(Answer::Object(content()["1c-title"].clone())));
    h.answer(is_update, Ok(Answer::Done));
    h.pending.clear();
    h.press("Esc u");
    let (id, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Front end"})).unwrap()
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(h.app.editor.last_save.is_none());
}

#[test]
fn leaving_an_object_with_unsaved_edits_asks_first() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Unsaved");
    h.press("Esc 2 k k");
    assert!(matches!(
        h.app.overlay,
        Some(Overlay::Confirm {
            action: ConfirmAction::SelectRow(_),
            ..
        })
    ));
    h.press("n");
    assert_eq!(h.app.editor.target().unwrap().obj, "1c-title");
    h.press("k y");
    assert_eq!(h.app.editor.target().unwrap().obj, "1d-line");
    assert!(!h.app.editor.is_dirty());
}

#[test]
fn quitting_with_unsaved_edits_asks() {
    let mut h = Harness::opened();
    assert_eq!(h.press("q"), vec![Effect::Quit]);
    edit_label_text(&mut h, "Unsaved");
    h.press("Esc");
    assert!(h.press("q").is_empty());
    assert!(matches!(
        h.app.overlay,
        Some(Overlay::Confirm {
            action: ConfirmAction::Quit,
            ..
        })
    ));
    assert_eq!(h.press("y"), vec![Effect::Quit]);
}

#[test]
fn ctrl_c_quits_from_an_overlay_and_a_second_one_answers_the_question() {
    let mut h = Harness::opened();
    h.press("L");
    assert!(h.app.overlay.is_some());
    assert_eq!(h.press("C-c"), vec![Effect::Quit]);
    edit_label_text(&mut h, "Unsaved");
    h.press("Esc ?");
    assert!(h.press("C-c").is_empty(), "unsaved edits: it asks first");
    assert!(matches!(
        h.app.overlay,
        Some(Overlay::Confirm {
            action: ConfirmAction::Quit,
            ..
        })
    ));
    assert_eq!(h.press("C-c"), vec![Effect::Quit]);
}

#[test]
fn external_editor_round_trip_and_invalid_result() {
    let mut h = Harness::opened();
    let effects = h.press("e");
    let [Effect::OpenEditor(text)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let edited = text.replace("web-1", "web-2");
    assert!(h.send(Msg::EditorDone(Ok(edited))).is_empty());
    assert!(h.app.editor.is_dirty());
    assert_eq!(h.app.focus, Pane::Props);

    // An invalid result the user changed reopens the editor with the error noted on top.
    h.press("e");
    let effects = h.send(Msg::EditorDone(Ok("{ broken".into())));
    let [Effect::OpenEditor(reopened)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(
        reopened.starts_with("// diagtui: not valid JSON: line 1"),
        "{reopened}"
    );
    assert!(reopened.ends_with("\n{ broken"), "{reopened}");
    assert!(h.app.last_error.as_ref().unwrap().contains("reopened"));

    // Saved again unchanged (note and all): it stays in the pane with the error shown.
    assert!(h.send(Msg::EditorDone(Ok(reopened.clone()))).is_empty());
    assert_eq!(h.app.editor.text(), "{ broken");
    assert!(h.app.editor.check.syntax.is_some());
    assert!(h.app.last_error.as_ref().unwrap().contains("fix it here"));

    // An emptied file gives up and keeps the buffer as it was.
    h.press("e");
    assert!(h.send(Msg::EditorDone(Ok("\n".into()))).is_empty());
    assert_eq!(h.app.editor.text(), "{ broken");

    h.send(Msg::EditorDone(Err("no editor".into())));
    assert!(h.app.last_error.as_ref().unwrap().contains("no editor"));
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Msg {
    Msg::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn the_mouse_selects_focuses_and_scrolls() {
    let mut h = Harness::opened();
    h.send(Msg::Resize(120, 30));
    h.press("1");
    // The objects pane starts at column 32 (27 % of 120); its rows start under the border:
    // the component heading, web, then db on screen row 3.
    h.send(mouse(MouseEventKind::Down(MouseButton::Left), 40, 3));
    assert_eq!(h.app.focus, Pane::Objects);
    assert_eq!(h.app.objects.selected_object().unwrap().0, "1b-db");
    // A click on the documents pane focuses it and selects the clicked document (row 3).
    h.send(mouse(MouseEventKind::Down(MouseButton::Left), 5, 3));
    assert_eq!(h.app.focus, Pane::Docs);
    assert_eq!(h.app.docs.selected_doc().unwrap().id, DOC_B);
    // The wheel moves the list under the pointer, three rows a notch, and does not focus.
    assert_eq!(h.app.objects.selected, 2);
    h.send(mouse(MouseEventKind::ScrollDown, 40, 10));
    assert_eq!(h.app.objects.selected, 5);
    h.send(mouse(MouseEventKind::ScrollUp, 40, 10));
    assert_eq!(h.app.objects.selected, 2);
    assert_eq!(h.app.focus, Pane::Docs);
}

#[test]
fn help_and_log_open_and_close() {
    let mut h = Harness::opened();
    h.press("?");
    assert!(matches!(h.app.overlay, Some(Overlay::Help(Pane::Objects))));
    h.press("x");
    assert!(h.app.overlay.is_none());
    h.press("L");
    assert!(matches!(h.app.overlay, Some(Overlay::Log { .. })));
    h.press("j Esc");
    assert!(h.app.overlay.is_none());
    assert!(h.app.log.iter().all(|e| e.status == Some(200)));
    assert!(
        h.app
            .log
            .iter()
            .any(|e| e.path == format!("/api/v1/doc/{DOC_A}/obj/all"))
    );
}

#[test]
fn tiny_and_resized_terminals_never_panic() {
    let mut h = Harness::opened();
    for (w, hgt) in [(40, 10), (1, 1), (2, 3), (200, 60), (41, 11)] {
        h.render(w, hgt);
    }
    h.press("?");
    h.render(40, 10);
}
