//! Rows that say what matters at any width (rendered frames, insta): a component's row is its
//! name, then its status and meta, then its componentId as room allows, the name in its
//! status's style (`up`, `degraded`, `down`, anything else), with a glyph under `NO_COLOR`.

use diagtui_model::Content;
use diagtui_tui::Setup;
use diagtui_tui::theme::Theme;
use insta::assert_snapshot;
use serde_json::json;

use crate::harness::{Harness, object, styled};

/// Components of every status, and one without any.
fn statuses() -> Content {
    let component = |name: &str, status: Option<&str>| {
        let mut data = json!({"componentId": "computation.aws-ec2", "name": name,
            "position": {"x": 0, "y": 0}, "meta": {"region": "eu-west-1"}});
        if let Some(status) = status {
            data["meta"]["status"] = json!(status);
        }
        object("component", data)
    };
    [
        ("c1", component("web-01", Some("up"))),
        ("c2", component("web-02", Some("degraded"))),
        ("c3", component("orders-db", Some("down"))),
        ("c4", component("queue", Some("unknown"))),
        ("c5", component("bastion", None)),
    ]
    .into_iter()
    .map(|(id, o)| (id.to_string(), o))
    .collect()
}

fn tree(theme: Theme) -> String {
    let mut h = Harness::with(Setup {
        theme,
        ..Setup::new("local /data/diagtui")
    });
    h.answer_all_with(statuses());
    h.press("Enter");
    h.answer_all_with(statuses());
    styled(&h.buffer(80, 24))
}

#[test]
fn the_tree_at_80_by_24_colours_components_by_status() {
    let frame = tree(Theme::dark());
    assert!(frame.contains("web-01 [status=up region=eu-w"), "{frame}");
    assert_snapshot!(frame);
}

#[test]
fn the_tree_at_80_by_24_without_colour_shows_the_status_as_a_glyph() {
    let frame = tree(Theme::plain());
    for row in [
        "✓ web-01",
        "! web-02",
        "✗ orders-db",
        "? queue",
        "  bastion",
    ] {
        assert!(frame.contains(row), "{row}: {frame}");
    }
    assert_snapshot!(frame);
}
