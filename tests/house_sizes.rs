//! The house's sizes: no Rust file of the workspace (sources, tests, benches, examples) over
//! [`FILE_LINES`] lines, and no function over [`FUNCTION_LINES`], so that each file has one job
//! and each function fits a screen or two (issue 35). An exception would be named in
//! [`LONGER`], with its reason.
//!
//! A function is counted from its `fn` line to the first line after it that closes it at the
//! same indentation, as rustfmt writes it (`cargo fmt --check` runs in CI before the tests).

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a file may hold.
const FILE_LINES: usize = 800;
/// The most lines a function may take.
const FUNCTION_LINES: usize = 100;
/// Functions allowed to be longer: (file, function, why). None is today; one that needs it
/// is named here with its reason, and leaves the list once it is short again.
const LONGER: [(&str, &str, &str); 0] = [];

#[test]
fn no_file_or_function_is_too_long() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["crates", "src", "tests", "benches"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(
        files.len() > 300,
        "the sources were not found: {}",
        files.len()
    );
    let mut found = Vec::new();
    let mut excused = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > FILE_LINES {
            found.push(format!("{name}: {} lines", lines.len()));
        }
        for (function, length) in long_functions(&lines) {
            let allowed = LONGER
                .iter()
                .find(|&&(f, n, _)| name.replace('\\', "/") == f && function == n);
            match allowed {
                Some(&(f, n, _)) => excused.push((f, n)),
                None => found.push(format!("{name}: fn {function} takes {length} lines")),
            }
        }
    }
    // An exception that is no longer needed goes from the list.
    for (file, function, _) in LONGER {
        if !excused.contains(&(file, function)) {
            found.push(format!(
                "{file}: fn {function} is no longer long: take it from LONGER"
            ));
        }
    }
    assert!(
        found.is_empty(),
        "over {FILE_LINES} lines a file or {FUNCTION_LINES} a function:\n{}",
        found.join("\n")
    );
}

/// Every `.rs` file under `dir`, build output and snapshots left out.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "target" | "snapshots" | "node_modules") {
                rust_files(&path, into);
            }
        } else if name.ends_with(".rs") {
            into.push(path);
        }
    }
}

/// The functions of a file longer than [`FUNCTION_LINES`]: name and length.
fn long_functions(lines: &[&str]) -> Vec<(String, usize)> {
    let mut long = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some((indent, name)) = function_start(line) else {
            continue;
        };
        let close = format!("{indent}}}");
        if let Some(end) = lines[at..].iter().position(|l| *l == close) {
            let length = end + 1;
            if length > FUNCTION_LINES {
                long.push((name.to_owned(), length));
            }
        }
    }
    long
}

/// The indentation and name of a function whose body starts on this line or the next ones
/// (not a declaration ending in `;`).
fn function_start(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start();
    let indent = &line[..line.len() - rest.len()];
    let mut words = rest.split_whitespace().peekable();
    while let Some(&word) = words.peek() {
        let qualifier = word.starts_with("pub")
            || matches!(word, "async" | "const" | "unsafe" | "extern" | "\"C\"");
        if !qualifier {
            break;
        }
        words.next();
    }
    if words.next()? != "fn" || rest.trim_end().ends_with(';') {
        return None;
    }
    let name = words.next()?;
    let name = name.split(['(', '<']).next()?;
    Some((indent, name))
}

#[test]
fn a_function_is_measured_from_its_fn_line_to_its_closing_brace() {
    let text = "mod m {\n    pub(crate) async fn f(\n        a: u8,\n    ) {\n        let x = 1;\n    }\n    fn g();\n}";
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(function_start(lines[1]), Some(("    ", "f")));
    assert_eq!(function_start(lines[6]), None);
    let long: Vec<&str> = (0..FUNCTION_LINES)
        .map(|_| "    x();")
        .chain(["}"])
        .collect();
    let mut function = vec!["fn h() {"];
    function.extend(long);
    assert_eq!(
        long_functions(&function),
        vec![("h".to_owned(), FUNCTION_LINES + 2)]
    );
    assert!(long_functions(&lines).is_empty());
}
