//! A generated document of any size for the import/export and TUI tests and the CLI and TUI
//! benches: the seven object types (six in ten are components, with meta), ids in creation order
//! as the server lists them. 100,000 objects make 18 MB of compact JSON (31 MB indented).

use serde_json::{Map, Value, json};

/// `objects` objects: object id to `{type, data}`.
pub fn content(objects: usize) -> Map<String, Value> {
    const COMPONENTS: [&str; 6] = [
        "computation.aws-ec2",
        "networking.aws-amazon-route-53",
        "database.aws-rds",
        "storage.aws-s3",
        "generic.server",
        "networking.aws-elastic-load-balancing",
    ];
    const REGIONS: [&str; 3] = ["eu-west-1", "us-east-1", "ap-southeast-2"];
    (0..objects)
        .map(|i| {
            let at = json!({"x": (i % 400) as f64 * 2.5, "y": (i / 400) as f64 * 2.0});
            let (kind, data) = match i % 10 {
                0..=5 => (
                    "component",
                    json!({
                        "componentId": COMPONENTS[i % COMPONENTS.len()],
                        "position": at,
                        "meta": {
                            "name": format!("srv-{i:05}"),
                            "status": if i % 7 == 0 { "down" } else { "up" },
                            "region": REGIONS[i % REGIONS.len()],
                            "port": 8000 + i % 100,
                            "owner": "team-é",
                        }
                    }),
                ),
                6 => (
                    "line-group",
                    json!({"strokeStyle": "#333333", "lineWidth": 0.05,
                           "anchors": [{"x": 0, "y": 0}, {"x": 4, "y": 2}], "lines": [[0, 1]]}),
                ),
                7 => (
                    "label",
                    json!({"text": format!("rack \"{i}\""), "position": at, "fontSize": 0.5}),
                ),
                8 if i % 20 == 8 => ("icon", json!({"icon": "server", "position": at})),
                8 => (
                    "area",
                    json!({"anchors": [{"x": 0, "y": 0}, {"x": 8, "y": 0}, {"x": 8, "y": 6}],
                           "fillColor": "#BFBFBF", "meta": {}}),
                ),
                _ if i % 20 == 9 => (
                    "widget",
                    json!({"widgetType": "chart", "plotType": "line", "data": [],
                           "position": at}),
                ),
                _ => (
                    "image",
                    json!({"path": "rack.png", "position": at,
                           "dimensions": {"width": 1.625, "height": 1.125}}),
                ),
            };
            let id = format!("{i:09}-{:08x}", i.wrapping_mul(2_654_435_761) % (1 << 32));
            (id, json!({"type": kind, "data": data}))
        })
        .collect()
}
