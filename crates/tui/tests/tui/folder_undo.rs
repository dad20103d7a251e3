//! Folder writes are undone like other writes: `u` in the documents pane undoes the newest
//! (asks first), `U` lists them. A new folder is deleted only while it is empty (the folders
//! read first), a rename is renamed back, a deleted folder is made again (the question names
//! the documents that cannot come back), documents moved go back where they were. `App::update`
//! driven by keys and canned answers.

use diagtui_model::{FolderEntry, FolderList};
use diagtui_tui::{Answer, Request};

use crate::harness::*;

const MINE: &str = "f0000000-0000-4000-8000-000000000001";
const IDEAS: &str = "f0000000-0000-4000-8000-000000000009";

/// The fixture's folders and `Ideas`, holding `docs` (id, title).
fn with_ideas(docs: &[(&str, &str)]) -> FolderList {
    let mut list = folders();
    list.insert(
        IDEAS.into(),
        FolderEntry {
            title: "Ideas".into(),
            docs: docs
                .iter()
                .map(|(id, title)| (id.to_string(), title.to_string()))
                .collect(),
        },
    );
    list
}

/// Answers the reads the documents pane sends after a write (the lists, the details), the
/// folders with `folders`.
fn reread(h: &mut Harness, folders: FolderList) {
    if h.asked(|r| matches!(r, Request::Folders)) {
        h.answer(
            |r| matches!(r, Request::Folders),
            Ok(Answer::Folders(folders)),
        );
    }
    h.answer_all();
}

/// `N Ideas`, answered; then `r` on it renamed to `Notes`, answered.
fn created_and_renamed() -> Harness {
    let mut h = Harness::loaded();
    h.press("N");
    h.type_text("Ideas");
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::CreateFolder { .. }),
        Ok(Answer::Created(IDEAS.into())),
    );
    reread(&mut h, with_ideas(&[]));
    assert_eq!(h.selected(), "▾ Ideas (0)");
    h.press("r C-u");
    h.type_text("Notes");
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::RenameFolder { .. }),
        Ok(Answer::Done),
    );
    let mut renamed = with_ideas(&[]);
    renamed.get_mut(IDEAS).unwrap().title = "Notes".into();
    reread(&mut h, renamed);
    h
}

#[test]
fn u_undoes_a_rename_then_the_new_folder_and_capital_u_lists_them() {
    let mut h = created_and_renamed();
    h.press("U");
    let list = h.overlay_text("Write history");
    assert!(
        list.contains("The folder writes of this session, newest first:"),
        "{list}"
    );
    assert!(list.contains("folder rename"), "{list}");
    assert!(list.contains("\"Ideas\" → \"Notes\""), "{list}");
    assert!(list.contains("new folder"), "{list}");
    h.press("Esc");

    // u: the rename first, put back after a question.
    h.press("u");
    let asked = h.overlay_text("Undo the folder rename");
    assert!(
        asked.contains("Rename the folder \"Notes\" back to \"Ideas\"?"),
        "{asked}"
    );
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::RenameFolder { .. }));
    assert_eq!(
        request,
        Request::RenameFolder {
            folder: IDEAS.into(),
            title: "Ideas".into(),
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("renamed the folder \"Notes\" back to \"Ideas\""),
        "{}",
        h.status()
    );
    reread(&mut h, with_ideas(&[]));

    // u again: the new folder, deleted once the folders read show it empty.
    h.press("u");
    let asked = h.overlay_text("Undo the new folder");
    assert!(asked.contains("only if it is still empty"), "{asked}");
    h.press("y");
    assert!(!h.asked(|r| matches!(r, Request::DeleteFolder { .. })));
    h.answer(
        |r| matches!(r, Request::Folders),
        Ok(Answer::Folders(with_ideas(&[]))),
    );
    let (id, request) = h.take_request(|r| matches!(r, Request::DeleteFolder { .. }));
    assert_eq!(
        request,
        Request::DeleteFolder {
            folder: IDEAS.into()
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("undid the new folder: \"Ideas\" deleted"),
        "{}",
        h.status()
    );
    reread(&mut h, folders());
    assert!(!h.shows("▾ Ideas"), "{}", h.screen());

    // Both marked undone; nothing left for u.
    h.press("U");
    let list = h.overlay_text("Write history");
    assert_eq!(list.matches("(undone)").count(), 2, "{list}");
    h.press("Esc u");
    assert!(h.status().contains("nothing to undo"), "{}", h.status());
}

#[test]
fn a_new_folder_that_now_holds_documents_is_not_deleted_by_its_undo() {
    let mut h = created_and_renamed();
    h.press("u y");
    h.answer(
        |r| matches!(r, Request::RenameFolder { .. }),
        Ok(Answer::Done),
    );
    reread(&mut h, with_ideas(&[]));
    h.press("u y");
    h.answer(
        |r| matches!(r, Request::Folders),
        Ok(Answer::Folders(with_ideas(&[("d9", "Plan B")]))),
    );
    assert!(!h.asked(|r| matches!(r, Request::DeleteFolder { .. })));
    assert!(
        h.status()
            .contains("the folder \"Ideas\" now holds 1 document: deleting it would delete them too; nothing was done"),
        "{}",
        h.status()
    );
}

#[test]
fn a_deleted_folder_is_made_again_and_the_question_names_the_documents_lost() {
    let mut h = Harness::loaded();
    h.answer_all();
    // A second folder so that My diagrams may go.
    h.press("R");
    reread(&mut h, with_ideas(&[]));
    h.press("g");
    assert_eq!(h.selected(), "▾ Ideas (0)");
    h.press("j");
    assert_eq!(h.selected(), "▾ My diagrams (2)", "{}", h.screen());
    h.press("D y");
    h.answer(
        |r| matches!(r, Request::DeleteFolder { .. }),
        Ok(Answer::Done),
    );
    let mut left = with_ideas(&[]);
    left.remove(MINE);
    reread(&mut h, left);
    h.press("u");
    let asked = h.overlay_text("Undo the folder delete");
    assert!(
        asked.contains("Make the folder \"My diagrams\" again (a new folder: its id changes)?"),
        "{asked}"
    );
    assert!(
        asked.contains("The 2 documents deleted with it (\"Network overview\", \"Production cluster\") cannot come back"),
        "{asked}"
    );
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateFolder { .. }));
    assert_eq!(
        request,
        Request::CreateFolder {
            title: "My diagrams".into()
        }
    );
    h.reply(id, Ok(Answer::Created("f-new".into())));
    assert!(
        h.status().contains(
            "made the folder \"My diagrams\" again (2 documents deleted with it cannot come back)"
        ),
        "{}",
        h.status()
    );
}

#[test]
fn documents_moved_are_moved_back_to_the_folder_they_came_from() {
    let mut h = Harness::loaded();
    h.press("R");
    reread(&mut h, with_ideas(&[]));
    h.press("g j j");
    assert_eq!(h.selected(), "Network overview", "{}", h.screen());
    h.press("M");
    h.type_text("ideas");
    h.press("Enter y");
    h.answer(|r| matches!(r, Request::MoveDoc { .. }), Ok(Answer::Done));
    assert!(
        h.status()
            .contains("moved \"Network overview\" to \"Ideas\" (u moves it back)"),
        "{}",
        h.status()
    );
    reread(&mut h, with_ideas(&[(DOC_A, "Network overview")]));
    h.press("u");
    let asked = h.overlay_text("Undo the move");
    assert!(
        asked.contains("Move back from \"Ideas\": \"Network overview\" to \"My diagrams\"?"),
        "{asked}"
    );
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::MoveDoc { .. }));
    assert_eq!(
        request,
        Request::MoveDoc {
            doc: DOC_A.into(),
            folder: MINE.into(),
        }
    );
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("moved \"Network overview\" back to \"My diagrams\""),
        "{}",
        h.status()
    );
}
