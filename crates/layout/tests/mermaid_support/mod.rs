//! The Mermaid corpus the tests read: `../shared/mermaid` beside the repository (33
//! flowcharts from Mermaid's syntax pages and from projects' docs; see its SOURCES.md). It is
//! never copied into the repository.

use std::path::{Path, PathBuf};

/// The corpus's `.mmd` files in name order, or `None` (with a note) when it is absent.
pub fn corpus() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mermaid");
    let Ok(listing) = std::fs::read_dir(&dir) else {
        eprintln!(
            "note: {} is absent; the Mermaid corpus tests are skipped",
            dir.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = listing
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no .mmd file", dir.display());
    Some(files)
}
