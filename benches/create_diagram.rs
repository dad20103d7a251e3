//! create-diagram of a large input: 1,000 components in 50 groups with 1,500 connections, laid
//! out alone (the layout crate: read, check, place, route, objects) and laid out and stored
//! end to end (`POST /api/v1/create-diagram/{docId}` to a loopback local server on SQLite, in
//! one transaction). Run with `cargo bench --bench create_diagram`; prints the figures.
//!
//! The input fits the grid with tight settings: each group holds 20 components in 4 tiers of 5,
//! and the groups stand 7 to a row (`MAX_COMPONENTS_PER_TIER=7`, every distance 0.5). Each
//! component links to the next one in its group (950 links) and 550 links join components of
//! neighbouring groups.

use std::time::{Duration, Instant};

use diagtui_layout::{Format, Settings};
use diagtui_testkit_server::Local;
use serde_json::{Map, Value, json};
use tokio::runtime::Runtime;

const GROUPS: usize = 50;
const PER_GROUP: usize = 20;
const LINKS: usize = 1500;
const RUNS: usize = 10;

/// The settings, as query parameters.
const SETTINGS: [(&str, &str); 5] = [
    ("MAX_COMPONENTS_PER_TIER", "7"),
    ("COMP_GAP", "0.5"),
    ("TIER_GAP", "0.5"),
    ("GROUP_MARGIN", "0.5"),
    ("GROUP_PADDING", "0.5"),
];

/// The input as a JSON map.
fn input() -> Vec<u8> {
    let mut entries = Map::new();
    let id = |g: usize, i: usize| format!("g{g}-c{i}");
    let mut links = 0;
    for g in 0..GROUPS {
        // Groups of one row of the picture share their frontmost tier.
        let row_tier = (g / 7) as f64 * 10.0;
        for i in 0..PER_GROUP {
            let mut connections = Vec::new();
            if i + 1 < PER_GROUP {
                connections.push(id(g, i + 1));
            }
            if links < LINKS - GROUPS * (PER_GROUP - 1) && g + 1 < GROUPS && i < 12 {
                connections.push(id(g + 1, i));
                links += 1;
            }
            entries.insert(
                id(g, i),
                json!({"type": "component", "componentType": "generic.server", "groups": [format!("g{g}")],
                       "tier": row_tier + (i / 5) as f64, "connections": connections, "arrowsTo": "all"}),
            );
        }
    }
    let body = Value::Object(entries);
    serde_json::to_vec(&body).unwrap()
}

fn main() {
    let body = input();
    let settings = Settings::from_pairs(SETTINGS).unwrap();
    let objects = diagtui_layout::lay_out(&body, Format::Json, &settings)
        .unwrap()
        .objects;
    let lines = objects
        .iter()
        .filter(|(_, o)| o.kind == "line-group")
        .count();
    let areas = objects.iter().filter(|(_, o)| o.kind == "area").count();
    assert_eq!((lines, areas), (LINKS, GROUPS), "the input is as described");
    println!(
        "input: {} components, {areas} groups, {lines} connections ({} KB of JSON); {} objects out",
        GROUPS * PER_GROUP,
        body.len() / 1024,
        objects.len()
    );
    let mut alone = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let objects = diagtui_layout::lay_out(&body, Format::Json, &settings)
            .unwrap()
            .objects;
        alone.push(started.elapsed());
        drop(objects);
    }
    report("laid out (the layout crate alone)", alone);

    let runtime = Runtime::new().unwrap();
    runtime.block_on(async {
        let local = Local::start().await;
        let doc = local.client.create_doc("Bench", None).await.unwrap();
        let query: Vec<(String, String)> = SETTINGS
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut stored = Vec::new();
        for _ in 0..RUNS {
            let started = Instant::now();
            let answer = local
                .client
                .create_diagram(&doc, "application/json", body.clone(), &query, true)
                .await
                .unwrap();
            stored.push(started.elapsed());
            assert_eq!(answer.object_count, objects.len());
        }
        report(
            "laid out and stored (POST create-diagram, replace=true)",
            stored,
        );
    });
}

/// Prints the median and the slowest of the runs.
fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let median = times[times.len() / 2];
    let slowest = times[times.len() - 1];
    println!(
        "{name:<58} median {median:>10.2?}, slowest {slowest:>10.2?} ({} runs)",
        times.len()
    );
}
