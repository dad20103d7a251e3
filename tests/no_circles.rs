//! No circle in any crate of the workspace: no file imports one that (through others) imports it
//! back, and no two folders (rooms) of a crate import each other, directly or through others.
//! Between crates the compiler keeps the layers (a crate uses only what its `Cargo.toml` lists);
//! inside one, this test does.
//!
//! The graph has one node per source file (a `mod.rs` stands for its directory) and an edge for
//! every path naming another file's module: `crate::…`, `super::…` and `self::…`, in `use`
//! declarations and in code, comments and strings left out. A path through a room's re-export
//! (`crate::document::ObjectModel`, re-exported from `document/model.rs`) names the file that
//! defines the item. A room's `mod` lines and its re-exports of its own children
//! (`pub use child::Item`) list the room; they are not imports.
//!
//! The folder check draws the same graph once per depth of the tree, each file standing for the
//! folder (or top file) that holds it at that depth: `app/update` is `app` at depth 1. An import
//! of a folder's file from inside the same folder is no arrow at that depth.
//!
//! [`circles`] reads one crate; the test reads every crate under `crates/` and the binary's
//! `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// A module path inside the crate: `["app", "update"]`; the crate root is empty.
type Module = Vec<String>;

/// Which files import which.
type Graph = BTreeMap<Module, BTreeSet<Module>>;

#[test]
fn no_crate_has_a_circle_between_files_or_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources: Vec<_> = fs::read_dir(root.join("crates"))
        .expect("the crates")
        .map(|entry| entry.expect("a crate").path().join("src"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 9, "the crates were not found: {sources:?}");
    sources.push(root.join("src"));
    let found: Vec<String> = sources
        .iter()
        .flat_map(|src| {
            let crate_dir = src.parent().expect("a crate's folder");
            let name = crate_dir
                .strip_prefix(root)
                .unwrap_or(crate_dir)
                .display()
                .to_string();
            circles(src)
                .into_iter()
                .map(move |circle| format!("{name}: {circle}"))
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Every circle found in the crate whose sources are under `src` (its root `lib.rs`, else
/// `main.rs`), one line each: the first circle between files, then the first between folders at each
/// depth. Empty when there is none.
fn circles(src: &Path) -> Vec<String> {
    let mut files = BTreeMap::new();
    read_dir(src, src, &mut files);
    assert!(!files.is_empty(), "no sources were found in {src:?}");
    // A binary crate's root is its `main.rs`.
    if !files.contains_key(&Vec::new())
        && let Some(main) = files.remove(&module("main"))
    {
        files.insert(Vec::new(), main);
    }
    let graph = graph(&files);
    let mut found = Vec::new();
    if let Some(circle) = circle(&graph) {
        found.push(format!(
            "files import each other in a circle: {}",
            circle.join(" -> ")
        ));
    }
    let deepest = files.keys().map(Vec::len).max().unwrap_or(0);
    for depth in 1..deepest {
        if let Some(circle) = circle(&folders(&graph, depth)) {
            found.push(format!(
                "folders import each other in a circle (depth {depth}): {}; by {}",
                circle.join(" -> "),
                ties(&graph, &circle).join(", ")
            ));
        }
    }
    found
}

/// The file imports that make each arrow of a circle between folders: `writes/undo -> overlays`.
fn ties(graph: &Graph, circle: &[String]) -> Vec<String> {
    let within = |file: &Module, folder: &str| {
        let folder = module(folder);
        if folder.is_empty() {
            return file.is_empty();
        }
        file.len() >= folder.len() && file[..folder.len()] == folder[..]
    };
    circle
        .windows(2)
        .flat_map(|pair| {
            graph.iter().flat_map(move |(from, targets)| {
                targets
                    .iter()
                    .filter(move |to| within(from, &pair[0]) && within(to, &pair[1]))
                    .map(move |to| format!("{} -> {}", name(from), name(to)))
            })
        })
        .collect()
}

/// `graph` with each file standing for the folder (or file) that holds it `depth` names down,
/// and no edge from a folder to itself.
fn folders(graph: &Graph, depth: usize) -> Graph {
    let cut = |m: &Module| m[..m.len().min(depth)].to_vec();
    let mut out = Graph::new();
    for (from, targets) in graph {
        let from = cut(from);
        let entry = out.entry(from.clone()).or_default();
        entry.extend(targets.iter().map(cut).filter(|to| *to != from));
    }
    out
}

#[test]
fn a_circle_through_three_files_is_found() {
    let files = BTreeMap::from([
        (module("lib"), "mod a;\nmod b;\nmod room;".to_string()),
        (
            module("a"),
            "use crate::b::B;\n// use crate::room::x::X;".to_string(),
        ),
        (module("b"), "fn f() { crate::room::go(); }".to_string()),
        (module("room"), "mod x;\npub use x::go;".to_string()),
        (
            module("room/x"),
            "use super::super::a::{A, self};\npub fn go() {}".to_string(),
        ),
    ]);
    let found = circle(&graph(&files)).expect("a circle");
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.contains(&"room/x".to_string()), "{found:?}");
    let without = BTreeMap::from_iter(
        files
            .into_iter()
            .map(|(m, s)| (m, s.replace("super::super::a::{A, self}", "std::fmt"))),
    );
    assert_eq!(circle(&graph(&without)), None);
}

#[test]
fn two_folders_importing_each_other_are_a_circle() {
    // No two files import each other, but the folder `a` imports `b` and `b` imports `a`.
    let files = BTreeMap::from([
        (module("lib"), "mod a;\nmod b;".to_string()),
        (module("a"), "mod x;\nmod y;".to_string()),
        (module("a/x"), "use crate::b::z::Z;".to_string()),
        (module("a/y"), "pub struct Y;".to_string()),
        (module("b"), "mod z;".to_string()),
        (
            module("b/z"),
            "use crate::a::y::Y;\npub struct Z;".to_string(),
        ),
    ]);
    let imports = graph(&files);
    assert_eq!(circle(&imports), None);
    let found = circle(&folders(&imports, 1)).expect("a circle between folders");
    assert_eq!(found, ["a", "b", "a"]);
    let inside = BTreeMap::from_iter(files.into_iter().map(|(m, s)| {
        let s = s.replace("crate::a::y::Y", "std::fmt");
        (m, s)
    }));
    assert_eq!(circle(&folders(&graph(&inside), 1)), None);
}

/// `"room/x"` as a module path (`"lib"` is the root).
fn module(name: &str) -> Module {
    if name == "lib" {
        return Vec::new();
    }
    name.split('/').map(str::to_string).collect()
}

/// Every `.rs` file under `dir`, by its module path, with its text.
fn read_dir(root: &Path, dir: &Path, files: &mut BTreeMap<Module, String>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_dir(root, &path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .with_extension("");
            let mut name: Module = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if name.last().is_some_and(|n| n == "mod") || name == ["lib"] {
                name.pop();
            }
            files.insert(name, fs::read_to_string(&path).expect("a source file"));
        }
    }
}

/// Each file's imports of other files.
fn graph(files: &BTreeMap<Module, String>) -> Graph {
    let reexports = reexports(files);
    files
        .iter()
        .map(|(file, text)| {
            let targets = paths(&code_only(text))
                .into_iter()
                .filter_map(|(inline, path)| {
                    let mut here = file.clone();
                    here.extend(inline);
                    resolve(files, &reexports, &here, &path)
                })
                .filter(|target| target != file)
                .collect();
            (file.clone(), targets)
        })
        .collect()
}

/// For each room and item name it re-exports from a child (`pub use model::ObjectModel;`), the
/// child's file.
type Reexports = BTreeMap<(Module, String), Module>;

/// The re-exports of every room.
fn reexports(files: &BTreeMap<Module, String>) -> Reexports {
    let mut found = Reexports::new();
    for (room, text) in files {
        let tokens = tokens(&code_only(text));
        for i in 1..tokens.len() {
            if tokens[i] != "use" || !(tokens[i - 1] == "pub" || tokens[i - 1] == ")") {
                continue;
            }
            for path in tree(&tokens, i + 1, String::new()).0 {
                let path = path.strip_prefix("self::").unwrap_or(&path);
                let segments: Vec<String> = path.split("::").map(str::to_string).collect();
                let child = (1..segments.len())
                    .rev()
                    .map(|n| [&room[..], &segments[..n]].concat())
                    .find(|child| files.contains_key(child));
                if let (Some(child), Some(item)) = (child, segments.last()) {
                    found.insert((room.clone(), item.clone()), child);
                }
            }
        }
    }
    found
}

/// `text` without its comments, and with its string and character literals emptied.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            ('r', Some('#' | '"'))
                if i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') =>
            {
                // A raw string: `r"…"`, `r#"…"#`; it ends at a quote followed by as many `#`.
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                let mut j = i + 1 + hashes;
                if chars.get(j) != Some(&'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                while j < chars.len()
                    && !(chars[j] == '"'
                        && chars[j + 1..]
                            .iter()
                            .take(hashes)
                            .filter(|c| **c == '#')
                            .count()
                            == hashes)
                {
                    j += 1;
                }
                i = j + 1 + hashes;
                out.push_str("\"\"");
            }
            ('"', _) => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            ('\'', _) if chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\') => {
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Every path starting with `crate`, `super` or `self` in `code`, groups of `use` expanded,
/// each with the inline modules (`mod tests { … }`) it sits in.
fn paths(code: &str) -> Vec<(Vec<String>, String)> {
    let tokens = tokens(code);
    let mut found = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth: usize = 0;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => {
                inline.push((tokens[i + 1].clone(), depth));
            }
            "crate" | "super" | "self"
                if i == 0 || !["::", "("].contains(&tokens[i - 1].as_str()) =>
            {
                let names: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
                let (paths, next) = tree(&tokens, i, String::new());
                // `pub use self::child::Item` lists the room, as `pub use child::Item` does.
                if !(tokens[i] == "self" && is_reexport(&tokens, i)) {
                    found.extend(paths.into_iter().map(|p| (names.clone(), p)));
                }
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The paths of a `use` tree (or a plain path) starting at `tokens[i]`, after `prefix`; and the
/// index after it.
fn tree(tokens: &[String], mut i: usize, mut prefix: String) -> (Vec<String>, usize) {
    loop {
        match tokens.get(i).map(String::as_str) {
            Some("{") => {
                let mut paths = Vec::new();
                i += 1;
                while tokens.get(i).is_some_and(|t| t != "}") {
                    if tokens[i] == "," {
                        i += 1;
                        continue;
                    }
                    let (inner, next) = tree(tokens, i, prefix.clone());
                    paths.extend(inner);
                    i = next;
                }
                return (paths, i + 1);
            }
            Some(t) if t.chars().all(|c| c.is_alphanumeric() || c == '_') && !t.is_empty() => {
                prefix.push_str(t);
                if tokens.get(i + 1).is_some_and(|t| t == "::") {
                    prefix.push_str("::");
                    i += 2;
                } else {
                    return (vec![prefix], i + 1);
                }
            }
            _ => return (vec![prefix.trim_end_matches("::").to_string()], i),
        }
    }
}

/// `code` as identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                word.push(n);
                chars.next();
            }
            tokens.push(word);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            tokens.push("::".to_string());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}

/// The file `path`, written in module `here`, names: the longest start of the path that is a
/// file's module, or the child a room re-exports the next name from.
fn resolve(
    files: &BTreeMap<Module, String>,
    reexports: &Reexports,
    here: &Module,
    path: &str,
) -> Option<Module> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut full: Module = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        _ => here.clone(),
    };
    for segment in segments {
        match segment {
            "super" => {
                full.pop();
            }
            "self" | "*" => {}
            name => full.push(name.to_string()),
        }
    }
    let n = (0..=full.len())
        .rev()
        .find(|&n| files.contains_key(&full[..n]))?;
    let file = full[..n].to_vec();
    match full.get(n) {
        Some(item) => Some(
            reexports
                .get(&(file.clone(), item.clone()))
                .cloned()
                .unwrap_or(file),
        ),
        None => Some(file),
    }
}

/// A circle in `graph`, as the files around it (the first one again at the end), if any.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        graph: &Graph,
        node: &Module,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<String>> {
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match marks.get(next) {
                Some(Mark::Open) => {
                    let from = stack.iter().position(|m| m == next).expect("on the stack");
                    let mut names: Vec<String> = stack[from..].iter().map(name).collect();
                    names.push(name(next));
                    return Some(names);
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(found) = visit(graph, next, marks, stack) {
                        return Some(found);
                    }
                }
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if !marks.contains_key(node)
            && let Some(found) = visit(graph, node, &mut marks, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

/// How a module's file is named in a message: `app/update`, `lib`.
fn name(module: &Module) -> String {
    if module.is_empty() {
        "lib".to_string()
    } else {
        module.join("/")
    }
}

/// Whether the path starting at `tokens[at]` is what a `pub use` (or `pub(crate) use`)
/// re-exports.
fn is_reexport(tokens: &[String], at: usize) -> bool {
    at >= 2 && tokens[at - 1] == "use" && (tokens[at - 2] == "pub" || tokens[at - 2] == ")")
}
