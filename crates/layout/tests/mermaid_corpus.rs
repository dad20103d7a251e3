//! The Mermaid corpus (`../shared/mermaid`) read end to end: every file is read by the
//! Mermaid reader, its entries pass the checks, and it is laid out by
//! `diagtui_layout::lay_out` with `Format::Mermaid`. Skipped with a note when the corpus is
//! absent.
//!
//! Every file must be laid out: the layered layout fits all 33 in the grid, and several edges
//! between the same two nodes are lines of their own.

mod mermaid_support;

use diagtui_layout::{Format, Settings, check, lay_out};

use mermaid_support::corpus;

#[test]
fn every_corpus_flowchart_is_read_and_laid_out() {
    let Some(files) = corpus() else {
        return;
    };
    let mut failures = Vec::new();
    let mut laid = 0;
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
            failures.push(format!("{name}: entries refused: {e}"));
            continue;
        }
        match lay_out(&body, Format::Mermaid, &Settings::default()) {
            Ok(out) => {
                assert!(!out.objects.is_empty(), "{name}: nothing laid out");
                laid += 1;
            }
            Err(e) => failures.push(format!("{name}: not laid out: {e}")),
        }
    }
    eprintln!(
        "Mermaid corpus: {} files, {laid} read and laid out",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
