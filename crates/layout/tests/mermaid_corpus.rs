//! The Mermaid corpus (`../shared/mermaid`) read end to end: every file is read by the
//! Mermaid reader, its entries pass the checks, and it is laid out by
//! `diagtui_layout::lay_out` with `Format::Mermaid`. Skipped with a note when the corpus is
//! absent.
//!
//! The layout engine's own limits are not the reader's: until the layered layout lands, the
//! tier layout refuses a flowchart wider than the grid, and the checks a second edge between
//! the same two nodes. Those two refusals are counted and printed, any other fails the test.

mod mermaid_support;

use diagtui_layout::{Format, Settings, check, lay_out};

use mermaid_support::corpus;

/// Refusals that belong to the layout engine (issue 31's layered layout lifts them).
const ENGINE_LIMITS: [&str; 2] = [
    "larger than the grid",
    "already describes the connection between these two",
];

#[test]
fn every_corpus_flowchart_is_read_and_laid_out() {
    let Some(files) = corpus() else {
        return;
    };
    let mut failures = Vec::new();
    let mut laid = 0;
    let mut limited = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let body = std::fs::read(file).unwrap();
        let parsed = match Format::Mermaid.parse(&body) {
            Ok(parsed) => parsed,
            Err(e) => {
                failures.push(format!("{name}: not read: {e}"));
                continue;
            }
        };
        assert!(
            parsed
                .entries
                .iter()
                .any(|e| e.fields["type"] == "component"),
            "{name}: no node read"
        );
        let direction = parsed.direction.unwrap_or_default();
        if let Err(e) = check::check(parsed.entries.clone(), direction) {
            let message = e.to_string();
            if ENGINE_LIMITS.iter().any(|l| message.contains(l)) {
                limited.push(format!("{name}: {message}"));
            } else {
                failures.push(format!("{name}: entries refused: {message}"));
            }
            continue;
        }
        match lay_out(&body, Format::Mermaid, &Settings::default()) {
            Ok(out) => {
                assert!(!out.objects.is_empty(), "{name}: nothing laid out");
                laid += 1;
            }
            Err(e) => {
                let message = e.to_string();
                if ENGINE_LIMITS.iter().any(|l| message.contains(l)) {
                    limited.push(format!("{name}: {message}"));
                } else {
                    failures.push(format!("{name}: not laid out: {message}"));
                }
            }
        }
    }
    eprintln!(
        "Mermaid corpus: {} files read, {laid} laid out, {} past the tier layout's limits:\n  {}",
        files.len() - failures.len(),
        limited.len(),
        limited.join("\n  ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
