//! The sample documents a new data dir is seeded with, built into the binary.

use anyhow::Context;
use serde::Deserialize;
use serde_json::Value;

use diagtui_store::Sample;

/// The sample files: `{title, content}` each.
const FILES: [(&str, &str); 3] = [
    (
        "web-platform.json",
        include_str!("../../../assets/samples/web-platform.json"),
    ),
    (
        "data-pipeline.json",
        include_str!("../../../assets/samples/data-pipeline.json"),
    ),
    (
        "edge-network.json",
        include_str!("../../../assets/samples/edge-network.json"),
    ),
];

#[derive(Deserialize)]
struct SampleFile {
    title: String,
    content: Value,
}

/// Every sample document.
pub fn all() -> anyhow::Result<Vec<Sample>> {
    FILES
        .iter()
        .map(|(name, text)| {
            let file: SampleFile =
                serde_json::from_str(text).with_context(|| format!("sample {name}"))?;
            Ok(Sample {
                title: file.title,
                content: file.content,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CATALOGUE: &str = include_str!("../../../assets/component-ids.txt");

    #[test]
    fn samples_use_catalogued_components_and_join_them_with_lines() {
        let samples = all().unwrap();
        assert!(samples.len() >= 3);
        for sample in samples {
            let content = sample.content.as_object().unwrap();
            let kinds: Vec<&str> = content
                .values()
                .map(|o| o["type"].as_str().unwrap())
                .collect();
            for kind in ["component", "label", "line-group", "area"] {
                assert!(kinds.contains(&kind), "{}: no {kind}", sample.title);
            }
            for (id, object) in content {
                let data = &object["data"];
                match object["type"].as_str().unwrap() {
                    "component" => {
                        let component = data["componentId"].as_str().unwrap();
                        assert!(CATALOGUE.lines().any(|l| l == component), "{component}");
                        let meta = data["meta"].as_object().unwrap();
                        assert!(
                            meta.contains_key("status") && meta.contains_key("region"),
                            "{id}"
                        );
                    }
                    "line-group" => {
                        for anchor in data["anchors"].as_array().unwrap() {
                            let target = anchor["id"].as_str().unwrap();
                            assert_eq!(content[target]["type"], "component", "{id} → {target}");
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
