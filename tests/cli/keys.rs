//! The key table from the outside: `diagtui keys` with and without a config file, the exit
//! code and message of a bad one (for the TUI too, before it takes the terminal), and the
//! key reference (`docs/keys.md`), whose tables must be the table itself.

use std::path::Path;
use std::process::Output;

use diagtui_testkit::Bin;
use diagtui_tui::keys::{Context, KeyTable};

/// Runs the binary with `args` and the config file `config` (`DIAGTUI_CONFIG`).
fn diagtui(args: &[&str], config: &Path) -> Output {
    Bin::new(env!("CARGO_BIN_EXE_diagtui"))
        .command()
        .args(args)
        .env("DIAGTUI_CONFIG", config)
        .env("DIAGTUI_DATA_DIR", config.with_file_name("data"))
        .output()
        .expect("the binary runs")
}

fn config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn keys_prints_the_table_in_force() {
    let (_dir, path) =
        config("[keys.objects]\ndelete = \"x\"\n[keys.global]\nquit = [\"ctrl-q\", \"q\"]\n");
    let out = diagtui(&["keys"], &path);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let delete = text
        .lines()
        .skip_while(|l| !l.starts_with("[keys.objects]"))
        .find(|l| l.contains(" delete "))
        .unwrap();
    assert!(delete.trim_start().starts_with("x "), "{delete}");
    assert!(text.contains("Ctrl-Q / q"), "{text}");

    assert!(
        text.starts_with(&format!(
            "Keys read from {} (DIAGTUI_CONFIG)\n\n",
            path.display()
        )),
        "it says which file it read: {text}"
    );

    let (_dir, empty) = config("");
    let defaults = diagtui(&["keys"], &empty);
    assert_eq!(
        String::from_utf8(defaults.stdout).unwrap(),
        format!(
            "Keys read from {} (DIAGTUI_CONFIG)\n\n{}",
            empty.display(),
            KeyTable::default().to_text()
        )
    );
}

#[test]
fn a_bad_config_is_exit_2_naming_the_line_for_keys_and_for_the_tui() {
    for (text, line, says) in [
        (
            "theme = \"dark\"\n\n[keys.objects]\ndelete = \"j\"\n",
            "line 4",
            "j is both",
        ),
        (
            "[keys.objectz]\ndelete = \"x\"\n",
            "line 1",
            "no such context",
        ),
        (
            "[keys.objects]\nfrobnicate = \"x\"\n",
            "line 2",
            "no such action",
        ),
        (
            "[keys.objects]\ndelete = \"ctrl-\"\n",
            "line 2",
            "is not a key",
        ),
        (
            "# no kitty keyboard protocol\n[keys.objects]\ndelete = \"ctrl-shift-q\"\n",
            "line 3",
            "terminals send it as Ctrl-Q",
        ),
        (
            "theme = \"sepia\"\n",
            "line 1",
            "the themes are dark and light",
        ),
        (
            "[styles]\nselected = \"purple\"\n",
            "line 2",
            "not a colour",
        ),
        ("[keys.objects\n", "line 1", ""),
    ] {
        let (_dir, path) = config(text);
        for args in [&["keys"][..], &[][..]] {
            let out = diagtui(args, &path);
            assert_eq!(out.status.code(), Some(2), "{text:?} {args:?}: {out:?}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(err.contains(&path.display().to_string()), "{err}");
            assert!(err.contains(line), "{text:?}: {err}");
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }
}

/// The key reference, `docs/keys.md`, from the crate's root.
const KEYS_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keys.md");

/// `docs/keys.md` with every `<!-- keys: CONTEXT... -->` block replaced by the key table's rows
/// of those contexts, and the contexts the blocks named, in order.
fn keys_doc_regenerated(doc: &str) -> (String, Vec<Context>) {
    let table = KeyTable::default();
    let mut out = String::new();
    let mut covered = Vec::new();
    let mut rest = doc;
    while let Some(start) = rest.find("<!-- keys:") {
        let header = &rest[start + "<!-- keys:".len()..];
        let close = header.find("-->").expect("the marker closes");
        let contexts: Vec<Context> = header[..close]
            .split_whitespace()
            .map(|name| Context::named(name).unwrap_or_else(|| panic!("no context {name}")))
            .collect();
        let after_marker = &header[close + "-->".len()..];
        let body = after_marker.trim_start_matches('\n');
        let end = body.find("<!-- /keys -->").expect("the block ends");
        out.push_str(&rest[..start + "<!-- keys:".len() + close + "-->".len()]);
        out.push('\n');
        out.push_str(&table.to_markdown(&contexts));
        covered.extend(contexts);
        rest = &body[end..];
    }
    out.push_str(rest);
    (out, covered)
}

/// The key reference is the key table: a binding changed without the docs fails here.
/// `UPDATE_KEYS_DOC=1 cargo test --test cli keys_doc` rewrites the file's tables instead.
#[test]
fn the_keys_doc_is_the_key_table() {
    let doc = std::fs::read_to_string(KEYS_DOC).expect("docs/keys.md");
    let (expected, covered) = keys_doc_regenerated(&doc);
    if std::env::var_os("UPDATE_KEYS_DOC").is_some_and(|v| v == "1") {
        if expected != doc {
            std::fs::write(KEYS_DOC, &expected).expect("docs/keys.md written");
        }
    } else {
        let differs = doc
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .map_or(doc.lines().count().min(expected.lines().count()), |i| i);
        assert!(
            doc == expected,
            "docs/keys.md is not the key table (first difference at line {}); \
             run `UPDATE_KEYS_DOC=1 cargo test --test cli keys_doc` to rewrite it.\n\
             expected there: {:?}",
            differs + 1,
            expected
                .lines()
                .nth(differs)
                .unwrap_or("(the end of the file)")
        );
    }
    for context in Context::ALL {
        assert_eq!(
            covered.iter().filter(|c| **c == context).count(),
            1,
            "{} is in the key tables of docs/keys.md once",
            context.name()
        );
    }
}

/// The regeneration replaces a stale table and leaves the prose around it as it was.
#[test]
fn the_keys_doc_regeneration_replaces_a_stale_table() {
    let doc = "# Keys\n\nintro\n\n<!-- keys: map -->\n| stale |\n<!-- /keys -->\n\nafter\n";
    let (out, covered) = keys_doc_regenerated(doc);
    let table = KeyTable::default().to_markdown(&[Context::named("map").unwrap()]);
    assert_eq!(
        out,
        format!("# Keys\n\nintro\n\n<!-- keys: map -->\n{table}<!-- /keys -->\n\nafter\n")
    );
    assert_eq!(covered, vec![Context::named("map").unwrap()]);
}
