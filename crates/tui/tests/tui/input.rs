//! Input arrives as typed (`App::update`): pastes with CR, CRLF or LF line breaks and tabs, in
//! the JSON editor and in one-line fields; Enter keeping the indentation; one-line fields that
//! scroll to keep the cursor in view; wide characters in their true columns; Space marking and
//! moving on; the palette by the actions' names; the help searched.

use diagtui_tui::{Effect, Request};
use insta::assert_snapshot;
use ratatui::buffer::Buffer;
use serde_json::json;

use crate::harness::{Harness, content, object};

/// The column of the first cell holding `symbol` on the row that has it, and that row.
fn cell_of(buffer: &Buffer, symbol: &str) -> (u16, u16) {
    let area = buffer.area;
    (area.y..area.bottom())
        .flat_map(|y| (area.x..area.right()).map(move |x| (x, y)))
        .find(|&(x, y)| buffer[(x, y)].symbol() == symbol)
        .unwrap_or_else(|| panic!("no cell holds {symbol:?}"))
}

#[test]
fn a_cr_paste_into_the_json_editor_breaks_lines_and_its_tabs_become_spaces() {
    let mut h = Harness::opened();
    h.press("3 i End");
    h.paste("\r\t\"note\": \"a\",\r\n\t\"owner\": \"ops\",");
    h.press("Esc");
    let json = h.json();
    assert!(
        json.starts_with("{\n    \"note\": \"a\",\n    \"owner\": \"ops\",\n  \"componentId\""),
        "{json}"
    );
    h.press("3 C-s");
    h.expect("+ note: added \"a\"");
    h.expect("+ owner: added \"ops\"");
}

#[test]
fn enter_in_the_json_editor_keeps_the_lines_indentation() {
    let mut h = Harness::opened();
    h.press("3 i Down End Enter");
    h.type_text("\"note\": 1,");
    h.press("Esc");
    let json = h.json();
    assert!(
        json.contains("\"generic.server\",\n  \"note\": 1,\n"),
        "{json}"
    );
}

#[test]
fn typing_in_the_json_editor_is_undone_by_words_and_redone() {
    let mut h = Harness::opened();
    h.press("3 i End Enter");
    h.type_text("\"note\": \"two words\",");
    h.expect("\"note\": \"two words\",");
    h.press("C-z");
    assert!(
        h.shows("\"note\": \"two") && !h.shows("words"),
        "{}",
        h.screen()
    );
    h.press("C-z");
    assert!(h.shows("\"note\":") && !h.shows("\"two"), "{}", h.screen());
    h.press("C-y C-y");
    h.expect("\"note\": \"two words\",");
}

#[test]
fn a_cr_paste_into_a_one_line_field_is_one_line() {
    let mut h = Harness::opened();
    h.press("2 /");
    h.paste("web\r");
    h.expect("/web▏");
    h.press("C-u");
    h.paste("generic\rserver\r\n");
    h.expect("/generic server▏");
    assert!(h.selected().contains("web-1"), "{}", h.selected());
    // The selector form's value field: a tab is a space too.
    h.press("Esc w Tab Tab");
    h.paste("do\twn\r");
    assert!(h.line_with(" 1 key ").contains("do wn▏"), "{}", h.screen());
}

#[test]
fn the_objects_filter_scrolls_to_keep_the_cursor_in_view() {
    let mut h = Harness::opened();
    h.press("2 /");
    let long = "status=down env=production region=eu-west-1 owner=ops";
    h.type_text(long);
    let screen = h.render(80, 24);
    let row = screen
        .lines()
        .find(|l| l.contains('▏'))
        .unwrap_or_else(|| panic!("the cursor is out of view:\n{screen}"));
    assert!(row.contains("…") && row.contains("owner=ops▏"), "{row}");
    // Home: back to the start, the cursor first, the end cut.
    h.press("Home");
    let screen = h.render(80, 24);
    let row = screen.lines().find(|l| l.contains('▏')).unwrap();
    assert!(row.contains("/▏status=down") && row.contains('…'), "{row}");
}

#[test]
fn wide_characters_keep_the_cursor_in_its_true_column() {
    // In a one-line field: the bar sits after the three two-column characters.
    let mut h = Harness::opened();
    h.press("2 /");
    h.type_text("数据库 🚀");
    h.press("Home Right Right Right");
    let buffer = h.buffer(120, 30);
    let (first, row) = cell_of(&buffer, "数");
    assert_eq!(cell_of(&buffer, "▏"), (first + 6, row));
    assert_eq!(cell_of(&buffer, "🚀"), (first + 8, row));

    // In the editor: a line of wide characters longer than the pane scrolls so that the cursor
    // at its end shows, the line's last character just before it.
    let mut c = content();
    let text = format!("{}尾", "数据库".repeat(15));
    c.insert("1c-title".into(), object("label", json!({ "text": text })));
    let mut h = Harness::loaded();
    h.press("Enter");
    h.answer_all_with(c);
    h.press("2 G 3 i Down End");
    let buffer = h.buffer(100, 24);
    let (tail, row) = cell_of(&buffer, "尾");
    let quote = buffer[(tail + 2, row)].symbol().to_string();
    assert_eq!(
        quote, "\"",
        "the closing quote right after the last wide character"
    );
    let line: String = (0..100).map(|x| buffer[(x, row)].symbol()).collect();
    assert!(
        line.contains('…'),
        "a marker where the line goes on: {line}"
    );
}

#[test]
fn snapshot_a_prompt_with_wide_characters_and_the_cursor() {
    let mut h = Harness::opened();
    h.press("1 n");
    h.type_text("数据库 🚀 production cluster, eu-west-1, owned by the ops team");
    h.press("Home Right Right Right Right");
    assert_snapshot!(h.render(70, 12));
}

#[test]
fn space_marks_the_object_and_moves_to_the_next_row() {
    let mut h = Harness::opened();
    assert!(h.selected().contains("web-1"), "{}", h.selected());
    h.press("Space");
    h.expect("1 marked");
    assert!(h.selected().contains("1b-db"), "{}", h.selected());
    h.press("Space");
    h.expect("2 marked");
}

#[test]
fn the_palette_shows_and_runs_actions_by_their_config_names() {
    let mut h = Harness::opened();
    h.press(":");
    h.expect("mark_shown");
    h.type_text("help");
    assert!(h.selected().contains("help"), "{}", h.selected());
    h.press("Enter");
    h.expect("╭ Keys ");

    let mut h = Harness::opened();
    h.press(":");
    h.type_text("mark_shown");
    h.press("Enter");
    h.expect("4 marked");

    let mut h = Harness::opened();
    h.press(":");
    h.type_text("quit");
    assert_eq!(h.press("Enter"), vec![Effect::Quit]);
}

#[test]
fn the_palette_ranks_a_name_begun_before_descriptions_that_match() {
    let mut h = Harness::opened();
    h.press(":");
    h.type_text("cop");
    assert!(h.selected().contains(" copy_id "), "{}", h.selected());
    h.press("C-u");
    h.type_text("del");
    assert!(h.selected().contains(" delete "), "{}", h.selected());
    h.press("Enter");
    assert!(
        !h.asked(|r| matches!(r, Request::DeleteObject { .. })),
        "it asks first"
    );
    h.expect("Delete");
}

#[test]
fn the_help_is_searched_with_slash() {
    let mut h = Harness::opened();
    h.press("?");
    h.expect("mark or unmark");
    h.press("/");
    h.type_text("undo");
    let screen = h.screen();
    assert!(screen.contains("/undo▏"), "{screen}");
    assert!(screen.contains("undo the latest write"), "{screen}");
    assert!(!screen.contains("mark or unmark"), "{screen}");
    // Enter keeps the search; Esc then closes the help.
    h.press("Enter");
    h.expect("undo the latest write");
    h.press("Esc");
    assert!(!h.shows("╭ Keys "));
    // Esc while typing clears the search and keeps the help.
    h.press("? / x y z");
    h.expect("no key matches");
    h.press("Esc");
    h.expect("mark or unmark");
}
