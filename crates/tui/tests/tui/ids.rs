//! Object ids that are not of the API's base-36 form (create-diagram keeps its callers' ids:
//! `web server/1`, `web server/1->db`, `vpc:band`) are listed, named, selected and written to
//! like any other.

use diagtui_model::Content;
use diagtui_tui::{Answer, Request};
use serde_json::json;

use crate::harness::*;

/// A laid-out diagram's objects under the ids create-diagram gives them.
fn laid_out() -> Content {
    Content::from([
        (
            "web server/1".to_owned(),
            object(
                "component",
                json!({"componentId": "generic.server", "name": "web 1", "position": {"x": 0, "y": 0}}),
            ),
        ),
        (
            "db".to_owned(),
            object(
                "component",
                json!({"componentId": "database.mysql", "position": {"x": 6, "y": 0}}),
            ),
        ),
        (
            "web server/1->db".to_owned(),
            object(
                "line-group",
                json!({"anchors": [{"type": 1, "id": "web server/1", "index": 1}, {"type": 1, "id": "db", "index": 0}],
                       "lines": [[0, 1]], "strokeStyle": "#E61898"}),
            ),
        ),
    ])
}

#[test]
fn ids_of_any_form_are_listed_and_written_to() {
    let mut h = Harness::opened_on(laid_out());
    h.expect("web 1");
    // The line group, last in the tree, is named by what it joins and saved under its id.
    h.press("G");
    let json = h.json().replace("#E61898", "#112233");
    h.edit_json(&json);
    h.press("C-s Enter");
    h.answer(
        |r| matches!(r, Request::GetObject { .. }),
        Ok(Answer::Object(
            laid_out()["web server/1->db"].clone().into(),
        )),
    );
    let (_, update) = h.take_request(|r| matches!(r, Request::UpdateObject { .. }));
    let Request::UpdateObject { obj, props, .. } = update else {
        unreachable!("asked for an update")
    };
    assert_eq!(obj, "web server/1->db");
    assert_eq!(props["strokeStyle"], "#112233");
}
