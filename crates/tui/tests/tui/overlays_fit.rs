//! Overlays that fit: at 80×24 and 60×20 each keeps its key line and says what it cut
//! (`↓ 3 more`), and what does not fit scrolls. Snapshots of the selector form with a preview
//! and of `H` with a version that changed 8 objects; the key lines offer only keys that work.

use diagtui_model::Content;
use diagtui_model::history::{HistoryPage, ObjectChange, VersionDetails, VersionKind};
use diagtui_tui::{Answer, Request};
use insta::assert_snapshot;
use serde_json::json;

use crate::deleted_names::web_platform;
use crate::harness::*;
use crate::history::version;

/// The sizes every overlay is checked at.
const SIZES: [(u16, u16); 2] = [(80, 24), (60, 20)];

/// The Web platform sample open, the selector form filled with `status eq up` and its preview
/// answered with every component that is up.
fn form_with_preview() -> Harness {
    let sample = web_platform();
    let mut h = Harness::opened_on(sample.clone());
    fill_form(&mut h, "status", "up", r#"{"meta":{"owner":"ops"}}"#);
    h.press("C-p");
    let up: Content = sample
        .into_iter()
        .filter(|(_, o)| o.data.get("meta").and_then(|m| m.get("status")) == Some(&json!("up")))
        .collect();
    assert!(up.len() >= 7, "{}", up.len());
    h.answer(is_where, Ok(Answer::Content(up, Default::default())));
    h
}

/// The Web platform sample open, `H` listing three versions, the newest a bulk update that
/// changed 8 components (their `meta.owner` and `meta.tier`).
fn history_of_eight() -> Harness {
    let sample = web_platform();
    let mut h = Harness::opened_on(sample.clone());
    h.press("H");
    let newest = version(3, VersionKind::BulkUpdate, 8);
    let page = HistoryPage {
        versions: vec![
            newest.clone(),
            version(2, VersionKind::ObjectUpdated, 1),
            version(1, VersionKind::SetContent, 20),
        ],
        head: 3,
        oldest: 1,
        next_before: None,
    };
    h.answer(
        |r| matches!(r, Request::History { .. }),
        Ok(Answer::History(page)),
    );
    let objects: Vec<ObjectChange> = sample
        .iter()
        .filter(|(_, o)| o.kind == "component")
        .take(8)
        .map(|(id, o)| {
            let mut after = o.clone();
            after.data["meta"]["owner"] = json!("ops");
            after.data["meta"]["tier"] = json!("gold");
            ObjectChange {
                obj_id: id.clone(),
                before: Some(o.clone()),
                after: Some(after),
            }
        })
        .collect();
    assert_eq!(objects.len(), 8);
    while h.asked(|r| matches!(r, Request::Version { .. })) {
        let (id, request) = h.take_request(|r| matches!(r, Request::Version { .. }));
        let Request::Version {
            version: number, ..
        } = request
        else {
            unreachable!()
        };
        let details = VersionDetails {
            version: match number {
                3 => newest.clone(),
                n => version(n, VersionKind::ObjectUpdated, 1),
            },
            objects: if number == 3 {
                objects.clone()
            } else {
                Vec::new()
            },
        };
        h.reply(id, Ok(Answer::Version(Box::new(details))));
    }
    h
}

#[test]
fn the_selector_form_with_a_preview_keeps_its_keys_at_80x24_and_60x20() {
    let mut h = form_with_preview();
    for (w, ht) in SIZES {
        let frame = h.render(w, ht);
        let text = overlay_text(&frame, "Selector");
        assert!(text.contains("Ctrl-S: apply"), "{w}×{ht}: {frame}");
        assert!(text.contains("Esc: close"), "{w}×{ht}: {frame}");
        assert!(text.contains("more (◇ in the tree)"), "{w}×{ht}: {frame}");
        assert_snapshot!(format!("selector_form_preview_{w}x{ht}"), frame);
    }
}

#[test]
fn h_with_a_version_of_eight_objects_keeps_its_keys_and_scrolls_at_80x24_and_60x20() {
    let mut h = history_of_eight();
    for (w, ht) in SIZES {
        let frame = h.render(w, ht);
        let text = overlay_text(&frame, "History");
        assert!(text.contains("r: restore"), "{w}×{ht}: {frame}");
        assert!(text.contains("H: close"), "{w}×{ht}: {frame}");
        assert!(text.contains("more (J K: scroll)"), "{w}×{ht}: {frame}");
        assert!(!text.contains("a add"), "{w}×{ht}: {frame}");
        assert_snapshot!(format!("history_eight_objects_{w}x{ht}"), frame);
    }
    // J scrolls what the version changed to its last object, which then shows with no marker
    // below it; K scrolls back.
    for _ in 0..30 {
        h.press("J");
    }
    let text = overlay_text(&h.render(60, 20), "History");
    assert!(text.contains("↑"), "{text}");
    assert!(!text.contains("↓"), "{text}");
    assert!(text.contains("meta.tier: added"), "{text}");
    let last = h.render(60, 20);
    let last_name = last
        .lines()
        .rfind(|l| l.contains("│~ "))
        .unwrap()
        .to_string();
    for _ in 0..30 {
        h.press("K");
    }
    let text = overlay_text(&h.render(60, 20), "History");
    assert!(!text.contains("↑"), "{text}");
    assert!(text.contains("~ CDN"), "{text}");
    assert!(!last_name.contains("CDN"), "{last_name}");
}

/// Every overlay, opened on the Web platform sample, at 80×24 and 60×20: its box shows the key
/// that closes it (or cancels) at its foot, whatever its body.
#[test]
fn every_overlay_keeps_its_close_key_at_80x24_and_60x20() {
    // (how it is opened, its title, a piece of its key line)
    let overlays: [(&str, &str, &str); 11] = [
        ("?", "Keys", "any other key closes"),
        (":", "Commands", "Esc: close"),
        ("L", "Request log", ": close"),
        ("a", "New object: type", "Esc: cancel"),
        ("a Enter", "New component", "Esc: cancel"),
        ("U", "Write history", "Esc / q / U: close"),
        ("w", "Selector", "Esc: close"),
        ("V b", "Bulk edit", "close (the text is kept)"),
        ("d", "Delete", "n / Esc"),
        ("1 N", "New folder", "Esc: cancel"),
        ("H", "History", "H: close"),
    ];
    for (keys, title, hint) in overlays {
        for (w, ht) in SIZES {
            let mut h = Harness::opened_on(web_platform());
            h.press(keys);
            let frame = h.render(w, ht);
            let text = overlay_text(&frame, title);
            assert!(
                text.contains(hint),
                "{keys} at {w}×{ht}: {title} lost {hint:?}:\n{frame}"
            );
        }
    }
}
