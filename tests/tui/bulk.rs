//! Bulk work through `App::update`: the selector form (rows, operator, type-ahead, checks,
//! preview, apply, count mismatch, failure, history), marks, bulk edit and delete, export and
//! import; snapshots of the form, the preview, the result and the import report.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use diagtui::model::{Content, Operator, SelectorUpdated};
use diagtui::tui::history::SelectorHistory;
use diagtui::tui::overlay::{ConfirmAction, Overlay};
use diagtui::tui::selector_form::{Field, FormFocus};
use diagtui::tui::transfer::{FileError, FileFor, FileJob, perform};
use diagtui::tui::{Answer, Effect, Msg, Pane, Request};
use insta::assert_snapshot;
use serde_json::json;

use crate::harness::*;

fn ctrl(h: &mut Harness, c: char) -> Vec<Effect> {
    h.send(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::CONTROL,
    )))
}

fn space(h: &mut Harness) {
    h.send(Msg::Key(key(" ")));
}

/// The matches of `status eq down` in the fixture.
fn down_only() -> Content {
    let mut c = content();
    c.retain(|id, _| id == "1b-db");
    c
}

/// Opens the form and fills one row `status <op> down` and the props.
fn fill_form(h: &mut Harness, props: &str) {
    h.press("w");
    h.type_text("status");
    h.press("Tab Tab");
    h.type_text("down");
    h.app.form.props.set_text(props);
}

fn is_where(r: &Request) -> bool {
    matches!(r, Request::ObjectsWhere { .. })
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

#[test]
fn form_rows_fields_operator_and_type_ahead() {
    let mut h = Harness::opened();
    h.press("w");
    assert_eq!(h.app.overlay, Some(Overlay::SelectorForm));
    h.type_text("st");
    assert_eq!(
        h.app.form.suggestions(&h.app.objects.meta_index),
        vec!["status"]
    );
    h.press("Down Enter");
    assert_eq!(h.app.form.rows[0].key.text(), "status");
    assert_eq!(h.app.form.focus, FormFocus::Row(0, Field::Op));
    h.type_text("co");
    assert_eq!(h.app.form.rows[0].op.op, Operator::Co);
    h.press("Left");
    assert_eq!(h.app.form.rows[0].op.op, Operator::Lt);
    h.type_text("eq");
    assert_eq!(h.app.form.rows[0].op.op, Operator::Eq);
    h.press("Tab");
    assert_eq!(
        h.app.form.suggestions(&h.app.objects.meta_index),
        vec!["down", "up"]
    );
    h.type_text("d");
    assert_eq!(
        h.app.form.suggestions(&h.app.objects.meta_index),
        vec!["down"]
    );
    ctrl(&mut h, 'n');
    assert_eq!(h.app.form.rows.len(), 2);
    assert_eq!(h.app.form.focus, FormFocus::Row(1, Field::Key));
    h.type_text("env");
    ctrl(&mut h, 'd');
    assert_eq!(h.app.form.rows.len(), 1);
    assert_eq!(h.app.form.rows[0].value.text(), "d");
    h.press("BackTab");
    assert_eq!(h.app.form.focus, FormFocus::Props);
    h.press("Tab");
    assert_eq!(h.app.form.focus, FormFocus::Row(0, Field::Key));
    // Esc closes; the form keeps its content for next time.
    h.press("Esc");
    assert_eq!(h.app.overlay, None);
    h.press("w");
    assert_eq!(h.app.form.rows[0].key.text(), "status");
}

#[test]
fn typing_in_the_form_never_triggers_a_shortcut() {
    let mut h = Harness::opened();
    h.press("w");
    let effects = h.press("q w R ? L 1 d b");
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(h.app.overlay, Some(Overlay::SelectorForm));
    assert_eq!(h.app.form.rows[0].key.text(), "qwR?L1db");
    h.press("Tab Tab");
    let effects = h.press("q");
    assert!(effects.is_empty());
    h.press("Tab");
    h.type_text("q{}");
    assert_eq!(h.app.form.focus, FormFocus::Props);
    assert!(h.app.form.props.text().contains("q{}"));
    assert_eq!(h.app.focus, Pane::Objects);
}

#[test]
fn the_form_checks_before_sending() {
    let mut h = Harness::opened();
    h.press("w");
    assert!(ctrl(&mut h, 'p').is_empty());
    assert_eq!(h.app.form.error.as_deref(), Some("row 1: the key is empty"));
    fill_form(&mut h, "{\n  \n}");
    assert!(ctrl(&mut h, 's').is_empty());
    assert!(
        h.app
            .form
            .error
            .as_ref()
            .unwrap()
            .contains("nothing to set")
    );
    h.app.form.props.set_text("{\"color\": ");
    assert!(h.app.form.props.check.syntax.is_some());
    assert!(ctrl(&mut h, 's').is_empty());
    assert!(
        h.app
            .form
            .error
            .as_ref()
            .unwrap()
            .starts_with("props: line 1")
    );
    h.app.form.props.set_text("{\"color\": \"red\"}");
    assert_eq!(h.app.form.props.check.warnings.len(), 1);
    assert!(ctrl(&mut h, 's').is_empty());
    assert!(h.app.form.error.as_ref().unwrap().contains("not a colour"));
}

#[test]
fn preview_runs_the_selector_read_and_marks_the_matches() {
    let mut h = Harness::opened();
    fill_form(&mut h, "{}");
    ctrl(&mut h, 'p');
    let (id, request) = h.take_request(is_where);
    let Request::ObjectsWhere { doc, selector } = request else {
        unreachable!()
    };
    assert_eq!(doc, DOC_A);
    assert_eq!(selector.to_string(), r#"["status","eq","down"]"#);
    assert!(h.app.form.busy);
    let effects = h.reply(id, Ok(Answer::Content(down_only())));
    let preview = h.app.form.preview.as_ref().unwrap();
    assert_eq!(preview.matches.len(), 1);
    assert!(h.app.objects.marks.contains("1b-db"));
    assert_eq!(h.app.objects.marks.len(), 1);
    assert!(h.app.form.preview_is_current());
    // Nothing was written: the answer asks for no request at all.
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Request(..))),
        "{effects:?}"
    );
}

#[test]
fn selector_answers_for_a_document_left_behind_touch_nothing() {
    let mut h = Harness::opened();
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    let (preview, _) = h.take_request(is_where);
    // Leave for document B while the preview runs.
    h.press("Esc 1 j Enter");
    h.answer_all();
    assert_eq!(h.app.objects.doc.as_ref().unwrap().id, DOC_B);
    let effects = h.reply(preview, Ok(Answer::Content(down_only())));
    assert!(h.app.objects.marks.is_empty(), "no marks from document A");
    assert!(!effects.iter().any(|e| matches!(e, Effect::Request(..))));

    // The same for an apply answered after the user moved on.
    h.press("1 k Enter");
    h.answer_all();
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    h.answer(is_where, Ok(Answer::Content(down_only())));
    ctrl(&mut h, 's');
    h.press("y");
    let (apply, _) = h.take_request(is_update_where);
    h.press("Esc 1 j Enter");
    h.answer_all();
    let effects = h.reply(apply, Ok(updated(1, &["1b-db"])));
    assert!(h.app.objects.marks.is_empty());
    assert_eq!(h.app.overlay, None);
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
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    // No preview yet: the apply previews first, to name the count.
    ctrl(&mut h, 's');
    h.answer(is_where, Ok(Answer::Content(down_only())));
    let Some(Overlay::Confirm {
        message, action, ..
    }) = h.app.overlay.clone()
    else {
        panic!("no confirmation: {:?}", h.app.overlay)
    };
    assert_eq!(action, ConfirmAction::ApplySelector);
    assert!(
        message.contains("1 object of \"Network overview\""),
        "{message}"
    );
    assert!(message.contains("primaryColor"));
    h.press("y");
    let (id, request) = h.take_request(is_update_where);
    let Request::UpdateWhere { props, .. } = &request else {
        unreachable!()
    };
    assert_eq!(props["primaryColor"], json!("#FF0000"));
    h.reply(id, Ok(updated(1, &["1b-db"])));
    assert_eq!(h.app.overlay, Some(Overlay::SelectorResult { selected: 0 }));
    let applied = h.app.form.applied.clone().unwrap();
    assert_eq!(applied.mismatch(), None);
    assert!(h.app.last_error.is_none());
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::Content { .. }))
    );
    // Enter jumps to the object.
    h.press("Enter");
    assert_eq!(h.app.overlay, None);
    assert_eq!(h.app.focus, Pane::Objects);
    assert_eq!(h.app.objects.selected_object().unwrap().0, "1b-db");
}

#[test]
fn a_declined_apply_returns_to_the_form() {
    let mut h = Harness::opened();
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    h.answer(is_where, Ok(Answer::Content(down_only())));
    // With a current preview the apply asks at once.
    ctrl(&mut h, 's');
    assert!(matches!(h.app.overlay, Some(Overlay::Confirm { .. })));
    h.press("n");
    assert_eq!(h.app.overlay, Some(Overlay::SelectorForm));
    assert!(!h.pending.iter().any(|(_, r)| is_update_where(r)));
}

#[test]
fn a_count_that_differs_from_the_preview_is_reported() {
    let mut h = Harness::opened();
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    h.answer(is_where, Ok(Answer::Content(down_only())));
    ctrl(&mut h, 's');
    h.press("y");
    h.answer(is_update_where, Ok(updated(2, &["1a-web", "1b-db"])));
    let mismatch = h.app.form.applied.as_ref().unwrap().mismatch().unwrap();
    assert!(mismatch.contains("the preview found 1 but 2 were updated"));
    assert!(
        h.app
            .last_error
            .as_ref()
            .unwrap()
            .contains("changed meanwhile")
    );
    assert_eq!(h.app.objects.marks.len(), 2);
    assert_snapshot!("snapshot_selector_result", h.render(120, 30));
}

#[test]
fn a_failure_keeps_the_form() {
    let mut h = Harness::opened();
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    h.answer(
        is_where,
        Err(failure(Some(400), Some("INVALID_SELECTOR"), "bad selector")),
    );
    assert!(h.app.form.error.as_ref().unwrap().contains("bad selector"));
    assert!(!h.app.form.busy);
    ctrl(&mut h, 'p');
    h.answer(is_where, Ok(Answer::Content(down_only())));
    ctrl(&mut h, 's');
    h.press("y");
    h.answer(
        is_update_where,
        Err(failure(None, None, "could not connect")),
    );
    assert_eq!(h.app.overlay, Some(Overlay::SelectorForm));
    assert!(
        h.app
            .form
            .error
            .as_ref()
            .unwrap()
            .contains("could not connect")
    );
    assert_eq!(h.app.form.rows[0].key.text(), "status");
    assert_eq!(h.app.form.rows[0].value.text(), "down");
    assert!(h.app.form.props.text().contains("#FF0000"));
    assert!(
        h.app
            .last_error
            .as_ref()
            .unwrap()
            .contains("the form is kept")
    );
}

#[test]
fn selectors_are_remembered_in_the_data_dir_and_recalled() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::opened();
    h.app.history = SelectorHistory::load(dir.path());
    fill_form(&mut h, r##"{"primaryColor": "#FF0000"}"##);
    ctrl(&mut h, 'p');
    let effects = h.answer(is_where, Ok(Answer::Content(down_only())));
    let job = effects
        .iter()
        .find_map(|e| match e {
            Effect::File(FileFor::History, job) => Some(job.clone()),
            _ => None,
        })
        .expect("the history is saved");
    perform(&job).unwrap();

    // A new run reads it back; Ctrl-R recalls it.
    let mut h = Harness::opened();
    h.app.history = SelectorHistory::load(dir.path());
    assert_eq!(h.app.history.entries.len(), 1);
    h.press("w");
    ctrl(&mut h, 'r');
    assert_eq!(h.app.form.rows[0].key.text(), "status");
    assert_eq!(h.app.form.rows[0].value.text(), "down");
    assert!(h.app.form.props.text().contains("primaryColor"));
}

#[test]
fn marking_counting_and_clearing() {
    let mut h = Harness::opened();
    space(&mut h);
    h.press("j");
    space(&mut h);
    assert_eq!(h.app.objects.marks.len(), 2);
    assert!(h.render(120, 30).contains("2 marked"));
    space(&mut h);
    assert_eq!(h.app.objects.marks.len(), 1);
    h.press("/");
    h.type_text("env=prod");
    h.press("Enter V");
    assert_eq!(
        h.app.objects.marks.iter().collect::<Vec<_>>(),
        vec!["1a-web"]
    );
    h.press("/");
    ctrl(&mut h, 'u');
    h.type_text("env=dev");
    h.press("Enter V");
    assert_eq!(h.app.objects.marks.len(), 2);
    h.press("Esc");
    assert!(h.app.objects.marks.is_empty());
    assert_eq!(h.app.objects.filter.text(), "env=dev");
    h.press("Esc");
    assert_eq!(h.app.objects.filter.text(), "");
}

#[test]
fn bulk_edit_shows_the_diff_and_sends_one_bulk_update() {
    let mut h = Harness::opened();
    h.press("b");
    assert!(
        h.app
            .last_error
            .as_ref()
            .unwrap()
            .contains("mark objects first")
    );
    assert_eq!(h.app.overlay, None);
    space(&mut h);
    h.press("j");
    space(&mut h);
    h.press("b");
    assert_eq!(h.app.overlay, Some(Overlay::BulkEdit));
    h.type_text("x");
    assert!(h.app.bulk.check.syntax.is_some());
    h.app
        .bulk
        .set_text(r#"{"name": "web-1", "meta": {"env": "prod"}}"#);
    ctrl(&mut h, 's');
    let Some(Overlay::BulkDiff(changes)) = h.app.overlay.clone() else {
        panic!("no diff: {:?}", h.app.overlay)
    };
    // web-1 already has that name: only its meta changes; the db gets both.
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0].obj, "1a-web");
    assert_eq!(changes[0].diff.props().len(), 1);
    assert!(changes[0].diff.changes[0].replaces_nested());
    assert_eq!(changes[1].diff.props().len(), 2);
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::BulkUpdate { .. }));
    let Request::BulkUpdate { doc, objects } = &request else {
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
    assert!(
        h.app
            .note
            .as_ref()
            .unwrap()
            .contains("updated 2 marked objects")
    );
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::Content { .. }))
    );
}

#[test]
fn a_failed_bulk_update_keeps_the_edit() {
    let mut h = Harness::opened();
    space(&mut h);
    h.press("b");
    h.app.bulk.set_text(r#"{"name": "x"}"#);
    ctrl(&mut h, 's');
    h.press("y");
    h.answer(
        |r| matches!(r, Request::BulkUpdate { .. }),
        Err(failure(Some(400), Some("VALIDATION_ERROR"), "bad")),
    );
    assert!(
        h.app
            .last_error
            .as_ref()
            .unwrap()
            .contains("your edit is kept")
    );
    h.press("b");
    assert_eq!(h.app.bulk.text(), r#"{"name": "x"}"#);
}

#[test]
fn deleting_the_marked_objects_asks_then_deletes_each() {
    let mut h = Harness::opened();
    space(&mut h);
    h.press("j");
    space(&mut h);
    h.press("d");
    let Some(Overlay::Confirm { message, .. }) = h.app.overlay.clone() else {
        panic!("no confirmation")
    };
    assert!(message.contains("2 marked objects from \"Network overview\""));
    h.press("y");
    assert_eq!(h.app.objects.objects.len(), 2);
    assert!(h.app.objects.marks.is_empty());
    let deletes: Vec<_> = h
        .pending
        .iter()
        .filter(|(_, r)| matches!(r, Request::DeleteObject { .. }))
        .cloned()
        .collect();
    assert_eq!(deletes.len(), 2);
    h.reply(deletes[0].0, Ok(Answer::Done));
    assert!(
        !h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::Content { .. }))
    );
    h.reply(
        deletes[1].0,
        Err(failure(Some(404), Some("OBJ_NOT_FOUND"), "gone")),
    );
    assert!(
        h.app
            .last_error
            .as_ref()
            .unwrap()
            .contains("deleted 1, 1 failed")
    );
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::Content { .. }))
    );
}

/// Presses `i` on the selected document, takes the prefilled path, and answers the read job
/// with `text`.
fn import_file(h: &mut Harness, text: &str) {
    h.press("1 i");
    let Some(Overlay::Input { input, .. }) = &h.app.overlay else {
        panic!("no prompt")
    };
    assert_eq!(input.text(), "network-overview.json");
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
    let Some(Overlay::ImportReport { report, .. }) = h.app.overlay.clone() else {
        panic!("no report: {:?}", h.app.overlay)
    };
    let report = report.unwrap();
    assert_eq!(report.total(), 2);
    assert_eq!(report.problems.len(), 2);
    assert!(
        h.pending
            .iter()
            .all(|(_, r)| !matches!(r, Request::SetContent { .. }))
    );
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::SetContent { .. }));
    let Request::SetContent { doc, content } = &request else {
        unreachable!()
    };
    assert_eq!(doc, DOC_A);
    assert_eq!(content.len(), 2);
    h.reply(id, Ok(Answer::Done));
    assert!(h.app.note.as_ref().unwrap().contains("imported 2 objects"));
    assert!(
        h.pending
            .iter()
            .any(|(_, r)| matches!(r, Request::Content { .. }))
    );
}

#[test]
fn import_refuses_what_is_not_a_content_map() {
    for text in ["[1, 2]", "not json", r#"{"a": 5}"#] {
        let mut h = Harness::opened();
        import_file(&mut h, text);
        assert!(matches!(h.app.overlay, Some(Overlay::ImportReport { .. })));
        // The refusal wraps; the box grows so its key hint still shows.
        assert!(h.render(120, 30).contains("Esc: close"), "{text}");
        h.press("y");
        assert!(
            h.pending
                .iter()
                .all(|(_, r)| !matches!(r, Request::SetContent { .. })),
            "{text}"
        );
        assert!(
            h.app
                .last_error
                .as_ref()
                .unwrap()
                .contains("cannot be imported")
        );
    }
}

#[test]
fn export_never_overwrites_silently() {
    let mut h = Harness::opened();
    h.press("1 x");
    let Some(Overlay::Input { input, .. }) = &h.app.overlay else {
        panic!("no prompt")
    };
    assert_eq!(input.text(), "network-overview.json");
    h.press("Enter");
    let effects = h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(Answer::Content(content())),
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
    assert!(matches!(h.app.overlay, Some(Overlay::Confirm { .. })));
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
    fill_form(&mut h, "{\n  \"primaryColor\": \"#FF0000\"\n}");
    ctrl(&mut h, 'p');
    h.answer(is_where, Ok(Answer::Content(down_only())));
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
    space(&mut h);
    h.press("j");
    space(&mut h);
    h.press("b");
    h.app
        .bulk
        .set_text(r##"{"primaryColor": "#FF0000", "position": {"x": 0, "y": 0}}"##);
    ctrl(&mut h, 's');
    assert_snapshot!(h.render(120, 30));
}
