//! A refused Mermaid file's message in the real binary (tmux) at 80×24, against the local
//! server: `n`, `Ctrl-O`, a bad `.mmd` file; the status bar says the code once, then the
//! server's words with the line, broken between words.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::binary;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_mermaid_file_says_its_code_once_and_its_line_at_80x24() {
    let Local { dir, server, .. } = Local::start().await;
    let file = dir.path().join("bad.mmd");
    std::fs::write(&file, "flowchart LR\n  a --> b\n  c -->\n").unwrap();
    let Some(session) = Tmux::start("refused", 80, 24, Some(&binary(&dir, &server))) else {
        return;
    };
    session.wait_for("Documents");
    session.keys(&["n"]);
    session.wait_for("New document");
    session.keys(&["C-o"]);
    session.type_line(&file.display().to_string());
    let screen = session.wait_for("was refused");
    let bar: Vec<&str> = screen.lines().skip(21).take(2).collect();
    let text = bar.join(" ");
    assert_eq!(text.matches("VALIDATION_ERROR").count(), 1, "{screen}");
    assert!(text.contains("line 3"), "the line is named: {screen}");
    // No row ends inside a word: each row's last word is whole on the next's terms.
    for word in ["bad.mmd", "refused:", "VALIDATION_ERROR:"] {
        assert!(
            bar.iter()
                .any(|row| row.split_whitespace().any(|w| w == word)),
            "{word:?} broken: {screen}"
        );
    }
    session.keys(&["Escape", "q"]);
    drop(session);
    server.shutdown().await;
}
