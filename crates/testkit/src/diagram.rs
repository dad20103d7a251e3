//! A generated diagram for the benchmarks: clusters of six components (with `meta.status`) in
//! an area, joined by line groups attached to them, with labels, and now and then an icon, a
//! widget or an image; all seven types.

use diagtui_model::{Content, DiagramObject};
use serde_json::{Value, json};

/// Objects per cluster: an area, six components, five line groups, two labels and one icon,
/// widget or image.
const PER_CLUSTER: usize = 15;

/// The side of a cluster's square, in grid units.
const CLUSTER: f64 = 14.0;

fn object(kind: &str, data: Value) -> DiagramObject {
    DiagramObject {
        kind: kind.to_owned(),
        data: data.as_object().expect("object").clone(),
    }
}

/// A document of about `objects` objects.
pub fn document(objects: usize) -> Content {
    let clusters = objects.div_ceil(PER_CLUSTER);
    let across = (clusters as f64).sqrt().ceil() as usize;
    let mut content = Content::new();
    let mut next = 0usize;
    let mut add = |content: &mut Content, object: DiagramObject| {
        let id = format!("{next:08x}-bench");
        next += 1;
        content.insert(id.clone(), object);
        id
    };
    for cluster in 0..clusters {
        let left = (cluster % across) as f64 * CLUSTER;
        let top = (cluster / across) as f64 * CLUSTER;
        let corner = |x: f64, y: f64| json!({"x": left + x, "y": top + y});
        add(
            &mut content,
            object(
                "area",
                json!({"anchors": [corner(0.5, 0.5), corner(13.5, 0.5), corner(13.5, 13.5), corner(0.5, 13.5)],
                       "fillColor": "#E8F1FB", "lineColor": "#606060", "lineWidth": 0.05, "zIndex": 0}),
            ),
        );
        let components: Vec<String> = (0..6)
            .map(|i| {
                let status = ["up", "up", "degraded", "up", "down", "unknown"][(cluster + i) % 6];
                let position = corner(3.0 + (i % 3) as f64 * 4.0, 4.0 + (i / 3) as f64 * 6.0);
                add(
                    &mut content,
                    object(
                        "component",
                        json!({"componentId": "computation.aws-ec2", "name": format!("web-{cluster}-{i}"),
                               "position": position, "rotation": 0, "meta": {"status": status, "cpu": i * 10}}),
                    ),
                )
            })
            .collect();
        for (from, to) in [(0, 1), (1, 2), (0, 3), (3, 4), (4, 5)] {
            let anchor = |id: &str, index| json!({"type": 1, "id": id, "index": index});
            add(
                &mut content,
                object(
                    "line-group",
                    json!({"anchors": [anchor(&components[from], 1), anchor(&components[to], 3)],
                           "lines": [[0, 1]], "arrowAnchorIndices": {"1": true},
                           "strokeStyle": "#333333", "lineWidth": 0.05, "lineDash": 1}),
                ),
            );
        }
        for (text, y) in [
            (format!("cluster {cluster}"), 1.5),
            ("cpu 40%".to_owned(), 12.5),
        ] {
            add(
                &mut content,
                object(
                    "label",
                    json!({"text": text, "position": corner(7.0, y), "fontSize": 0.5,
                           "dimensions": {"width": 6, "height": 1}}),
                ),
            );
        }
        let extra = match cluster % 3 {
            0 => object(
                "icon",
                json!({"icon": "bolt", "color": "#C00000", "position": corner(12.0, 2.0)}),
            ),
            1 => object(
                "widget",
                json!({"position": corner(7.0, 7.0), "dimensions": {"width": 3, "height": 1.5}}),
            ),
            _ => object(
                "image",
                json!({"path": "rack.png", "position": corner(10.0, 1.0)}),
            ),
        };
        add(&mut content, extra);
    }
    content
}
