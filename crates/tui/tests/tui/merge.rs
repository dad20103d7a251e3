//! Marks belong to the user, nested merges (issue 19), through `App::update`: a selector
//! preview shows its matches in a style of its own and never changes the marks; a key marks
//! them; the switch `nested: merge | replace` in the selector form and the bulk edit; a merge
//! reads the matches, sends each its own merged value in one bulk update after the save's
//! conflict check, and is undone value by value.

use diagtui_model::{Content, Props};
use diagtui_tui::{Answer, Request};
use serde_json::{Value, json};

use crate::harness::*;

/// The two components of the fixture.
fn components() -> Content {
    let mut c = content();
    c.retain(|_, o| o.kind == "component");
    c
}

fn is_bulk(r: &Request) -> bool {
    matches!(r, Request::BulkUpdate { .. })
}

fn props(v: Value) -> Props {
    v.as_object().unwrap().clone()
}

/// The objects of the bulk update `request`.
fn bulk_objects(request: &Request) -> std::collections::BTreeMap<String, Props> {
    let Request::BulkUpdate { objects, .. } = request else {
        panic!("not a bulk update: {request:?}")
    };
    objects.clone()
}

/// The tree's row of `obj`, read on a screen so wide that the form leaves the tree in view.
fn tree_row(h: &mut Harness, obj: &str) -> String {
    let screen = h.render(300, 50);
    let line = screen
        .lines()
        .find(|l| l.contains(obj) && !l.contains("Properties"))
        .unwrap_or_else(|| panic!("no row of {obj}:\n{screen}"));
    line.split(['│', '┃'])
        .find(|part| part.contains(obj))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_preview_never_changes_the_users_marks() {
    let mut h = Harness::opened();
    // The user marks web-1 (the selected row), then previews a selector matching nothing.
    h.press("Space");
    assert!(h.shows("1 marked"));
    fill_form(&mut h, "status", "gone", r#"{"name": "x"}"#);
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(Content::new(), Default::default())),
    );
    assert!(h.shows("Preview: 0 objects match"));
    assert!(h.shows("1 marked"), "the marks stay: {}", h.screen());
    // A preview that matches the db shows it ◇, beside the user's mark, and marks nothing.
    h.press("BackTab C-u");
    h.type_text("down");
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    assert!(h.shows("1 marked"));
    assert!(
        tree_row(&mut h, "1b-db").contains('◇'),
        "{}",
        h.render(300, 50)
    );
    assert!(
        tree_row(&mut h, "1a-web").contains('●'),
        "{}",
        h.render(300, 50)
    );
    // Closing the form ends the preview; the marks are as the user left them.
    h.press("Esc");
    assert!(!tree_row(&mut h, "1b-db").contains('◇'));
    assert!(!tree_row(&mut h, "1b-db").contains('●'));
    assert!(tree_row(&mut h, "1a-web").contains('●'));
    assert!(h.shows("1 marked"));
}

#[test]
fn after_a_preview_d_on_a_row_asks_about_that_row_only() {
    let mut h = Harness::opened();
    fill_form(&mut h, "env", "dev", r#"{"name": "x"}"#);
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(components(), Default::default())),
    );
    h.press("Esc j d");
    let screen = h.screen();
    assert!(!screen.contains("marked objects"), "{screen}");
    assert!(
        screen.contains("Delete component database (1b-db)"),
        "{screen}"
    );
}

#[test]
fn a_marked_preview_match_shows_both_and_a_key_marks_the_matches() {
    let mut h = Harness::opened();
    h.press("w C-k");
    assert!(h.status().contains("nothing to mark"), "{}", h.status());
    h.press("Esc Space");
    fill_form(&mut h, "env", "dev", r#"{"name": "x"}"#);
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(components(), Default::default())),
    );
    assert!(
        tree_row(&mut h, "1a-web").contains('◈'),
        "marked and a match"
    );
    assert!(tree_row(&mut h, "1b-db").contains('◇'));
    h.press("C-k");
    assert!(
        h.status().contains("marked the 2 matches"),
        "{}",
        h.status()
    );
    h.press("Esc");
    assert!(h.shows("2 marked"));
    assert!(tree_row(&mut h, "1b-db").contains('●'));
}

#[test]
fn the_preview_style_shows_without_colours() {
    let mut h = Harness::opened_with(diagtui_tui::Setup {
        theme: diagtui_tui::theme::Theme::plain(),
        ..diagtui_tui::Setup::new("local /data/diagtui")
    });
    fill_form(&mut h, "status", "down", r#"{"name": "x"}"#);
    h.press("C-p");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    let buffer = h.buffer(300, 50);
    let (x, y) = (0..buffer.area.height)
        .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
        .find(|&(x, y)| buffer[(x, y)].symbol() == "◇")
        .expect("the preview's mark");
    assert!(
        buffer[(x + 2, y)]
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED),
        "the match's row is underlined"
    );
}

#[test]
fn the_switch_shows_in_the_form_and_the_bulk_edit() {
    let mut h = Harness::opened();
    h.press("w");
    assert!(h.line_with("nested:").contains(" merge | replace "));
    h.press("C-o");
    assert!(h.status().contains("nested: replace"));
    h.press("Esc Space b");
    assert!(
        h.line_with("nested:").contains("other keys kept"),
        "{}",
        h.screen()
    );
    h.press("C-o");
    assert!(h.line_with("nested:").contains("replaces the value whole"));
}

#[test]
fn a_merge_from_the_form_rereads_then_sends_each_match_its_own_value() {
    let mut h = Harness::opened();
    fill_form(&mut h, "env", "dev", r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(components(), Default::default())),
    );
    let screen = h.screen();
    assert!(
        screen.contains("2 objects change of the 2 matches"),
        "{screen}"
    );
    assert!(screen.contains("+ meta.owner: added \"ops\""), "{screen}");
    assert!(screen.contains("nested: merge"), "{screen}");
    assert!(!h.asked(is_bulk));
    // Yes reads the matches again (the save's conflict check), then sends.
    h.press("y");
    assert!(!h.asked(is_bulk), "not before the re-read");
    h.answer(
        is_where,
        Ok(Answer::Content(components(), Default::default())),
    );
    let (id, request) = h.take_request(is_bulk);
    let objects = bulk_objects(&request);
    assert_eq!(
        objects["1a-web"],
        props(json!({"meta": {"env": "prod", "status": "up", "owner": "ops"}}))
    );
    assert_eq!(
        objects["1b-db"],
        props(json!({"meta": {"env": "dev", "status": "down", "owner": "ops"}}))
    );
    assert!(!h.asked(|r| matches!(r, Request::UpdateWhere { .. })));
    h.reply(id, Ok(Answer::Done));
    assert!(
        h.status().contains("merged into 2 objects"),
        "{}",
        h.status()
    );
    assert!(h.shows("updatedObjectCount: 2"));
    assert!(h.asked(|r| matches!(r, Request::Content { .. })));

    // Undo puts back each object's own previous meta.
    h.press("Esc");
    h.answer_all();
    h.press("U");
    assert!(h.shows("selector apply"), "{}", h.screen());
    h.press("Enter");
    h.press("y");
    h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects_after_merge()),
    );
    let (_, request) = h.take_request(is_bulk);
    let objects = bulk_objects(&request);
    assert_eq!(
        objects["1a-web"],
        props(json!({"meta": {"env": "prod", "status": "up"}}))
    );
    assert_eq!(
        objects["1b-db"],
        props(json!({"meta": {"env": "dev", "status": "down"}}))
    );
}

/// The fixture after `meta.owner = "ops"` was merged into both components.
fn objects_after_merge() -> Answer {
    let mut c = content();
    for (_, object) in c.iter_mut().filter(|(_, o)| o.kind == "component") {
        object.data["meta"]["owner"] = json!("ops");
    }
    objects(c)
}

#[test]
fn replace_in_the_form_sends_the_selector_update_as_the_api_does() {
    let mut h = Harness::opened();
    fill_form(&mut h, "env", "dev", r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-o C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(components(), Default::default())),
    );
    assert!(h.shows("Apply the selector"));
    h.press("y");
    let (_, request) = h.take_request(|r| matches!(r, Request::UpdateWhere { .. }));
    let Request::UpdateWhere { props: sent, .. } = request else {
        unreachable!()
    };
    assert_eq!(sent, props(json!({"meta": {"owner": "ops"}})));
}

#[test]
fn objects_changed_before_the_send_ask_and_can_be_merged_again() {
    let mut h = Harness::opened();
    fill_form(&mut h, "status", "down", r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-s");
    h.answer(
        is_where,
        Ok(Answer::Content(down_only(), Default::default())),
    );
    h.press("y");
    // Someone added meta.zone to the db meanwhile.
    let mut changed = down_only();
    changed.get_mut("1b-db").unwrap().data["meta"]["zone"] = json!("z1");
    h.answer(
        is_where,
        Ok(Answer::Content(changed.clone(), Default::default())),
    );
    assert!(!h.asked(is_bulk));
    let screen = h.screen();
    assert!(screen.contains("Changed on the server"), "{screen}");
    assert!(screen.contains("1 object changed"), "{screen}");
    // r: the change against the values now, asked again; its yes checks again and sends.
    h.press("r");
    assert!(h.shows("Against the values on the server now"));
    h.press("y");
    h.answer(is_where, Ok(Answer::Content(changed, Default::default())));
    let (_, request) = h.take_request(is_bulk);
    assert_eq!(
        bulk_objects(&request)["1b-db"]["meta"],
        json!({"env": "dev", "status": "down", "zone": "z1", "owner": "ops"})
    );
}

#[test]
fn a_merge_that_breaks_a_rule_is_refused_naming_the_object() {
    let mut h = Harness::opened();
    // The db has no position: x alone cannot make one.
    h.press("Space Space b C-u");
    h.paste(r#"{"position": {"x": 3}}"#);
    assert!(!h.shows("! line"), "a partial point to merge is no warning");
    h.press("C-s");
    let status = h.status();
    assert!(
        status.contains(
            "cannot apply: the merge would break a property rule in 1 object: 1b-db: position"
        ),
        "{status}"
    );
    assert!(!h.shows("Bulk update"));
    // Replace checks the props as typed.
    h.press("C-o");
    assert!(h.shows("! line 1: position"));
}

#[test]
fn the_bulk_edit_merges_each_marked_objects_value_after_a_re_read() {
    let mut h = Harness::opened();
    // web-1 is marked but hidden by the filter; the db is marked and shown.
    h.press("Space Space /");
    h.type_text("env=dev");
    h.press("Enter b C-u");
    h.paste(r#"{"position": {"x": 3, "y": 0}, "meta": {"owner": "ops"}}"#);
    h.press("C-s");
    let screen = h.screen();
    assert!(
        screen.contains("2 objects change of 2 marked objects"),
        "{screen}"
    );
    assert!(
        screen.contains("1 marked object is hidden by the filter or a folded type"),
        "{screen}"
    );
    assert!(screen.contains("~ position.x: 1 → 3"), "{screen}");
    assert!(screen.contains("~ position.y: 2 → 0"), "{screen}");
    h.press("y");
    let (id, request) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    let Request::GetObjects { objs, .. } = &request else {
        unreachable!()
    };
    assert_eq!(objs, &["1a-web", "1b-db"]);
    let fresh = components()
        .into_iter()
        .map(|(obj, object)| (obj, Some(object.into())))
        .collect();
    h.reply(id, Ok(Answer::Fresh(fresh)));
    let (id, request) = h.take_request(is_bulk);
    let objects = bulk_objects(&request);
    assert_eq!(
        objects["1a-web"],
        props(json!({
            "position": {"x": 3, "y": 0},
            "meta": {"env": "prod", "status": "up", "owner": "ops"}
        }))
    );
    assert_eq!(objects["1b-db"]["meta"]["status"], "down");
    h.reply(id, Ok(Answer::Done));
    assert!(h.status().contains("updated 2 marked objects"));
}

#[test]
fn a_bulk_edit_object_gone_before_the_send_asks_first() {
    let mut h = Harness::opened();
    h.press("Space Space b C-u");
    h.paste(r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-s y");
    let (id, _) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    let mut fresh: Vec<_> = components()
        .into_iter()
        .map(|(obj, object)| (obj, Some(object.into())))
        .collect();
    fresh[1].1 = None;
    h.reply(id, Ok(Answer::Fresh(fresh)));
    assert!(h.shows("Changed on the server"));
    h.press("Esc");
    assert!(!h.asked(is_bulk));
    assert!(
        h.status()
            .contains("bulk update cancelled; the edit is kept")
    );
    h.press("b");
    assert!(h.shows("owner"), "the text is kept");
}

#[test]
fn many_marked_objects_are_read_again_with_the_content_before_a_merge() {
    // 70 components: more than are read one by one.
    let many: Content = (0..70)
        .map(|i| {
            let data = json!({"componentId": "generic.server", "meta": {"n": i}});
            (format!("2{i:03}"), object("component", data))
        })
        .collect();
    let mut h = Harness::loaded();
    h.press("Enter");
    h.answer_all_with(many.clone());
    h.press("V b C-u");
    h.paste(r#"{"meta": {"owner": "ops"}}"#);
    h.press("C-s y");
    assert!(!h.asked(|r| matches!(r, Request::GetObjects { .. })));
    let mut now = many;
    now.get_mut("2005").unwrap().data["meta"]["zone"] = json!("z");
    h.answer(|r| matches!(r, Request::Content { .. }), Ok(objects(now)));
    assert!(h.shows("1 object changed on the server"), "{}", h.screen());
    h.press("o");
    let (_, request) = h.take_request(is_bulk);
    let objects = bulk_objects(&request);
    assert_eq!(objects.len(), 70);
    assert_eq!(objects["2005"]["meta"], json!({"n": 5, "owner": "ops"}));
}
