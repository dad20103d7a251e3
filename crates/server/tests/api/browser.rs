//! Embeds in a real browser (headless Chromium; skipped with a note where it is not installed,
//! except under CI): a static and a live embed's screenshots show the diagram in its colours,
//! and a write through the API shows in the open live page.

use std::time::Duration;

use diagtui_testkit::chromium::{self, Page};
use diagtui_testkit::pictures::share_of_colour;
use serde_json::json;

use crate::common::Harness;
use crate::embeds::both_embeds;

/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(30);
/// An error component's fill and outline in the flat (2D) picture.
const ERROR_FILL: [u8; 3] = [0xFD, 0xE2, 0xE1];
const ERROR_LINE: [u8; 3] = [0xC0, 0x00, 0x00];

/// A document of one large component in error.
async fn doc_in_error(h: &Harness) -> String {
    let doc = h.new_doc("In a browser").await;
    h.new_obj(
        &doc,
        "component",
        json!({
            "componentId": "generic.server",
            "position": {"x": 0, "y": 0},
            "meta": {"status": "error"},
        }),
    )
    .await;
    doc
}

/// Checks that a screenshot shows the error component: its fill over a good part of the
/// window, and its outline.
fn shows_the_component(png: &[u8], what: &str) {
    let fill = share_of_colour(png, ERROR_FILL, 4);
    let line = share_of_colour(png, ERROR_LINE, 24);
    assert!(
        fill > 0.05,
        "{what}: {:.3} of the pixels are the fill",
        fill
    );
    assert!(
        line > 0.001,
        "{what}: {:.4} of the pixels are the outline",
        line
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn chromium_shows_a_static_and_a_live_embed_and_follows_a_write() {
    let Some(browser) = chromium::find() else {
        return;
    };
    let h = Harness::new().await;
    let doc = doc_in_error(&h).await;
    let (made, live) = both_embeds(&h, &doc).await;
    let static_url = format!("{}&view=2D", made["url"].as_str().unwrap());
    let live_url = format!("{}&view=2D", live["url"].as_str().unwrap());

    let (browser, shots) = tokio::task::spawn_blocking(move || {
        let shots = [
            chromium::screenshot(&browser, &static_url),
            chromium::screenshot(&browser, &live_url),
        ];
        (browser, shots)
    })
    .await
    .unwrap();
    shows_the_component(&shots[0], "the static embed");
    shows_the_component(&shots[1], "the live embed");

    // The live page, open: its script has drawn the document again once its events began.
    let live_url = format!("{}&view=2D", live["url"].as_str().unwrap());
    let mut page = tokio::task::spawn_blocking(move || {
        let mut page = Page::open(&browser, &live_url);
        let drawn = "Number(document.getElementById('diagram')?.dataset.drawn) >= 1";
        page.wait_for(drawn, PATIENCE, "the live page follows its events");
        page
    })
    .await
    .unwrap();
    h.new_obj(
        &doc,
        "label",
        json!({"text": "Written later", "position": {"x": 6, "y": 0}}),
    )
    .await;
    tokio::task::spawn_blocking(move || {
        let shown = "document.getElementById('diagram').textContent.includes('Written later')";
        page.wait_for(shown, PATIENCE, "the write shows in the live page");
        let note = page.eval("document.getElementById('note').hidden");
        assert_eq!(note, json!(true), "no note shown");
    })
    .await
    .unwrap();
}
