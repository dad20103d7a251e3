//! `App::update` (continued from `update.rs`): the objects and properties panes, saving and
//! its conflicts, undo, leaving with unsaved edits, the mouse, help and log, resizing, and
//! following the account's changes.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use diagtui_tui::requests::liveness::Follow;
use diagtui_tui::{Answer, App, Effect, Msg, Request, Setup};
use serde_json::json;

use crate::harness::*;
use crate::update::{edit_label_text, is_get, is_update};

#[test]
fn object_filter_matches_text_type_id_and_meta() {
    let mut h = Harness::opened();
    h.press("/");
    h.type_text("env=dev");
    assert!(h.shows("▾ component (1/2)"));
    assert!(!h.shows("web-1"));
    assert!(h.selected().contains("1b-db"));
    for (filter, expected) in [
        ("front", "1c-title"),
        ("line-group", "1d-line"),
        ("1a-", "1a-web"),
    ] {
        h.press("Esc /");
        h.type_text(filter);
        assert!(
            h.selected().contains(expected),
            "{filter}: {}",
            h.selected()
        );
    }
}

#[test]
fn groups_fold_and_unfold() {
    let mut h = Harness::opened();
    h.press("g Enter");
    assert!(h.shows("▸ component (2)"));
    assert!(
        !h.shows("web-1 [status=up env=prod] generic.server"),
        "the tree hides the component rows"
    );
    h.press("Enter");
    assert!(h.shows("▾ component (2)"));
    assert!(h.shows("web-1 [status=up env=prod] generic.server"));
    h.press("j h");
    assert!(
        h.shows("▸ component (2)"),
        "h folds the selected object's type"
    );
    assert_eq!(h.selected(), "▸ component (2)");
    h.press("l");
    assert!(h.shows("web-1 [status=up env=prod] generic.server"));
}

#[test]
fn create_a_component_through_the_pickers() {
    let mut h = Harness::opened();
    h.press("a");
    assert!(h.shows("New object: type"));
    assert_eq!(h.selected(), "› component");
    h.press("Enter");
    h.type_text("databa");
    assert!(h.selected().contains("database"), "{}", h.selected());
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateObject { .. }));
    let component_id = match request {
        Request::CreateObject { kind, props, .. } => {
            assert_eq!(kind, "component");
            let component_id = props["componentId"].as_str().unwrap().to_owned();
            assert!(component_id.contains("database"));
            component_id
        }
        _ => unreachable!(),
    };
    let effects = h.reply(id, Ok(Answer::Created("1z-new".into())));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Request(_, Request::Content { .. })))
    );
    // Named as the tree names it: the componentId's last part, readable (no name yet).
    let readable = component_id.rsplit('.').next().unwrap().replace('-', " ");
    let status = h.status();
    assert!(
        status.contains(&format!("created component {readable}")),
        "{status}"
    );
}

#[test]
fn a_created_object_is_selected_once_the_reload_has_it() {
    let mut h = Harness::opened();
    h.press("a j j Enter");
    let (id, _) =
        h.take_request(|r| matches!(r, Request::CreateObject { kind, .. } if kind == "label"));
    h.reply(id, Ok(Answer::Created("1e-note".into())));
    let mut more = content();
    more.insert("1e-note".into(), object("label", json!({"text": "Note"})));
    h.answer_all_with(more);
    assert!(h.selected().contains("1e-note"), "{}", h.selected());
    assert!(h.shows("label 1e-note"));
}

#[test]
fn create_a_label_needs_no_component_id() {
    let mut h = Harness::opened();
    h.press("a j j");
    assert_eq!(h.selected(), "› label");
    h.press("Enter");
    h.take_request(|r| matches!(r, Request::CreateObject { kind, props, .. } if kind == "label" && props.is_empty()));
}

#[test]
fn delete_object_is_confirmed_and_removed_at_once() {
    let mut h = Harness::opened();
    h.press("d");
    assert!(h.shows("Delete component web-1 (1a-web) from \"Network overview\"?"));
    h.press("y");
    assert!(h.shows("Network overview (3)"));
    assert!(!h.shows("web-1"));
    assert!(
        h.selected().contains("1b-db"),
        "the next row moves up into the selection"
    );
    h.take_request(
        |r| matches!(r, Request::DeleteObject { doc, obj, .. } if doc == DOC_A && obj == "1a-web"),
    );
}

#[test]
fn y_copies_the_id_and_capital_y_the_json() {
    let mut h = Harness::opened();
    assert_eq!(h.press("y"), vec![Effect::Copy("1a-web".into())]);
    match h.press("Y").as_slice() {
        [Effect::Copy(json)] => assert!(json.contains("generic.server")),
        other => panic!("{other:?}"),
    }
    assert!(h.status().contains("copied the JSON of web-1"));
}

#[test]
fn edit_mode_types_and_escape_returns_to_view_mode() {
    let mut h = Harness::opened();
    h.press("3");
    assert!(h.shows("[VIEW] component 1a-web"));
    h.press("i");
    assert!(h.shows("[EDIT] component 1a-web"));
    assert_eq!(h.footer().split_whitespace().next(), Some("Ctrl-S"));
    h.type_text("q1?");
    assert!(h.shows("[EDIT] ● component 1a-web"), "unsaved");
    assert!(!h.shows("Quit and lose"), "q typed rather than quitting");
    assert!(
        h.shows("✗ line 1 col"),
        "the check as you type: {}",
        h.screen()
    );
    h.press("Esc");
    assert!(h.shows("[VIEW] ● component 1a-web"));
}

#[test]
fn syntax_errors_and_warnings_are_found_on_their_lines() {
    let mut h = Harness::opened();
    h.edit_json(
        "{\n  \"color\": \"red\",\n  \"position\": {\"x\": 1},\n  \"fontSize\": \"big\"\n}",
    );
    let screen = h.screen();
    for line in [
        "! line 2: color",
        "! line 3: position",
        "! line 4: fontSize",
    ] {
        assert!(screen.contains(line), "{line}: {screen}");
    }
    h.edit_json("{\n  \"a\": 1,\n  \"b\" 2\n}");
    assert!(h.shows("✗ line 3 col 7"));
    h.press("C-s");
    assert!(h.status().contains("cannot save: line 3"));
    assert!(!h.shows(" Save "), "no diff is shown");
}

#[test]
fn save_shows_the_diff_rereads_and_sends_only_changed_props() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Back end");
    h.press("C-s");
    let screen = h.screen();
    assert!(
        screen.contains("What the save changes (only the changed top-level properties are sent):"),
        "{screen}"
    );
    assert!(
        screen.contains("~ text: \"Front end\" → \"Back end\""),
        "{screen}"
    );
    assert!(!screen.contains("~ color"), "{screen}");
    h.press("Enter");
    assert!(h.shows("saving…"));
    let (id, _) = h.take_request(is_get);
    h.reply(id, Ok(Answer::Object(content()["1c-title"].clone().into())));
    let (id, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Back end"})).unwrap(),
            if_match: None,
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(h.shows("[VIEW] label 1c-title"), "saved: no longer unsaved");
    assert!(h.status().contains("saved 1 property (u undoes)"));
    assert!(h.asked(is_get), "the object is read again");
    // The selected document's details (last change, count) are read again.
    assert!(h.asked(|r| r == &Request::Details { doc: DOC_A.into() }));
    assert!(h.shows("\"Back end\""), "the tree shows the saved text");
}

#[test]
fn replacing_a_nested_value_is_noted() {
    let mut h = Harness::opened();
    let web = h.json().replace("\"x\": 1", "\"x\": 5");
    h.edit_json(&web);
    h.press("C-s");
    let screen = h.screen();
    assert!(screen.contains("~ position.x: 1 → 5"), "{screen}");
    assert!(
        screen
            .contains("note: position is sent whole (an update merges top-level properties only)"),
        "{screen}"
    );
}

/// The label edited to "Mine" and saved while the server holds "Theirs": the conflict asked.
fn in_conflict() -> Harness {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Mine");
    h.press("C-s Enter");
    let theirs = object(
        "label",
        json!({"text": "Theirs", "color": "#333333", "fontSize": 0.5}),
    );
    h.answer(is_get, Ok(Answer::Object(theirs.into())));
    h
}

#[test]
fn a_conflict_offers_overwrite_or_reload() {
    let mut h = in_conflict();
    assert!(h.shows("This object changed on the server since you opened it."));
    assert!(h.shows("o: overwrite with your edit"));
    assert!(h.shows("r: reload it and lose your"));
    h.press("o");
    h.take_request(is_update);

    let mut h = in_conflict();
    h.press("r");
    assert!(h.shows("[VIEW] label 1c-title"), "not unsaved any more");
    assert!(h.json().contains("Theirs"));
    assert!(!h.asked(is_update));
}

#[test]
fn enter_on_a_save_conflict_cancels_the_save_and_keeps_the_edit() {
    let mut h = in_conflict();
    let asked = h.overlay_text("Changed on the server");
    assert!(
        asked.contains("r: reload it and lose your edit · ▸ Esc: cancel the save, keep editing"),
        "{asked}"
    );
    h.press("Enter");
    assert!(!h.asked(is_update));
    assert!(h.shows("[VIEW] ● label 1c-title"), "the edit is kept");
    assert!(h.status().contains("save cancelled; the edit is kept"));
}

#[test]
fn a_failed_save_keeps_the_buffer_and_says_why() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Kept");
    h.press("C-s Enter");
    h.answer(
        is_get,
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    h.answer(
        is_update,
        Err(failure(
            Some(400),
            Some("VALIDATION_ERROR"),
            "color: not a colour",
        )),
    );
    assert!(
        h.status()
            .contains("save failed, your edit is kept: color: not a colour")
    );
    assert!(
        h.shows("[VIEW] ● label 1c-title"),
        "still unsaved, not saving"
    );
    assert!(!h.shows("saving…"));
    assert!(h.json().contains("Kept"));
}

#[test]
fn u_shows_the_undo_checks_the_server_then_puts_the_old_value_back() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Back end");
    h.press("C-s Enter");
    h.answer(
        is_get,
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    h.answer(is_update, Ok(Answer::Done));
    h.pending.clear();
    h.press("u");
    h.no_history();
    assert!(
        h.status()
            .contains("this server keeps no history of the documents: undo takes back this session's writes only"),
        "said once: {}",
        h.status()
    );
    let screen = h.screen();
    assert!(
        screen.contains("Undo the save (write 1) of label Back end"),
        "{screen}"
    );
    assert!(
        screen.contains("~ text: \"Back end\" → \"Front end\""),
        "{screen}"
    );
    assert!(!h.asked(is_update), "nothing is sent before yes");
    h.press("y");
    // Like a save, it re-reads the object first: it still holds what the save wrote.
    let saved = object(
        "label",
        json!({"text": "Back end", "color": "#333333", "fontSize": 0.5}),
    );
    h.answer(is_get, Ok(Answer::Object(saved.into())));
    let (id, request) = h.take_request(is_update);
    assert_eq!(
        request,
        Request::UpdateObject {
            doc: DOC_A.into(),
            obj: "1c-title".into(),
            props: serde_json::from_value(json!({"text": "Front end"})).unwrap(),
            if_match: None,
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(h.status().contains("undid the save of Back end"));
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
    h.press("u");
    assert!(h.status().contains("nothing to undo for Back end"));
}

#[test]
fn leaving_an_object_with_unsaved_edits_asks_first() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Unsaved");
    h.press("2 k");
    assert!(
        !h.shows("Unsaved edits"),
        "a type heading leaves the edit in place"
    );
    h.press("k");
    assert!(h.shows("The properties pane holds unsaved edits of label Front end. Drop them?"));
    h.press("n");
    assert!(h.shows("[VIEW] ● label 1c-title"));
    h.press("k y");
    assert!(h.shows("[VIEW] line-group 1d-line"), "{}", h.screen());
}

#[test]
fn quitting_with_unsaved_edits_asks() {
    let mut h = Harness::opened();
    assert_eq!(h.press("q"), vec![Effect::Quit]);
    edit_label_text(&mut h, "Unsaved");
    assert!(h.press("q").is_empty());
    assert!(h.shows("Quit and lose the unsaved edits in the properties pane?"));
    assert_eq!(h.press("y"), vec![Effect::Quit]);
}

#[test]
fn ctrl_c_quits_from_an_overlay_and_a_second_one_answers_the_question() {
    let mut h = Harness::opened();
    h.press("L");
    assert!(h.shows("Request log"));
    assert_eq!(h.press("C-c"), vec![Effect::Quit]);
    edit_label_text(&mut h, "Unsaved");
    h.press("?");
    assert!(h.press("C-c").is_empty(), "unsaved edits: it asks first");
    assert!(h.shows("Quit and lose the unsaved edits"));
    assert!(!h.shows("╭ Keys "), "the help closed");
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
    assert!(h.shows("[VIEW] ● component 1a-web"));
    assert_eq!(h.focused(), "Properties");

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
    assert!(h.status().contains("reopened"));

    // Saved again unchanged (note and all): it stays in the pane with the error shown.
    assert!(h.send(Msg::EditorDone(Ok(reopened.clone()))).is_empty());
    assert_eq!(h.json(), "{ broken");
    assert!(h.shows("✗ line 1 col"));
    assert!(h.status().contains("fix it here or press e to reopen"));

    // An emptied file gives up and keeps the buffer as it was.
    h.press("e");
    assert!(h.send(Msg::EditorDone(Ok("\n".into()))).is_empty());
    assert_eq!(h.json(), "{ broken");

    h.send(Msg::EditorDone(Err("no editor".into())));
    assert!(h.status().contains("could not run the editor: no editor"));
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
    h.press("1");
    // The documents are focused, so they are 27 % wide and the objects start at column 32;
    // their rows start under the border: the component heading, web, then db on screen row 3.
    h.send(Msg::Resize(120, 30));
    h.send(mouse(MouseEventKind::Down(MouseButton::Left), 40, 3));
    assert_eq!(h.focused(), "Objects");
    assert!(h.selected().contains("1b-db"));
    // Now the documents are narrowed to 18 columns; a click there focuses them and selects
    // the clicked document (row 3).
    h.send(Msg::Resize(120, 30));
    h.send(mouse(MouseEventKind::Down(MouseButton::Left), 5, 3));
    assert_eq!(h.focused(), "Documents");
    assert_eq!(h.selected(), "Production cluster");
    // The wheel moves the list under the pointer, three rows a notch, and does not focus.
    h.send(Msg::Resize(120, 30));
    h.send(mouse(MouseEventKind::ScrollDown, 40, 10));
    assert_eq!(h.focused(), "Documents");
    h.press("2");
    assert_eq!(h.selected(), "▾ label (1)");
    h.press("1");
    h.send(Msg::Resize(120, 30));
    h.send(mouse(MouseEventKind::ScrollUp, 40, 10));
    h.press("2");
    assert!(h.selected().contains("1b-db"), "{}", h.selected());
}

#[test]
fn help_and_log_open_and_close() {
    let mut h = Harness::opened();
    h.press("?");
    let screen = h.screen();
    assert!(screen.contains("Objects pane [keys.objects]"), "{screen}");
    assert!(screen.contains("In the panes [keys.global]"), "{screen}");
    assert!(screen.contains("delete the object, or every marked one"));
    h.press("x");
    assert!(!h.shows("[keys.objects]"));
    h.press("L");
    assert!(h.shows("Request log"));
    h.press("j Esc");
    assert!(!h.shows("Request log"));
    h.press("L");
    let screen = h.screen();
    let answered = screen.lines().filter(|l| l.contains(" 200 ")).count();
    assert_eq!(
        answered,
        h.sent.len(),
        "every request answered 200: {screen}"
    );
    assert!(screen.contains(&format!("/api/v1/doc/{DOC_A}/obj/all")));
}

#[test]
fn tiny_and_resized_terminals_never_panic() {
    let mut h = Harness::opened();
    for (w, hgt) in [(40, 10), (1, 1), (2, 3), (200, 60), (41, 11)] {
        h.render(w, hgt);
    }
    h.press("?");
    h.render(40, 10);
    h.press("Esc z");
    h.render(1, 1);
    h.render(80, 24);
}

#[test]
fn the_app_follows_the_accounts_changes_from_the_start_and_the_open_documents() {
    let mut app = App::new(Setup::new("local /data/diagtui"));
    let effects = app.start();
    assert!(
        effects.contains(&Effect::Follow(Follow::Account)),
        "{effects:?}"
    );
    let mut h = Harness::loaded();
    let effects = h.press("Enter");
    assert!(
        effects.contains(&Effect::Follow(Follow::Doc(Some(DOC_A.into())))),
        "{effects:?}"
    );
}

#[test]
fn esc_while_a_document_opens_cancels_the_read_and_its_late_answer_is_dropped() {
    let mut h = Harness::loaded();
    h.press("Enter");
    assert!(h.shows("loading… (Esc stops)"), "{}", h.screen());
    let (read, _) = h.take_request(|r| matches!(r, Request::Content { .. }));
    // Keys still work meanwhile: the tree is not there yet, so a move does nothing.
    h.press("j");
    let effects = h.press("Esc");
    assert!(
        effects.contains(&Effect::Cancel(read)),
        "the worker is told to drop the read: {effects:?}"
    );
    assert!(
        effects.contains(&Effect::Follow(Follow::Doc(None))),
        "nor is it followed any longer: {effects:?}"
    );
    let screen = h.screen();
    assert!(screen.contains("stopped opening"), "{screen}");
    assert!(screen.contains("open a document"), "{screen}");
    // The answer, had it been on its way already, changes nothing.
    h.reply(read, Ok(objects(content())));
    let screen = h.screen();
    assert!(!screen.contains("generic.server"), "{screen}");
    assert!(screen.contains("open a document"), "{screen}");
}
