//! Overlays that fit, in the real binary (tmux, 60×20) against the local server: the selector
//! form with a preview of the Web platform sample keeps its key line, the matches it has no
//! room for counted (`… and 7 more`).

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

use crate::e2e::binary;
use crate::harness::overlay_text;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_selector_form_with_a_preview_keeps_its_keys_at_60x20() {
    let Local { dir, server, .. } = Local::start().await;
    let Some(session) = Tmux::start("form-60", 60, 20, Some(&binary(&dir, &server))) else {
        return;
    };
    session.wait_for("Web platfor");
    session.keys(&["/"]);
    session.type_line("Web platform");
    session.keys(&["Enter"]);
    session.wait_for("CDN");
    session.keys(&["w"]);
    session.wait_for("Objects whose meta match every row");
    session.keys(&["-l", "status"]);
    session.keys(&["Tab", "Tab"]);
    session.keys(&["-l", "up"]);
    session.keys(&["C-p"]);
    let screen = session.wait_for("Preview: ");
    let form = overlay_text(&screen, "Selector");
    assert!(form.contains("more (◇ in the tree)"), "{screen}");
    assert!(form.contains("Ctrl-S: apply"), "{screen}");
    assert!(form.contains("Esc: close"), "{screen}");
    session.keys(&["Escape"]);
    session.keys(&["q"]);
    drop(session);
    server.shutdown().await;
}
