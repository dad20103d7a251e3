//! The map: shown in the properties' place, drawn from the scene (built off the input loop),
//! moved and zoomed, selecting with the tree, marks and the filter, the connections list;
//! `App::update` driven by messages, and the frames it draws.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use diagtui_tui::{Effect, Msg, Request, Setup};
use ratatui::style::{Color, Modifier};
use serde_json::json;

use crate::harness::*;

/// The line under the map that says where the cross is: `✛ x, y  ×zoom  on what`.
fn info(h: &mut Harness) -> String {
    let line = h.line_with("  ×");
    let at = line.find("✛ ").unwrap();
    line[at..]
        .trim_end_matches([' ', '┃', '│', '"'])
        .to_string()
}

/// The screen position (column, row) of `text`'s first character, on the wide screen.
fn position_of(h: &mut Harness, text: &str) -> (u16, u16) {
    let screen = h.screen();
    for (row, line) in screen.lines().enumerate() {
        if let Some(at) = line.find(text) {
            // The test backend quotes each line.
            let column = line[..at].chars().count() - 1;
            return (column as u16, row as u16);
        }
    }
    panic!("the screen does not show {text:?}:\n{screen}")
}

fn mouse(h: &mut Harness, kind: MouseEventKind, (column, row): (u16, u16)) {
    h.send(Msg::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

/// The selected object as the tree has it (the focus goes to the tree to read it, then back).
fn tree_selection(h: &mut Harness) -> String {
    h.press("2");
    let selected = h.selected();
    h.press("3");
    selected
}

#[test]
fn m_shows_the_map_in_the_place_of_the_properties_and_m_or_esc_goes_back() {
    let mut h = Harness::on_map();
    assert_eq!(h.focused(), "Map");
    h.expect("3 Map · Network overview");
    assert!(!h.shows("Properties"), "{}", h.screen());
    let footer = h.footer();
    assert!(
        footer.starts_with("+ zoom in  - zoom out  0 fit  Enter select"),
        "{footer}"
    );

    h.press("m");
    assert_eq!(h.focused(), "Objects");
    assert!(!h.shows("3 Map"));
    h.press("m");
    assert_eq!(h.focused(), "Map");
    h.press("Esc");
    assert_eq!(h.focused(), "Objects");
    assert!(!h.shows("3 Map"));

    // From the palette, and Tab and 3 reach the map where the properties were.
    h.press(":");
    h.type_text("map");
    h.press("Enter");
    assert_eq!(h.focused(), "Map");
    h.press("2 Tab");
    assert_eq!(h.focused(), "Map");
    h.press("2 3");
    assert_eq!(h.focused(), "Map");

    // z gives it the whole screen, and back.
    h.press("z");
    assert!(!h.shows("2 Objects"));
    h.expect("3 Map");
    h.press("z");
    h.expect("2 Objects");
}

#[test]
fn the_map_draws_titles_by_status_and_counts_what_could_not_be_placed() {
    let mut h = Harness::on_map();
    for text in [
        "✓ api-gateway",
        "! orders",
        "✗ orders-db",
        "redis",
        "Orders platform",
        "! 1 object could not be placed",
    ] {
        h.expect(text);
    }
    assert_eq!(info(&mut h), "✛ 0.0, 0.0  ×1.0  on area Orders platform");
    // The tree reads the relationships too: a line group by its ends, a component's count.
    h.expect("api-gateway → orders l-1");
    h.expect("api-gateway — redis l-3");
    h.expect("orders [status=degraded] · 2 connections compute.service c-orders");
    h.expect("generic.server x-lost");
}

#[test]
fn the_keys_zoom_pan_and_fit_the_view() {
    let mut h = Harness::on_map();
    h.press("+");
    assert!(
        info(&mut h).starts_with("✛ 0.0, 0.0  ×1.5"),
        "{}",
        info(&mut h)
    );
    h.press("- -");
    assert!(
        info(&mut h).starts_with("✛ 0.0, 0.0  ×0.7"),
        "{}",
        info(&mut h)
    );
    h.press("0 l l");
    let moved = info(&mut h);
    assert!(!moved.starts_with("✛ 0.0, 0.0"), "{moved}");
    h.press("h Left");
    assert!(info(&mut h).starts_with("✛ 0.0, 0.0"), "{}", info(&mut h));
    h.press("j k Down Up");
    assert!(
        info(&mut h).starts_with("✛ 0.0, 0.0  ×1.0"),
        "{}",
        info(&mut h)
    );
    h.press("+ + + l");
    h.press("0");
    assert!(
        info(&mut h).starts_with("✛ 0.0, 0.0  ×1.0"),
        "{}",
        info(&mut h)
    );
}

#[test]
fn enter_and_n_select_on_the_map_and_the_tree_follows() {
    let mut h = Harness::on_map();
    // Nothing but the area lies under the cross at the centre.
    h.press("Enter");
    assert_eq!(h.focused(), "Map");
    assert!(tree_selection(&mut h).contains("a-net"));
    // By position: the area's top edge, the title label, then api-gateway.
    h.press("n");
    assert!(tree_selection(&mut h).contains("t-title"));
    h.press("n");
    assert!(tree_selection(&mut h).contains("c-gw"));
    assert_eq!(h.selected(), "✓ api-gateway", "highlighted on the map");
    h.press("N");
    assert!(tree_selection(&mut h).contains("t-title"));
    // Out of the area, the cross on nothing says so.
    h.press("0 l l l l l l l l");
    h.press("Enter");
    assert!(
        h.status().contains("nothing under the cross"),
        "{}",
        h.status()
    );
}

#[test]
fn the_tree_selection_is_highlighted_on_the_map_and_brought_into_view() {
    let mut h = Harness::on_map();
    h.press("+ + + + +");
    assert!(!h.shows("✗ orders-db"));
    // In the tree: the component heading, then cache, then the database.
    h.press("2 g j j");
    assert!(h.selected().contains("c-db"), "{}", h.selected());
    h.expect("✗ orders-db");
    let (column, row) = position_of(&mut h, "✗ orders-db");
    let cell = &h.buffer(200, 50)[(column, row)];
    assert!(cell.modifier.contains(Modifier::REVERSED));
}

#[test]
fn a_click_selects_the_wheel_zooms_and_a_drag_pans() {
    let mut h = Harness::on_map();
    // The database's box is just above its title.
    let (column, row) = position_of(&mut h, "✗ orders-db");
    let centre = column + "✗ orders-db".chars().count() as u16 / 2;
    mouse(
        &mut h,
        MouseEventKind::Down(MouseButton::Left),
        (centre, row - 1),
    );
    mouse(
        &mut h,
        MouseEventKind::Up(MouseButton::Left),
        (centre, row - 1),
    );
    assert_eq!(h.selected(), "✗ orders-db");
    assert!(tree_selection(&mut h).contains("c-db"));

    let (cross, cross_row) = position_of(&mut h, "✛ 0.0");
    let _ = cross;
    // The wheel zooms about the pointer: at the cross's place in the drawing it zooms in place.
    let (x, y) = position_of(&mut h, "✛");
    assert_ne!((x, y), (0, cross_row), "the cross is drawn in the map");
    mouse(&mut h, MouseEventKind::ScrollUp, (x, y));
    assert!(info(&mut h).contains("×1.5"), "{}", info(&mut h));
    mouse(&mut h, MouseEventKind::ScrollDown, (x, y));
    assert!(info(&mut h).contains("×1.0"), "{}", info(&mut h));

    // A drag from empty space moves the drawing with the pointer.
    mouse(&mut h, MouseEventKind::Down(MouseButton::Left), (x, y - 3));
    mouse(
        &mut h,
        MouseEventKind::Drag(MouseButton::Left),
        (x + 10, y - 3),
    );
    mouse(
        &mut h,
        MouseEventKind::Up(MouseButton::Left),
        (x + 10, y - 3),
    );
    let moved = info(&mut h);
    assert!(moved.starts_with("✛ -"), "the view went left: {moved}");
}

#[test]
fn connections_list_what_joins_a_component_and_jump_to_one() {
    let mut h = Harness::on_map();
    // On the map, > needs a component.
    h.press("Enter >");
    assert!(h.status().contains("select a component"), "{}", h.status());
    // In the tree: the orders service (heading, cache, db, gateway, orders).
    h.press("2 g j j j j >");
    h.expect("orders has 3 connections:");
    h.expect("← component api-gateway");
    h.expect("→ component orders-db");
    h.expect("□ inside area Orders platform");
    h.press("j Enter");
    assert!(!h.shows("Connections"));
    assert_eq!(h.focused(), "Objects");
    assert!(h.selected().contains("c-db"), "{}", h.selected());

    // From the map, the focus comes back to the map.
    h.press("3 >");
    h.expect("orders-db has 2 connections:");
    h.press("Enter");
    assert_eq!(h.focused(), "Map");
    assert!(tree_selection(&mut h).contains("c-orders"));
    h.press("> Esc");
    assert!(!h.shows("Connections"));
}

#[test]
fn what_the_filter_hides_is_dimmed_and_marks_stand_out() {
    let mut h = Harness::on_map();
    // Mark the gateway, then filter the tree down to the orders objects.
    h.press("2 g j j j Space k");
    h.press("/");
    h.type_text("orders");
    h.press("Enter 3");
    let buffer = h.buffer(200, 50);
    let style_of = |h: &mut Harness, text: &str| {
        let (column, row) = position_of(h, text);
        buffer[(column + 2, row)].fg
    };
    assert_eq!(style_of(&mut h, "redis"), Color::DarkGray, "hidden: dimmed");
    assert_eq!(
        style_of(&mut h, "! orders"),
        Color::Yellow,
        "shown: its status"
    );
    h.expect("● ✓ api-gateway");
    assert_eq!(
        style_of(&mut h, "● ✓ api-gateway"),
        Color::LightMagenta,
        "marked, though hidden"
    );
    // n skips what the filter hides: the title, then orders, then orders-db.
    h.press("n");
    assert!(tree_selection(&mut h).contains("t-title"));
    h.press("n");
    assert!(tree_selection(&mut h).contains("c-orders"));
}

#[test]
fn the_scene_is_built_off_the_input_loop_once_per_change() {
    let mut h = Harness::new();
    h.answer_all_with(map_content());
    h.press("Enter m");
    h.expect("loading…");
    let (id, _) = h.take_request(|r| matches!(r, Request::Content { .. }));
    // The reply asks for the scene; until it is built the map says so.
    let effects = h.app.update(Msg::Api(diagtui_tui::Reply {
        id,
        latency: std::time::Duration::from_millis(3),
        outcome: Ok(objects(map_content())),
    }));
    let jobs: Vec<_> = effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::BuildScene(job) => Some(job),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 1);
    h.expect("drawing the map…");
    assert!(
        h.press("j k").is_empty(),
        "no second build while one is under way"
    );
    let job = jobs.into_iter().next().unwrap();
    h.send(Msg::Scene(job.clone().run()));
    h.expect("✓ api-gateway");
    assert!(
        h.press("+ n")
            .iter()
            .all(|e| !matches!(e, Effect::BuildScene(_)))
    );
    // A late copy of the same scene changes nothing; a reload asks again.
    h.send(Msg::Scene(job.run()));
    h.expect("✓ api-gateway");
    h.press("R");
    h.answer_all_with(map_content());
    assert!(
        h.effects.iter().any(|e| matches!(e, Effect::BuildScene(_))),
        "{:?}",
        h.effects
    );
}

#[test]
fn the_status_key_is_the_configured_one() {
    let mut h = Harness::on_map_with(Setup {
        status_key: "tier".into(),
        ..Setup::new("local /data/diagtui")
    });
    h.expect("api-gateway");
    assert!(!h.shows("✓ api-gateway"), "{}", h.screen());
    assert!(!h.shows("✗ orders-db"));
}

#[test]
fn without_a_document_or_objects_the_map_says_why() {
    let mut h = Harness::loaded();
    h.press("m");
    h.expect("open a document (Enter in the documents pane)");
    assert!(
        h.press("+ 0 n Enter")
            .iter()
            .all(|e| !matches!(e, Effect::Request(..)))
    );
    let mut h = Harness::new();
    h.answer_all_with(Default::default());
    h.press("Enter");
    h.answer_all_with(Default::default());
    h.press("m");
    h.expect("nothing to draw: the document has no objects");
    h.press("n");
    assert!(h.status().contains("nothing on the map"), "{}", h.status());
}

/// The map with the orders service selected and the database marked, the map focused.
fn selected_and_marked(setup: Setup) -> Harness {
    let mut h = Harness::on_map_with(setup);
    h.press("2 g j j Space j 3");
    h
}

#[test]
fn snapshot_map_at_80_by_24() {
    let mut h = selected_and_marked(Setup::new("local /data/diagtui"));
    let screen = h.render(80, 24);
    assert!(screen.contains("● ✗ orders-db"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn snapshot_map_at_120_by_40() {
    let mut h = selected_and_marked(Setup::new("local /data/diagtui"));
    insta::assert_snapshot!(h.render(120, 40));
}

#[test]
fn with_graphics_off_the_map_is_the_braille_one() {
    use diagtui_tui::runtime::graphics::detect;
    use diagtui_tui::settings::GraphicsSetting;
    let graphics = detect(GraphicsSetting::Off);
    assert_eq!(graphics, None, "off asks the terminal nothing");
    let setup = Setup {
        graphics: GraphicsSetting::Off,
        ..Setup::new("local /data/diagtui")
    };
    let mut h = selected_and_marked(setup);
    assert!(
        h.app.use_graphics(graphics).is_empty(),
        "no picture is drawn"
    );
    // The very frame of `snapshot_map_at_120_by_40`.
    insta::assert_snapshot!("snapshot_map_at_120_by_40", h.render(120, 40));
}

#[test]
fn snapshot_map_zoomed_in_the_light_theme_with_styles() {
    let mut h = selected_and_marked(Setup {
        theme: diagtui_tui::theme::Theme::light(),
        ..Setup::new("local /data/diagtui")
    });
    h.render(80, 24);
    h.press("z +");
    insta::assert_snapshot!(styled(&h.buffer(80, 24)));
}

#[test]
fn snapshot_map_without_colour_keeps_every_distinction() {
    let mut h = selected_and_marked(Setup {
        theme: diagtui_tui::theme::Theme::plain(),
        ..Setup::new("local /data/diagtui")
    });
    let buffer = h.buffer(80, 24);
    for cell in buffer.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
    }
    insta::assert_snapshot!(styled(&buffer));
}

#[test]
fn the_readout_names_the_selection_and_what_the_cross_is_on_when_it_differs() {
    let mut h = Harness::on_map();
    // Enter selects what is under the cross: the area, named by the label it encloses.
    h.press("Enter");
    let line = h.line_with("▸ ");
    assert!(
        line.contains("▸ area Orders platform  ! 1 object could not be placed"),
        "{line}"
    );
    assert_eq!(
        info(&mut h),
        "✛ 0.0, 0.0  ×1.0",
        "the cross is on the selection"
    );
    // n selects the next by position (the title label); the cross stays on the area.
    h.press("n");
    assert!(h.line_with("▸ ").contains("▸ label Orders platform"));
    assert_eq!(info(&mut h), "✛ 0.0, 0.0  ×1.0  on area Orders platform");
}

#[test]
fn the_cross_never_hides_a_letter_of_a_title() {
    // A title centred where the cross is: the middle of the diagram.
    let component = |x: f64| {
        object(
            "component",
            json!({"componentId": "cache.redis", "position": {"x": x, "y": 0}}),
        )
    };
    let mut content = diagtui_model::Content::new();
    content.insert("c-left".into(), component(-10.0));
    content.insert("c-right".into(), component(10.0));
    content.insert(
        "t-title".into(),
        object(
            "label",
            json!({"text": "Session cache", "position": {"x": 0, "y": 0}}),
        ),
    );
    let mut h = Harness::new();
    h.answer_all_with(content.clone());
    h.press("Enter");
    h.answer_all_with(content);
    // The map alone on the screen, so the title is written once.
    h.press("m z");
    let buffer = h.buffer(100, 30);
    let (x, y) = (0..buffer.area.height)
        .find_map(|y| {
            let row = row_text(&buffer, y);
            let at = row.find("Session cache")?;
            Some((row[..at].chars().count() as u16, y))
        })
        .unwrap_or_else(|| panic!("the title is whole:\n{}", styled(&buffer)));
    let crossed: Vec<u16> = (x..x + 13)
        .filter(|&c| buffer[(c, y)].modifier.contains(Modifier::REVERSED))
        .collect();
    assert_eq!(
        crossed.len(),
        1,
        "the cross shows as one letter of the title, reversed:\n{}",
        styled(&buffer)
    );
    let drawn = (0..buffer.area.height)
        .filter(|&r| row_text(&buffer, r).contains('✛') && !row_text(&buffer, r).contains("×"))
        .count();
    assert_eq!(drawn, 0, "no cross symbol over the drawing");
}

/// A diagram far larger than the screen, fitted whole: a shape smaller than a braille dot is
/// that dot, drawn once however many fall into it, and the marked object's dot shows over the
/// plain ones sharing it; no title is squeezed under a box narrower than a column.
#[test]
fn snapshot_a_large_diagram_fitted_whole() {
    let mut h = Harness::opened_on(diagtui_testkit::diagram::document(10_000));
    h.press("Space j m z");
    let buffer = h.buffer(80, 24);
    let marked = Setup::new("local")
        .theme
        .of(diagtui_tui::theme::Role::MapMarked);
    assert!(
        buffer
            .content()
            .iter()
            .any(|cell| cell.fg == marked.fg.unwrap()),
        "the marked object shows"
    );
    insta::assert_snapshot!(styled(&buffer));
}

#[test]
fn a_title_of_several_lines_is_drawn_on_its_lines() {
    let mut content = diagtui_model::Content::new();
    content.insert(
        "store".into(),
        object(
            "component",
            json!({"componentId": "generic.database", "name": "Trace\nStorage",
                   "position": {"x": 0, "y": 0}}),
        ),
    );
    content.insert(
        "web".into(),
        object(
            "component",
            json!({"componentId": "generic.server", "name": "web", "position": {"x": 8, "y": 0}}),
        ),
    );
    let mut h = Harness::opened_on(content);
    h.press("m");
    let screen = h.screen();
    // Where a word is on the map (right of its left border; the tree names it too).
    let on_map = |word: &str| {
        screen.lines().enumerate().find_map(|(row, line)| {
            let map = &line[line.find('┃')?..];
            map.find(word).map(|at| (map[..at].chars().count(), row))
        })
    };
    let shown = |word: &str| on_map(word).unwrap_or_else(|| panic!("no {word} in\n{screen}"));
    let (first_column, first_row) = shown("Trace");
    let (second_column, second_row) = shown("Storage");
    assert_eq!(second_row, first_row + 1, "{screen}");
    assert!(first_column.abs_diff(second_column) <= 1, "{screen}");
}
