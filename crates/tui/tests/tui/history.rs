//! The open document's history (`H`): `App::update` driven by keys and canned answers. The
//! versions with who, when and what by name, a version's diff by path, the document as it was
//! at a version (read-only, the objects changed since marked), back to now, paging, and the
//! restore with its question.

use std::collections::BTreeMap;

use diagtui_model::Content;
use diagtui_model::history::{
    Diff, HistoryPage, ObjectChange, PathChange, Restored, Version, VersionDetails, VersionKind,
    VersionNotes,
};
use diagtui_tui::{Answer, Request};
use serde_json::json;

use crate::harness::*;

/// A version of the history, numbered `number`, by ann, changing `changed` objects.
pub fn version(number: u64, kind: VersionKind, changed: u64) -> Version {
    Version {
        version: number,
        at: format!("2026-11-2{number}T16:40:0{number}.000Z"),
        account: Some("ann@example.com".into()),
        kind,
        changed,
        notes: VersionNotes::default(),
    }
}

/// Three versions: 1 set the content (web down, a cache), 2 put web up, 3 deleted the cache.
fn page() -> HistoryPage {
    HistoryPage {
        versions: vec![
            version(3, VersionKind::ObjectDeleted, 1),
            version(2, VersionKind::ObjectUpdated, 1),
            version(1, VersionKind::SetContent, 5),
        ],
        head: 3,
        oldest: 1,
        next_before: None,
    }
}

/// The content at version 1.
fn at_one() -> Content {
    let mut c = content();
    c.insert("1e-cache".into(), cache());
    c.get_mut("1a-web").unwrap().data["meta"]["status"] = json!("down");
    c
}

fn cache() -> diagtui_model::DiagramObject {
    object(
        "component",
        json!({"componentId": "cache.redis", "name": "session cache"}),
    )
}

fn details(number: u64) -> VersionDetails {
    let now = content();
    let then = at_one();
    let objects = match number {
        3 => vec![ObjectChange {
            obj_id: "1e-cache".into(),
            before: Some(cache()),
            after: None,
        }],
        2 => vec![ObjectChange {
            obj_id: "1a-web".into(),
            before: Some(then["1a-web"].clone()),
            after: Some(now["1a-web"].clone()),
        }],
        _ => then
            .iter()
            .map(|(id, o)| ObjectChange {
                obj_id: id.clone(),
                before: None,
                after: Some(o.clone()),
            })
            .collect(),
    };
    let version = page()
        .versions
        .into_iter()
        .find(|v| v.version == number)
        .unwrap();
    VersionDetails { version, objects }
}

/// From version 1 to now: web changed, the cache removed.
fn since_one() -> Diff {
    Diff {
        from: 1,
        to: 3,
        added: BTreeMap::new(),
        removed: [("1e-cache".to_string(), cache())].into(),
        changed: [(
            "1a-web".to_string(),
            vec![PathChange {
                path: "meta.status".into(),
                from: Some(json!("down")),
                to: Some(json!("up")),
            }],
        )]
        .into(),
    }
}

fn is_history(r: &Request) -> bool {
    matches!(r, Request::History { .. })
}

fn is_version(r: &Request) -> bool {
    matches!(r, Request::Version { .. })
}

/// Document A open, `H` pressed, the first page and its versions' details answered.
fn listed() -> Harness {
    let mut h = Harness::opened();
    h.press("H");
    assert!(h.asked(|r| *r
        == Request::History {
            doc: DOC_A.into(),
            before: None,
            limit: 50
        }));
    h.answer(is_history, Ok(Answer::History(page())));
    answer_details(&mut h);
    h
}

/// Version 1 of the listed history shown (`j j Enter`), its content and what changed since
/// answered.
fn show_version_one(h: &mut Harness) {
    h.press("j j Enter");
    h.answer(
        |r| matches!(r, Request::ContentAt { version: 1, .. }),
        Ok(objects(at_one())),
    );
    h.answer(
        |r| matches!(r, Request::DiffSince { from: 1, .. }),
        Ok(Answer::Diff(Box::new(since_one()))),
    );
}

/// Answers every pending read of a version's details.
fn answer_details(h: &mut Harness) {
    while h.asked(is_version) {
        let (id, request) = h.take_request(is_version);
        let Request::Version { version, .. } = request else {
            unreachable!()
        };
        h.reply(id, Ok(Answer::Version(Box::new(details(version)))));
    }
}

#[test]
fn h_without_a_document_says_to_open_one() {
    let mut h = Harness::loaded();
    h.press("H");
    assert!(
        h.status()
            .contains("open a document first: H shows its history")
    );
    assert!(!h.asked(is_history));
}

#[test]
fn the_history_lists_versions_by_name_and_shows_the_highlighted_ones_diff_by_path() {
    let mut h = Harness::opened();
    h.press("H");
    assert!(h.overlay_text("History").contains("reading the history…"));
    h.answer(is_history, Ok(Answer::History(page())));
    answer_details(&mut h);
    let text = h.overlay_text("History");
    assert!(
        text.contains(
            "3  2026-11-23 16:40:03  ann@example.com        object-deleted   session cache"
        ),
        "{text}"
    );
    assert!(text.contains("object-updated   web-1"), "{text}");
    assert!(
        text.contains("set-content      web-1, database, Front end, +2"),
        "{text}"
    );
    // The newest is highlighted: it deleted the cache.
    assert!(
        text.contains("- session cache (1e-cache) deleted: component"),
        "{text}"
    );
    h.press("j");
    let text = h.overlay_text("History");
    assert!(text.contains("~ web-1 (1a-web)"), "{text}");
    assert!(text.contains(r#"meta.status: "down" → "up""#), "{text}");
}

#[test]
fn a_versions_details_not_read_with_its_page_are_read_when_highlighted() {
    let mut h = Harness::opened();
    h.press("H");
    let mut big = page();
    big.versions[1].changed = 500;
    h.answer(is_history, Ok(Answer::History(big)));
    let asked: Vec<u64> = h
        .pending
        .iter()
        .filter_map(|(_, r)| match r {
            Request::Version { version, .. } => Some(*version),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [3, 1]);
    assert!(
        h.overlay_text("History")
            .contains("object-updated   500 objects")
    );
    h.press("j");
    assert!(h.asked(|r| matches!(r, Request::Version { version: 2, .. })));
}

#[test]
fn scrolling_to_the_last_version_reads_the_next_page() {
    let mut h = Harness::opened();
    h.press("H");
    let mut first = page();
    first.versions.truncate(2);
    first.next_before = Some(2);
    h.answer(is_history, Ok(Answer::History(first)));
    // The highlight is on the newest; the last row is not reached yet.
    assert!(!h.asked(is_history));
    h.press("G");
    let (id, request) = h.take_request(is_history);
    assert_eq!(
        request,
        Request::History {
            doc: DOC_A.into(),
            before: Some(2),
            limit: 50
        }
    );
    let mut rest = page();
    rest.versions.drain(..2);
    h.reply(id, Ok(Answer::History(rest)));
    answer_details(&mut h);
    assert!(h.overlay_text("History").contains("set-content"));
    // The oldest is listed: no more pages.
    h.press("G");
    assert!(!h.asked(is_history));
}

#[test]
fn a_history_that_cannot_be_read_says_status_code_and_route() {
    let mut h = Harness::opened();
    h.press("H");
    h.answer(
        is_history,
        Err(failure(Some(404), Some("NOT_FOUND"), "no such route")),
    );
    let text = h.overlay_text("History");
    assert!(
        text.contains(&format!(
            "the history could not be read: this server keeps no history of its documents: HTTP 404 NOT_FOUND no such route (GET /api/v1/doc/{DOC_A}/history?limit=50)"
        )),
        "{text}"
    );
}

#[test]
fn enter_shows_the_document_as_it_was_read_only_and_n_goes_back_to_now() {
    let mut h = listed();
    show_version_one(&mut h);
    assert!(h.overlay_text("History").is_empty(), "the overlay closed");
    h.expect("2 Objects · version 1 read-only · Network overview (5) · ◇ 2 changed since");
    // The cache is back, web and the cache are marked as changed since.
    assert!(h.cell_with("1e-cache").contains('◇'), "{}", h.screen());
    assert!(h.cell_with("1a-web").contains('◇'));
    assert!(!h.cell_with("1b-db").contains('◇'));
    // The footer offers no write: they are refused here.
    let footer = h.footer();
    assert!(
        !footer.contains("a add") && !footer.contains("d delete"),
        "{footer}"
    );
    // Every write is refused, saying why and how back.
    for key in ["d", "a", "b", "w", "u", "U", "e", "C-s"] {
        h.press(key);
        let status = h.status();
        assert!(
            status.contains("this shows version 1 as it was, read-only; H then n shows the document as it is now"),
            "{key}: {status}"
        );
    }
    h.press("3 i");
    assert!(h.status().contains("i: this shows version 1"));
    assert!(
        !h.sent.iter().any(|r| r.written_doc().is_some()),
        "nothing written: {:?}",
        h.sent
    );
    // Back to now: the content as it is.
    h.press("H");
    h.answer(is_history, Ok(Answer::History(page())));
    answer_details(&mut h);
    assert!(h.screen().contains("History · showing version 1"));
    h.press("n");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    h.expect("Network overview (4)");
    assert!(!h.screen().contains("read-only"));
    assert!(!h.cell_with("1a-web").contains('◇'));
}

#[test]
fn enter_on_the_newest_version_is_the_document_as_it_is_now() {
    let mut h = listed();
    h.pending.clear();
    h.press("Enter");
    assert!(h.pending.is_empty(), "nothing to read: {:?}", h.pending);
    assert!(h.overlay_text("History").is_empty());
    assert!(!h.screen().contains("read-only"));
}

#[test]
fn change_events_leave_the_past_view_as_it_is() {
    let mut h = listed();
    show_version_one(&mut h);
    h.pending.clear();
    h.press("R");
    // A refresh reads the version shown again, not the content now.
    assert!(h.asked(|r| matches!(r, Request::ContentAt { version: 1, .. })));
    assert!(!h.asked(|r| matches!(r, Request::Content { .. })));
}

#[test]
fn r_asks_naming_how_many_objects_change_and_only_y_restores() {
    let mut h = listed();
    h.press("j j r");
    h.answer(
        |r| matches!(r, Request::DiffSince { from: 1, .. }),
        Ok(Answer::Diff(Box::new(since_one()))),
    );
    let asked = h.overlay_text("Restore");
    assert!(
        asked.contains(
            "Restore \"Network overview\" to version 1? 2 object(s) change: 1 come back, 0 go, 1 are set back."
        ),
        "{asked}"
    );
    assert!(
        asked.contains("+ session cache (1e-cache) comes back"),
        "{asked}"
    );
    assert!(asked.contains("~ web-1 (1a-web) is set back"), "{asked}");
    assert!(asked.contains("restoring version 3 undoes it"), "{asked}");
    // Enter takes the safe answer.
    h.press("Enter");
    assert!(!h.sent.iter().any(|r| matches!(r, Request::Restore { .. })));
    h.press("r");
    h.answer(
        |r| matches!(r, Request::DiffSince { .. }),
        Ok(Answer::Diff(Box::new(since_one()))),
    );
    h.press("y");
    h.answer(
        |r| {
            *r == Request::Restore {
                doc: DOC_A.into(),
                version: 1,
                if_match: Some(since_one().to),
            }
        },
        Ok(Answer::Restored(Restored {
            success: true,
            version: 4,
            changed: 2,
        })),
    );
    assert!(
        h.status().contains(
            "restored version 1 as version 4: 2 object(s) changed (restoring version 3 undoes it)"
        ),
        "{}",
        h.status()
    );
    // The document is read again and the history listed again from the newest.
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
    assert!(h.asked(|r| matches!(r, Request::History { before: None, .. })));
}

#[test]
fn a_refused_restore_says_status_code_and_route() {
    let mut h = listed();
    h.press("j r");
    h.answer(
        |r| matches!(r, Request::DiffSince { .. }),
        Ok(Answer::Diff(Box::new(since_one()))),
    );
    h.press("y");
    h.answer(
        |r| matches!(r, Request::Restore { .. }),
        Err(failure(
            Some(400),
            Some("VALIDATION_ERROR"),
            "version: 3 is the newest version",
        )),
    );
    // The history stays open under the message: read the status bar below it.
    let screen = h.render(400, 60);
    let status = screen.lines().rev().nth(1).unwrap();
    assert!(
        status.contains(&format!(
            "restore to version 2 failed; nothing changed: HTTP 400 VALIDATION_ERROR version: 3 is the newest version (POST /api/v1/doc/{DOC_A}/restore)"
        )),
        "{status}"
    );
}

#[test]
fn a_restore_names_the_version_its_question_saw_and_a_412_restores_nothing() {
    let mut h = listed();
    h.press("j r");
    h.answer(
        |r| matches!(r, Request::DiffSince { .. }),
        Ok(Answer::Diff(Box::new(since_one()))),
    );
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::Restore { .. }));
    assert!(
        matches!(
            request,
            Request::Restore {
                if_match: Some(3),
                ..
            }
        ),
        "the newest version the diff was worked out against: {request:?}"
    );
    let mut refused = failure(
        Some(412),
        Some("PRECONDITION_FAILED"),
        "the document is at version 4, not 3",
    );
    refused.stale = Some(Box::default());
    h.reply(id, Err(refused));
    let screen = h.render(400, 60);
    let status = screen.lines().rev().nth(1).unwrap();
    assert!(
        status.contains(
            "restore to version 2 refused: the document was written since the question was shown, so nothing changed; r in the history asks again"
        ),
        "{status}"
    );
}

#[test]
fn frame_of_the_history_with_a_versions_diff() {
    let mut h = listed();
    h.press("j");
    insta::assert_snapshot!(h.render(120, 36));
}

#[test]
fn frame_of_the_document_as_it_was_under_no_color() {
    let mut h = Harness::opened_with(diagtui_tui::Setup {
        theme: diagtui_tui::theme::Theme::plain(),
        ..diagtui_tui::Setup::new("local /data/diagtui")
    });
    h.press("H");
    h.answer(is_history, Ok(Answer::History(page())));
    answer_details(&mut h);
    show_version_one(&mut h);
    // Without colour, the changed-since objects still show (◇, underlined).
    insta::assert_snapshot!(styled(&h.buffer(120, 24)));
}
