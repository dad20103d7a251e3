//! `App::update`: every action and its error paths, without a terminal, through the public
//! surface only: messages in; the requests made, the effects and the rendered screen out. Here
//! start-up, the documents pane and the questions; the objects and properties panes, undo and
//! the app's own keys in `update_objects.rs`.

use diagtui_model::{Content, DocSummary};
use diagtui_tui::{Answer, Effect, Request};
use serde_json::json;

use crate::harness::*;

pub(crate) fn is_update(r: &Request) -> bool {
    matches!(r, Request::UpdateObject { .. })
}

pub(crate) fn is_get(r: &Request) -> bool {
    matches!(r, Request::GetObject { .. })
}

/// The label's JSON with its text replaced.
fn label_json(text: &str) -> String {
    serde_json::to_string_pretty(&json!({"color": "#333333", "fontSize": 0.5, "text": text}))
        .unwrap()
}

/// Selects the label (the last row) and makes the properties pane hold `text` for it.
pub(crate) fn edit_label_text(h: &mut Harness, text: &str) {
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
