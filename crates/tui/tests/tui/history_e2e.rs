//! The document's history end to end: the real worker against the local server. A write made
//! elsewhere shows in the history by name and by path; the document as it was reads read-only;
//! a restore puts it back on the server.

use serde_json::json;

use crate::harness::{content, overlay_text};
use crate::live::Live;

#[tokio::test]
async fn a_write_made_elsewhere_is_in_the_history_and_a_restore_undoes_it() {
    let mut live = Live::start("History e2e", &content()).await;
    let before = live.content().await;
    // Elsewhere: web goes down.
    let props = json!({"meta": {"env": "prod", "status": "down"}});
    live.client
        .update_object(&live.doc, "1a-web", props.as_object().unwrap())
        .await
        .unwrap();
    live.keys("H").await;
    let text = overlay_text(&live.screen(), "History");
    assert!(text.contains("object-updated   web-1"), "{text}");
    assert!(text.contains("set-content      web-1, database"), "{text}");
    assert!(text.contains("~ web-1 (1a-web)"), "{text}");
    assert!(text.contains(r#"meta.status: "up" → "down""#), "{text}");

    // The version before it: web was up.
    live.keys("j Enter").await;
    let screen = live.screen();
    assert!(
        screen.contains("version 2 read-only · History e2e (4) · ◇ 1 changed since"),
        "{screen}"
    );
    assert!(
        screen.contains("◇ web-1 [status=up env=prod] generic.server"),
        "{screen}"
    );
    live.keys("d").await;
    assert!(
        live.screen()
            .contains("d: this shows version 2 as it was, read-only"),
        "{}",
        live.screen()
    );
    assert_eq!(
        live.content().await["1a-web"].data["meta"]["status"],
        "down"
    );

    // Restored: as it was before the write, as a new version.
    live.keys("H").await;
    assert!(live.screen().contains("History · showing version 2"));
    live.keys("r").await;
    let asked = overlay_text(&live.screen(), "Restore");
    assert!(
        asked.contains("to version 2? 1 object(s) change: 0 come back, 0 go, 1 are set back."),
        "{asked}"
    );
    live.keys("y").await;
    assert_eq!(live.content().await, before);
    let screen = live.screen();
    assert!(
        screen.contains("restored version 2 as version 4: 1 object(s) changed"),
        "{screen}"
    );
    assert!(screen.contains("back to version 2"), "{screen}");
    assert!(screen.contains("2 Objects · History e2e (4)"), "{screen}");
    assert!(!screen.contains("◇"), "{screen}");
    live.server.shutdown().await;
}
