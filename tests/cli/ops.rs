//! The command line a shell expects: completions, man pages, and `serve --help` listing only
//! what `serve` reads.

use crate::run;

#[test]
fn completions_are_printed_for_each_shell() {
    for (shell, mark) in [
        ("bash", "complete -F _diagtui"),
        ("zsh", "#compdef diagtui"),
        ("fish", "complete -c diagtui"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = run(&["completions", shell], None, &[]).ok();
        assert!(out.stdout.contains(mark), "{shell}: {}", &out.stdout[..200]);
        // Commands and their flags are in.
        assert!(out.stdout.contains("metrics-bind"), "{shell}");
    }
    let out = run(&["completions", "tcsh"], None, &[]).fails(2);
    assert!(out.stderr.contains("tcsh"), "{out:?}");
}

#[test]
fn man_writes_a_page_for_diagtui_and_each_command() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let out = run(&["man", pages.to_str().unwrap()], None, &[]).ok();
    assert!(out.stdout.contains("wrote the man pages"), "{out:?}");
    for page in [
        "diagtui.1",
        "diagtui-serve.1",
        "diagtui-doc-list.1",
        "diagtui-completions.1",
    ] {
        let text =
            std::fs::read_to_string(pages.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(
            text.starts_with(".ie") || text.contains(".TH"),
            "{page}: {text}"
        );
    }
    let serve = std::fs::read_to_string(pages.join("diagtui-serve.1")).unwrap();
    assert!(serve.contains("metrics\\-bind"), "{serve}");
    assert!(!serve.contains("api\\-key"), "{serve}");
}

#[test]
fn serve_help_lists_only_what_serve_reads() {
    let out = run(&["serve", "--help"], None, &[]).ok();
    for flag in [
        "--bind",
        "--data-dir",
        "--config",
        "--database",
        "--metrics-bind",
        "--log-format",
    ] {
        assert!(out.stdout.contains(flag), "{flag}: {}", out.stdout);
    }
    for flag in [
        "--url",
        "--api-key",
        "--profile",
        "--poll",
        "--timeout",
        "--connect-timeout",
    ] {
        assert!(
            !out.stdout.contains(&format!("{flag} ")),
            "{flag}: {}",
            out.stdout
        );
    }
    let out = run(&["account", "create", "--help"], None, &[]).ok();
    assert!(!out.stdout.contains("--config"), "{}", out.stdout);
    assert!(!out.stdout.contains("--api-key"), "{}", out.stdout);
    // Hidden, still refused by name.
    let out = run(&["completions", "bash", "--poll", "3"], None, &[]).fails(2);
    assert!(
        out.stderr
            .contains("--poll does not apply to `diagtui completions`"),
        "{out:?}"
    );
}
