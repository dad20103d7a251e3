//! Editing you can trust, through `App::update`: the editor shows every character (sideways
//! scroll with markers, soft wrap, the messages of the cursor's line in full), paste and typing
//! into the JSON templates, text undo, diffs by path that scroll, undo per object and per
//! document, destructive actions that name what they touch, a componentId outside the
//! catalogue, the summary of a type, and messages with lifetimes; snapshots of the long-line
//! editor, the nested diff and the write history.

use diagtui_model::Content;
use diagtui_tui::app::status::INFO_TICKS;
use diagtui_tui::{Answer, Msg, Request};
use insta::assert_snapshot;
use serde_json::json;

use crate::harness::*;

/// A componentId longer than the properties pane is wide.
const LONG_ID: &str = "networking.aws-amazon-route-53-hosted-zone-resolver-endpoint-outbound";

fn is_update(r: &Request) -> bool {
    matches!(r, Request::UpdateObject { .. })
}

fn is_get(r: &Request) -> bool {
    matches!(r, Request::GetObject { .. })
}

fn is_bulk(r: &Request) -> bool {
    matches!(r, Request::BulkUpdate { .. })
}

/// The fixture with web's componentId made long.
fn long_content() -> Content {
    let mut c = content();
    c.get_mut("1a-web").unwrap().data["componentId"] = json!(LONG_ID);
    c
}

/// The rows of the properties pane (right of the last pane border), at `width` × `height`.
fn props_rows(h: &mut Harness, width: u16, height: u16) -> Vec<String> {
    h.render(width, height)
        .lines()
        .map(|l| {
            let inner = l.trim_matches('"');
            let cut = inner.rfind(['│', '┃']).unwrap_or(0);
            let start = inner[..cut].rfind(['│', '┃']).map_or(0, |s| s + 3);
            inner[start..cut].to_string()
        })
        .collect()
}

#[test]
fn a_long_line_scrolls_sideways_with_markers_in_edit_and_view_mode() {
    let mut h = Harness::opened_on(long_content());
    h.press("3 j");
    // View mode: the selected line's end shows, a marker where it goes on to the left.
    let screen = h.render(80, 24);
    assert!(screen.contains("outbound\","), "{screen}");
    let line = h.render(80, 24);
    let row = line.lines().find(|l| l.contains("outbound")).unwrap();
    assert!(row.contains('…'), "a marker where the line goes on: {row}");
    // Down to a short line: back to the start of the lines.
    h.press("j");
    assert!(h.render(80, 24).contains("\"name\": \"web-1\","));
    // Edit mode: End on the long line keeps the cursor and what is typed in view.
    h.press("k i End Left Left");
    h.type_text("-x");
    let screen = h.render(80, 24);
    assert!(screen.contains("outbound-x\","), "{screen}");
    assert!(!screen.contains("✗"), "{screen}");
    assert_snapshot!("long_line_editor_scrolled_to_the_end", screen);
    // Home: the start of the line again, the marker at the right edge.
    h.send(Msg::Key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Home,
        crossterm::event::KeyModifiers::NONE,
    )));
    let screen = h.render(80, 24);
    let row = screen.lines().find(|l| l.contains("componentId")).unwrap();
    assert!(row.contains("\"componentId\": \"network"), "{row}");
    assert!(row.contains('…'), "{row}");
}

#[test]
fn w_wraps_long_lines_so_every_character_shows() {
    let mut h = Harness::opened_on(long_content());
    h.press("3 W");
    assert!(h.status().contains("long lines wrap"));
    let rows = props_rows(&mut h, 80, 24).join("");
    assert!(rows.contains("↳"), "continuation rows are marked: {rows}");
    let joined: String = props_rows(&mut h, 80, 24)
        .iter()
        .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '↳'))
        .collect();
    assert!(joined.contains(LONG_ID), "{joined}");
    h.press("W");
    assert!(!props_rows(&mut h, 80, 24).join("").contains('↳'));
}

#[test]
fn the_messages_of_the_cursors_line_show_in_full() {
    let mut h = Harness::opened();
    h.edit_json(
        "{\n  \"text\": \"Front end\",\n  \"color\": \"#333333\",\n  \"fontSize\": 0.5,\n  \"lineColor\": \"#F00\"\n}",
    );
    // Elsewhere, the warning is cut to the pane.
    let screen = h.render(80, 24);
    assert!(screen.contains("! line 5: lineColor"), "{screen}");
    // On its line, it shows whole.
    h.press("3 j j j j");
    let rows = props_rows(&mut h, 80, 24).join(" ");
    let words: Vec<&str> = rows.split_whitespace().collect();
    let message = words.join(" ");
    assert!(
        message.contains("! line 5: lineColor: \"#F00\" is not a colour"),
        "{message}"
    );
    assert!(!message.contains("…"), "not cut: {message}");
}

/// Opens the selector form with the row `status eq down`, the focus on its untouched props.
fn form_on_status_down(h: &mut Harness) {
    h.press("w");
    h.type_text("status");
    h.press("Tab Tab");
    h.type_text("down");
    h.press("Tab");
}

#[test]
fn a_whole_object_typed_or_pasted_into_the_template_replaces_it() {
    // Typed (as a terminal without bracketed paste sends it), into the selector form.
    let mut h = Harness::opened();
    form_on_status_down(&mut h);
    h.type_text(r##"{"backgroundColor":"#FF0000"}"##);
    assert!(!h.shows("key must be a string"), "{}", h.screen());
    assert!(
        h.shows(r##"1 {"backgroundColor":"#FF0000"}"##),
        "the template gave way: {}",
        h.screen()
    );
    h.press("C-s");
    assert!(h.asked(|r| matches!(r, Request::ObjectsWhere { .. })));
    // Pasted, into the bulk edit (no Ctrl-U first).
    let mut h = Harness::opened();
    h.press("Space b");
    h.paste(r##"{"backgroundColor":"#FF0000"}"##);
    h.press("C-s");
    h.expect("+ backgroundColor: added \"#FF0000\"");
}

#[test]
fn ctrl_u_clears_where_the_hints_say_and_ctrl_z_undoes_typing_by_words() {
    let mut h = Harness::opened();
    // The editor: Ctrl-U is not the text area's undo any more; Ctrl-Z is, a word at a time.
    h.press("3 i");
    h.type_text("ab");
    h.expect("1✗ab{");
    h.press("C-u");
    assert!(h.shows("1✗ab{"), "Ctrl-U changed nothing: {}", h.screen());
    h.press("C-z");
    assert!(
        h.shows("[EDIT] component"),
        "the word undone whole: {}",
        h.screen()
    );
    assert!(h.shows("1 {"));
    h.press("C-y");
    assert!(h.shows("1✗ab{"), "and redone: {}", h.screen());
    // The selector form: Ctrl-U clears the field (as its hint says), Ctrl-Z undoes typing.
    h.press("Esc 2 w");
    h.expect("Ctrl-U: clear");
    h.type_text("status do");
    h.press("C-z");
    assert!(h.line_with(" 1 key ").contains("status ▏"), "a word");
    h.press("C-z");
    assert!(!h.line_with(" 1 key ").contains("statu"), "the next word");
    h.press("C-y C-y");
    assert!(h.line_with(" 1 key ").contains("status do▏"), "both redone");
    h.press("C-u");
    assert!(!h.line_with(" 1 key ").contains("statu"));
    h.press("C-z");
    assert!(
        h.line_with(" 1 key ").contains("status do"),
        "the clear undone"
    );
    // A prompt and a filter take Ctrl-Z and Ctrl-Y too.
    h.press("Esc 1 /");
    h.type_text("web prod");
    h.press("C-z");
    assert!(h.shows("/web ▏"));
    h.press("C-y");
    assert!(h.shows("/web prod▏"));
}

#[test]
fn the_save_diff_lists_nested_changes_by_path_and_says_the_merge_note_once() {
    let ttl = || {
        let mut c = content();
        c.get_mut("1a-web").unwrap().data["meta"] = json!({
            "status": "up", "region": "global", "zone": "acme.example", "ttl": 60
        });
        c
    };
    let mut h = Harness::opened_on(ttl());
    let edited = h
        .json()
        .replace("\"ttl\": 60", "\"ttl\": 61, \"owner\": \"ops\"")
        .replace("\"zone\": \"acme.example\",", "")
        .replace("\"x\": 1", "\"x\": 5");
    h.edit_json(&edited);
    h.press("C-s");
    let screen = h.render(120, 30);
    for line in [
        "~ meta.ttl: 60 → 61",
        "+ meta.owner: added \"ops\"",
        "- meta.zone: removed (was \"acme.example\")",
        "~ position.x: 1 → 5",
        "note: position, meta are sent whole (an update merges top-level properties only)",
    ] {
        assert!(screen.contains(line), "{line}: {screen}");
    }
    assert_eq!(screen.matches("note:").count(), 1, "{screen}");
    assert_snapshot!("nested_diff", screen);
}

#[test]
fn a_long_diff_wraps_and_scrolls() {
    let mut h = Harness::opened();
    let long = "x".repeat(150);
    let many: Vec<String> = (0..30)
        .map(|i| format!("\"k{i:02}\": \"{long}\""))
        .collect();
    h.edit_json(&format!("{{{}}}", many.join(", ")));
    h.press("C-s");
    let first = h.render(100, 24);
    assert!(first.contains("+ k00: added"), "{first}");
    assert!(!first.contains("+ k29"), "{first}");
    assert!(first.contains("scroll"), "it says how to scroll: {first}");
    assert!(first.contains("▸ y: save"), "the answers stay: {first}");
    // A value longer than the box wraps: all 150 x's show.
    let xs: usize = first
        .lines()
        .skip_while(|l| !l.contains("+ k00"))
        .take(3)
        .map(|l| l.matches('x').count())
        .sum();
    assert!(xs >= 150, "{first}");
    for _ in 0..10 {
        h.send(Msg::Key(key_named(crossterm::event::KeyCode::PageDown)));
    }
    let last = h.render(100, 24);
    assert!(last.contains("+ k29: added"), "{last}");
    h.press("Down Up");
    assert!(h.render(100, 24).contains("+ k28"));
}

fn key_named(code: crossterm::event::KeyCode) -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE)
}

/// Saves the label's text as `text` (the save answered).
fn save_label(h: &mut Harness, text: &str) {
    h.press("G");
    let json = h.json().replace("Front end", text);
    h.edit_json(&json);
    h.press("C-s Enter");
    h.answer(
        is_get,
        Ok(Answer::Object(content()["1c-title"].clone().into())),
    );
    h.answer(is_update, Ok(Answer::Done));
    // The re-read after the save.
    let mut saved = content()["1c-title"].clone();
    saved.data["text"] = json!(text);
    h.answer(is_get, Ok(Answer::Object(saved.into())));
    h.pending.clear();
}

#[test]
fn u_undoes_the_latest_write_to_the_selected_object_only() {
    let mut h = Harness::opened();
    // Save the label, then bulk edit web and db.
    save_label(&mut h, "Back end");
    h.press("2 g j Space Space k b");
    h.paste(r#"{"name": "bulk"}"#);
    h.press("C-s y");
    h.answer(is_bulk, Ok(Answer::Done));
    h.pending.clear();
    // u on db undoes db's part of the bulk edit, not the label's save.
    h.press("Esc");
    assert!(h.selected().contains("1b-db"), "{}", h.selected());
    // db had no name: the bulk edit added it, and an update cannot take it away. A dialog
    // names what stays; declined, nothing is sent or marked.
    h.press("u");
    h.no_history();
    let screen = h.screen();
    assert!(screen.contains("Undo cannot put it back"), "{screen}");
    assert!(
        screen.contains("The bulk edit (write 2) of component database only added properties"),
        "{screen}"
    );
    assert!(screen.contains("  name (database)"), "{screen}");
    h.press("n");
    assert!(!h.asked(is_get));
    // Yes leaves the name and marks db's part undone, still sending nothing: u then finds
    // no write of db's left to undo.
    h.press("u y");
    assert!(
        h.status()
            .contains("left the properties the bulk edit added"),
        "{}",
        h.status()
    );
    assert!(!h.asked(is_get) && !h.asked(is_update));
    h.press("u");
    assert!(
        h.status().contains("nothing to undo for database"),
        "{}",
        h.status()
    );
    // web had a name: u on web shows the bulk edit's change of it (not the label's save).
    h.press("k u");
    let screen = h.screen();
    assert!(
        screen.contains("Undo the bulk edit (write 2) of component web-1"),
        "{screen}"
    );
    assert!(screen.contains("~ name: \"bulk\" → \"web-1\""), "{screen}");
    assert!(!screen.contains("text: "), "not the label's save: {screen}");
    h.press("y");
    let (_, check) = h.take_request(is_get);
    assert_eq!(
        check,
        Request::GetObject {
            doc: DOC_A.into(),
            obj: "1a-web".into()
        }
    );
}

#[test]
fn an_undo_checks_the_server_and_asks_when_the_object_changed_since() {
    let mut h = Harness::opened();
    save_label(&mut h, "Back end");
    h.press("u");
    h.no_history();
    h.press("y");
    let theirs = object(
        "label",
        json!({"text": "Someone else", "color": "#333333", "fontSize": 0.5}),
    );
    h.answer(is_get, Ok(Answer::Object(theirs.into())));
    let screen = h.screen();
    assert!(screen.contains("Changed on the server"), "{screen}");
    assert!(
        screen.contains("Back end: text is \"Someone else\" (the write made it \"Back end\")"),
        "{screen}"
    );
    assert!(!h.asked(is_update));
    h.press("o");
    let (_, request) = h.take_request(is_update);
    let Request::UpdateObject { props, .. } = request else {
        unreachable!()
    };
    assert_eq!(props["text"], json!("Front end"));
}

#[test]
fn the_write_history_lists_the_writes_newest_first_with_what_is_undone() {
    let mut h = Harness::opened();
    save_label(&mut h, "Back end");
    h.press("2 g j Space Space k b");
    h.paste(r#"{"meta": {"env": "test"}}"#);
    // Replaced whole, as the API's update does (no re-read before the send).
    h.press("C-o C-s y");
    h.answer(is_bulk, Ok(Answer::Done));
    h.answer_all();
    // Undo web's part of the bulk edit.
    h.press("Esc k u");
    h.no_history();
    h.press("y");
    let mut now = content()["1a-web"].clone();
    now.data["meta"] = json!({"env": "test"});
    h.answer(is_get, Ok(Answer::Object(now.into())));
    h.answer(is_update, Ok(Answer::Done));
    h.answer_all();
    // Delete the label.
    h.press("G d y");
    h.answer(
        |r| matches!(r, Request::DeleteObject { .. }),
        Ok(Answer::Done),
    );
    h.answer_all();
    h.press("U");
    let screen = h.render(120, 30);
    let order = ["  3  delete", "  2  bulk edit", "  1  save"];
    let at: Vec<usize> = order.iter().map(|t| screen.find(t).expect(t)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "newest first: {screen}");
    assert!(
        screen.contains("2 objects: meta  (partly undone)"),
        "{screen}"
    );
    assert_snapshot!("write_history", screen);
}

#[test]
fn a_selector_apply_is_in_the_history_with_the_values_its_preview_saw() {
    let mut h = Harness::opened();
    form_on_status_down(&mut h);
    h.paste(r#"{"meta": {"status": "up"}}"#);
    // Replaced whole: the selector update.
    h.press("C-o C-s");
    let mut db = Content::new();
    db.insert("1b-db".into(), content()["1b-db"].clone());
    h.answer(
        |r| matches!(r, Request::ObjectsWhere { .. }),
        Ok(Answer::Content(db, Default::default())),
    );
    h.press("y");
    h.answer(
        |r| matches!(r, Request::UpdateWhere { .. }),
        Ok(Answer::Updated(diagtui_model::SelectorUpdated {
            success: true,
            updated_object_count: 1,
            updated_object_ids: vec!["1b-db".into()],
        })),
    );
    h.answer_all();
    h.press("Esc U");
    h.expect(r#"  1  selector apply  database matching ["status","eq","down"]: meta"#);
    h.press("Enter");
    assert!(
        h.shows(r#"~ meta.status: "up" → "down""#),
        "the value before, from the preview: {}",
        h.screen()
    );
}

#[test]
fn the_write_history_undoes_an_import_after_naming_the_count() {
    let mut h = Harness::opened();
    h.press("1 i");
    h.press("Enter");
    let file = json!({"n1": {"type": "label", "data": {"text": "new"}}});
    let job = diagtui_tui::transfer::FileJob::Read("network-overview.json".into());
    h.send(Msg::File(
        diagtui_tui::transfer::FileFor::Import(docs()[0].clone()),
        job,
        Ok(file.to_string()),
    ));
    h.press("y");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    h.answer(
        |r| matches!(r, Request::SetContent { .. }),
        Ok(Answer::Done),
    );
    h.answer_all_with(Content::new());
    h.pending.clear();
    h.press("2 U");
    h.expect("1 object replaced the 4 objects before");
    h.press("Enter");
    h.expect("back to the 4 objects it had before the import?");
    h.press("y");
    let (_, request) = h.take_request(|r| matches!(r, Request::SetContent { .. }));
    let Request::SetContent { content: back, .. } = request else {
        unreachable!()
    };
    assert_eq!(back, content());
}

#[test]
fn d_and_b_name_the_marked_objects_the_filter_hides() {
    let mut h = Harness::opened();
    // Mark web, then filter to the label.
    h.press("Space /");
    h.type_text("front");
    h.press("Enter d");
    let screen = h.screen();
    assert!(screen.contains("Delete the 1 marked object"), "{screen}");
    assert!(
        screen.contains("hidden component   web-1  [status=up env=prod]  generic.server  1a-web"),
        "{screen}"
    );
    assert!(
        screen.contains("1 of them is hidden by the filter or a folded type."),
        "{screen}"
    );
    h.press("n b");
    let screen = h.screen();
    assert!(
        screen.contains("! 1 marked object is hidden by the filter or a folded type:"),
        "{screen}"
    );
}

#[test]
fn a_component_id_outside_the_catalogue_asks_once_then_is_created() {
    let mut h = Harness::opened();
    h.press("a");
    h.press("Up Up Up Up Up Up");
    assert!(h.selected().contains("component"), "{}", h.selected());
    h.press("Enter");
    h.type_text("mycorp.custom-widget");
    assert!(h.shows("+ mycorp.custom-widget: not in the catalogue"));
    // The typed id is the last row; Up from the top wraps nowhere, so go to it.
    for _ in 0..20 {
        h.press("Down");
    }
    h.press("Enter");
    h.expect("mycorp.custom-widget is not in the catalogue: create anyway?");
    h.press("y");
    let (_, request) = h.take_request(|r| matches!(r, Request::CreateObject { .. }));
    let Request::CreateObject { props, kind, .. } = request else {
        unreachable!()
    };
    assert_eq!(kind, "component");
    assert_eq!(props["componentId"], json!("mycorp.custom-widget"));
}

#[test]
fn a_selected_type_heading_shows_a_summary_not_the_last_object() {
    let mut h = Harness::opened();
    assert!(h.shows("[VIEW] component 1a-web"));
    h.press("k");
    assert_eq!(h.selected(), "▾ component (2)");
    let screen = h.screen();
    assert!(!screen.contains("[VIEW]"), "{screen}");
    assert!(screen.contains("Properties · type component"), "{screen}");
    assert!(screen.contains("component: 2 objects, 2 shown"), "{screen}");
    assert!(screen.contains("status  down: 1 · up: 1"), "{screen}");
    assert!(
        screen.contains("`env eq dev`") && screen.contains("matches 1 of them"),
        "a selector that previews some of them: {screen}"
    );
    // Nothing to edit there; Space marks the type's objects.
    h.press("3 i");
    assert!(!h.shows("[EDIT]"));
    h.press("2 Space");
    h.expect("component: 2 objects, 2 shown, 2 marked");
}

#[test]
fn an_information_fades_an_error_stays_until_the_next_key_and_the_log_keeps_both() {
    let mut h = Harness::opened();
    h.press("y");
    assert!(h.status().contains("copied the id of web-1: 1a-web"));
    for _ in 0..INFO_TICKS {
        h.send(Msg::Tick);
    }
    assert!(!h.status().contains("copied"), "faded: {}", h.status());
    h.press("w C-s");
    h.press("Esc");
    h.edit_json("{ broken");
    h.press("C-s");
    assert!(h.status().contains("✗ cannot save"));
    for _ in 0..3 * INFO_TICKS {
        h.send(Msg::Tick);
    }
    assert!(h.status().contains("✗ cannot save"), "an error stays");
    h.press("j");
    assert!(
        !h.status().contains("cannot save"),
        "gone with the next key"
    );
    h.press("L");
    let log = h.screen();
    assert!(log.contains("copied the id of web-1: 1a-web"), "{log}");
    assert!(log.contains("✗     cannot save"), "{log}");
}

#[test]
fn small_things_warnings_whole_operator_apart_prefix_first_and_one_line() {
    let mut h = Harness::opened();
    // The row of a line group names its ends (here two free points, joined without arrows).
    assert!(h.shows("(0, 0) — (1, 1) 1d-line"), "{}", h.screen());
    // Key suggestions: those starting with what is typed first.
    h.press("w");
    h.type_text("s");
    let suggestions = h.line_with("↳");
    assert!(
        suggestions.find("status").unwrap() < suggestions.find("env").unwrap_or(usize::MAX),
        "{suggestions}"
    );
    // The operator's meaning stands apart from the value; a pasted operator is taken.
    h.press("Tab");
    h.paste("lt");
    assert!(h.line_with(" 1 key ").contains(" lt "));
    h.paste("bigger");
    assert!(
        h.status()
            .contains("the operator field takes one of eq gt lt co no")
    );
    h.press("g");
    let row = h.render(120, 30);
    let row = row.lines().find(|l| l.contains(" 1 key ")).unwrap();
    assert!(
        row.contains("gt  greater than (numeric if both are numbers) │ value "),
        "{row}"
    );
    // A warning in the form's props shows whole, even at 80 columns.
    h.press("Tab Tab");
    h.paste(r##"{"lineColor": "#F00"}"##);
    let screen = h.render(80, 24);
    let joined: String = screen.lines().collect::<Vec<_>>().join(" ");
    let words: Vec<&str> = joined.split_whitespace().collect();
    assert!(
        words
            .join(" ")
            .contains("lineColor: \"#F00\" is not a colour"),
        "{screen}"
    );
}

/// The status bar's rows of an 80 × 24 frame (the two above the footer), unquoted.
fn status_rows(h: &mut Harness) -> (String, String) {
    let buffer = h.buffer(80, 24);
    (row_text(&buffer, 21), row_text(&buffer, 22))
}

#[test]
fn an_error_that_does_not_fit_shows_whole_on_two_rows_with_its_code() {
    let mut h = Harness::opened();
    share_with_nobody(
        &mut h,
        "ghost.of.christmas.past@example.com",
        "no account has the e-mail ghost.of.christmas.past@example.com",
    );
    h.answer_all();
    let (first, second) = status_rows(&mut h);
    // Compared without the spaces: the rows break between words, or inside a long one.
    let bare = |text: &str| text.replace(' ', "");
    assert!(
        bare(&format!("{first}{second}")).contains(&bare(
            "✗ no account has the e-mail ghost.of.christmas.past@example.com; the document was not shared (HTTP 404 USER_NOT_FOUND)"
        )),
        "{first}\n{second}"
    );
    assert!(
        !second.starts_with(' '),
        "a second row of the bar: {second}"
    );
    // Read: the next key takes it away, and the panes have their row back.
    h.press("j");
    let (first, second) = status_rows(&mut h);
    assert!(first.ends_with('┘'), "the panes reach down again: {first}");
    assert!(
        second.contains("me@example.com") && !second.contains("no account"),
        "one row of status: {second}"
    );
}

#[test]
fn an_error_longer_than_two_rows_names_the_key_of_the_log() {
    let mut h = Harness::opened();
    h.press("d y");
    let long = format!("the server said {}", "very ".repeat(40));
    h.answer(
        |r| matches!(r, Request::DeleteObject { .. }),
        Err(failure(Some(500), Some("INTERNAL"), &long)),
    );
    h.answer_all();
    let (first, second) = status_rows(&mut h);
    assert!(first.contains("✗ could not delete the object"), "{first}");
    assert!(
        second.trim_end().ends_with("… (L shows it whole)"),
        "{first}\n{second}"
    );
    h.press("L");
    assert!(h.shows("very very very very"), "the log has it whole");
}
