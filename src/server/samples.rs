//! The sample documents a new data dir is seeded with, built into the binary.

use anyhow::Context;
use serde::Deserialize;
use serde_json::Value;

use crate::store::Sample;

/// The sample files: `{title, content}` each.
const FILES: [(&str, &str); 3] = [
    (
        "web-platform.json",
        include_str!("../../assets/samples/web-platform.json"),
    ),
    (
        "data-pipeline.json",
        include_str!("../../assets/samples/data-pipeline.json"),
    ),
    (
        "edge-network.json",
        include_str!("../../assets/samples/edge-network.json"),
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
