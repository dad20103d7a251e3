//! The objects pane on a generated document (the seven types, meta on the components), end to
//! end through the real worker and the local server: what the filter finds as it narrows and
//! widens, marks and the selection kept on their objects when a reload moves them.

use diagtui_model::Content;
use diagtui_testkit::generated;
use serde_json::Value;

use crate::live::Live;

const OBJECTS: usize = 2_000;
const TITLE: &str = "Generated";

/// The generated content.
fn content() -> Content {
    serde_json::from_value(Value::Object(generated::content(OBJECTS))).unwrap()
}

/// How many components of `content` have a meta entry `key` whose text passes `test`.
fn components_where(content: &Content, key: &str, test: impl Fn(&str) -> bool) -> usize {
    content
        .values()
        .filter(|o| o.kind == "component")
        .filter_map(|o| o.data.get("meta")?.get(key)?.as_str())
        .filter(|value| test(value))
        .count()
}

/// The component heading as the tree shows it under a filter that shows `shown` of `all`.
fn heading(shown: usize, all: usize) -> String {
    if shown == all {
        format!("▾ component ({all})")
    } else {
        format!("▾ component ({shown}/{all})")
    }
}

/// The id of the component named `name` (its meta), of `content`.
fn id_named(content: &Content, name: &str) -> String {
    let named = |o: &&diagtui_model::DiagramObject| {
        o.data.get("meta").and_then(|m| m.get("name")) == Some(&Value::from(name))
    };
    content
        .iter()
        .find(|(_, o)| named(o))
        .map(|(id, _)| id.clone())
        .unwrap()
}

#[tokio::test]
async fn the_filter_finds_the_same_objects_whether_it_narrows_widens_or_starts_afresh() {
    let content = content();
    let components = content.values().filter(|o| o.kind == "component").count();
    let mut live = Live::start(TITLE, &content).await;
    let named = |part: &str| components_where(&content, "name", |n| n.contains(part));

    live.keys("/").await;
    // Each key narrows what the last one found.
    for typed in [
        "s", "sr", "srv", "srv-", "srv-0", "srv-00", "srv-000", "srv-0004",
    ] {
        live.keys(&typed[typed.len() - 1..]).await;
        let screen = live.screen();
        assert!(
            screen.contains(&heading(named(typed), components)),
            "{typed}: {screen}"
        );
    }
    live.text("2").await;
    let screen = live.screen();
    assert!(screen.contains(&heading(1, components)), "{screen}");
    assert!(screen.contains("srv-00042"), "{screen}");
    assert!(!screen.contains("srv-00041"), "{screen}");
    // Widening (a key erased) searches all again.
    live.keys("Backspace Backspace").await;
    let screen = live.screen();
    assert!(
        screen.contains(&heading(named("srv-000"), components)),
        "{screen}"
    );
    assert!(screen.contains("srv-00003"), "{screen}");

    // key=value matches a whole meta entry, case ignored in the value; words add up.
    live.keys("C-u").await;
    live.text("region=EU-west-1").await;
    let eu = components_where(&content, "region", |r| r == "eu-west-1");
    let screen = live.screen();
    assert!(screen.contains(&heading(eu, components)), "{screen}");
    live.text(" status=down").await;
    let eu_down = content
        .values()
        .filter(|o| {
            let meta = o.data.get("meta");
            meta.and_then(|m| m.get("region")) == Some(&Value::from("eu-west-1"))
                && meta.and_then(|m| m.get("status")) == Some(&Value::from("down"))
        })
        .count();
    let screen = live.screen();
    assert!(screen.contains(&heading(eu_down, components)), "{screen}");
    live.text("x").await;
    assert!(live.screen().contains("nothing matches the filter"));
    // A type's name matches its objects.
    live.keys("C-u").await;
    live.text("area").await;
    let areas = content.values().filter(|o| o.kind == "area").count();
    let screen = live.screen();
    assert!(screen.contains(&format!("▾ area ({areas})")), "{screen}");
    assert!(!screen.contains("▾ component"), "{screen}");
    live.server.shutdown().await;
}

#[tokio::test]
async fn marks_the_selection_and_the_filter_stay_on_their_objects_across_a_reload() {
    let mut content = content();
    let components = content.values().filter(|o| o.kind == "component").count();
    let mut live = Live::start(TITLE, &content).await;
    let eu = components_where(&content, "region", |r| r == "eu-west-1");

    // Mark what the filter shows, then filter on a name and select srv-00042.
    live.keys("/").await;
    live.text("region=eu-west-1").await;
    live.keys("Enter V").await;
    assert!(live.screen().contains(&format!("{eu} marked")));
    live.keys("/ C-u").await;
    live.text("srv-0004").await;
    live.keys("Enter").await;
    live.keys("Down Down").await;
    let screen = live.screen();
    assert!(screen.contains("\"name\": \"srv-00042\""), "{screen}");

    // Behind the app's back: one marked object goes (srv-00003) and one that matches the
    // filter (srv-00041), and new objects come whose ids sort before all the others, so every
    // object that stays moves to another index.
    content.remove(&id_named(&content, "srv-00003"));
    content.remove(&id_named(&content, "srv-00041"));
    let label = content
        .values()
        .find(|o| o.kind == "label")
        .unwrap()
        .clone();
    for i in 0..5 {
        content.insert(format!("0-new-{i}"), label.clone());
    }
    live.client.set_content(&live.doc, &content).await.unwrap();
    live.keys("R").await;

    let screen = live.screen();
    assert!(
        screen.contains(&format!("{TITLE} ({})", OBJECTS + 3)),
        "{screen}"
    );
    assert!(screen.contains(&format!("{} marked", eu - 1)), "{screen}");
    assert!(screen.contains(&heading(5, components - 2)), "{screen}");
    assert!(!screen.contains("srv-00041"), "{screen}");
    assert!(screen.contains("\"name\": \"srv-00042\""), "{screen}");

    // The marks are on the eu-west-1 components still: the delete question names the first
    // (srv-00000, then srv-00012: srv-00003 is gone).
    live.keys("/ C-u Enter d").await;
    let screen = live.screen();
    assert!(
        screen.contains(&format!("Delete the {} marked objects", eu - 1)),
        "{screen}"
    );
    assert!(screen.contains("srv-00000"), "{screen}");
    assert!(screen.contains("srv-00012"), "{screen}");
    assert!(!screen.contains("srv-00003"), "{screen}");
    assert!(!screen.contains("0-new-"), "{screen}");
    live.keys("n").await;
    live.server.shutdown().await;
}
