//! Bulk work through `App::update`: the selector form (rows, operator, type-ahead, checks,
//! preview, apply, count mismatch, failure, history), marks, bulk edit and delete, export and
//! import; snapshots of the form, the preview, the result and the import report.

use diagtui_model::{Content, SelectorUpdated};
use diagtui_tui::session::selectors::SelectorHistory;
use diagtui_tui::transfer::{FileError, FileFor, FileJob, perform};
use diagtui_tui::{Answer, Effect, Msg, Request, Setup};
use insta::assert_snapshot;
use serde_json::json;

use crate::harness::*;

/// Opens the form and fills one row `status eq down`, then the props.
fn fill_status_down(h: &mut Harness, props: &str) {
    fill_form(h, "status", "down", props);
}

fn is_update_where(r: &Request) -> bool {
    matches!(r, Request::UpdateWhere { .. })
}

fn updated(count: usize, ids: &[&str]) -> Answer {
    Answer::Updated(SelectorUpdated {
        success: true,
        updated_object_count: count,
        updated_object_ids: ids.iter().map(|s| s.to_string()).collect(),
    })
}

/// The form's row line: key, operator, value.
fn form_row(h: &mut Harness) -> String {
    h.line_with(" 1 key ")
}

#[test]
fn form_rows_fields_operator_and_type_ahead() {
    let mut h = Harness::opened();
    h.press("w");
    assert!(h.shows("Objects whose meta match every row:"));
    h.type_text("st");
    assert!(h.line_with("↳").contains("status"));
    assert!(!h.line_with("↳").contains("env"));
    h.press("Down");
    assert_eq!(h.selected(), "status", "the suggestion is highlighted");
    h.press("Enter");
    assert!(form_row(&mut h).contains("status "), "{}", form_row(&mut h));
    assert!(
        h.footer().contains("next operator"),
        "the operator has the keys"
    );
    h.type_text("co");
    assert!(form_row(&mut h).contains(" co "), "{}", form_row(&mut h));
    h.press("Left");
    assert!(form_row(&mut h).contains(" lt "));
    h.type_text("eq");
    assert!(form_row(&mut h).contains(" eq "));
    h.press("Tab");
    let suggested = h.line_with("↳");
    assert!(
        suggested.contains("down") && suggested.contains("up"),
        "{suggested}"
    );
    h.type_text("d");
    let suggested = h.line_with("↳");
    assert!(
        suggested.contains("down") && !suggested.contains(" up "),
        "{suggested}"
    );
    h.press("C-n");
    assert!(h.shows(" 2 key "));
    h.type_text("env");
    assert!(h.line_with(" 2 key ").contains("env"));
    h.press("C-d");
    assert!(!h.shows(" 2 key "));
    assert!(form_row(&mut h).contains("value d"), "{}", form_row(&mut h));
    h.press("BackTab");
    assert!(
        h.footer().contains("preview"),
        "the props field: {}",
        h.footer()
    );
    h.press("Tab");
    assert!(
        h.footer().contains("take"),
        "back on the key: {}",
        h.footer()
    );
    // Esc closes; the form keeps its content for next time.
    h.press("Esc");
    assert!(!h.shows("Objects whose meta match"));
    h.press("w");
    assert!(
        form_row(&mut h).contains("status▏"),
        "kept, the key focused"
    );
}

#[test]
fn typing_in_the_form_never_triggers_a_shortcut() {
    let mut h = Harness::opened();
    h.press("w");
    let effects = h.press("q w R ? L 1 d b");
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        form_row(&mut h).contains("qwR?L1db"),
        "{}",
        form_row(&mut h)
    );
    h.press("Tab Tab");
    let effects = h.press("q");
    assert!(effects.is_empty());
    h.press("Tab");
    h.type_text("q{}");
    assert!(h.shows("q{}"), "typed into the props");
    h.press("Esc");
    assert_eq!(h.focused(), "Objects");
}

#[test]
fn the_form_checks_before_sending() {
    let mut h = Harness::opened();
    h.press("w");
    assert!(h.press("C-p").is_empty());
    assert!(h.shows("✗ row 1: the key is empty"));
    fill_status_down(&mut h, "{\n  \n}");
    assert!(h.press("C-s").is_empty());
    assert!(h.shows("✗ props: nothing to set"));
    h.press("C-u");
    h.type_text("\"color\": ");
    assert!(
        h.shows("✗ line 3 col 1"),
        "the check as you type: {}",
        h.screen()
    );
    assert!(h.press("C-s").is_empty());
    assert!(h.shows("✗ props: line 3"), "{}", h.screen());
    h.press("C-u");
    h.paste(r#"{"color": "red"}"#);
    assert!(h.shows("! line 1: color"));
    assert!(h.press("C-s").is_empty());
    assert!(h.shows("not a colour"));
}

#[test]
fn preview_runs_the_selector_read_and_shows_the_matches_until_the_form_closes() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, "{}");
    h.press("C-p");
    let (id, request) = h.take_request(is_where);
    let Request::ObjectsWhere { doc, selector } = request else {
        unreachable!()
    };
    assert_eq!(doc, DOC_A);
    assert_eq!(selector.to_string(), r#"["status","eq","down"]"#);
    assert!(h.shows("running…"));
    let effects = h.reply(id, Ok(Answer::Content(down_only(), Default::default())));
    assert!(h.shows("Preview: 1 object matches"));
    assert!(!h.shows("running…"));
    assert!(
        h.status()
            .contains("1 object matches (◇ in the tree; Ctrl-K marks them)"),
        "{}",
        h.status()
    );
    assert!(!h.shows("the rows changed since"), "the preview is current");
    // Nothing was written: the answer asks for no request at all.
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Request(..))),
        "{effects:?}"
    );
    assert!(!h.shows("marked"), "a preview marks nothing");
    h.press("Esc");
    assert!(!h.shows("marked"));
    assert!(!h.cell_with("1b-db").contains('◇'), "the preview ended");
    assert!(!h.cell_with("1b-db").contains('●'));
}

#[test]
fn selector_answers_for_a_document_left_behind_touch_nothing() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-p");
    let (preview, _) = h.take_request(is_where);
    // Leave for document B while the preview runs.
    h.press("Esc 1 j Enter");
    h.answer_all();
    assert!(h.shows("2 Objects · Production cluster"));
    let effects = h.reply(
        preview,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    assert!(!h.shows("marked"), "no marks from document A");
    assert!(!effects.iter().any(|e| matches!(e, Effect::Request(..))));

    // The same for an apply answered after the user moved on (the form kept its content).
    h.press("1 k Enter");
    h.answer_all();
    h.press("w C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    h.press("y");
    let (apply, _) = h.take_request(is_update_where);
    h.press("Esc 1 j Enter");
    h.answer_all();
    let effects = h.reply(apply, Ok(updated(1, &["1b-db"])));
    assert!(!h.shows("marked"));
    assert!(!h.shows("Selector update"), "no result over document B");
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Request(_, Request::Content { .. }))),
        "document B is not reloaded for A's update"
    );
}

#[test]
fn apply_asks_naming_the_count_then_shows_the_answer_and_jumps() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    // No preview yet: the apply previews first, to name the count.
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    let screen = h.screen();
    assert!(screen.contains("Apply the selector"), "{screen}");
    assert!(
        screen.contains("Set primaryColor on 1 object of \"Network overview\""),
        "{screen}"
    );
    h.press("y");
    let (id, request) = h.take_request(is_update_where);
    let Request::UpdateWhere { props, .. } = &request else {
        unreachable!()
    };
    assert_eq!(props["primaryColor"], json!("#FF0000"));
    h.reply(id, Ok(updated(1, &["1b-db"])));
    assert!(h.shows("updatedObjectCount: 1"));
    assert!(!h.shows("the preview found"));
    assert!(
        !h.shows("Objects whose meta match"),
        "the result replaced the form"
    );
    assert!(h.status().contains("updated 1 object"));
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
    // Enter jumps to the object.
    h.press("Enter");
    assert!(!h.shows("updatedObjectCount"));
    assert_eq!(h.focused(), "Objects");
    assert!(h.selected().contains("1b-db"));
}

#[test]
fn an_apply_always_asks_with_a_fresh_preview_and_a_declined_one_returns_to_the_form() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-p");
    h.answer(is_where, Ok(Answer::Content(content(), Default::default())));
    // Even with a preview of these rows, the apply previews again: the document may have
    // changed since, and the question names what the selector finds now.
    h.press("C-s");
    assert!(
        !h.shows("Apply the selector"),
        "not before the fresh preview"
    );
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    let screen = h.screen();
    assert!(screen.contains("Apply the selector"), "{screen}");
    assert!(screen.contains("on 1 object of"), "{screen}");
    assert!(
        screen.contains("component   database  [status=down env=dev]  generic.database  1b-db"),
        "the rows of the preview: {screen}"
    );
    h.press("n");
    assert!(!h.shows("Apply the selector"));
    assert!(h.shows("Objects whose meta match every row:"));
    assert!(!h.asked(is_update_where));
}

#[test]
fn a_count_that_differs_from_the_preview_is_reported() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    h.press("y");
    h.answer(is_update_where, Ok(updated(2, &["1a-web", "1b-db"])));
    assert!(h.shows("! the preview found 1 but 2 were updated"));
    assert!(h.status().contains(
        "✗ updated 2; the preview found 1 but 2 were updated: the document changed meanwhile"
    ));
    assert!(!h.shows("marked"), "an apply marks nothing");
    assert_snapshot!("snapshot_selector_result", h.render(120, 30));
}

#[test]
fn a_failure_keeps_the_form() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-p");
    h.answer(
        is_where,
        Err(failure(Some(400), Some("INVALID_SELECTOR"), "bad selector")),
    );
    assert!(h.shows("✗ preview failed: bad selector"));
    assert!(!h.shows("running…"));
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    h.press("y");
    h.answer(
        is_update_where,
        Err(failure(None, None, "could not connect")),
    );
    assert!(h.shows("✗ apply failed: could not connect"));
    assert!(form_row(&mut h).contains("status "));
    assert!(form_row(&mut h).contains("down"));
    assert!(h.shows("#FF0000"));
    assert!(h.status().contains("the form is kept"));
}

#[test]
fn selectors_are_remembered_in_the_data_dir_and_recalled() {
    let dir = tempfile::tempdir().unwrap();
    let with_history = || {
        Harness::opened_with(Setup {
            history: SelectorHistory::load(dir.path()),
            ..Setup::new("local /data/diagtui")
        })
    };
    let mut h = with_history();
    fill_status_down(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    h.press("C-p");
    let effects = h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    let job = effects
        .iter()
        .find_map(|e| match e {
            Effect::File(FileFor::History, job) => Some(job.clone()),
            _ => None,
        })
        .expect("the history is saved");
    perform(&job).unwrap();

    // A new run reads it back; Ctrl-R recalls it.
    let mut h = with_history();
    h.press("w C-r");
    assert!(h.status().contains("recalled selector 1 of 1"));
    assert!(form_row(&mut h).contains("status▏"));
    assert!(form_row(&mut h).contains("down"));
    assert!(h.shows("primaryColor"));
}

#[test]
fn marking_counting_and_clearing() {
    let mut h = Harness::opened();
    h.press("Space Space");
    assert!(h.shows("2 marked"), "Space marks and moves to the next row");
    h.press("k Space");
    assert!(h.shows("1 marked"));
    h.press("/");
    h.type_text("env=prod");
    h.press("Enter V");
    assert!(h.shows("1 marked"), "web was marked already");
    h.press("/ C-u");
    h.type_text("env=dev");
    h.press("Enter V");
    assert!(h.shows("2 marked"));
    h.press("Esc");
    assert!(!h.shows("marked"));
    assert!(h.status().contains("cleared 2 marks"));
    assert!(h.shows("/env=dev"), "the filter stays");
    h.press("Esc");
    assert!(!h.shows("/env=dev"));
}

#[test]
fn bulk_edit_shows_the_diff_and_sends_one_bulk_update() {
    let mut h = Harness::opened();
    h.press("b");
    assert!(
        h.status()
            .contains("mark objects first (Space marks one, V marks what the filter shows)")
    );
    assert!(!h.shows("Bulk edit"));
    h.press("Space Space b");
    assert!(h.shows("Bulk edit · 2 marked"));
    h.type_text("x");
    assert!(h.shows("✗ line"), "checked as you type");
    h.press("C-u");
    h.paste(r#"{"name": "web-1", "meta": {"env": "prod"}}"#);
    // The API's own update: a nested value replaces the object's whole.
    h.press("C-o");
    assert!(h.status().contains("nested: replace"));
    h.press("C-s");
    let screen = h.screen();
    // web-1 already has that name: only its meta changes; the db gets both.
    assert!(screen.contains("2 objects change"), "{screen}");
    assert!(
        screen.contains("~ meta.env: \"dev\" → \"prod\""),
        "{screen}"
    );
    assert!(screen.contains("+ name: added \"web-1\""), "{screen}");
    assert_eq!(
        screen.matches("note: meta is sent whole").count(),
        1,
        "the note is said once: {screen}"
    );
    h.press("y");
    assert!(!h.shows("Bulk edit"), "the edit closed with the diff");
    let (id, request) = h.take_request(|r| matches!(r, Request::BulkUpdate { .. }));
    let Request::BulkUpdate { doc, objects, .. } = &request else {
        unreachable!()
    };
    assert_eq!(doc, DOC_A);
    assert_eq!(
        objects["1a-web"],
        json!({"meta": {"env": "prod"}})
            .as_object()
            .unwrap()
            .clone()
    );
    assert_eq!(objects["1b-db"].len(), 2);
    h.reply(id, Ok(Answer::Done));
    assert!(h.status().contains("updated 2 marked objects"));
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
    h.press("b");
    assert!(
        !h.shows("web-1\", \"meta\""),
        "the text was cleared once it went through"
    );
}

#[test]
fn a_failed_bulk_update_keeps_the_edit() {
    let mut h = Harness::opened();
    h.press("Space b C-u");
    h.paste(r#"{"name": "x"}"#);
    h.press("C-s y");
    h.answer(
        |r| matches!(r, Request::BulkUpdate { .. }),
        Err(failure(Some(400), Some("VALIDATION_ERROR"), "bad")),
    );
    assert!(
        h.status()
            .contains("bulk update failed, your edit is kept (b reopens it): bad")
    );
    h.press("b");
    assert!(h.shows(r#"{"name": "x"}"#));
}

#[test]
fn deleting_the_marked_objects_asks_then_deletes_each() {
    let mut h = Harness::opened();
    h.press("Space Space d");
    assert!(h.shows("Delete the 2 marked objects from \"Network overview\"?"));
    h.press("y");
    assert!(h.shows("Network overview (2)"));
    assert!(!h.shows("marked"));
    let deletes: Vec<_> = h
        .pending
        .iter()
        .filter(|(_, r)| matches!(r, Request::DeleteObject { .. }))
        .cloned()
        .collect();
    assert_eq!(deletes.len(), 2);
    h.reply(deletes[0].0, Ok(Answer::Done));
    assert!(!h.asked(|r| matches!(r, Request::Content { .. })));
    h.reply(
        deletes[1].0,
        Err(failure(Some(404), Some("OBJ_NOT_FOUND"), "gone")),
    );
    assert!(
        h.status()
            .contains("deleted 1, 1 failed (first: 1b-db: gone)")
    );
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
}

/// Presses `i` on the selected document, takes the prefilled path, and answers the read job
/// with `text`.
fn import_file(h: &mut Harness, text: &str) {
    h.press("1 i");
    assert!(
        h.shows("network-overview.json▏"),
        "prefilled: {}",
        h.screen()
    );
    let effects = h.press("Enter");
    let Some(Effect::File(what, job)) = effects.into_iter().next() else {
        panic!("no file job")
    };
    assert_eq!(job, FileJob::Read("network-overview.json".into()));
    h.send(Msg::File(what, job, Ok(text.into())));
}

#[test]
fn import_reports_problems_and_replaces_only_after_yes() {
    let mut h = Harness::opened();
    let file = json!({
        "a": {"type": "component", "data": {"meta": {}}},
        "b": {"type": "label", "data": {"text": "x", "color": "blue"}},
    });
    import_file(&mut h, &file.to_string());
    let screen = h.screen();
    assert!(screen.contains("2 objects: "), "{screen}");
    assert!(screen.contains("2 problems"), "{screen}");
    assert!(!h.asked(|r| matches!(r, Request::SetContent { .. })));
    h.press("y");
    // The content it replaces is read first (to undo the import), then it is set.
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    let (id, request) = h.take_request(|r| matches!(r, Request::SetContent { .. }));
    let Request::SetContent { doc, content, .. } = &request else {
        unreachable!()
    };
    assert_eq!(doc, DOC_A);
    assert_eq!(content.len(), 2);
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status()
            .contains("imported 2 objects into \"Network overview\"")
    );
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));
}

#[test]
fn import_refuses_what_is_not_a_content_map() {
    for text in ["[1, 2]", "not json", r#"{"a": 5}"#] {
        let mut h = Harness::opened();
        import_file(&mut h, text);
        assert!(h.shows("✗ refused"), "{text}");
        // The refusal wraps; the box grows so its one answer still shows, and the footer
        // offers the same keys (no yes).
        assert!(
            h.render(120, 30)
                .contains("n / Esc: close; nothing is changed"),
            "{text}"
        );
        assert_eq!(h.footer(), "n / Esc close; nothing is changed", "{text}");
        h.press("y");
        assert!(h.shows("✗ refused"), "y answers nothing here: {text}");
        h.press("Enter");
        assert!(!h.shows("✗ refused"), "Enter closes it: {text}");
        assert!(
            !h.asked(|r| matches!(r, Request::SetContent { .. } | Request::Content { .. })),
            "{text}"
        );
        assert!(h.status().contains("import cancelled; nothing was changed"));
    }
}

#[test]
fn export_never_overwrites_silently() {
    let mut h = Harness::opened();
    h.press("1 x");
    assert!(h.shows("network-overview.json▏"));
    h.press("Enter");
    let effects = h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    let Some(Effect::File(what, job)) = effects.into_iter().next() else {
        panic!("no file job")
    };
    let FileJob::Write {
        text, overwrite, ..
    } = &job
    else {
        panic!("not a write")
    };
    assert!(!overwrite);
    let back: Content = serde_json::from_str(text).unwrap();
    assert_eq!(back, content());
    h.send(Msg::File(what, job, Err(FileError::Exists)));
    assert!(h.shows("network-overview.json already exists"));
    let effects = h.press("y");
    assert!(matches!(
        effects.as_slice(),
        [Effect::File(
            _,
            FileJob::Write {
                overwrite: true,
                ..
            }
        )]
    ));
}

#[test]
fn paste_goes_into_text_fields_as_one_edit_and_never_runs_commands() {
    let mut h = Harness::opened();
    // Into a list: nothing happens but a note (a pasted "D" deletes nothing).
    assert!(h.paste("D\n").is_empty());
    assert!(!h.shows("Delete"));
    assert!(h.status().contains("paste goes into a text field"));
    // Into a prompt: one line, the line break a space.
    h.press("1 r C-u");
    h.paste("Two\nlines");
    assert!(h.shows("Two lines▏"));
    h.press("Esc");
    // Into the filter: it filters.
    h.press("/");
    h.paste("prod");
    assert_eq!(h.selected(), "Production cluster");
}

// Snapshots.

#[test]
fn snapshot_selector_form() {
    let mut h = Harness::opened();
    h.press("w");
    h.type_text("status");
    h.press("Tab");
    h.type_text("no");
    h.press("Tab");
    h.type_text("u");
    h.press("Down");
    assert_snapshot!(h.render(120, 30));
}

#[test]
fn snapshot_selector_preview() {
    let mut h = Harness::opened();
    fill_status_down(&mut h, "{\n  \"primaryColor\": \"#FF0000\"\n}");
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    assert_snapshot!(h.render(120, 30));
}

#[test]
fn snapshot_import_report() {
    let mut h = Harness::opened();
    let file = json!({
        "a": {"type": "component", "data": {"meta": {}}},
        "b": {"type": "label", "data": {"text": "x", "color": "blue", "position": {"x": 1}}},
        "c": {"type": "gadget", "data": {}},
    });
    import_file(&mut h, &file.to_string());
    assert_snapshot!(h.render(120, 30));
}

#[test]
fn snapshot_bulk_diff() {
    let mut h = Harness::opened();
    h.press("Space Space k b C-u");
    h.paste(r##"{"primaryColor": "#FF0000", "position": {"x": 0, "y": 0}}"##);
    h.press("C-s");
    assert_snapshot!(h.render(120, 30));
}
