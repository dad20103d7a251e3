//! Rendered frames of the main screens (TestBackend + insta). Deterministic: fixed data, no
//! timestamps beyond the fixture's, the spinner only when a request is in flight at tick 0.
//! Most are text; the `NO_COLOR` and light-theme ones carry the styles too (`styled`).

use diagtui_model::Content;
use diagtui_tui::keys::KeyTable;
use diagtui_tui::theme::Theme;
use diagtui_tui::{Answer, Msg, Request, Setup};
use insta::assert_snapshot;
use ratatui::style::{Color, Modifier};
use serde_json::json;

use crate::harness::*;

fn snap(h: &mut Harness) -> String {
    h.render(120, 30)
}

/// An app with document A open, drawn with `theme`.
fn opened_with(theme: Theme) -> Harness {
    Harness::opened_with(Setup {
        theme,
        ..Setup::new("local /data/diagtui")
    })
}

#[test]
fn panes_with_data() {
    let mut h = Harness::opened();
    h.press("j");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn eighty_by_twenty_four_with_a_document_open() {
    // The documents narrow so the objects and properties get the room; cut titles end in …
    let mut h = Harness::opened();
    h.press("j");
    let screen = h.render(80, 24);
    assert!(screen.contains('…'), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn z_zooms_the_focused_pane_and_back() {
    let mut h = Harness::opened();
    h.press("3 z");
    let zoomed = h.render(80, 24);
    assert!(!zoomed.contains("Documents"), "{zoomed}");
    assert!(
        zoomed.contains("\"componentId\": \"generic.server\","),
        "{zoomed}"
    );
    assert_snapshot!(zoomed);
    h.press("z");
    assert!(h.render(80, 24).contains("1 Document"));
}

#[test]
fn no_color_keeps_selection_focus_and_marks_visible_without_colour() {
    let mut h = opened_with(Theme::plain());
    h.press("Space");
    let buffer = h.buffer(100, 24);
    for cell in buffer.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
    }
    assert_snapshot!(styled(&buffer));
}

#[test]
fn light_theme() {
    let mut h = opened_with(Theme::light());
    h.press("Space 3");
    assert_snapshot!(styled(&h.buffer(100, 24)));
}

#[test]
fn details_count_objects_from_the_server_or_say_how_to_count() {
    let mut h = Harness::loaded();
    assert!(snap(&mut h).contains("objects open it to count"));
    h.press("j");
    h.answer_all();
    assert!(snap(&mut h).contains("objects 12"));
}

#[test]
fn object_filter() {
    let mut h = Harness::opened();
    h.press("/");
    h.type_text("env=prod");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn editor_with_a_syntax_error() {
    let mut h = Harness::opened();
    h.edit_json("{\n  \"text\": \"Front end\"\n  \"color\": \"#333333\"\n}");
    h.press("i");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn editor_with_warnings() {
    let mut h = Harness::opened();
    h.edit_json("{\n  \"color\": \"red\",\n  \"position\": {\"x\": 1},\n  \"text\": 5\n}");
    h.press("i");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn save_diff() {
    let mut h = Harness::opened();
    let new = h
        .json()
        .replace("web-1", "web-9")
        .replace("\"x\": 1", "\"x\": 3");
    h.edit_json(&new);
    h.press("C-s");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn confirmation() {
    let mut h = Harness::loaded();
    h.press("D");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn help() {
    let mut h = Harness::opened();
    h.press("?");
    assert_snapshot!(h.render(120, 32));
}

#[test]
fn help_scrolls_when_it_does_not_fit() {
    let mut h = Harness::opened();
    h.press("?");
    let top = h.render(80, 24);
    assert!(top.contains("Objects pane [keys.objects]"), "{top}");
    assert!(!top.contains("click selects"), "{top}");
    h.press("G");
    let bottom = h.render(80, 24);
    // The other places' keys follow: the document history's are the last.
    assert!(bottom.contains("Esc / q / H"), "{bottom}");
    assert!(!bottom.contains("Objects pane [keys.objects]"), "{bottom}");
    assert!(
        h.render(80, 24).contains("╭ Keys "),
        "G scrolled rather than closed"
    );
}

#[test]
fn request_log() {
    let mut h = Harness::opened();
    share_with_nobody(
        &mut h,
        "x@example.com",
        "no account has the e-mail x@example.com",
    );
    h.answer_all();
    h.press("L");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn error_state() {
    let mut h = Harness::new();
    h.answer(
        |r| r == &Request::ListDocs,
        Err(failure(
            None,
            None,
            "could not connect to http://127.0.0.1:9: connection refused",
        )),
    );
    h.answer(
        |r| r == &Request::Folders,
        Err(failure(Some(401), Some("UNAUTHORIZED"), "bad key")),
    );
    h.answer(
        |r| r == &Request::WhoAmI,
        Ok(Answer::Me(diagtui_model::UserRef {
            id: "u".into(),
            email: "me@example.com".into(),
        })),
    );
    assert_snapshot!(snap(&mut h));
}

#[test]
fn tiny_terminal() {
    let mut h = Harness::opened();
    assert_snapshot!(h.render(40, 10));
}

#[test]
fn component_picker() {
    let mut h = Harness::opened();
    h.press("a Enter");
    h.type_text("gen.serv");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn palette_filters_fuzzily_and_runs() {
    let mut h = Harness::opened();
    h.press(":");
    h.type_text("del");
    assert_snapshot!(snap(&mut h));
    h.press("Enter");
    assert!(
        h.shows("Delete component web-1 (1a-web)"),
        "the palette ran delete"
    );
}

#[test]
fn palette_opens_a_document_by_title() {
    let mut h = Harness::opened();
    h.press(":");
    h.type_text("prod clu");
    assert_eq!(h.selected(), "open Production cluster");
    h.press("Enter");
    assert!(h.asked(|r| r == &Request::Content { doc: DOC_B.into() }));
    assert!(h.shows("2 Objects · Production cluster"));
}

#[test]
fn a_remapped_key_drives_dispatch_footer_help_and_palette() {
    let settings = diagtui_tui::settings::UiSettings {
        keys: vec![diagtui_tui::settings::KeySetting {
            context: diagtui_tui::settings::Located::new("objects".into(), 1),
            action: diagtui_tui::settings::Located::new("delete".into(), 2),
            keys: diagtui_tui::settings::Located::new(vec!["x".into()], 2),
        }],
        ..Default::default()
    };
    let keys = KeyTable::configured(&settings.keys).unwrap();
    let mut h = Harness::opened_with(Setup {
        keys,
        ..Setup::new("local /data/diagtui")
    });
    h.press("d");
    assert!(!h.shows("Delete component"), "d does nothing now");
    assert!(h.footer().contains("x delete"), "{}", h.footer());
    h.press("x");
    assert!(h.shows("Delete component web-1 (1a-web)"));
    h.press("n ?");
    assert!(h.line_with("delete the object").contains(" x "));
    h.press("Esc :");
    h.type_text("delete the obj");
    assert!(h.selected().starts_with("x "), "{}", h.selected());
}

#[test]
fn the_end_of_a_list_then_a_taller_terminal_shows_the_rows_above() {
    let many: Content = (0..60)
        .map(|i| {
            (
                format!("obj-{i:02}"),
                object("label", json!({"text": format!("label {i}")})),
            )
        })
        .collect();
    let mut h = Harness::loaded();
    h.press("Enter");
    h.answer_all_with(many);
    h.send(Msg::Resize(80, 24));
    h.press("G");
    let small = h.render(80, 24);
    assert!(small.contains("\"label 59\""), "{small}");
    assert!(!small.contains("▾ label (60)"), "{small}");
    let tall = h.render(140, 70);
    assert!(
        tall.contains("▾ label (60)"),
        "the heading and first rows show again: {tall}"
    );
    assert!(tall.contains("\"label 59\""), "{tall}");
}

#[test]
fn no_color_shows_a_questions_highlighted_answer_reversed() {
    let mut h = opened_with(Theme::plain());
    h.press("d");
    let buffer = h.buffer(100, 24);
    for cell in buffer.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
    }
    let (y, line) = (0..buffer.area.height)
        .map(|y| (y, row_text(&buffer, y)))
        .find(|(_, l)| l.contains("▸ n / Esc: no"))
        .expect("the answers line");
    let at = line[..line.find('▸').unwrap()].chars().count() as u16;
    for x in at..at + "▸ n / Esc: no".chars().count() as u16 {
        assert!(
            buffer[(x, y)].modifier.contains(Modifier::REVERSED),
            "the safe answer is highlighted: {line}"
        );
    }
    assert_snapshot!(styled(&buffer));
}

/// The sample documents a fresh local server creates (`src/server/samples.rs` builds these
/// files in), by a short name.
const SAMPLES: [(&str, &str); 3] = [
    (
        "web_platform",
        include_str!("../../../../assets/samples/web-platform.json"),
    ),
    (
        "data_pipeline",
        include_str!("../../../../assets/samples/data-pipeline.json"),
    ),
    (
        "edge_network",
        include_str!("../../../../assets/samples/edge-network.json"),
    ),
];

/// Each sample's tree, as a user meets it: every object by its name (components by `name`,
/// areas by their meta and the labels they enclose, line groups by their ends), at 80 × 24 and
/// 120 × 40.
#[test]
fn each_sample_documents_tree_at_80_by_24_and_120_by_40() {
    for (name, file) in SAMPLES {
        let sample: serde_json::Value = serde_json::from_str(file).unwrap();
        let content: Content = serde_json::from_value(sample["content"].clone()).unwrap();
        let mut h = Harness::new();
        h.answer_all_with(content.clone());
        h.press("Enter");
        h.answer_all_with(content);
        let narrow = h.render(80, 24);
        assert!(
            !narrow.contains("4 corners") && !narrow.contains("anchors,"),
            "{name}: areas and line groups are named:\n{narrow}"
        );
        assert_snapshot!(format!("sample_{name}_80x24"), narrow);
        assert_snapshot!(format!("sample_{name}_120x40"), h.render(120, 40));
    }
}

/// The Web platform sample after orders-db was deleted, at 80 × 24: the line groups that ended
/// at it keep their names, the deleted end named by the name it last had.
#[test]
fn line_groups_of_a_deleted_component_at_80_by_24() {
    let mut h = crate::deleted_names::on_orders_db();
    h.press("d y");
    h.answer(
        |r| matches!(r, Request::DeleteObject { .. }),
        Ok(Answer::Done),
    );
    // The line groups in view (the cursor moved onto them), the pane zoomed to read them whole.
    h.press("G z");
    let frame = h.render(80, 24);
    assert!(frame.contains("(deleted) orders-db"), "{frame}");
    assert_snapshot!("line_groups_of_a_deleted_component_80x24", frame);
}
