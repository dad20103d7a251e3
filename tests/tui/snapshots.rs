//! Rendered frames of the main screens (TestBackend + insta). Deterministic: fixed data, no
//! timestamps beyond the fixture's, the spinner only when a request is in flight at tick 0.

use diagtui::tui::{Answer, Request};
use insta::assert_snapshot;

use crate::harness::*;

fn snap(h: &mut Harness) -> String {
    h.render(120, 30)
}

#[test]
fn panes_with_data() {
    let mut h = Harness::opened();
    h.press("j");
    assert_snapshot!(snap(&mut h));
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
    h.press("3 i");
    h.app
        .editor
        .set_text("{\n  \"text\": \"Front end\"\n  \"color\": \"#333333\"\n}");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn editor_with_warnings() {
    let mut h = Harness::opened();
    h.press("3 i");
    h.app
        .editor
        .set_text("{\n  \"color\": \"red\",\n  \"position\": {\"x\": 1},\n  \"text\": 5\n}");
    assert_snapshot!(snap(&mut h));
}

#[test]
fn save_diff() {
    let mut h = Harness::opened();
    h.press("3 i");
    let new = h
        .app
        .editor
        .text()
        .replace("web-1", "web-9")
        .replace("\"x\": 1", "\"x\": 3");
    h.app.editor.set_text(&new);
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
fn request_log() {
    let mut h = Harness::opened();
    h.press("1 s");
    h.type_text("x@example.com");
    h.press("Enter");
    h.answer(
        |r| matches!(r, Request::ShareDoc { .. }),
        Err(failure(
            Some(404),
            Some("USER_NOT_FOUND"),
            "no account has the e-mail x@example.com",
        )),
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
        Ok(Answer::Me(diagtui::model::UserRef {
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
