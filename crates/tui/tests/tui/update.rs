//! `App::update`: every action and its error paths, without a terminal, through the public
//! surface only: messages in; the requests made, the effects and the rendered screen out.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use diagtui_model::{Content, DocSummary};
use diagtui_tui::requests::liveness::Follow;
use diagtui_tui::{Answer, App, Effect, Msg, Request, Setup};
use serde_json::json;

use crate::harness::*;

fn is_update(r: &Request) -> bool {
    matches!(r, Request::UpdateObject { .. })
}

fn is_get(r: &Request) -> bool {
    matches!(r, Request::GetObject { .. })
}

/// The label's JSON with its text replaced.
fn label_json(text: &str) -> String {
    serde_json::to_string_pretty(&json!({"color": "#333333", "fontSize": 0.5, "text": text}))
        .unwrap()
}

/// Selects the label (the last row) and makes the properties pane hold `text` for it.
fn edit_label_text(h: &mut Harness, text: &str) {
    h.press("G");
    assert!(h.selected().contains("1c-title"), "{}", h.selected());
    h.edit_json(&label_json(text));
    assert!(h.shows("[VIEW] ● label 1c-title"), "{}", h.screen());
}

#[test]
fn start_up_asks_for_documents_folders_and_account() {
    let mut h = Harness::new();
    let requests: Vec<_> = h.pending.iter().map(|(_, r)| r.clone()).collect();
    assert_eq!(
        requests,
        vec![Request::ListDocs, Request::Folders, Request::WhoAmI]
    );
    assert_eq!(h.focused(), "Documents");
    assert!(h.shows("loading…"));
}

#[test]
fn loading_fills_list_grouped_by_folder_account_and_details() {
    let mut h = Harness::loaded();
    assert!(h.status().contains("me@example.com"));
    assert_eq!(h.selected(), "Network overview");
    let screen = h.screen();
    assert!(screen.contains("1 Documents (3)"), "{screen}");
    let order = [
        "▾ My diagrams (2)",
        "Network overview",
        "Production cluster",
        "▾ Shared with me (1)",
        "Shared plan",
    ];
    let at: Vec<usize> = order.iter().map(|t| screen.find(t).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{screen}");
    assert!(screen.contains("owner   me@example.com"), "{screen}");
}

#[test]
fn focus_keys_move_between_panes() {
    let mut h = Harness::loaded();
    for (keys, pane) in [
        ("Tab", "Objects"),
        ("Tab", "Properties"),
        ("Tab", "Documents"),
        ("BackTab", "Properties"),
        ("2", "Objects"),
        ("1", "Documents"),
        ("3", "Properties"),
    ] {
        h.press(keys);
        assert_eq!(h.focused(), pane, "after {keys}");
    }
}

#[test]
fn moving_stops_on_folder_headings_and_asks_for_details() {
    let mut h = Harness::loaded();
    h.press("j");
    assert_eq!(h.selected(), "Production cluster");
    h.press("j");
    assert_eq!(h.selected(), "▾ Shared with me (1)");
    h.press("j");
    assert_eq!(h.selected(), "Shared plan");
    assert!(h.asked(|r| r == &Request::Details { doc: DOC_C.into() }));
    h.press("k k k");
    assert_eq!(h.selected(), "Network overview");
}

#[test]
fn a_late_details_reply_for_another_document_is_dropped() {
    let mut h = Harness::loaded();
    h.press("j");
    let (old, _) = h.take_request(|r| r == &Request::Details { doc: DOC_B.into() });
    h.press("j j");
    h.answer_all();
    h.reply(old, Ok(Answer::Details(details(DOC_B))));
    // Document C's details show (no server count: it says how to count), not B's 12.
    assert!(h.shows("objects open it to count"));
    assert!(!h.shows("objects 12"));
}

#[test]
fn enter_opens_a_document_and_focuses_its_objects() {
    let mut h = Harness::loaded();
    h.press("Enter");
    assert_eq!(h.focused(), "Objects");
    assert!(h.asked(|r| r == &Request::Content { doc: DOC_A.into() }));
    h.answer_all();
    let screen = h.screen();
    assert!(
        screen.contains("2 Objects · Network overview (4)"),
        "{screen}"
    );
    let groups: Vec<usize> = ["▾ component (2)", "▾ line-group (1)", "▾ label (1)"]
        .iter()
        .map(|g| screen.find(g).unwrap())
        .collect();
    assert!(groups.windows(2).all(|w| w[0] < w[1]), "{screen}");
    assert!(
        screen.contains("3 Properties [VIEW] component 1a-web"),
        "{screen}"
    );
    assert!(
        screen.contains("● Network overview"),
        "the open document is marked"
    );
    assert!(
        screen.contains("objects 4"),
        "the count from the tree: {screen}"
    );
}

#[test]
fn content_of_a_document_left_behind_is_never_applied() {
    let mut h = Harness::loaded();
    h.press("Enter");
    let (stale, _) = h.take_request(|r| matches!(r, Request::Content { .. }));
    h.press("1 j Enter");
    h.reply(stale, Ok(objects(content())));
    let screen = h.screen();
    assert!(screen.contains("Production cluster (0)"), "{screen}");
    assert!(!screen.contains("generic.server"), "{screen}");
}

#[test]
fn document_filter_is_fuzzy_highlights_and_typing_never_triggers_shortcuts() {
    let mut h = Harness::loaded();
    h.press("/");
    h.type_text("prdq");
    assert!(h.shows("nothing matches the filter"));
    h.press("Backspace");
    assert_eq!(h.selected(), "Production cluster");
    assert!(!h.shows("Shared plan"), "filtered out");
    assert!(
        h.pending
            .iter()
            .all(|(_, r)| matches!(r, Request::Details { .. } | Request::Embeds { .. })),
        "typing asked for nothing but the details and embeds of the selection: {:?}",
        h.pending
    );
    // The matched letters are highlighted.
    let buffer = h.buffer(120, 30);
    let y = (0..30)
        .find(|y| row_text(&buffer, *y).contains("Production cluster"))
        .unwrap();
    let row = row_text(&buffer, y);
    let x = row[..row.find("Production").unwrap()].chars().count() as u16;
    let matched = buffer[(x, y)].fg;
    assert_ne!(matched, buffer[(x + 2, y)].fg, "P matched, o did not");
    h.press("Enter");
    assert_eq!(h.footer().split_whitespace().next(), Some("Enter"));
    assert!(h.shows("/prd"), "the kept filter shows");
    h.press("Esc");
    assert!(h.shows("Shared plan"));
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
    assert_eq!(h.selected(), "New plan");
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
    assert_eq!(h.selected(), "New plan");
    assert!(h.status().contains("create: \"New plan\" created"));
}

#[test]
fn rename_and_clone_prefill_and_send() {
    let mut h = Harness::opened();
    h.press("1 r");
    assert!(h.shows("Rename document"));
    assert!(h.shows("Network overview▏"), "prefilled: {}", h.screen());
    h.type_text("!");
    h.press("Enter");
    assert!(h.shows("Network overview!"));
    assert!(
        h.shows("2 Objects · Network overview! (4)"),
        "the open document is retitled too"
    );
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
    share_with_nobody(&mut h, "nobody@example.com", "no account has that e-mail");
    let status = h.status();
    assert!(
        status.contains("✗ no account has the e-mail nobody@example.com"),
        "{status}"
    );
}

#[test]
fn empty_and_delete_ask_first_naming_the_document() {
    let mut h = Harness::opened();
    // E reads the content first (kept to undo the empty), then asks with the count.
    h.press("1 E");
    assert!(
        !h.shows("Empty document"),
        "nothing is asked before the read"
    );
    h.answer(
        |r| r == &Request::Content { doc: DOC_A.into() },
        Ok(objects(content())),
    );
    h.expect(
        "Remove all 4 objects from \"Network overview\" (component 2 · line-group 1 · label 1)?",
    );
    h.expect("its content is kept for U in its objects to undo");
    h.press("n");
    assert!(!h.shows("Remove all"));
    assert!(!h.asked(|r| matches!(r, Request::EmptyDoc { .. })));
    h.press("E");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    h.press("y");
    assert!(h.shows("no objects (a adds one)"));
    h.answer(|r| matches!(r, Request::EmptyDoc { .. }), Ok(Answer::Done));
    assert!(
        h.status()
            .contains("emptied \"Network overview\": 4 objects removed (U in its objects undoes)"),
        "{}",
        h.status()
    );
    h.press("D");
    assert!(h.shows("Delete \"Network overview\" and all its objects?"));
    // Enter takes the highlighted answer, the safe one: nothing is deleted.
    h.press("Enter");
    assert!(!h.shows("Delete \"Network overview\""));
    assert!(!h.asked(|r| matches!(r, Request::DeleteDoc { .. })));
    h.press("D y");
    h.answer(
        |r| r == &Request::DeleteDoc { doc: DOC_A.into() },
        Ok(Answer::Done),
    );
    let screen = h.screen();
    assert!(!screen.contains("Network overview"), "{screen}");
    assert!(
        screen.contains("open a document"),
        "the tree closed: {screen}"
    );
    assert_eq!(
        h.selected(),
        "Production cluster",
        "the selection moves to the deleted document's neighbour"
    );
}

#[test]
fn emptying_an_empty_document_asks_nothing() {
    let mut h = Harness::opened();
    h.press("1 E");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(Content::new())),
    );
    assert!(!h.shows("Empty document"));
    assert!(
        h.status()
            .contains("\"Network overview\" has no objects: nothing to empty"),
        "{}",
        h.status()
    );
    assert!(!h.asked(|r| matches!(r, Request::EmptyDoc { .. })));
}

#[test]
fn a_failed_read_before_the_empty_empties_nothing() {
    let mut h = Harness::opened();
    h.press("1 E");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Err(failure(Some(503), None, "the server is busy")),
    );
    assert!(!h.shows("Empty document"));
    assert!(
        h.status().contains(
            "could not read the content of \"Network overview\" to keep it for undo, so nothing was emptied: the server is busy"
        ),
        "{}",
        h.status()
    );
    assert!(!h.asked(|r| matches!(r, Request::EmptyDoc { .. })));
}

#[test]
fn a_destructive_question_highlights_the_safe_answer_and_only_y_or_moving_confirms() {
    let is_delete = |r: &Request| matches!(r, Request::DeleteObject { .. });
    let mut h = Harness::opened();
    h.press("d");
    // The box and the footer show the same answers and keys; the safe one is highlighted.
    h.expect("y: delete it · ▸ n / Esc: no · Enter: highlighted · ←/→: move");
    assert_eq!(
        h.footer(),
        "y delete it  n / Esc no  Enter highlighted  ←/→ move"
    );
    // A stray Enter keeps the object.
    h.press("Enter");
    assert!(!h.shows("Delete object"));
    assert!(!h.asked(is_delete));
    assert!(h.shows("web-1"));
    // Keys that answer nothing leave the question open: only y, or moving to yes, deletes.
    h.press("d x");
    assert!(h.shows("Delete object"));
    assert!(!h.asked(is_delete));
    h.press("Left");
    h.expect("▸ y: delete it · n / Esc: no");
    h.press("Right");
    h.expect("y: delete it · ▸ n / Esc: no");
    // Tab and Shift-Tab move too, round the answers.
    h.press("Tab");
    h.expect("▸ y: delete it · n / Esc: no");
    h.press("BackTab BackTab Enter");
    assert!(h.asked(is_delete));
    assert!(!h.shows("web-1"));
}

#[test]
fn a_question_that_destroys_nothing_highlights_yes() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Back end");
    h.press("C-s");
    h.expect("▸ y: save (re-reads the object first) · n / Esc: keep editing");
    h.press("Enter");
    assert!(h.asked(is_get), "Enter saves: the re-read first");
}

#[test]
fn the_changed_on_server_diff_offers_the_keys_it_takes() {
    let mut h = Harness::opened();
    edit_label_text(&mut h, "Mine");
    let theirs = object(
        "label",
        json!({"text": "Theirs", "color": "#333333", "fontSize": 0.5}),
    );
    let mut changed = content();
    changed.insert("1c-title".into(), theirs);
    h.press("R");
    h.answer_all_with(changed);
    h.expect("changed on the server");
    h.press("3 D");
    h.expect("What your edit changes against the object's version on the server:");
    // One answer, the same keys in the box and in the footer (no yes that does nothing).
    h.expect("▸ n / Esc: close");
    assert_eq!(h.footer(), "n / Esc close");
    h.press("Enter");
    assert!(!h.shows("What your edit changes"));
}

#[test]
fn clearing_a_kept_filter_asks_for_the_details_of_the_new_selection() {
    let mut h = Harness::loaded();
    h.press("/");
    h.type_text("zzz");
    h.press("Enter");
    assert_eq!(h.selected(), "");
    h.pending.clear();
    h.press("Esc");
    assert_eq!(h.selected(), "Network overview");
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
    assert!(h.status().contains("✗ delete failed: no such document"));
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
    assert!(h.shows("Could not load documents:"));
    assert!(h.status().contains("(R retries)"));
    h.pending.clear();
    h.press("R");
    assert!(h.asked(|r| r == &Request::ListDocs));
    h.answer_all();
    assert!(!h.shows("Could not load documents:"));
    assert!(!h.status().contains('✗'), "{}", h.status());
}

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
