//! Folders in the documents pane: headings are rows that select and fold; folders are made,
//! renamed and deleted; documents (the selected one or the marked ones) move to a folder picked
//! from a list. `App::update` driven by keys and canned answers, and the pane's frame.

use diagtui_model::{FolderEntry, FolderList};
use diagtui_tui::{Answer, Request};
use insta::assert_snapshot;

use crate::harness::*;

const MINE: &str = "f0000000-0000-4000-8000-000000000001";
const ARCHIVE: &str = "f0000000-0000-4000-8000-000000000002";

/// The fixture's folders and an empty one, *Archive* (listed first: by title).
fn with_archive() -> FolderList {
    let mut list = folders();
    list.insert(
        ARCHIVE.into(),
        FolderEntry {
            title: "Archive".into(),
            docs: Default::default(),
        },
    );
    list
}

/// An app loaded with the fixture's documents and `folders`.
fn loaded_with(folders: FolderList) -> Harness {
    let mut h = Harness::new();
    h.answer(
        |r| matches!(r, Request::Folders),
        Ok(Answer::Folders(folders)),
    );
    h.answer_all();
    h
}

fn is_move(r: &Request) -> bool {
    matches!(r, Request::MoveDoc { .. })
}

#[test]
fn folder_headings_are_rows_that_fold_and_unfold() {
    let mut h = Harness::loaded();
    assert_eq!(h.selected(), "Network overview");
    h.press("k");
    assert_eq!(h.selected(), "▾ My diagrams (2)", "k stops on the heading");
    assert!(h.shows("holds   2 documents"), "{}", h.screen());
    h.press("h");
    assert_eq!(h.selected(), "▸ My diagrams (2)");
    assert!(!h.shows("Network overview"), "folded: {}", h.screen());
    h.press("j");
    assert_eq!(
        h.selected(),
        "▾ Shared with me (1)",
        "j stops on the next heading"
    );
    h.press("k l");
    assert_eq!(h.selected(), "▾ My diagrams (2)");
    assert!(h.shows("Production cluster"), "l unfolds");
    h.press("Enter");
    assert_eq!(
        h.selected(),
        "▸ My diagrams (2)",
        "Enter folds an open heading"
    );
    h.press("Enter");
    assert!(h.shows("Network overview"), "and unfolds a folded one");
    h.press("j j h");
    assert_eq!(
        h.selected(),
        "▸ My diagrams (2)",
        "h on a document folds its folder and selects the heading"
    );
    // A filter shows its matches in folded folders too.
    h.press("/");
    h.type_text("prod");
    assert!(h.shows("Production cluster"), "{}", h.screen());
}

#[test]
fn l_on_a_document_opens_it_and_enter_still_does() {
    let mut h = Harness::loaded();
    h.press("l");
    assert!(h.asked(|r| r == &Request::Content { doc: DOC_A.into() }));
    assert_eq!(h.focused(), "Objects");
}

#[test]
fn an_empty_folder_shows_and_n_on_its_heading_creates_the_document_there() {
    let mut h = loaded_with(with_archive());
    let screen = h.screen();
    let order = ["▾ Archive (0)", "▾ My diagrams (2)", "Network overview"];
    let at: Vec<usize> = order.iter().map(|t| screen.find(t).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{screen}");
    h.press("k k");
    assert_eq!(h.selected(), "▾ Archive (0)");
    assert!(h.shows("holds   0 documents"));
    h.press("n");
    assert!(
        h.shows("the document goes in \"Archive\""),
        "{}",
        h.screen()
    );
    h.type_text("Plan B");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        request,
        Request::CreateDoc {
            title: "Plan B".into(),
            folder: Some(ARCHIVE.into()),
        }
    );
    h.reply(id, Ok(Answer::Created("new-doc".into())));
    assert!(h.status().contains("\"Plan B\" created"), "{}", h.status());
    // On a document, n creates in that document's folder, as before.
    h.answer_all();
    assert_eq!(h.selected(), "Network overview");
    h.press("n");
    h.type_text("Next to it");
    h.press("Enter");
    let (_, request) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        request,
        Request::CreateDoc {
            title: "Next to it".into(),
            folder: Some(MINE.into()),
        }
    );
}

#[test]
fn n_under_shared_with_me_creates_in_the_first_folder() {
    let mut h = Harness::loaded();
    h.press("G k");
    assert_eq!(h.selected(), "▾ Shared with me (1)");
    h.press("n");
    assert!(h.shows("the document goes in your first folder"));
    h.type_text("Mine now");
    h.press("Enter");
    let (_, request) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        request,
        Request::CreateDoc {
            title: "Mine now".into(),
            folder: None,
        }
    );
}

#[test]
fn capital_n_creates_a_folder_which_shows_empty_and_selected() {
    let mut h = Harness::loaded();
    h.press("N");
    assert!(h.shows("New folder"), "{}", h.screen());
    h.type_text("Ideas");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateFolder { .. }));
    assert_eq!(
        request,
        Request::CreateFolder {
            title: "Ideas".into()
        }
    );
    h.reply(id, Ok(Answer::Created(ARCHIVE.into())));
    assert_eq!(h.selected(), "▾ Ideas (0)");
    assert!(
        h.status().contains("folder \"Ideas\" created"),
        "{}",
        h.status()
    );
    assert!(
        h.asked(|r| matches!(r, Request::Folders)),
        "checked against the server"
    );
}

#[test]
fn r_on_a_heading_renames_the_folder() {
    let mut h = Harness::loaded();
    h.press("k r");
    assert!(h.shows("Rename folder"), "{}", h.screen());
    h.press("C-u");
    h.type_text("Work");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::RenameFolder { .. }));
    assert_eq!(
        request,
        Request::RenameFolder {
            folder: MINE.into(),
            title: "Work".into(),
        }
    );
    assert_eq!(h.selected(), "▾ Work (2)", "shown at once");
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status().contains("folder renamed to \"Work\""),
        "{}",
        h.status()
    );
    // Shared with me is no folder of the account's.
    h.press("G k r");
    assert!(h.status().contains("is not a folder"), "{}", h.status());
    assert!(!h.shows("Rename folder"));
}

#[test]
fn deleting_a_folder_says_how_many_documents_go_and_enter_keeps_it() {
    let mut h = loaded_with(with_archive());
    h.press("Enter");
    h.answer_all();
    h.press("1 k");
    assert_eq!(h.selected(), "▾ My diagrams (2)");
    h.press("D");
    let question = h.overlay_text("Delete folder");
    assert!(
        question.contains(
            "Delete the folder \"My diagrams\" and the 2 documents in it (\"Network overview\", \"Production cluster\")"
        ),
        "{question}"
    );
    assert!(
        h.shows("▸ n / Esc: keep it"),
        "the safe answer: {}",
        h.screen()
    );
    h.press("Enter");
    assert!(!h.asked(|r| matches!(r, Request::DeleteFolder { .. })));
    assert!(h.shows("Network overview"));
    h.press("D y");
    let (id, request) = h.take_request(|r| matches!(r, Request::DeleteFolder { .. }));
    assert_eq!(
        request,
        Request::DeleteFolder {
            folder: MINE.into()
        }
    );
    let screen = h.screen();
    assert!(
        !screen.contains("My diagrams") && !screen.contains("Network overview"),
        "{screen}"
    );
    assert!(
        !screen.contains("web-1"),
        "the open document closed: {screen}"
    );
    h.reply(id, Ok(Answer::Done));
    assert!(h.status().contains("folder deleted"), "{}", h.status());
}

#[test]
fn the_last_folder_is_not_offered_for_deletion() {
    let mut h = Harness::loaded();
    h.press("k D");
    assert!(h.status().contains("is your last folder"), "{}", h.status());
    assert!(h.overlay_text("Delete folder").is_empty());
}

#[test]
fn m_moves_the_selected_document_to_a_folder_picked_fuzzily() {
    let mut h = loaded_with(with_archive());
    h.press("M");
    let picker = h.overlay_text("Move to folder");
    assert!(picker.contains("moving \"Network overview\""), "{picker}");
    assert!(picker.contains("Archive"), "{picker}");
    assert!(
        !picker.contains("My diagrams"),
        "its own folder is not offered: {picker}"
    );
    h.type_text("arc");
    h.press("Enter");
    let question = h.overlay_text("Move to folder");
    assert!(
        question.contains("Move \"Network overview\" to the folder \"Archive\"?"),
        "{question}"
    );
    h.press("y");
    let (id, request) = h.take_request(is_move);
    assert_eq!(
        request,
        Request::MoveDoc {
            doc: DOC_A.into(),
            folder: ARCHIVE.into(),
        }
    );
    assert!(h.shows("▾ Archive (1)"), "shown at once: {}", h.screen());
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("moved \"Network overview\" to \"Archive\" (u moves it back)"),
        "{}",
        h.status()
    );
    assert!(h.asked(|r| matches!(r, Request::Folders)), "read again");
}

#[test]
fn marked_documents_move_together_after_a_question_whose_safe_answer_is_highlighted() {
    let mut h = loaded_with(with_archive());
    h.press("Space Space");
    assert!(h.shows("1 Documents (3) · 2 marked"), "{}", h.screen());
    assert!(h.shows("◆ Network overview"));
    h.press("M Enter");
    let question = h.overlay_text("Move to folder");
    assert!(
        question.contains(
            "Move 2 documents (\"Network overview\", \"Production cluster\") to the folder \"Archive\"?"
        ),
        "{question}"
    );
    assert!(
        h.shows("▸ n / Esc: cancel; nothing moves"),
        "{}",
        h.screen()
    );
    h.press("Enter");
    assert!(!h.asked(is_move), "the safe answer moves nothing");
    h.press("M Enter y");
    let (first, _) = h.take_request(is_move);
    let (second, request) = h.take_request(is_move);
    assert_eq!(
        request,
        Request::MoveDoc {
            doc: DOC_B.into(),
            folder: ARCHIVE.into(),
        }
    );
    assert!(!h.shows("marked"), "the marks went with the move");
    h.reply(first, Ok(Answer::Done));
    h.reply(
        second,
        Err(failure(
            Some(403),
            Some("FORBIDDEN"),
            "only the owner can move a document",
        )),
    );
    assert!(
        h.status()
            .contains("moved \"Network overview\" to \"Archive\""),
        "{}",
        h.status()
    );
    h.press("L");
    assert!(
        h.shows("could not move \"Production cluster\""),
        "{}",
        h.screen()
    );
}

#[test]
fn a_shared_document_cannot_be_moved_and_esc_clears_marks_before_the_filter() {
    let mut h = loaded_with(with_archive());
    h.press("G");
    assert_eq!(h.selected(), "Shared plan");
    h.press("M");
    assert!(
        h.status().contains("only a document's owner can move it"),
        "{}",
        h.status()
    );
    h.press("g j j Space");
    assert!(h.shows("1 marked"));
    h.press("/");
    h.type_text("net");
    h.press("Enter Esc");
    assert!(!h.shows("marked"), "Esc cleared the marks");
    assert!(h.shows("/net"), "and kept the filter: {}", h.screen());
    h.press("Esc");
    assert!(h.shows("Shared plan"), "the second Esc cleared the filter");
}

#[test]
fn documents_pane_with_a_folded_and_an_empty_folder_at_80_by_24() {
    let mut list = with_archive();
    list.insert(
        "f0000000-0000-4000-8000-000000000003".into(),
        FolderEntry {
            title: "Old stuff".into(),
            docs: [(DOC_B.to_string(), "Production cluster".to_string())]
                .into_iter()
                .collect(),
        },
    );
    if let Some(mine) = list.get_mut(MINE) {
        mine.docs.remove(DOC_B);
    }
    let mut h = loaded_with(list);
    h.press("G k k h");
    assert_eq!(h.selected(), "▸ Old stuff (1)");
    assert_snapshot!(h.render(80, 24));
}
