//! Every action findable from anywhere (`App::update`): the palette and the help hold every
//! pane's and overlay's actions, grouped by where they work; an action picked in the palette
//! runs in its pane (focused first), or the status bar says where it works and what it needs.

use crate::harness::Harness;

#[test]
fn the_palette_from_the_documents_pane_runs_the_objects_panes_actions_there() {
    let mut h = Harness::opened();
    h.press("1");
    assert_eq!(h.focused(), "Documents");
    h.press(":");
    h.type_text("mark_shown");
    let row = h.selected();
    assert!(
        row.contains("mark_shown") && row.contains(" objects pane: mark every object"),
        "{row}"
    );
    h.press("Enter");
    h.expect("4 marked");
    assert_eq!(h.focused(), "Objects");
}

#[test]
fn the_palette_finds_the_selector_form_and_the_maps_keys_before_the_map_is_open() {
    let mut h = Harness::opened();
    h.press("1 :");
    h.type_text("selector");
    let row = h.selected();
    assert!(
        row.starts_with("w ") && row.contains(" selector ") && row.contains(" objects pane: "),
        "{row}"
    );
    h.press("C-u");
    h.type_text("zoom_in");
    let row = h.selected();
    assert!(
        row.contains("zoom_in") && row.contains(" the map: "),
        "{row}"
    );
    h.press("Enter");
    assert_eq!(h.focused(), "Map");
}

#[test]
fn an_action_that_needs_a_document_says_so() {
    let mut h = Harness::loaded();
    h.press(":");
    h.type_text("mark_shown");
    h.press("Enter");
    let status = h.status();
    assert!(
        status.contains("mark_shown (V) works in the objects pane: open a document first"),
        "{status}"
    );
    assert_eq!(h.focused(), "Documents");
}

#[test]
fn an_overlays_action_says_where_it_works_and_how_to_open_it() {
    let mut h = Harness::opened();
    h.press(":");
    h.type_text("mark_matches");
    h.press("Enter");
    let status = h.status();
    assert!(
        status.contains(
            "mark_matches (Ctrl-K) works in the selector form: w in the objects pane opens it"
        ),
        "{status}"
    );
}

#[test]
fn making_a_document_from_a_file_says_which_prompt_and_how_to_open_it() {
    // Found by its description ("Mermaid"), it belongs to one prompt of several.
    let mut h = Harness::loaded();
    h.press(":");
    h.type_text("mermaid");
    assert!(h.selected().contains("from_file"), "{}", h.selected());
    h.press("Enter");
    let status = h.status();
    assert!(
        status.contains(
            "from_file (Ctrl-O) works in the new-document prompt: n in the documents pane opens it"
        ),
        "{status}"
    );
}

#[test]
fn the_help_from_the_documents_pane_holds_every_panes_actions_with_their_names() {
    let mut h = Harness::opened();
    h.press("1 ? /");
    h.type_text("undo");
    let screen = h.screen();
    assert!(screen.contains("undo the latest write"), "{screen}");
    assert!(screen.contains("Objects pane [keys.objects]"), "{screen}");
    h.press("Esc Esc ? /");
    h.type_text("mark_shown");
    let screen = h.screen();
    assert!(
        screen.contains("V") && screen.contains("mark every object the filter shows"),
        "{screen}"
    );
}
