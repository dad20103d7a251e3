//! Messages that fit: the status bar breaks between words at any width, the request log keeps
//! a request to a row at 80 columns, and `Ctrl-L` opens the log from a prompt.

use crate::harness::*;

/// The status bar's rows (the two above the footer) at `width` × 24.
fn bar_rows(h: &mut Harness, width: u16) -> Vec<String> {
    let screen = h.render(width, 24);
    let lines: Vec<&str> = screen.lines().collect();
    lines[21..23]
        .iter()
        .map(|l| l.trim_matches('"').to_string())
        .collect()
}

#[test]
fn the_status_bar_breaks_between_words_at_any_width() {
    for width in [60, 64, 71, 80] {
        let mut h = Harness::opened();
        // "copied the id of web-1: 1a-web", then a message no row holds whole.
        h.press("y");
        let rows = bar_rows(&mut h, width);
        let words = "copied the id of web-1: 1a-web";
        for word in words.split(' ') {
            assert!(
                rows.iter().any(|r| r.split(' ').any(|w| w == word)),
                "{width}: {word:?} is broken across rows: {rows:#?}"
            );
        }
    }
}

#[test]
fn ctrl_l_opens_the_log_from_a_prompt_and_closes_back_to_it() {
    let mut h = Harness::loaded();
    h.press("n");
    h.type_text("Log");
    assert!(h.shows("New document"));
    h.press("C-l");
    assert!(h.shows("Request log"), "{}", h.screen());
    h.press("Esc");
    assert!(!h.shows("Request log"));
    let prompt = h.overlay_text("New document");
    assert!(
        prompt.contains("Log"),
        "the prompt keeps its text: {prompt}"
    );
}

#[test]
fn the_request_log_keeps_a_request_to_a_row_at_80_columns() {
    let mut h = Harness::opened();
    h.press("L");
    let screen = h.render(80, 24);
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains("/api/v1/")).collect();
    assert!(!rows.is_empty(), "{screen}");
    for row in rows {
        // Method, path, status and latency on the row itself; no row wraps onto the next.
        assert!(row.contains(" 200 "), "{row}\n{screen}");
    }
    assert!(
        !screen
            .lines()
            .any(|l| l.trim_matches(['"', '│', ' ']).starts_with("12.0")),
        "a latency wrapped onto its own row:\n{screen}"
    );
}
