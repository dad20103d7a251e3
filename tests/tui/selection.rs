//! One selection: the properties pane, the map and every key that acts on "the selected object"
//! read the tree's selected row, and nothing moves one without the others. The bug of issue 32
//! reproduced (a created object selected by the tree while the properties still showed the
//! object before), then the rule checked as a property over random sequences of actions.

use diagtui::client::{DocStreamEvent, Watched};
use diagtui::model::events::DocChangeEvent;
use diagtui::tui::runtime::liveness::Live;
use diagtui::tui::{Answer, Msg, Request};
use serde_json::json;

use crate::harness::*;

/// The open document's stream as the app hears it: connected.
fn stream_up(h: &mut Harness) {
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Connected,
    }));
}

/// A change event of the open document: `changed` created or updated, `deleted` gone.
fn change_event(h: &mut Harness, changed: &[&str], deleted: &[&str], stamp: &str) {
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
            last_change: Some(stamp.into()),
            changed: changed.iter().map(|s| s.to_string()).collect(),
            deleted: deleted.iter().map(|s| s.to_string()).collect(),
            document: None,
        })),
    }));
}

/// The id in the properties pane's title (`3 Properties [VIEW] component ID · name`).
fn props_id(h: &mut Harness) -> Option<String> {
    let screen = h.screen();
    let top = screen.lines().next()?;
    let title = &top[top.find("3 Properties")?..];
    let after = title.split_once(']')?.1;
    let mut words = after.split_whitespace().filter(|w| *w != "●");
    words.next()?; // the type
    Some(words.next()?.to_string())
}

#[test]
fn a_created_object_is_the_one_the_properties_show_and_i_edits() {
    let mut h = Harness::opened();
    stream_up(&mut h);
    // web-1 selected and shown.
    assert_eq!(props_id(&mut h).as_deref(), Some("1a-web"));
    h.press("a Enter");
    h.type_text("redis");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateObject { .. }));
    let Request::CreateObject { props, .. } = request else {
        unreachable!()
    };
    // Its change event comes before the create's answer, as the server sends them.
    change_event(&mut h, &["1z-redis"], &[], "t1");
    let (fresh, _) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    h.reply(
        fresh,
        Ok(Answer::Fresh(vec![(
            "1z-redis".into(),
            Some(object("component", json!(props))),
        )])),
    );
    h.reply(id, Ok(Answer::Created("1z-redis".into())));
    assert!(h.selected().contains("1z-redis"), "{}", h.selected());
    assert_eq!(
        props_id(&mut h).as_deref(),
        Some("1z-redis"),
        "{}",
        h.screen()
    );
    // Enter, then `i`: the edit is of the new object.
    h.press("Enter i");
    let top = h.screen().lines().next().unwrap_or_default().to_string();
    assert!(top.contains("[EDIT]") && top.contains("1z-redis"), "{top}");
}
